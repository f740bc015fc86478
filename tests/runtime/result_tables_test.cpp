// The tables of a row per node or pair (result_tables.h): their CSV text, which of them a run
// writes and where, what the summary JSON says of them, and that the summary stays the same
// size whatever the network's.
#include "ndl/runtime/stats/result_tables.h"

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ndl/runtime/sim/simulator_main.h"
#include "ndl/runtime/stats/json_output.h"
#include "test_networks.h"

namespace ndl::rt {
namespace {

namespace fs = std::filesystem;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string freshDir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("ndl_rt_tables_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return fs::canonical(dir).string();
}

// The CSV's rows, each split at commas (no cell of these tables holds one).
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    size_t start = 0;
    for (size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1) {
      cells.push_back(line.substr(start, comma - start));
    }
    cells.push_back(line.substr(start));
    rows.push_back(cells);
  }
  return rows;
}

size_t column(const std::vector<std::string>& header, const std::string& name) {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return i;
  }
  ADD_FAILURE() << "no column " << name;
  return 0;
}

SimParams loaded() {
  SimParams p = testing::baseParams(FlowControl::kVirtualCutThrough, 8, 8, 2);
  p.virtual_channels = 2;
  testing::useDateline(p);
  p.class_names = {"lower", "upper"};  // two VC classes: two class_grants columns
  testing::setLoad(p, 0.2);
  p.warmup_messages = 200;
  p.measured_messages = 3000;
  p.report_pairs = {{0, 1}, {3, 12}};
  p.seed = 11;
  return p;
}

const Results& loadedRun() {
  static const Results r = simulate(makeTorus({4, 4}), loaded());
  return r;
}

TEST(Tables, NodesTableHasAHeaderAndARowPerNode) {
  const Results& r = loadedRun();
  ASSERT_EQ(r.class_names, (std::vector<std::string>{"lower", "upper"}));
  const auto rows = parseCsv(formatTable(r, ResultTable::kNodes));
  ASSERT_EQ(rows.size(), 1u + 16u);
  const std::vector<std::string>& h = rows[0];
  std::vector<std::string> want{"node",
                                "sent",
                                "received",
                                "refused",
                                "dropped_packets",
                                "injected_flits",
                                "delivered_flits",
                                "collisions",
                                "sent_collisions_per_packet",
                                "sent_collisions_per_message"};
  for (const std::string& c : r.class_names) want.push_back("class_grants." + c);
  want.push_back("recoveries");
  want.push_back("recovery_hops");
  want.push_back("sent_message_latency_mean");
  want.push_back("received_message_latency_mean");
  EXPECT_EQ(h, want);
  int64_t collisions = 0, received = 0;
  double sent_total = 0, received_total = 0;
  uint64_t measured = 0;
  for (size_t n = 0; n < 16; ++n) {
    const std::vector<std::string>& row = rows[n + 1];
    ASSERT_EQ(row.size(), h.size());
    const NodeRow& x = r.per_node[n];
    EXPECT_EQ(row[column(h, "node")], std::to_string(n));
    EXPECT_EQ(row[column(h, "sent")], std::to_string(x.sent));
    EXPECT_EQ(row[column(h, "received")], std::to_string(x.received));
    EXPECT_EQ(row[column(h, "collisions")], std::to_string(x.collisions));
    EXPECT_EQ(row[column(h, "class_grants.lower")], std::to_string(x.class_grants[0]));
    EXPECT_EQ(row[column(h, "class_grants.upper")], std::to_string(x.class_grants[1]));
    // As the JSON wrote it: the same double, in the same text.
    const double per_packet = x.sent_measured_packets
                                  ? static_cast<double>(x.sent_packet_collisions) /
                                        static_cast<double>(x.sent_measured_packets)
                                  : 0.0;
    EXPECT_EQ(row[column(h, "sent_collisions_per_packet")], nlohmann::json(per_packet).dump());
    // Each measured message's latency is in its source's row and in its destination's.
    ASSERT_GT(x.sent_measured_messages, 0u);
    ASSERT_GT(x.received_measured_messages, 0u);
    sent_total += std::stod(row[column(h, "sent_message_latency_mean")]) * x.sent_measured_messages;
    received_total += std::stod(row[column(h, "received_message_latency_mean")]) *
                      x.received_measured_messages;
    measured += x.sent_measured_messages;
    collisions += x.collisions;
    received += x.received;
  }
  EXPECT_EQ(collisions, r.collisions_total);
  EXPECT_GT(collisions, 0);
  EXPECT_EQ(received, r.messages.delivered);
  EXPECT_EQ(measured, r.message_latency.count);
  const double total = r.message_latency.mean * static_cast<double>(r.message_latency.count);
  EXPECT_NEAR(sent_total, total, 1e-9 * total);
  EXPECT_NEAR(received_total, total, 1e-9 * total);
}

