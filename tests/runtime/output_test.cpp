// Outputs: the JSON schema of spec 2.4, byte-identical results for equal seeds, the data
// output file's sections, and the simulator command line with its exit codes. The tables and
// the ways a result file is written: output_files_test.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ndl/runtime/sim/generated_abi.h"
#include "ndl/runtime/sim/simulator_main.h"
#include "ndl/runtime/stats/json_output.h"
#include "ndl/runtime/stats/report.h"
#include "test_networks.h"

namespace ndl::rt {
namespace {

using testing::baseParams;
using testing::setLoad;

SimParams loaded() {
  SimParams p = baseParams(FlowControl::kVirtualCutThrough, 8, 8, 2);
  p.virtual_channels = 2;
  testing::useDateline(p);
  setLoad(p, 0.2);
  p.warmup_messages = 200;
  p.measured_messages = 3000;
  p.report_pairs = {{0, 1}, {3, 12}};
  p.seed = 11;
  return p;
}

using testing::resultsText;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int runMain(std::vector<std::string> args, const NetworkDesc& desc, const SimParams& p) {
  args.insert(args.begin(), "sim");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return simulatorMain(static_cast<int>(argv.size()), argv.data(), desc, p);
}

TEST(Json, HasEveryKeyOfTheSpec) {
  const Results r = simulate(makeTorus({4, 4}), loaded());
  const nlohmann::json j = toJson(r);
  for (const char* key : {"ndl_version", "config", "topology", "cycles", "simulated_time_ns",
                          "wall_seconds", "messages", "packets", "latency_ns", "latency_cycles",
                          "throughput", "hops", "by_distance", "collisions"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  for (const char* key : {"name", "nodes", "links", "diameter", "avg_distance"}) {
    EXPECT_TRUE(j["topology"].contains(key)) << key;
  }
  for (const char* key : {"created", "delivered", "dropped", "refused", "in_flight"}) {
    EXPECT_TRUE(j["messages"].contains(key)) << key;
  }
  for (const char* key : {"created", "delivered", "dropped"}) {
    EXPECT_TRUE(j["packets"].contains(key)) << key;
  }
  for (const char* group : {"latency_ns", "latency_cycles"}) {
    for (const char* kind : {"network", "message"}) {
      for (const char* stat : {"mean", "p50", "p99", "max"}) {
        EXPECT_TRUE(j[group][kind].contains(stat)) << group << kind << stat;
      }
    }
  }
  EXPECT_TRUE(j["throughput"].contains("offered_flits_per_node_cycle"));
  EXPECT_TRUE(j["throughput"].contains("accepted_flits_per_node_cycle"));
  EXPECT_TRUE(j["hops"].contains("mean"));
  ASSERT_TRUE(j["by_distance"].is_array());
  ASSERT_FALSE(j["by_distance"].empty());
  for (const char* key : {"hops", "count", "mean_network_latency_ns", "packets",
                          "mean_packet_latency_ns", "mean_packet_latency_cycles"}) {
    EXPECT_TRUE(j["by_distance"][0].contains(key)) << key;
  }
  // INSIGHT's packet latency per pair and collisions per node by message and packet are in
  // the tables (output_files_test.cpp); residual load in messages and length here.
  for (const char* key : {"nodes", "pairs", "application", "note"}) {
    EXPECT_TRUE(j["tables"].contains(key)) << key;
  }
  ASSERT_FALSE(j["series"]["rows"].empty());
  EXPECT_TRUE(j["series"]["rows"][0].contains("in_network_bits"));
  EXPECT_TRUE(j["collisions"].contains("total"));
  EXPECT_TRUE(j["collisions"].contains("per_packet_mean"));
  // A 4x4 torus: 32 bidirectional links, diameter 4, and 16 nodes.
  EXPECT_EQ(j["topology"]["links"], 32);
  EXPECT_EQ(j["topology"]["diameter"], 4);
  EXPECT_EQ(j["topology"]["nodes"], 16);
  // ns are clocks times the 20 ns period of 50 MHz.
  EXPECT_DOUBLE_EQ(j["latency_ns"]["network"]["mean"].get<double>(),
                   20 * j["latency_cycles"]["network"]["mean"].get<double>());
  EXPECT_DOUBLE_EQ(j["simulated_time_ns"].get<double>(), 20.0 * j["cycles"].get<double>());
}

TEST(Determinism, SameSeedSameBytesDifferentSeedDifferentRun) {
  const NetworkDesc desc = makeTorus({4, 4});
  SimParams p = loaded();
  const std::string a = resultsText(simulate(desc, p));
  const std::string b = resultsText(simulate(desc, p));
  EXPECT_EQ(a, b);
  p.seed = 12;
  EXPECT_NE(a, resultsText(simulate(desc, p)));
}

TEST(Determinism, ResultsDoNotDependOnRouterVisitingOrder) {
  // The cycle is two-phase: what a router sends becomes visible the next clock at the
  // earliest, so visiting routers in the opposite order must give identical results.
  for (FlowControl fc : {FlowControl::kStoreAndForward, FlowControl::kWormhole}) {
    SimParams p = loaded();
    p.flow_control = fc;
    setLoad(p, 0.5);  // contention everywhere
    p.injection_queue_capacity = 1000000;
    RunOptions reversed;
    reversed.reverse_router_order = true;
    const NetworkDesc desc = makeTorus({4, 4});
    EXPECT_EQ(resultsText(simulate(desc, p)), resultsText(simulate(desc, p, reversed)))
        << flowControlName(fc);
  }
}

TEST(Determinism, ResultsDoNotDependOnPrefetching) {
  // Small networks step their routers without prefetching (RunOptions::prefetch), and commit
  // a clock's arriving flits all at once; with prefetching they are committed by blocks of
  // 256 routers as the stepping reaches them (Network::stageArrivals). Both ways give
  // identical results, on one block (4x4) and on several (24x24: 3 blocks, the last partial).
  for (const std::vector<int32_t>& radices : {std::vector<int32_t>{4, 4}, {24, 24}}) {
    SimParams p = loaded();
    setLoad(p, 0.5);
    p.injection_queue_capacity = 1000000;
    const NetworkDesc desc = makeTorus(radices);
    RunOptions always, never;
    always.prefetch = RunOptions::Prefetch::kAlways;
    never.prefetch = RunOptions::Prefetch::kNever;
    const Results r = simulate(desc, p, always);
    EXPECT_GT(r.cycles, 100) << radices[0];
    const std::string a = resultsText(r);
    EXPECT_EQ(a, resultsText(simulate(desc, p, never))) << radices[0];
    EXPECT_EQ(a, resultsText(simulate(desc, p))) << radices[0];
  }
}

TEST(Determinism, HoldsUnderDropWithDeadlocks) {
  SimParams p = baseParams(FlowControl::kWormhole, 8, 2, 1);
  setLoad(p, 0.9);
  p.deadlock = DeadlockHandling::kDrop;
  p.deadlock_timeout_clocks = 100;
  p.creation_max = 2000;
  const NetworkDesc ring = makeRing(8);
  EXPECT_EQ(resultsText(simulate(ring, p)), resultsText(simulate(ring, p)));
}

TEST(DataOutput, HasSummarySeriesAndPerNodeTables) {
  SimParams p = loaded();
  p.sampling_interval_clocks = 500;
  const Results r = simulate(makeTorus({4, 4}), p);
  const std::string text = formatDataOutput(r);
  for (const char* section : {"[summary]", "[series]", "[nodes]", "[distance]", "[pairs]"}) {
    EXPECT_NE(text.find(section), std::string::npos) << section;
  }
  // One series row per full interval plus the final partial one.
  EXPECT_EQ(r.series.size(), static_cast<size_t>((r.cycles + 499) / 500));
  int64_t arrived = 0, created = 0;
  for (const SeriesRow& s : r.series) {
    arrived += s.arrived;
    created += s.created;
  }
  EXPECT_EQ(arrived, r.messages.delivered);
  EXPECT_EQ(created, r.messages.created);
  EXPECT_EQ(r.per_node.size(), 16u);
}

TEST(SimulatorMain, WritesJsonReportAndDataFilesAndExitsZero) {
  const std::string dir = ::testing::TempDir();
  SimParams p = loaded();
  p.screen_output_file = dir + "/ndl_rt_report.sof";
  p.data_output_file = dir + "/ndl_rt_data.dof";
  const std::string json = dir + "/ndl_rt_out.json";
  EXPECT_EQ(runMain({"--json", json, "--seed", "5", "--quiet"}, makeTorus({4, 4}), p), 0);
  const nlohmann::json j = nlohmann::json::parse(readFile(json));
  EXPECT_EQ(j["config"]["Seed"], 5);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_NE(readFile(p.screen_output_file).find("latency"), std::string::npos);
  EXPECT_NE(readFile(p.data_output_file).find("[series]"), std::string::npos);
}

// A generated simulator's tables, reduced to what these tests read: --param changes the
// values, the maker turns them into SimParams as generated_entry.cpp does.
SimParams makeFromTables(const AbiValues& v) {
  SimParams p = loaded();
  p.creation_rate = v.f64[NDL_P_CreationRate];
  p.measured_messages = v.i64[NDL_P_MeasuredMessages];
  p.sampling_interval_clocks = v.i64[NDL_P_SamplingIntervalClocks];
  return p;
}

ParamTables testTables() {
  ParamTables t;
  t.values.i64.assign(NDL_P_I64_COUNT, 0);
  t.values.f64.assign(NDL_P_F64_COUNT, 0.0);
  t.values.str.assign(NDL_P_STR_COUNT, "");
  t.values.f64[NDL_P_CreationRate] = 0.2;
  t.values.i64[NDL_P_SamplingIntervalClocks] = 1000;
  t.make = makeFromTables;
  return t;
}

int runTables(std::vector<std::string> args, const NetworkDesc& desc, const ParamTables& t) {
  std::vector<char*> argv{const_cast<char*>("sim")};
  for (std::string& a : args) argv.push_back(a.data());
  return simulatorMain(static_cast<int>(argv.size()), argv.data(), desc, t);
}

TEST(SimulatorMain, ParamChangesConvertedValues) {
  const std::string json = ::testing::TempDir() + "/ndl_rt_param.json";
  EXPECT_EQ(runTables({"--quiet", "--json", json, "--param", "CreationRate=0.01", "--param",
                       "MeasuredMessages=500", "--param", "SamplingIntervalClocks=100"},
                      makeTorus({4, 4}), testTables()),
            0);
  const nlohmann::json j = nlohmann::json::parse(readFile(json));
  EXPECT_DOUBLE_EQ(j["config"]["MessageCreationRate_per_clock"].get<double>(), 0.01);
  EXPECT_EQ(j["config"]["MeasuredMessages"], 500);
  EXPECT_EQ(j["config"]["SimulationInterval_clocks"], 100);
}

TEST(SimulatorMain, UsageErrorsExitTwo) {
  const NetworkDesc desc = makeTorus({4, 4});
  const SimParams p = loaded();
  const ParamTables t = testTables();
  EXPECT_EQ(runMain({"--bogus"}, desc, p), 2);
  // Units are the checker's: ndlc run FILE --set ...
  EXPECT_EQ(runTables({"--set", "MessageCreationRate=1.0%"}, desc, t), 2);
  EXPECT_EQ(runTables({"--param", "NoSuchParam=3"}, desc, t), 2);
  EXPECT_EQ(runTables({"--param", "CreationRate=lots"}, desc, t), 2);
  EXPECT_EQ(runTables({"--param", "CreationRate=1.0%"}, desc, t), 2);
  EXPECT_EQ(runTables({"--param", "MeasuredMessages=5.5"}, desc, t), 2);
  EXPECT_EQ(runTables({"--param", "VirtualChannels=2"}, desc, t), 2);  // shapes the code
  EXPECT_EQ(runTables({"--param", "Seed"}, desc, t), 2);
  EXPECT_EQ(runMain({"--param", "Seed=1"}, desc, p), 2);  // parameters made in C++
  EXPECT_EQ(runMain({"--help"}, desc, p), 0);
}

// A network that cannot fit the machine is refused before anything is allocated (the
// estimate of memory_estimate.h): 65,536 routers x 61 VCs x 32,768-flit rings is 488 GiB.
TEST(SimulatorMain, RefusesANetworkLargerThanTheMachineBeforeAllocating) {
  const NetworkDesc desc = makeTorus({256, 256});
  SimParams p = baseParams(FlowControl::kVirtualCutThrough, 8, 32767, 1);
  p.virtual_channels = 15;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(runMain({"--quiet"}, desc, p), 2);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("error: this network needs about 488.1 GiB"), std::string::npos) << err;
  EXPECT_NE(err.find("GiB of memory; this machine has"), std::string::npos) << err;
}

TEST(SimulatorMain, RuntimeFailuresExitThreeWithResultsWritten) {
  const std::string dir = ::testing::TempDir();
  // Deadlock on a ring with one wormhole VC.
  SimParams p = baseParams(FlowControl::kWormhole, 8, 2, 1);
  setLoad(p, 0.9);
  p.deadlock_detect_clocks = 2000;
  p.time_limit_clocks = 100000;
  const std::string json = dir + "/ndl_rt_deadlock.json";
  EXPECT_EQ(runMain({"--quiet", "--json", json}, makeRing(8), p), 3);
  nlohmann::json j = nlohmann::json::parse(readFile(json));
  EXPECT_EQ(j["status"], "deadlock");
  EXPECT_GT(j["messages"]["delivered"].get<int64_t>(), 0);

  // A measured-message count the time limit cannot reach.
  SimParams slow = loaded();
  slow.creation_rate = 0.001;
  slow.measured_messages = 100000;
  slow.time_limit_clocks = 5000;
  const std::string json2 = dir + "/ndl_rt_limit.json";
  EXPECT_EQ(runMain({"--quiet", "--json", json2}, makeTorus({4, 4}), slow), 3);
  j = nlohmann::json::parse(readFile(json2));
  EXPECT_EQ(j["status"], "time_limit");
  EXPECT_EQ(j["cycles"], 5000);
}

TEST(SimParams, PairsMustAgree) {
  // A creation interval and the rate it implies (the compiler gives both): one changed
  // alone would be reported and not simulated.
  SimParams p = loaded();
  p.creation_interval_clocks = 50;
  p.creation_rate = 0.02;
  EXPECT_EQ(validate(p, 16), "");
  p.creation_rate = 0.002;
  EXPECT_NE(validate(p, 16).find("CreationIntervalClocks 50 does not match CreationRate 0.002"),
            std::string::npos);
  // The header delay in router and in link clocks.
  SimParams d = loaded();
  d.router_delay_clocks = 2;
  d.header_delay_clocks = 2;
  EXPECT_EQ(validate(d, 16), "");
  d.network_frequency_hz = 100e6;
  d.router_frequency_hz = 50e6;
  EXPECT_NE(validate(d, 16).find("does not match"), std::string::npos);
  d.header_delay_clocks = 4;
  EXPECT_EQ(validate(d, 16), "");
}

TEST(SimParams, OnOffRules) {
  // An on/off source creates at rate / duty while on: at most one message per clock; and its
  // off periods, burst (1 - duty) / duty on average, last a clock at least.
  SimParams p = loaded();
  p.creation_process = CreationProcess::kOnOff;
  p.creation_rate = 0.02;
  EXPECT_NE(validate(p, 16).find("duty cycle in (0, 1]"), std::string::npos);
  p.on_off_burst_clocks = 100;
  p.on_off_duty = 0.25;
  EXPECT_EQ(validate(p, 16), "");
  p.on_off_duty = 0.01;
  EXPECT_NE(validate(p, 16).find("more than one message per clock"), std::string::npos);
  p.on_off_burst_clocks = 10;
  p.on_off_duty = 0.95;
  EXPECT_NE(validate(p, 16).find("off periods shorter than a clock"), std::string::npos);
  p.on_off_duty = 1;
  EXPECT_EQ(validate(p, 16), "");
}

TEST(SimulatorMain, UnwritableJsonIsAnErrorAfterTheRun) {
  const std::string missing = ::testing::TempDir() + "/ndl_rt_no_such_dir/out.json";
  SimParams p = loaded();
  EXPECT_EQ(runMain({"--quiet", "--json", missing}, makeTorus({4, 4}), p), 3);
}

}  // namespace
}  // namespace ndl::rt
