// Loaded networks against theory: mean hop count under uniform traffic equals the analytic
// average distance, accepted load equals offered load below saturation, accepted load never
// exceeds the channel-load bound, and every created message is accounted for after a drain.
#include <gtest/gtest.h>

#include <cmath>

#include "test_networks.h"

namespace ndl::rt {
namespace {

using testing::baseParams;
using testing::setLoad;

// Mean minimal distance between distinct nodes of a k-ary n-cube (wrap) or mesh, from the
// per-dimension means over all coordinate pairs: sum_d mean_d * N / (N - 1).
double analyticAverage(const std::vector<int32_t>& radix, bool wrap) {
  double mean = 0;
  double nodes = 1;
  for (int32_t k : radix) {
    const double kk = k;
    mean += wrap ? (k % 2 == 0 ? kk / 4 : (kk * kk - 1) / (4 * kk)) : (kk * kk - 1) / (3 * kk);
    nodes *= k;
  }
  return mean * nodes / (nodes - 1);
}

struct HopCase {
  std::vector<int32_t> radix;
  bool wrap;
};

// Test names (gtest, ctest) show the network: "torus 4x4".
void PrintTo(const HopCase& c, std::ostream* os) {
  *os << (c.wrap ? "torus " : "mesh ");
  for (size_t d = 0; d < c.radix.size(); ++d) *os << (d ? "x" : "") << c.radix[d];
}

class UniformHops : public ::testing::TestWithParam<HopCase> {};

TEST_P(UniformHops, MeanHopsEqualAnalyticAverageDistance) {
  const HopCase& hc = GetParam();
  const NetworkDesc desc = hc.wrap ? makeTorus(hc.radix) : makeMesh(hc.radix);
  SimParams p = baseParams(FlowControl::kVirtualCutThrough, 4, 8, 1);
  p.virtual_channels = 2;
  if (hc.wrap) testing::useDateline(p);
  setLoad(p, 0.1);
  p.warmup_messages = 500;
  p.measured_messages = 30000;
  const Results r = simulate(desc, p);
  ASSERT_EQ(r.status, RunStatus::kOk) << r.status_message;
  // Hop counts are bounded by the diameter, so their standard deviation is at most
  // diameter/2 and the standard error of the mean at most diameter / (2 sqrt(n)); allow 5x.
  const double expected = analyticAverage(hc.radix, hc.wrap);
  const double tolerance = 5 * desc.diameter / (2 * std::sqrt(30000.0));
  EXPECT_NEAR(r.hops_mean, expected, tolerance);
  EXPECT_NEAR(r.avg_distance, expected, 1e-12);  // the builder's closed form agrees
}

INSTANTIATE_TEST_SUITE_P(Topologies, UniformHops,
                         ::testing::Values(HopCase{{4, 4}, true}, HopCase{{5, 3}, true},
                                           HopCase{{8}, true}, HopCase{{4, 4}, false},
                                           HopCase{{3, 5}, false}, HopCase{{3, 3, 3}, true}));

TEST(HypercubeHops, EcubeMeanHopsIsHalfTheDimensionOverDistinctPairs) {
  const NetworkDesc desc = makeHypercube(5);
  SimParams p = baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.route_fn = oracle::ecube;
  setLoad(p, 0.1);
  p.measured_messages = 30000;
  const Results r = simulate(desc, p);
  ASSERT_EQ(r.status, RunStatus::kOk) << r.status_message;
  const double expected = 5 / 2.0 * 32 / 31;
  EXPECT_NEAR(r.hops_mean, expected, 5 * 5 / (2 * std::sqrt(30000.0)));
}

TEST(Throughput, AcceptedEqualsOfferedBelowSaturation) {
  // 4x4 torus, uniform: the channel-load bound is 8/k = 2 flits/node/clock, injection is 1,
  // so 0.3 is well below saturation and everything offered must be accepted. Both are
  // measured over the same window; allow a few percent of statistical fluctuation.
  const NetworkDesc desc = makeTorus({4, 4});
  for (FlowControl fc :
       {FlowControl::kStoreAndForward, FlowControl::kVirtualCutThrough, FlowControl::kWormhole}) {
    SimParams p = baseParams(fc, 4, 8, 1);
    p.virtual_channels = 2;
    p.injection_virtual_channels = 2;
    testing::useDateline(p);
    setLoad(p, 0.3);
    p.warmup_messages = 2000;
    p.measured_messages = 30000;
    const Results r = simulate(desc, p);
    ASSERT_EQ(r.status, RunStatus::kOk) << r.status_message;
    EXPECT_NEAR(r.offered_flits_per_node_cycle, 0.3, 0.3 * 0.04) << flowControlName(fc);
    EXPECT_NEAR(r.accepted_flits_per_node_cycle, r.offered_flits_per_node_cycle,
                0.03 * r.offered_flits_per_node_cycle)
        << flowControlName(fc);
  }
}

// Bandwidth (seed 000): message bytes of the measured messages per second of their window.
// With one 16-byte packet per message and no header flits it is also the accepted flits
// (4 bytes each) of all nodes per second, up to what the two windows count differently.
TEST(Throughput, BandwidthIsMessageBytesPerSecondOfTheWindow) {
  const NetworkDesc desc = makeTorus({4, 4});
  SimParams p = baseParams(FlowControl::kWormhole, 4, 8, 1);
  p.virtual_channels = 2;
  testing::useDateline(p);
  p.network_frequency_hz = 100e6;
  setLoad(p, 0.3);
  p.warmup_messages = 1000;
  p.measured_messages = 20000;
  const Results r = simulate(desc, p);
  ASSERT_EQ(r.status, RunStatus::kOk) << r.status_message;
  const double seconds = (r.window_end_cycle - r.window_start_cycle) * 10e-9;
  EXPECT_NEAR(r.bandwidth_bytes_per_s, 20000 * 16 / seconds, 1e-6 * r.bandwidth_bytes_per_s);
  EXPECT_NEAR(r.bandwidth_bytes_per_s, r.accepted_flits_per_node_cycle * 16 * 4 / 10e-9,
              0.02 * r.bandwidth_bytes_per_s);
}

TEST(Throughput, AcceptedNeverExceedsChannelLoadBound) {
  // Uniform traffic on a k-ary n-cube crosses k*n/4 links on average (k even), spread over
  // 2n outgoing channels per node, each carrying one flit per clock: accepted <= 8/k.
  // Offered loads from half the bound to twice it.
  struct Case {
    std::vector<int32_t> radix;
    int64_t clocks;
  };
  for (const Case& c : {Case{{16}, 20000}, Case{{10, 10}, 4000}}) {
    const NetworkDesc desc = makeTorus(c.radix);
    const double bound = 8.0 / c.radix[0];
    for (double share : {0.5, 1.0, 2.0}) {
      SimParams p = baseParams(FlowControl::kVirtualCutThrough, 4, 8, 1);
      p.virtual_channels = 2;
      testing::useDateline(p);
      p.injection_queue_capacity = 8;
      setLoad(p, std::min(1.0, share * bound));
      p.warmup_messages = 1000;
      p.time_limit_clocks = c.clocks;
      const Results r = simulate(desc, p);
      EXPECT_NE(r.status, RunStatus::kDeadlock);
      EXPECT_GT(r.accepted_flits_per_node_cycle, 0);
      EXPECT_LE(r.accepted_flits_per_node_cycle, bound * 1.01)
          << desc.topology_name << " offered " << r.offered_flits_per_node_cycle;
    }
  }
}

TEST(Conservation, EveryMessageIsAccountedForAfterDrain) {
  const NetworkDesc desc = makeMesh({4, 4});
  for (FlowControl fc :
       {FlowControl::kStoreAndForward, FlowControl::kVirtualCutThrough, FlowControl::kWormhole}) {
    SimParams p = baseParams(fc, 4, 4, 2);
    p.message_min_bits = 8;
    p.message_max_bits = 512;  // 1 to 4 packets
    p.creation_rate = 0.05;
    p.creation_max = 3000;
    p.injection_queue_capacity = 4;
    const Results r = simulate(desc, p);
    ASSERT_EQ(r.messages.created, 3000);
    EXPECT_EQ(r.messages.in_flight, 0);
    EXPECT_EQ(r.packets.in_flight, 0);
    EXPECT_EQ(r.messages.created, r.messages.delivered + r.messages.dropped + r.messages.refused);
    EXPECT_EQ(r.packets.created, r.packets.delivered + r.packets.dropped);
    EXPECT_EQ(r.messages.dropped, 0);
    EXPECT_TRUE(r.conserved);
    int64_t sent = 0, received = 0;
    for (const NodeRow& n : r.per_node) {
      sent += n.sent;
      received += n.received;
    }
    EXPECT_EQ(sent, r.messages.created - r.messages.refused);
    EXPECT_EQ(received, r.messages.delivered);
    if (r.messages.refused > 0) {
      EXPECT_EQ(r.status, RunStatus::kInjectionQueueFull);
    }
  }
}

TEST(Statistics, MessageWindowCountsMessagesByArrivalOrder) {
  const NetworkDesc desc = makeTorus({4, 4});
  SimParams p = baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.virtual_channels = 2;
  testing::useDateline(p);
  setLoad(p, 0.2);
  p.warmup_messages = 100;
  p.measured_messages = 1000;
  p.report_pairs = {{0, 5}};
  const Results r = simulate(desc, p);
  ASSERT_EQ(r.status, RunStatus::kOk);
  EXPECT_EQ(r.measured_messages, 1000);
  EXPECT_EQ(r.message_latency.count, 1000u);
  EXPECT_GE(r.messages.delivered, 1100);
  uint64_t by_distance = 0;
  for (const DistanceRow& d : r.by_distance) {
    by_distance += d.count;
    // No message is faster than the zero-load latency of its distance.
    EXPECT_GE(d.mean_network_cycles, (d.hops + 1) * 1 + d.hops * 1 + 3);
  }
  EXPECT_EQ(by_distance, 1000u);
  EXPECT_LE(r.network_latency.p50, r.network_latency.p99);
  EXPECT_LE(r.network_latency.p99, r.network_latency.max);
  EXPECT_GE(r.message_latency.mean, r.network_latency.mean);
  ASSERT_EQ(r.pairs.size(), 1u);
  // (0,0) -> (1,1): two hops, so at least the two-hop zero-load latency.
  if (r.pairs[0].network.count > 0) {
    EXPECT_GE(r.pairs[0].network.p50, 3 + 2 + 3);
  }
}

// A warm-up that takes every message leaves nothing measured: the run still ends as it
// should (status ok), but says so instead of reporting zeros as latencies.
TEST(Statistics, NothingMeasuredIsSaid) {
  const NetworkDesc desc = makeTorus({4, 4});
  SimParams p = baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.virtual_channels = 2;
  testing::useDateline(p);
  setLoad(p, 0.2);
  p.creation_max = 50;
  p.warmup_messages = 50;
  const Results r = simulate(desc, p);
  ASSERT_EQ(r.status, RunStatus::kOk) << r.status_message;
  EXPECT_EQ(r.messages.delivered, 50);
  EXPECT_EQ(r.measured_messages, 0);
  EXPECT_EQ(r.message_latency.count, 0u);
  EXPECT_EQ(r.status_message,
            "no message was measured: WarmupMessages 50 leaves out all 50 messages delivered; "
            "the latencies and throughput are empty");
  // One message after the warm-up is measured, and nothing is said.
  p.warmup_messages = 49;
  const Results one = simulate(desc, p);
  ASSERT_EQ(one.status, RunStatus::kOk);
  EXPECT_EQ(one.measured_messages, 1);
  EXPECT_EQ(one.status_message, "");
}

TEST(Statistics, SteadyStateIntervalCoversTheMeasuredMean) {
  // An empty network filling up at moderate load: the first messages see less contention
  // than the rest. After truncating that transient, the batch-means interval must be
  // narrow and sit on the measured mean (which differs only by the truncated head).
  const NetworkDesc desc = makeTorus({4, 4});
  SimParams p = baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.virtual_channels = 2;
  testing::useDateline(p);
  setLoad(p, 0.4);
  p.measured_messages = 40000;
  const Results r = simulate(desc, p);
  ASSERT_EQ(r.status, RunStatus::kOk);
  const SteadyState& ss = r.steady_state;
  EXPECT_EQ(ss.samples, 40000u);
  EXPECT_EQ(ss.batches, 20);
  EXPECT_LT(ss.truncated, ss.samples / 2);
  EXPECT_GT(ss.ci95_half_width, 0);
  EXPECT_LT(ss.ci95_half_width, 0.05 * ss.mean);
  EXPECT_NEAR(ss.mean, r.message_latency.mean, 0.05 * r.message_latency.mean);
}

}  // namespace
}  // namespace ndl::rt