TEST(Tables, NumbersAreTheJsonsAndReadBackAsDoubles) {
  Results r;
  r.per_node.resize(6);
  const std::vector<std::pair<int64_t, uint32_t>> fractions{{4, 2}, {1, 3}, {1, 10},
                                                            {0, 0}, {7, 1}, {123456789, 1000}};
  for (size_t n = 0; n < fractions.size(); ++n) {
    r.per_node[n].sent_packet_collisions = fractions[n].first;
    r.per_node[n].sent_measured_packets = fractions[n].second;
  }
  const auto rows = parseCsv(formatTable(r, ResultTable::kNodes));
  const size_t c = column(rows[0], "sent_collisions_per_packet");
  std::vector<std::string> got;
  for (size_t n = 1; n < rows.size(); ++n) got.push_back(rows[n][c]);
  EXPECT_EQ(got, (std::vector<std::string>{"2.0", "0.3333333333333333", "0.1", "0.0", "7.0",
                                           "123456.789"}));
  for (size_t n = 0; n < got.size(); ++n) {
    const double v = r.per_node[n].sent_measured_packets
                         ? static_cast<double>(fractions[n].first) / fractions[n].second
                         : 0.0;
    EXPECT_EQ(got[n], nlohmann::json(v).dump());
    EXPECT_EQ(std::stod(got[n]), v);
  }
}

TEST(Tables, ClassNamesAreQuotedWhereCsvNeedsIt) {
  Results r;
  r.class_names = {"plain", "a,b", "say \"hi\""};
  r.per_node.resize(1);
  r.per_node[0].class_grants = {1, 2, 3};
  const std::string text = formatTable(r, ResultTable::kNodes);
  EXPECT_NE(text.find(",class_grants.plain,\"class_grants.a,b\",\"class_grants.say \"\"hi\"\"\","
                      "recoveries,"),
            std::string::npos)
      << text;
  // No measured message: the latency cells are empty.
  EXPECT_NE(text.find(",0.0,0.0,1,2,3,0,0,,\n"), std::string::npos) << text;
}

TEST(Tables, PairsTableHasLatenciesInClocksAndNs) {
  const Results& r = loadedRun();
  ASSERT_EQ(r.pairs.size(), 2u);
  const auto rows = parseCsv(formatTable(r, ResultTable::kPairs));
  ASSERT_EQ(rows.size(), 3u);
  const std::vector<std::string>& h = rows[0];
  EXPECT_EQ(h.size(), 2u + 2 * 3 * 5);
  EXPECT_EQ(rows[2][column(h, "src")], "3");
  EXPECT_EQ(rows[2][column(h, "dst")], "12");
  const PairRow& p = r.pairs[1];
  EXPECT_GT(p.network.count, 0u);
  EXPECT_EQ(rows[2][column(h, "latency_cycles.network.count")], std::to_string(p.network.count));
  EXPECT_EQ(rows[2][column(h, "latency_cycles.message.mean")],
            nlohmann::json(p.message.mean).dump());
  EXPECT_EQ(rows[2][column(h, "latency_ns.packet.p99")],
            nlohmann::json(static_cast<double>(p.packet.p99) * r.cycle_ns).dump());
  EXPECT_EQ(rows[2][column(h, "latency_cycles.packet.max")],
            nlohmann::json(static_cast<double>(p.packet.max)).dump());
}

