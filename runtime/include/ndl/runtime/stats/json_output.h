// The --json results file: every key of spec 2.4 plus the runtime's extras, a summary that
// stays small whatever the network's size: the tables of a row per node or pair are CSV files
// (result_tables.h) that its "tables" names. Byte-identical for equal seeds except
// "wall_seconds".
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "ndl/runtime/stats/result_tables.h"
#include "ndl/runtime/stats/results.h"

namespace ndl::rt {

nlohmann::json toJson(const SimParams& params);
nlohmann::json toJson(const Results& results, const TableFiles& tables = {});
bool writeJson(const Results& results, const std::string& path, const TableFiles& tables = {},
               std::string* error = nullptr);

}  // namespace ndl::rt
