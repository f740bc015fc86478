// The --json results file: every key of spec 2.4 plus the runtime's extras. Byte-identical
// for equal seeds except "wall_seconds".
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "ndl/runtime/results.h"

namespace ndl::rt {

nlohmann::json toJson(const SimParams& params);
nlohmann::json toJson(const Results& results);
bool writeJson(const Results& results, const std::string& path, std::string* error = nullptr);

}  // namespace ndl::rt
