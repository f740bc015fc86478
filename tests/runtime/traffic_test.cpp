// The reference traffic patterns of spec 1.3 on explicit examples, the routing primitives
// (dimension order ties, dateline classes), and the traffic process (Bernoulli rate,
// refusals at the injection queue).
#include "ndl/runtime/traffic/traffic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ndl/runtime/net/routing.h"
#include "oracle_routing.h"
#include "test_networks.h"

// A generated simulator's routing function, here dimension order again: the runtime must
// find it under this name and run it through its compile-time path.
extern "C" ndl::rt::RouteSet ndl_generated_route(const ndl::rt::RouteContext& ctx) {
  return ndl::rt::oracle::dimensionOrderDateline(ctx);
}

namespace ndl::rt {
namespace {

int32_t destOf(TrafficPattern pattern, const NetworkDesc& desc, int32_t node,
               const PatternParams& params = {}, uint64_t* state = nullptr) {
  const TopologyIndex topo(desc);
  Rng rng(1, static_cast<uint64_t>(node));
  uint64_t local = 0;
  TrafficContext ctx{
      &topo, &params, node, static_cast<int32_t>(desc.nodes.size()), &rng, state ? state : &local};
  return destFnFor(pattern)(ctx);
}

TEST(Patterns, BitPermutationsOnSixteenNodes) {
  const NetworkDesc desc = makeTorus({4, 4});
  EXPECT_EQ(destOf(TrafficPattern::kBitReversal, desc, 1), 8);           // 0001 -> 1000
  EXPECT_EQ(destOf(TrafficPattern::kBitReversal, desc, 6), kNoMessage);  // 0110 palindrome
  EXPECT_EQ(destOf(TrafficPattern::kBitComplement, desc, 3), 12);        // 0011 -> 1100
  EXPECT_EQ(destOf(TrafficPattern::kShuffle, desc, 5), 10);              // 0101 -> 1010
  EXPECT_EQ(destOf(TrafficPattern::kShuffle, desc, 9), 3);               // 1001 -> 0011
  // Transpose on a 4x4 grid: (x, y) -> (y, x), node = x + 4y.
  EXPECT_EQ(destOf(TrafficPattern::kTranspose, desc, 1), 4);
  EXPECT_EQ(destOf(TrafficPattern::kTranspose, desc, 7), 13);  // (3,1) -> (1,3)
  EXPECT_EQ(destOf(TrafficPattern::kTranspose, desc, 5), kNoMessage);
}

TEST(Patterns, CoordinatePatterns) {
  const NetworkDesc ring = makeRing(8);
  // Tornado: x + ceil(k/2) - 1 = x + 3 on an 8-ring.
  EXPECT_EQ(destOf(TrafficPattern::kTornado, ring, 0), 3);
  EXPECT_EQ(destOf(TrafficPattern::kTornado, ring, 6), 1);
  EXPECT_EQ(destOf(TrafficPattern::kNeighbor, ring, 7), 0);
  const NetworkDesc torus = makeTorus({4, 4});
  EXPECT_EQ(destOf(TrafficPattern::kNeighbor, torus, 15), 0);  // (3,3) -> (0,0)
  EXPECT_EQ(destOf(TrafficPattern::kTornado, torus, 0), 5);    // (0,0) -> (1,1)
}

TEST(Patterns, AllToAllCyclesThroughEveryOtherNode) {
  const NetworkDesc desc = makeRing(5);
  uint64_t state = 0;
  std::vector<int32_t> seen;
  for (int i = 0; i < 8; ++i) {
    seen.push_back(destOf(TrafficPattern::kAllToAll, desc, 2, {}, &state));
  }
  EXPECT_EQ(seen, (std::vector<int32_t>{3, 4, 0, 1, 3, 4, 0, 1}));
}

TEST(Patterns, UniformNeverSelfAndEvenlySpread) {
  const NetworkDesc desc = makeTorus({4, 4});
  const TopologyIndex topo(desc);
  PatternParams params;
  Rng rng(3, 3);
  uint64_t state = 0;
  TrafficContext ctx{&topo, &params, 3, 16, &rng, &state};
  std::vector<int> counts(16, 0);
  const int n = 150000;
  for (int i = 0; i < n; ++i) ++counts[uniformDest(ctx)];
  EXPECT_EQ(counts[3], 0);
  for (int d = 0; d < 16; ++d) {
    if (d != 3) {
      EXPECT_NEAR(counts[d], n / 15.0, 5 * std::sqrt(n / 15.0));
    }
  }
}

TEST(Patterns, HotSpotSendsItsShareToTheHotNodes) {
  const NetworkDesc desc = makeTorus({4, 4});
  const TopologyIndex topo(desc);
  PatternParams params{0.3, {9}};
  Rng rng(5, 0);
  uint64_t state = 0;
  TrafficContext ctx{&topo, &params, 0, 16, &rng, &state};
  int hot = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) hot += hotSpotDest(ctx) == 9;
  // 30% directly, plus 1/15 of the remaining uniform 70%.
  const double p = 0.3 + 0.7 / 15;
  EXPECT_NEAR(hot, n * p, 5 * std::sqrt(n * p * (1 - p)));
}

// A route's tier 0 as (port, lowest VC, highest VC); port -1 when it is empty.
struct Hop {
  int32_t port, lo, hi;
};
Hop tier0(const RouteSet& r, int32_t vcs) {
  if (r.tier[0] == 0) return {-1, 0, 0};
  const int32_t lo = __builtin_ctzll(r.tier[0]);
  const int32_t hi = 63 - __builtin_clzll(r.tier[0]);
  return {lo / vcs, lo % vcs, hi % vcs};
}

TEST(Routing, DimensionOrderOracleTakesShorterWayWithTiesToPlus) {
  const NetworkDesc ring = makeRing(8);
  const TopologyIndex topo(ring);
  auto route = [&](int32_t node, int32_t dest) {
    const RouteContext ctx{&topo, node, node, dest, 2, 0, 2, 0, -1, 0};
    return tier0(oracle::dimensionOrder(ctx), 2).port;
  };
  EXPECT_EQ(route(0, 3), 0);  // + (port 0)
  EXPECT_EQ(route(0, 5), 1);  // - is shorter (3 < 5)
  EXPECT_EQ(route(0, 4), 0);  // tie: +
  EXPECT_EQ(route(6, 1), 0);  // + across the wrap
}

TEST(Routing, DatelineOracleChoosesTheClassWhenEnteringTheDimension) {
  const NetworkDesc ring = makeRing(8);
  const TopologyIndex topo(ring);
  auto route = [&](int32_t node, int32_t dest, int32_t in_port, int32_t in_vc, int32_t arrived) {
    const RouteContext ctx{&topo, node, 5, dest, in_port, in_vc, 4, 0, arrived, 0};
    return tier0(oracle::dimensionOrderDateline(ctx), 4);
  };
  // From the PE at 5 heading + to 1: the way crosses the wrap link, class 1 (VCs 2-3) for
  // the whole dimension (BookSim2's dateline).
  Hop h = route(5, 1, 2, 0, -1);
  EXPECT_EQ(h.lo, 2);
  EXPECT_EQ(h.hi, 3);
  // At 0, after the wrap, arrived on class 1 going +: stays in class 1.
  h = route(0, 1, 1, 2, portCode(0, 1));
  EXPECT_EQ(h.lo, 2);
  // From the PE at 5 heading + to 7: no wrap on the way, class 0 (VCs 0-1).
  h = route(5, 7, 2, 0, -1);
  EXPECT_EQ(h.lo, 0);
  EXPECT_EQ(h.hi, 1);
}

RouteSet dimensionOrderThroughAPointer(const RouteContext& ctx) {
  return oracle::dimensionOrderDateline(ctx);
}

TEST(Routing, CustomRoutingFunctionsRunLikeTheReference) {
  // The same algorithm through the function-pointer path and through the generated-symbol
  // path must give the very same run.
  SimParams p = testing::baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.virtual_channels = 2;
  testing::useDateline(p);
  testing::setLoad(p, 0.3);
  p.measured_messages = 3000;
  const NetworkDesc desc = makeTorus({4, 4});
  const Results reference = simulate(desc, p);
  for (RouteFn fn : {&dimensionOrderThroughAPointer, &ndl_generated_route}) {
    p.route_fn = fn;
    const Results r = simulate(desc, p);
    EXPECT_EQ(r.cycles, reference.cycles);
    EXPECT_EQ(r.messages.delivered, reference.messages.delivered);
    EXPECT_EQ(r.collisions_total, reference.collisions_total);
    EXPECT_DOUBLE_EQ(r.network_latency.mean, reference.network_latency.mean);
  }
}

// A routing failure stops the run with status routing_error, names node,
// destination and clock, and still reports what was measured (the packet
// whose header failed is counted in flight).
TEST(Routing, BadRoutesStopTheRunNamingNodeAndDestination) {
  SimParams p = testing::baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.script = {{0, 0, 1, 128}, {0, 2, 3, 128}};
  // A VC beyond the node's ports.
  p.route_fn = [](const RouteContext&) { return RouteSet{{uint64_t{1} << 40, 0, 0, 0}, -1}; };
  Results r = simulate(makeRing(4), p);
  EXPECT_EQ(r.status, RunStatus::kRoutingError);
  EXPECT_NE(r.status_message.find("outside its"), std::string::npos) << r.status_message;
  EXPECT_EQ(exitCodeFor(r), 3);
  // No candidate at all.
  p.route_fn = [](const RouteContext&) { return RouteSet{{0, 0, 0, 0}, -1}; };
  r = simulate(makeRing(4), p);
  EXPECT_EQ(r.status, RunStatus::kRoutingError);
  EXPECT_EQ(r.status_message.substr(r.status_message.find(": ") + 2),
            "routing at node 0 offers no candidate route for destination 1");
  EXPECT_EQ(r.status_message.substr(0, 25), "routing failure at clock ");
  EXPECT_EQ(r.messages.created, 2);
  // Both messages, one packet each, are still held by the simulator (in flight is counted
  // from its records, apart from the other counts).
  EXPECT_EQ(r.messages.in_flight, 2);
  EXPECT_EQ(r.packets.in_flight, 2);
  EXPECT_EQ(r.messages.created,
            r.messages.delivered + r.messages.dropped + r.messages.refused + r.messages.in_flight);
  EXPECT_EQ(r.packets.created, r.packets.delivered + r.packets.dropped + r.packets.in_flight);
  EXPECT_TRUE(r.conserved);
  EXPECT_GT(r.cycles, 0);
}

TEST(Patterns, BitPatternsNeedAPowerOfTwoNodeCount) {
  SimParams p = testing::baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.creation_rate = 0.01;
  p.time_limit_clocks = 100;
  for (TrafficPattern pattern : {TrafficPattern::kBitReversal, TrafficPattern::kBitComplement,
                                 TrafficPattern::kShuffle, TrafficPattern::kTranspose}) {
    p.pattern = pattern;
    EXPECT_THROW(simulate(makeRing(6), p), std::invalid_argument) << patternName(pattern);
    EXPECT_NO_THROW(simulate(makeRing(8), p)) << patternName(pattern);
  }
  p.pattern = TrafficPattern::kTranspose;
  EXPECT_NO_THROW(simulate(makeTorus({3, 3}), p));  // square: (x, y) -> (y, x)
}

TEST(Traffic, BernoulliCreationRateAndRefusals) {
  // 16 nodes at 0.02 messages/node/clock for 20000 clocks: 6400 creations expected.
  SimParams p = testing::baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.virtual_channels = 2;
  testing::useDateline(p);
  p.creation_rate = 0.02;
  p.time_limit_clocks = 20000;
  const Results r = simulate(makeTorus({4, 4}), p);
  const double expected = 16 * 0.02 * 20000;
  EXPECT_NEAR(static_cast<double>(r.messages.created), expected, 5 * std::sqrt(expected));
  EXPECT_EQ(r.messages.refused, 0);
  EXPECT_EQ(r.status, RunStatus::kOk);

  // An injection queue of 1 message at a rate the channel cannot sustain: refusals.
  p.creation_rate = 0.5;
  p.injection_queue_capacity = 1;
  const Results full = simulate(makeTorus({4, 4}), p);
  EXPECT_GT(full.messages.refused, 0);
  EXPECT_EQ(full.status, RunStatus::kInjectionQueueFull);
  EXPECT_EQ(exitCodeFor(full), 3);
}

// InjectionQueueOverflow Block: a source whose queue is full holds the message it created
// and creates no other until there is room, so nothing is refused, the queue never holds
// more than its capacity plus the held message, and the wait counts in message latency.
TEST(Traffic, BlockingSourcesWaitInsteadOfRefusing) {
  SimParams p = testing::baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.virtual_channels = 2;
  testing::useDateline(p);
  p.time_limit_clocks = 20000;
  p.creation_rate = 0.5;
  p.injection_queue_capacity = 2;
  p.queue_overflow = QueueOverflow::kBlock;
  const Results r = simulate(makeTorus({4, 4}), p);
  EXPECT_EQ(r.status, RunStatus::kOk) << r.status_message;
  EXPECT_EQ(r.messages.refused, 0);
  EXPECT_EQ(r.messages.created,
            r.messages.delivered + r.messages.dropped + r.messages.in_flight);
  EXPECT_EQ(r.packets.created, r.packets.delivered + r.packets.dropped + r.packets.in_flight);
  EXPECT_GT(r.messages.queued, 0);
  EXPECT_TRUE(r.conserved);
  EXPECT_LE(r.messages.queued, 16 * (p.injection_queue_capacity + 1));
  // Each node hands at most one 4-flit message to its injection channel per 4 clocks.
  for (const NodeRow& n : r.per_node) EXPECT_LE(n.sent, 20000 / 4 + p.injection_queue_capacity + 2);
  // Every message waits behind at least one other 4-flit message at its source.
  EXPECT_GE(r.message_latency.mean - r.network_latency.mean, 4.0);

  // Refuse, the default, counts the messages a full queue turns away.
  p.queue_overflow = QueueOverflow::kRefuse;
  EXPECT_GT(simulate(makeTorus({4, 4}), p).messages.refused, 0);

  // When no queue fills, Block changes nothing.
  p.creation_rate = 0.02;
  p.injection_queue_capacity = 100;
  const Results refuse = simulate(makeTorus({4, 4}), p);
  p.queue_overflow = QueueOverflow::kBlock;
  const Results block = simulate(makeTorus({4, 4}), p);
  EXPECT_EQ(block.messages.created, refuse.messages.created);
  EXPECT_EQ(block.messages.delivered, refuse.messages.delivered);
  EXPECT_DOUBLE_EQ(block.message_latency.mean, refuse.message_latency.mean);
}

TEST(Traffic, PeriodicCreationEveryInterval) {
  SimParams p = testing::baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.creation_process = CreationProcess::kPeriodic;
  p.creation_interval_clocks = 100;
  p.creation_rate = 0.01;  // the interval's inverse, as the results report it
  p.time_limit_clocks = 10000;
  const Results r = simulate(makeTorus({4, 4}), p);
  // Every node creates exactly once per 100 clocks (random phase): 100 each.
  for (const NodeRow& n : r.per_node) EXPECT_EQ(n.sent, 100);
  // A rate that is not the interval's would be reported but not simulated: refused.
  p.creation_rate = 0.02;
  EXPECT_NE(validate(p, 16).find("CreationIntervalClocks 100 does not match CreationRate 0.02"),
            std::string::npos);
  p.creation_interval_clocks = 100.5;  // not a whole number of clocks: was rounded silently
  p.creation_rate = 1 / 100.5;
  EXPECT_NE(validate(p, 16).find("periodic creation needs a whole number of clocks"),
            std::string::npos);
}

TEST(Traffic, PermutationPatternsDeliverToTheirDestination) {
  SimParams p = testing::baseParams(FlowControl::kVirtualCutThrough, 4, 8, 1);
  p.virtual_channels = 2;
  testing::useDateline(p);
  p.pattern = TrafficPattern::kBitComplement;
  p.creation_rate = 0.01;
  p.creation_max = 500;
  const Results r = simulate(makeTorus({4, 4}), p);
  ASSERT_EQ(r.messages.delivered, 500);
  // Bit complement on a 4x4 torus moves (x,y) to (3-x, 3-y): distances 3 or 1 per dim,
  // both 1 hop the short way or... (0->3 is 1 hop across the wrap, 1->2 is 1 hop): 2 hops.
  EXPECT_DOUBLE_EQ(r.hops_mean, 2.0);
  for (size_t n = 0; n < r.per_node.size(); ++n) {
    EXPECT_EQ(r.per_node[n].received, r.per_node[15 - n].sent);
  }
}

}  // namespace
}  // namespace ndl::rt