TEST(Tables, ApplicationTableLeavesAnUnfinishedNodeEmpty) {
  Results r;
  r.cycle_ns = 20;
  r.application.present = true;
  r.application.finish_clock = {10, -1};
  r.application.compute_clocks = {4, 0};
  r.application.wait_clocks = {6, 7};
  EXPECT_TRUE(hasTable(r, ResultTable::kApplication));
  EXPECT_EQ(formatTable(r, ResultTable::kApplication),
            "node,finish_clock,finish_time_ns,compute_ns,wait_ns\n"
            "0,10,200.0,80.0,120.0\n"
            "1,-1,,0.0,140.0\n");
  r.application.present = false;
  EXPECT_FALSE(hasTable(r, ResultTable::kApplication));
}

TEST(Tables, WrittenInPartsAsFormatted) {
  const Results& r = loadedRun();
  const std::string dir = freshDir("parts");
  Results big = r;
  big.per_node.resize(40000, r.per_node[5]);  // more than one megabyte of rows
  const std::string path = dir + "/big.csv";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  writeTable(big, ResultTable::kNodes, f);
  std::fclose(f);
  const std::string text = readFile(path);
  EXPECT_GT(text.size(), size_t{1} << 20);
  EXPECT_EQ(text, formatTable(big, ResultTable::kNodes));
}

TEST(Tables, SummaryIsTheSameWhateverTheNetworksSize) {
  const Results& r = loadedRun();
  Results big = r;
  big.per_node.resize(size_t{1} << 20);
  big.application.present = true;
  big.application.finish_clock.assign(size_t{1} << 20, 5);
  big.application.compute_clocks.assign(size_t{1} << 20, 1);
  big.application.wait_clocks.assign(size_t{1} << 20, 1);
  Results small = r;
  small.application = big.application;
  small.application.finish_clock.resize(16);
  small.application.compute_clocks.resize(16);
  small.application.wait_clocks.resize(16);
  const std::string text = toJson(big).dump(2);
  EXPECT_EQ(text, toJson(small).dump(2));
  EXPECT_LT(text.size(), 16u << 10);
}

TEST(Tables, ByDefaultBesideTheJsonUpToTheNodeLimit) {
  const std::string dir = freshDir("auto");
  const Results& r = loadedRun();
  TableFiles files;
  std::vector<std::string> errors;
  writeTables(r, TablesMode::kAuto, "", dir + "/run.json", files, errors);
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(files.files[0], "run.nodes.csv");  // relative to the JSON's directory
  EXPECT_EQ(files.files[1], "run.pairs.csv");
  EXPECT_EQ(files.files[2], "");  // no pattern file, no application
  EXPECT_EQ(files.note, "");
  EXPECT_EQ(readFile(dir + "/run.nodes.csv"), formatTable(r, ResultTable::kNodes));
  EXPECT_EQ(readFile(dir + "/run.pairs.csv"), formatTable(r, ResultTable::kPairs));
  EXPECT_EQ(files.files[4], "run.channels.csv");
  EXPECT_EQ(readFile(dir + "/run.channels.csv"), formatTable(r, ResultTable::kChannels));
  EXPECT_EQ(parseCsv(readFile(dir + "/run.channels.csv")).size(), 1u + r.channels.size());
  const nlohmann::json j = toJson(r, files);
  EXPECT_EQ(j["tables"], nlohmann::json({{"nodes", "run.nodes.csv"},
                                         {"pairs", "run.pairs.csv"},
                                         {"application", nullptr},
                                         {"channels", "run.channels.csv"},
                                         {"note", nullptr}}));

  // Above the limit: the per-node table is not written, the pairs table is, and both the
  // summary and its note say so.
  Results big = r;
  big.per_node.resize(kTableNodeLimit + 1);
  writeTables(big, TablesMode::kAuto, "", dir + "/big.json", files, errors);
  EXPECT_EQ(files.files[0], "");
  EXPECT_EQ(files.files[1], "big.pairs.csv");
  EXPECT_EQ(files.note,
            "per-node tables not written: 4097 nodes, above 4096 (--tables PREFIX writes them)");
  EXPECT_FALSE(fs::exists(dir + "/big.nodes.csv"));
}

