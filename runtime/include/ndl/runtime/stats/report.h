// The human-readable report (stdout and ScreenOutputFile) and the DataOutputFile (time
// series and per-node tables in a documented text format, see docs/runtime.md).
#pragma once

#include <string>

#include "ndl/runtime/stats/results.h"

namespace ndl::rt {

std::string formatReport(const Results& results);
// Write the report / the data output file; false (and `error` set) if the file cannot be
// written.
bool writeReport(const Results& results, const std::string& path, std::string* error = nullptr);
std::string formatDataOutput(const Results& results);
bool writeDataOutput(const Results& results, const std::string& path, std::string* error = nullptr);

}  // namespace ndl::rt
