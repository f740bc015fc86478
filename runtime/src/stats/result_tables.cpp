// The per-node and per-pair tables as CSV (result_tables.h).
#include "ndl/runtime/stats/result_tables.h"

#include <fmt/compile.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <memory>
#include <span>
#include <vector>

#include "ndl/runtime/stats/output_file.h"

namespace ndl::rt {
namespace {

using Buffer = fmt::memory_buffer;

// A header cell: names come from the program (VC classes), so quote what CSV would split.
void cell(Buffer& b, std::string_view name) {
  if (name.find_first_of(",\"\n\r") == std::string_view::npos) {
    b.append(name);
    return;
  }
  b.push_back('"');
  for (char c : name) {
    if (c == '"') b.push_back('"');
    b.push_back(c);
  }
  b.push_back('"');
}

// A row's cells, written at `p` with room for the row's bound (rowBound): a million rows
// take a few tenths of a second, with no format string parsed and no capacity checked per
// value.
struct Cells {
  static constexpr size_t kMaxCell = 32;  // "-1.2345678901234567e-308" and ".0", a comma

  char* p;

  void put(char c) { *p++ = c; }
  void integer(int64_t v) { p = fmt::format_to(p, FMT_COMPILE("{}"), v); }
  // As the JSON writes a double: the shortest text that reads back to it, with a '.' or an
  // exponent so that it reads back as a double (2.0, not 2); no value (empty) if not finite.
  void number(double v) {
    if (!std::isfinite(v)) return;
    char* start = p;
    p = fmt::format_to(p, FMT_COMPILE("{}"), v);
    if (std::find_if(start, p, [](char c) { return c == '.' || c == 'e'; }) == p) {
      put('.');
      put('0');
    }
  }
};

double ratio(int64_t sum, int64_t count) {
  return count ? static_cast<double>(sum) / static_cast<double>(count) : 0.0;
}

size_t rowCount(const Results& r, ResultTable t) {
  switch (t) {
    case ResultTable::kNodes:
      return r.per_node.size();
    case ResultTable::kPairs:
      return r.pairs.size();
    case ResultTable::kApplication:
      return r.application.finish_clock.size();
    case ResultTable::kRouters:
      return r.per_router.size();
    case ResultTable::kChannels:
      return r.channels.size();
  }
  return 0;
}

constexpr std::array<const char*, 3> kLatencyKinds{"network", "message", "packet"};
constexpr std::array<const char*, 5> kLatencyStats{"count", "mean", "p50", "p99", "max"};

void header(const Results& r, ResultTable t, Buffer& b) {
  switch (t) {
    case ResultTable::kNodes:
      b.append(std::string_view(
          "node,sent,received,refused,dropped_packets,injected_flits,delivered_flits,"
          "collisions,sent_collisions_per_packet,sent_collisions_per_message"));
      for (const std::string& name : r.class_names) {
        b.push_back(',');
        cell(b, "class_grants." + name);
      }
      b.append(std::string_view(
          ",recoveries,recovery_hops,sent_message_latency_mean,received_message_latency_mean\n"));
      return;
    case ResultTable::kPairs:
      b.append(std::string_view("src,dst"));
      for (const char* unit : {"latency_cycles", "latency_ns"}) {
        for (const char* kind : kLatencyKinds) {
          for (const char* stat : kLatencyStats) {
            fmt::format_to(std::back_inserter(b), ",{}.{}.{}", unit, kind, stat);
          }
        }
      }
      b.push_back('\n');
      return;
    case ResultTable::kApplication:
      b.append(std::string_view("node,finish_clock,finish_time_ns,compute_ns,wait_ns\n"));
      return;
    case ResultTable::kRouters:
      b.append(std::string_view("router,dropped_packets,collisions"));
      for (const std::string& name : r.class_names) {
        b.push_back(',');
        cell(b, "class_grants." + name);
      }
      b.append(std::string_view(",recoveries,recovery_hops\n"));
      return;
    case ResultTable::kChannels:
      b.append(std::string_view("router,port,to_router,flits,flits_per_clock\n"));
      return;
  }
}

size_t columns(const Results& r, ResultTable t) {
  switch (t) {
    case ResultTable::kNodes:
      return 14 + r.class_names.size();
    case ResultTable::kPairs:
      return 2 + 2 * kLatencyKinds.size() * kLatencyStats.size();
    case ResultTable::kApplication:
      return 5;
    case ResultTable::kRouters:
      return 5 + r.class_names.size();
    case ResultTable::kChannels:
      return 5;
  }
  return 0;
}

void latency(Cells& out, const LatencySummary& s, double scale) {
  out.put(',');
  out.integer(static_cast<int64_t>(s.count));
  out.put(',');
  out.number(s.mean * scale);
  for (int64_t v : {s.p50, s.p99, s.max}) {
    out.put(',');
    out.number(static_cast<double>(v) * scale);
  }
}

// The mean message latencies of a node row, then the row's end; empty cells for a node that
// sent (received) no measured message.
void nodeLatencies(const NodeRow& x, Cells& out) {
  out.put(',');
  if (x.sent_measured_messages > 0) out.number(ratio(x.sent_latency, x.sent_measured_messages));
  out.put(',');
  if (x.received_measured_messages > 0)
    out.number(ratio(x.received_latency, x.received_measured_messages));
  out.put('\n');
}

void row(const Results& r, ResultTable t, size_t i, Cells& out) {
  switch (t) {
    case ResultTable::kNodes: {
      const NodeRow& x = r.per_node[i];
      if (!r.per_router.empty()) {
        // Endpoints apart from routers: the router columns are in the routers table.
        for (int64_t v : {static_cast<int64_t>(i), int64_t{x.sent}, int64_t{x.received},
                          int64_t{x.refused}}) {
          out.integer(v);
          out.put(',');
        }
        out.put(',');  // dropped_packets
        out.integer(x.injected_flits);
        out.put(',');
        out.integer(x.delivered_flits);
        out.put(',');
        out.put(',');  // collisions
        out.number(ratio(x.sent_packet_collisions, x.sent_measured_packets));
        out.put(',');
        out.number(ratio(x.sent_message_collisions, x.sent_measured_messages));
        for (size_t c = 0; c < r.class_names.size(); ++c) out.put(',');
        out.put(',');  // recoveries
        out.put(',');  // recovery_hops
        nodeLatencies(x, out);
        return;
      }
      for (int64_t v :
           {static_cast<int64_t>(i), int64_t{x.sent}, int64_t{x.received}, int64_t{x.refused},
            int64_t{x.dropped_packets}, x.injected_flits, x.delivered_flits, x.collisions}) {
        out.integer(v);
        out.put(',');
      }
      out.number(ratio(x.sent_packet_collisions, x.sent_measured_packets));
      out.put(',');
      out.number(ratio(x.sent_message_collisions, x.sent_measured_messages));
      for (size_t c = 0; c < r.class_names.size(); ++c) {
        out.put(',');
        if (c < x.class_grants.size()) out.integer(x.class_grants[c]);
      }
      out.put(',');
      out.integer(x.recoveries);
      out.put(',');
      out.integer(x.recovery_hops);
      nodeLatencies(x, out);
      return;
    }
    case ResultTable::kPairs: {
      const PairRow& p = r.pairs[i];
      out.integer(p.src);
      out.put(',');
      out.integer(p.dst);
      for (double scale : {1.0, r.cycle_ns}) {
        latency(out, p.network, scale);
        latency(out, p.message, scale);
        latency(out, p.packet, scale);
      }
      out.put('\n');
      return;
    }
    case ResultTable::kRouters: {
      const RouterRow& x = r.per_router[i];
      for (int64_t v : {static_cast<int64_t>(i), int64_t{x.dropped_packets}, x.collisions}) {
        out.integer(v);
        out.put(',');
      }
      for (size_t c = 0; c < r.class_names.size(); ++c) {
        if (c < x.class_grants.size()) out.integer(x.class_grants[c]);
        out.put(',');
      }
      out.integer(x.recoveries);
      out.put(',');
      out.integer(x.recovery_hops);
      out.put('\n');
      return;
    }
    case ResultTable::kChannels: {
      const Results::ChannelRow& x = r.channels[i];
      for (int64_t v : {int64_t{x.router}, int64_t{x.port}, int64_t{x.to_router},
                        static_cast<int64_t>(x.flits)}) {
        out.integer(v);
        out.put(',');
      }
      out.number(r.cycles > 0 ? static_cast<double>(x.flits) / static_cast<double>(r.cycles) : 0.0);
      out.put('\n');
      return;
    }
    case ResultTable::kApplication: {
      const ApplicationResult& a = r.application;
      const double ns = r.cycle_ns;
      const int64_t f = a.finish_clock[i];
      out.integer(static_cast<int64_t>(i));
      out.put(',');
      out.integer(f >= 0 ? a.clockOf(f) : f);
      out.put(',');
      if (f >= 0) out.number(a.nsOf(f, ns));
      out.put(',');
      out.number(a.nsOf(a.compute_clocks[i], ns));
      out.put(',');
      out.number(a.nsOf(a.wait_clocks[i], ns));
      out.put('\n');
      return;
    }
  }
}

// The table's text, handed to `sink` a block of about a megabyte at a time: it is never held
// whole.
template <class Sink>
void writeBlocks(const Results& r, ResultTable t, Sink&& sink) {
  constexpr size_t kBlock = size_t{1} << 20;
  Buffer head;
  header(r, t, head);
  sink(head.data(), head.size());
  const size_t bound = columns(r, t) * Cells::kMaxCell + 1;
  // Left uninitialized (cells are written before they are read): zeroing a megabyte per table
  // cost about a million instructions a run.
  const std::unique_ptr<char[]> storage(new char[kBlock + bound]);
  const std::span<char> block(storage.get(), kBlock + bound);
  Cells out{block.data()};
  const size_t rows = rowCount(r, t);
  for (size_t i = 0; i < rows; ++i) {
    row(r, t, i, out);
    if (static_cast<size_t>(out.p - block.data()) >= kBlock) {
      sink(block.data(), static_cast<size_t>(out.p - block.data()));
      out.p = block.data();
    }
  }
  sink(block.data(), static_cast<size_t>(out.p - block.data()));
}

// The directory `path` lies in, canonical, once its links are followed ("" for a stream).
std::string directoryOf(const std::string& path) {
  OutputTarget target;
  if (!resolveOutputTarget(path, target, nullptr) || target.way != OutputTarget::Way::kReplace) {
    return "";
  }
  return std::filesystem::path(target.path).parent_path().string();
}

// The name the JSON gives a table file: its file name when it lies beside the JSON file (the
// default), else its absolute path.
std::string nameForJson(const std::string& table, const std::string& json_path) {
  OutputTarget target;
  std::string where = table;
  if (resolveOutputTarget(table, target, nullptr) && target.way == OutputTarget::Way::kReplace) {
    where = target.path;  // canonical directory: comparable, and absolute
  }
  const std::filesystem::path p(where);
  if (!json_path.empty() && p.parent_path().string() == directoryOf(json_path)) {
    return p.filename().string();
  }
  return where;
}

}  // namespace

std::string_view tableName(ResultTable table) {
  switch (table) {
    case ResultTable::kNodes:
      return "nodes";
    case ResultTable::kPairs:
      return "pairs";
    case ResultTable::kApplication:
      return "application";
    case ResultTable::kRouters:
      return "routers";
    case ResultTable::kChannels:
      return "channels";
  }
  return "?";
}

bool hasTable(const Results& r, ResultTable table) {
  switch (table) {
    case ResultTable::kNodes:
      return true;
    case ResultTable::kPairs:
      return !r.pairs.empty();
    case ResultTable::kApplication:
      return r.application.present;
    case ResultTable::kRouters:
      return !r.per_router.empty();
    case ResultTable::kChannels:
      return !r.channels.empty();
  }
  return false;
}

bool isPerNode(ResultTable table) { return table != ResultTable::kPairs; }

void writeTable(const Results& r, ResultTable t, std::FILE* out) {
  writeBlocks(r, t, [&](const char* data, size_t size) { std::fwrite(data, 1, size, out); });
}

std::string formatTable(const Results& r, ResultTable t) {
  std::string text;
  writeBlocks(r, t, [&](const char* data, size_t size) { text.append(data, size); });
  return text;
}

std::string tablePath(const std::string& prefix, ResultTable table) {
  return fmt::format("{}{}{}.csv", prefix, !prefix.empty() && prefix.back() == '/' ? "" : ".",
                     tableName(table));
}

void writeTables(const Results& r, TablesMode mode, const std::string& prefix,
                 const std::string& json_path, TableFiles& files,
                 std::vector<std::string>& errors) {
  files = {};
  std::vector<std::string> skipped;  // why tables the run has were not written
  std::string base = prefix;
  if (mode == TablesMode::kNever) {
    skipped.push_back("--no-tables");
  } else if (mode == TablesMode::kAuto) {
    OutputTarget target;
    // No JSON: no place by default, and no summary to name them in. A JSON that cannot be
    // written (a directory) is reported as such.
    if (json_path.empty() || !resolveOutputTarget(json_path, target, nullptr)) return;
    if (target.way != OutputTarget::Way::kReplace) {
      skipped.push_back(
          fmt::format("tables not written: the JSON goes to '{}', not to a file to put them beside",
                      json_path));
      mode = TablesMode::kNever;
    } else {
      constexpr std::string_view kJson = ".json";
      base = json_path;
      if (base.size() > kJson.size() &&
          base.compare(base.size() - kJson.size(), kJson.size(), kJson) == 0) {
        base.resize(base.size() - kJson.size());
      }
    }
  }
  for (size_t i = 0; i < kResultTables.size(); ++i) {
    const ResultTable t = kResultTables[i];
    if (!hasTable(r, t) || mode == TablesMode::kNever) continue;
    const size_t nodes = std::max(r.per_node.size(), r.per_router.size());
    if (mode == TablesMode::kAuto && isPerNode(t) && nodes > kTableNodeLimit) {
      if (skipped.empty()) {
        skipped.push_back(fmt::format("per-node tables not written: {} nodes, above {}", nodes,
                                      kTableNodeLimit));
      }
      continue;
    }
    const std::string path = tablePath(base, t);
    std::string error;
    if (!writeOutputFile(
            path, [&](std::FILE* f) { writeTable(r, t, f); }, &error)) {
      errors.push_back(error);
      skipped.push_back(
          fmt::format("{} table: {}", tableName(t), error.substr(0, error.find('\n'))));
      continue;
    }
    files.files[i] = nameForJson(path, json_path);
  }
  bool missing = false;
  for (size_t i = 0; i < kResultTables.size(); ++i) {
    missing |= hasTable(r, kResultTables[i]) && files.files[i].empty();
  }
  // Channel rows are kept for networks of up to kChannelRowLimit routers only.
  if (r.channel_count > 0 && r.channels.empty() && mode == TablesMode::kAlways) {
    missing = true;
    skipped.push_back(fmt::format("channels table: kept for networks of up to {} routers",
                                  Results::kChannelRowLimit));
  }
  if (missing && !skipped.empty()) {
    files.note = fmt::format("{}", fmt::join(skipped, "; "));
    if (mode != TablesMode::kAlways && skipped.front() != "--no-tables") {
      files.note += " (--tables PREFIX writes them)";
    }
  }
}

}  // namespace ndl::rt