TEST(Tables, AskedForAtAPrefixWhateverTheSize) {
  const std::string dir = freshDir("always");
  fs::create_directories(dir + "/tables");
  Results big = loadedRun();
  big.per_node.resize(kTableNodeLimit + 1);
  TableFiles files;
  std::vector<std::string> errors;
  // Elsewhere than the JSON: absolute names.
  writeTables(big, TablesMode::kAlways, dir + "/tables/run1", dir + "/run.json", files, errors);
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(files.files[0], dir + "/tables/run1.nodes.csv");
  EXPECT_EQ(parseCsv(readFile(files.files[0])).size(), 1u + kTableNodeLimit + 1);
  // A prefix ending in '/' is a directory; beside the JSON, relative names.
  writeTables(big, TablesMode::kAlways, dir + "/tables/", dir + "/tables/run.json", files, errors);
  EXPECT_EQ(files.files[0], "nodes.csv");
  EXPECT_EQ(files.files[1], "pairs.csv");
  EXPECT_TRUE(fs::exists(dir + "/tables/nodes.csv"));
  // A network above kChannelRowLimit routers keeps no channel rows: the note says so.
  Results huge = big;
  huge.channels.clear();
  writeTables(huge, TablesMode::kAlways, dir + "/tables/huge", dir + "/run.json", files, errors);
  EXPECT_EQ(files.files[4], "");
  EXPECT_EQ(files.note, "channels table: kept for networks of up to 4096 routers");
  // None.
  writeTables(big, TablesMode::kNever, "", dir + "/run.json", files, errors);
  EXPECT_EQ(files.files, (std::array<std::string, kResultTables.size()>{}));
  EXPECT_EQ(files.note, "--no-tables");
  // A prefix in a missing directory: errors, and the note says why they are missing.
  writeTables(big, TablesMode::kAlways, dir + "/missing/run", dir + "/run.json", files, errors);
  ASSERT_EQ(errors.size(), 3u);  // nodes, pairs, channels
  EXPECT_EQ(errors[0],
            "cannot write '" + dir + "/missing/run.nodes.csv': No such file or directory");
  EXPECT_EQ(files.files[0], "");
  EXPECT_NE(files.note.find("nodes table: cannot write"), std::string::npos) << files.note;
}

int runMain(std::vector<std::string> args, const NetworkDesc& desc, const SimParams& p) {
  args.insert(args.begin(), "sim");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return simulatorMain(static_cast<int>(argv.size()), argv.data(), desc, p);
}

TEST(Tables, SimulatorWritesThemAndTheJsonNamesThem) {
  const std::string dir = freshDir("main");
  SimParams p = loaded();
  p.measured_messages = 500;
  EXPECT_EQ(runMain({"--quiet", "--json", dir + "/out.json"}, makeTorus({4, 4}), p), 0);
  nlohmann::json j = nlohmann::json::parse(readFile(dir + "/out.json"));
  EXPECT_EQ(j["tables"]["nodes"], "out.nodes.csv");
  EXPECT_EQ(j["tables"]["pairs"], "out.pairs.csv");
  const auto rows = parseCsv(readFile(dir + "/out.nodes.csv"));
  ASSERT_EQ(rows.size(), 17u);
  int64_t received = 0;
  for (size_t n = 1; n < rows.size(); ++n) received += std::stoll(rows[n][2]);
  EXPECT_EQ(received, j["messages"]["delivered"].get<int64_t>());

  EXPECT_EQ(runMain({"--quiet", "--no-tables", "--json", dir + "/none.json"}, makeTorus({4, 4}), p),
            0);
  j = nlohmann::json::parse(readFile(dir + "/none.json"));
  EXPECT_TRUE(j["tables"]["nodes"].is_null());
  EXPECT_EQ(j["tables"]["note"], "--no-tables");
  EXPECT_FALSE(fs::exists(dir + "/none.nodes.csv"));

  EXPECT_EQ(runMain({"--quiet", "--tables", dir + "/t/", "--json", dir + "/x.json"},
                    makeTorus({4, 4}), p),
            3);  // no directory t/: an error after the run, the JSON still written
  j = nlohmann::json::parse(readFile(dir + "/x.json"));
  EXPECT_TRUE(j["tables"]["nodes"].is_null());

  ::testing::internal::CaptureStderr();
  EXPECT_EQ(runMain({"--tables", ""}, makeTorus({4, 4}), p), 2);
  EXPECT_EQ(runMain({"--tables", "a", "--no-tables"}, makeTorus({4, 4}), p), 2);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("error: --tables: empty prefix"), std::string::npos) << err;
}

}  // namespace
}  // namespace ndl::rt
