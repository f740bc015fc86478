// The results' tables that grow with the network (a row per node) or with ReportPairs (a row
// per pair), written as CSV files beside the summary JSON, which names them: at a million
// nodes they are hundreds of megabytes, and a researcher loads them with pandas.read_csv.
// docs/runtime.md, "Tables".
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "ndl/runtime/stats/results.h"

namespace ndl::rt {

enum class ResultTable : uint8_t {
  // A row per endpoint: messages, flits; with one endpoint per router also its router's
  // collisions, VC-class grants, recoveries (otherwise those cells are empty: see kRouters).
  kNodes,
  kPairs,        // a row per ReportPairs pair: latencies in clocks and ns
  kApplication,  // a row per node of a pattern file's application: finish, compute, wait
  // A row per router, only when routers have other than one endpoint each: collisions,
  // drops, VC-class grants, recoveries.
  kRouters,
  // A row per network channel: its sending router and port, receiving router, flits carried
  // and flits per clock (whole run); for networks of up to Results::kChannelRowLimit routers.
  kChannels,
};
inline constexpr std::array<ResultTable, 5> kResultTables{
    ResultTable::kNodes, ResultTable::kPairs, ResultTable::kApplication, ResultTable::kRouters,
    ResultTable::kChannels};

// "nodes", "pairs", "application", "routers": the key in the JSON's "tables" and the file's
// suffix.
std::string_view tableName(ResultTable table);
// Whether the run has the table: pairs only with ReportPairs, application only with a
// pattern file, routers only when routers have other than one endpoint each (the JSON's
// "tables" names it only then).
bool hasTable(const Results& results, ResultTable table);
// Whether its rows are the network's nodes (the size limit of TablesMode::kAuto applies).
bool isPerNode(ResultTable table);

// The CSV text: a header row, then a row per node or pair. Integers as integers; other numbers
// as the shortest text that reads back to the same double, always with a '.' or an exponent
// (so 2.0, not 2); a missing value (a node that never finished) as an empty cell.
void writeTable(const Results& results, ResultTable table, std::FILE* out);
std::string formatTable(const Results& results, ResultTable table);

// Which tables a run writes: kAuto those of networks up to kTableNodeLimit nodes (and the
// pairs table whatever the size: its rows are the ReportPairs), beside the --json file;
// kAlways all, at the given prefix; kNever none.
enum class TablesMode : uint8_t { kAuto, kAlways, kNever };
inline constexpr int64_t kTableNodeLimit = 4096;

// PREFIX.nodes.csv, or PREFIX/nodes.csv for a prefix ending in '/'.
std::string tablePath(const std::string& prefix, ResultTable table);

// What the summary JSON's "tables" says: each table's file ("" if not written), relative to
// the JSON file's directory when it lies there, else absolute; and why tables the run has
// were not written ("" if all were).
struct TableFiles {
  std::array<std::string, kResultTables.size()> files;
  std::string note;
};

// Writes the tables `mode` asks for (the prefix: `prefix`, or for kAuto the --json path
// without ".json"), fills `files`; a file that cannot be written adds its message to `errors`.
void writeTables(const Results& results, TablesMode mode, const std::string& prefix,
                 const std::string& json_path, TableFiles& files, std::vector<std::string>& errors);

}  // namespace ndl::rt
