// The files a program names for its load: the CommunicationPatternFile and the trace of
// (InjectionProcess (Trace "file")). Each path is resolved against the file that names it, then
// read and checked with the simulators' own readers (runtime/src/app/pattern_reader.cpp,
// runtime/src/traffic/trace_reader.cpp), their errors reported as positioned diagnostics in
// the file read.
#pragma once

#include "compiler/driver/Pipeline.h"

namespace ndl::driver {

void checkPatternFile(FrontEndResult& result, SourceManager& sources, DiagnosticEngine& diags);
void checkTraceFile(FrontEndResult& result, SourceManager& sources, DiagnosticEngine& diags);

}  // namespace ndl::driver
