// Deadlock handling: a ring under wormhole with one VC deadlocks at high load and the runtime
// finds the wait-for cycle and names its channels (instead of running forever); Drop removes
// the packets of each cycle, counted, with buffers and credits restored so that everything
// drains; DropAfterTimeout removes any header blocked that long; Avoid (dateline VC classes)
// never deadlocks; saturation, even of an adaptive routing, is never taken for a deadlock.
#include <gtest/gtest.h>

#include <cstdio>

#include "test_networks.h"

namespace ndl::rt {
namespace {

using testing::baseParams;
using testing::setLoad;

SimParams deadlockProne() {
  // Long wormhole packets in 2-flit buffers on a ring: a cycle of blocked packets around
  // the ring is all it takes.
  SimParams p = baseParams(FlowControl::kWormhole, 8, 2, 1);
  p.virtual_channels = 1;
  setLoad(p, 0.9);
  p.injection_queue_capacity = 4;
  p.deadlock_detect_clocks = 2000;
  return p;
}

// "n3:x+ vc0" -> node 3, sign +1; false for injection VCs ("n3:pe vc0").
bool parseChannel(const std::string& name, int& node, int& sign) {
  char dim = 0, dir = 0;
  int vc = 0;
  return std::sscanf(name.c_str(), "n%d:%c%c vc%d", &node, &dim, &dir, &vc) == 4 && dim == 'x' &&
         (dir == '+' || dir == '-') && (sign = dir == '+' ? 1 : -1) != 0;
}

TEST(Deadlock, DetectedAndReportedOnRingWithOneVc) {
  SimParams p = deadlockProne();
  p.deadlock_timeout_clocks = 100;
  p.time_limit_clocks = 200000;
  const Results r = simulate(makeRing(8), p);
  EXPECT_EQ(r.status, RunStatus::kDeadlock);
  EXPECT_EQ(exitCodeFor(r), 3);
  // Found by the wait-for search soon after it formed, not by the backstop (nothing moved
  // for deadlock_detect_clocks).
  EXPECT_LT(r.cycles, 200000);
  EXPECT_EQ(r.deadlocks_found, 1);
  EXPECT_GE(r.deadlock_searches, 1);
  EXPECT_EQ(r.deadlock.clock, r.cycles - 1);
  EXPECT_NE(r.status_message.find("deadlock at clock"), std::string::npos) << r.status_message;
  // The cycle goes round the ring in one direction: its network channels leave consecutive
  // nodes, all the same way, and cover the ring.
  std::vector<std::pair<int, int>> hops;
  for (const std::string& name : r.deadlock.cycle) {
    int node = 0, sign = 0;
    if (parseChannel(name, node, sign)) hops.emplace_back(node, sign);
  }
  ASSERT_EQ(hops.size(), 8u) << r.status_message;
  for (size_t i = 0; i < hops.size(); ++i) {
    const auto [node, sign] = hops[i];
    const auto [next, next_sign] = hops[(i + 1) % hops.size()];
    EXPECT_EQ(sign, next_sign);
    EXPECT_EQ(next, (node + sign + 8) % 8) << r.deadlock.cycle[i];
  }
  EXPECT_EQ(r.messages.dropped, 0);
  EXPECT_GT(r.messages.in_flight, 0);
  // Still conserved, and whatever was measured is in the results. In flight is what the
  // simulator holds (counted apart): the deadlocked packets among it, one per header of the
  // cycle at least.
  EXPECT_EQ(r.messages.created,
            r.messages.delivered + r.messages.dropped + r.messages.refused + r.messages.in_flight);
  EXPECT_EQ(r.packets.created, r.packets.delivered + r.packets.dropped + r.packets.in_flight);
  EXPECT_GE(r.packets.in_flight, static_cast<int64_t>(hops.size()));
  EXPECT_TRUE(r.conserved);
}

TEST(Deadlock, DropRemovesBlockedPacketsAndEverythingDrains) {
  // Wormhole packets blocked across several nodes, and cut-through packets each blocked
  // whole in one node: in both, dropping must give back every buffer slot and credit. Drop
  // removes the packets of each cycle found; DropAfterTimeout any header blocked that long.
  for (DeadlockHandling dh : {DeadlockHandling::kDrop, DeadlockHandling::kDropAfterTimeout})
  for (FlowControl fc : {FlowControl::kWormhole, FlowControl::kVirtualCutThrough}) {
    SimParams p = deadlockProne();
    p.flow_control = fc;
    if (fc == FlowControl::kVirtualCutThrough) p.buffer_flits = p.packet_flits;
    p.deadlock = dh;
    p.deadlock_timeout_clocks = 200;
    p.creation_max = 4000;
    const Results r = simulate(makeRing(8), p);
    SCOPED_TRACE(flowControlName(fc));
    SCOPED_TRACE(deadlockName(dh));
    if (dh == DeadlockHandling::kDrop) {
      EXPECT_GT(r.deadlocks_found, 0);
      EXPECT_GE(r.deadlock.clock, 0);
      // Each cycle of this ring holds 8 headers at most: every drop came with a cycle.
      EXPECT_LE(r.packets.dropped, 8 * r.deadlocks_found);
    } else {
      EXPECT_EQ(r.deadlock_searches, 0);
    }
    EXPECT_NE(r.status, RunStatus::kDeadlock);
    EXPECT_GT(r.packets.dropped, 0);
    EXPECT_GT(r.messages.dropped, 0);
    // Drained: every flit's buffer and credit came back, nothing is left in flight.
    EXPECT_EQ(r.messages.in_flight, 0);
    EXPECT_EQ(r.packets.in_flight, 0);
    EXPECT_EQ(r.messages.created, r.messages.delivered + r.messages.dropped + r.messages.refused);
    EXPECT_EQ(r.packets.created, r.packets.delivered + r.packets.dropped);
    EXPECT_TRUE(r.conserved);
    int64_t dropped_at_nodes = 0;
    for (const NodeRow& n : r.per_node) dropped_at_nodes += n.dropped_packets;
    EXPECT_EQ(dropped_at_nodes, r.packets.dropped);
  }
}

TEST(Deadlock, CutThroughDeadlocksOnRingWithoutHandling) {
  // Whole-packet buffers do not save a ring with one VC: each node's buffer can hold a packet
  // waiting for the next node's.
  SimParams p = deadlockProne();
  p.flow_control = FlowControl::kVirtualCutThrough;
  p.buffer_flits = p.packet_flits;
  p.time_limit_clocks = 200000;
  const Results r = simulate(makeRing(8), p);
  EXPECT_EQ(r.status, RunStatus::kDeadlock);
  EXPECT_TRUE(r.conserved);
}

TEST(Deadlock, DropLeavesAFreeFlowingNetworkAlone) {
  // At light load no header is blocked for the timeout: nothing is searched or dropped.
  for (DeadlockHandling dh : {DeadlockHandling::kDrop, DeadlockHandling::kDropAfterTimeout}) {
    SimParams p = baseParams(FlowControl::kWormhole, 4, 4, 1);
    p.deadlock = dh;
    p.deadlock_timeout_clocks = 1000;
    setLoad(p, 0.05);
    p.creation_max = 2000;
    const Results r = simulate(makeMesh({4, 4}), p);
    EXPECT_EQ(r.status, RunStatus::kOk);
    EXPECT_EQ(r.messages.dropped, 0);
    EXPECT_EQ(r.messages.delivered, 2000);
    EXPECT_EQ(r.deadlock_searches, 0);
  }
}

TEST(Deadlock, DropKeepsAOneVcTorusDeliveringFarPastSaturation) {
  // Many cycles form and are broken; conservation holds and traffic keeps arriving.
  SimParams p = baseParams(FlowControl::kWormhole, 8, 4, 1);
  p.virtual_channels = 1;
  p.deadlock = DeadlockHandling::kDrop;
  p.deadlock_timeout_clocks = 100;
  setLoad(p, 0.8);
  p.injection_queue_capacity = 8;
  p.time_limit_clocks = 50000;
  p.sampling_interval_clocks = 5000;
  const Results r = simulate(makeTorus({8, 8}), p);
  EXPECT_NE(r.status, RunStatus::kDeadlock) << r.status_message;
  EXPECT_GT(r.deadlocks_found, 1);
  EXPECT_GT(r.packets.dropped, 0);
  EXPECT_TRUE(r.conserved);
  ASSERT_FALSE(r.series.empty());
  EXPECT_GT(r.series.back().arrived, 0);
}

TEST(Deadlock, PartialDeadlockReportedWhileOtherTrafficFlows) {
  // On a one-VC torus the first ring to lock up is found while the rest of the network still
  // delivers: the deadlock is reported within the timeout (plus one search period), long
  // before the backstop that waits for the whole network to stop.
  SimParams p = baseParams(FlowControl::kWormhole, 8, 2, 1);
  p.virtual_channels = 1;
  p.deadlock_timeout_clocks = 200;
  p.deadlock_detect_clocks = 100000;
  setLoad(p, 0.3);
  p.time_limit_clocks = 400000;
  p.sampling_interval_clocks = 100;
  const Results r = simulate(makeTorus({8, 8}), p);
  ASSERT_EQ(r.status, RunStatus::kDeadlock) << r.status_message;
  ASSERT_GE(r.series.size(), 2u);
  // Deliveries in the last full sampling interval before the report.
  EXPECT_GT(r.series[r.series.size() - 2].arrived, 0);
  EXPECT_FALSE(r.deadlock.cycle.empty());
  EXPECT_TRUE(r.conserved);
}

// Duato's fully adaptive minimal routing on a mesh: every minimal port in VC 0 first, the
// dimension-order port in VC 1 when none is free. Deadlock-free; its headers wait on several
// candidates at once, so only a search that needs all of them blocked stays quiet.
RouteSet adaptiveWithEscape(const RouteContext& ctx) {
  const TopologyIndex& t = *ctx.topo;
  RouteSet set{{0, 0, 0, 0}, -1};
  for (int32_t d = 0; d < t.numDims(); ++d) {
    const int32_t cur = t.coord(ctx.node, d), dst = t.coord(ctx.dest, d);
    if (cur != dst) set.tier[0] |= uint64_t{1} << (t.dirPort(ctx.node, d, dst > cur ? 1 : -1) * 2);
  }
  set.tier[1] = oracle::dimensionOrder(ctx).tier[0] & 0xaaaaaaaaaaaaaaaaull;  // VC 1 of the port
  return set;
}

TEST(Deadlock, SaturationIsNeverTakenForADeadlock) {
  // Far past saturation, with a short timeout so that the search runs again and again:
  // dimension order with one VC and an adaptive routing with an escape VC never deadlock.
  struct Case {
    RouteFn routing;
    int32_t vcs;
  };
  for (const Case& c : {Case{oracle::dimensionOrder, 1}, Case{adaptiveWithEscape, 2}}) {
    SimParams p = baseParams(FlowControl::kWormhole, 8, 2, 1);
    p.route_fn = c.routing;
    p.virtual_channels = c.vcs;
    p.deadlock = DeadlockHandling::kDetect;
    p.deadlock_timeout_clocks = 20;
    setLoad(p, 1.0);
    p.injection_queue_capacity = 4;
    p.time_limit_clocks = 100000;
    p.sampling_interval_clocks = 10000;
    const Results r = simulate(makeMesh({8, 8}), p);
    SCOPED_TRACE(c.vcs);
    EXPECT_NE(r.status, RunStatus::kDeadlock) << r.status_message;
    EXPECT_EQ(r.deadlocks_found, 0);
    EXPECT_GT(r.deadlock_searches, 100);  // the search did look, many times
    ASSERT_FALSE(r.series.empty());
    EXPECT_GT(r.series.back().arrived, 0);
  }
}

TEST(Deadlock, ALongWormOnSlowLinksIsNotTakenForADeadlock) {
  // The backstop reports a network in which no flit moved for deadlock_detect_clocks. Here
  // nothing ejects for about a thousand clocks (a 200-flit worm crossing five links of 200
  // clocks each) while flits cross links at least every ~200 clocks: moves over links must
  // count as moves, or this run is stopped as a deadlock at clock 600.
  SimParams p = baseParams(FlowControl::kWormhole, 200, 8, 1);
  p.link_delay_clocks = 200;
  p.deadlock_detect_clocks = 600;
  p.time_limit_clocks = 40000;
  const Results r = testing::runSingle(makeMesh({6}), p, 0, 5);
  EXPECT_EQ(r.status, RunStatus::kOk) << r.status_message;
  EXPECT_EQ(r.messages.delivered, 1);
  EXPECT_EQ(r.flit_hops, 200 * 5);
  // The scenario holds: the first flit ejected only after the backstop's window.
  EXPECT_GT(r.cycles, 5 * 200);
}

TEST(Deadlock, NothingIsDroppedWithoutDrop) {
  for (DeadlockHandling dh : {DeadlockHandling::kDetect, DeadlockHandling::kAvoid}) {
    SimParams p = deadlockProne();
    p.virtual_channels = 2;
    if (dh == DeadlockHandling::kAvoid) testing::useDateline(p);
    p.time_limit_clocks = 20000;
    const Results r = simulate(makeRing(8), p);
    EXPECT_EQ(r.packets.dropped, 0) << deadlockName(dh);
    EXPECT_EQ(r.messages.dropped, 0) << deadlockName(dh);
  }
}

TEST(Deadlock, AvoidNeverDeadlocksAtSaturationOverAMillionClocks) {
  // Dateline classes break the ring's cyclic channel dependency. A tiny 4-node ring at a
  // load far beyond saturation for 10^6 clocks: flits keep moving to the very end.
  SimParams p = baseParams(FlowControl::kWormhole, 8, 2, 1);
  p.virtual_channels = 2;
  testing::useDateline(p);
  setLoad(p, 1.0);
  p.injection_queue_capacity = 2;
  p.deadlock_detect_clocks = 1000;
  p.time_limit_clocks = 1000000;
  p.sampling_interval_clocks = 100000;
  const Results r = simulate(makeRing(4), p);
  EXPECT_NE(r.status, RunStatus::kDeadlock) << r.status_message;
  EXPECT_EQ(r.cycles, 1000000);
  EXPECT_EQ(r.packets.dropped, 0);
  ASSERT_FALSE(r.series.empty());
  EXPECT_GT(r.series.back().arrived, 0);  // still delivering in the last interval
  // 4-ring uniform: bound 8/k = 2 is above the injection limit of 1 flit/node/clock.
  EXPECT_LE(r.accepted_flits_per_node_cycle, 1.0);
}

TEST(Deadlock, DimensionOrderOnMeshAndEcubeOnHypercubeNeverDeadlock) {
  // Both have acyclic channel dependencies with a single VC: saturated for 50000 clocks,
  // flits keep moving.
  struct Case {
    NetworkDesc desc;
    RouteFn routing;
  };
  for (const Case& c : {Case{makeMesh({4, 4}), oracle::dimensionOrder},
                        Case{makeHypercube(4), oracle::ecube}}) {
    SimParams p = deadlockProne();
    p.route_fn = c.routing;
    setLoad(p, 1.0);
    p.time_limit_clocks = 50000;
    const Results r = simulate(c.desc, p);
    EXPECT_NE(r.status, RunStatus::kDeadlock) << c.desc.topology_name;
    EXPECT_EQ(r.cycles, 50000);
    ASSERT_FALSE(r.series.empty());
    EXPECT_GT(r.series.back().arrived, 0) << c.desc.topology_name;
  }
}

}  // namespace
}  // namespace ndl::rt
