// The CommunicationPatternFile of a program: its path resolved against the file that names it,
// then read and checked with the simulators' own reader (runtime/src/app/pattern_reader.cpp), its
// errors reported as positioned diagnostics in the pattern file.
#pragma once

#include "compiler/driver/Pipeline.h"

namespace ndl::driver {

void checkPatternFile(FrontEndResult& result, SourceManager& sources, DiagnosticEngine& diags);

}  // namespace ndl::driver
