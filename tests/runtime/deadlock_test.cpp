// Deadlock handling: a ring under wormhole with one VC deadlocks at high load and the runtime
// says so (instead of running forever); Drop removes blocked packets, counted, with buffers
// and credits restored so that everything drains; Avoid (dateline VC classes) never
// deadlocks; without Drop nothing is ever dropped.
#include <gtest/gtest.h>

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

TEST(Deadlock, DetectedAndReportedOnRingWithOneVc) {
  SimParams p = deadlockProne();
  p.time_limit_clocks = 200000;
  const Results r = simulate(makeRing(8), p);
  EXPECT_EQ(r.status, RunStatus::kDeadlock);
  EXPECT_EQ(exitCodeFor(r), 3);
  EXPECT_LT(r.cycles, 200000);  // stopped early, did not run to the limit
  EXPECT_NE(r.status_message.find("deadlock"), std::string::npos);
  EXPECT_EQ(r.messages.dropped, 0);
  EXPECT_GT(r.messages.in_flight, 0);
  // Still conserved, and whatever was measured is in the results.
  EXPECT_EQ(r.messages.created,
            r.messages.delivered + r.messages.dropped + r.messages.refused + r.messages.in_flight);
  EXPECT_TRUE(r.conserved);
}

TEST(Deadlock, DropRemovesBlockedPacketsAndEverythingDrains) {
  // Wormhole packets blocked across several nodes, and cut-through packets each blocked
  // whole in one node: in both, dropping must give back every buffer slot and credit.
  for (FlowControl fc : {FlowControl::kWormhole, FlowControl::kVirtualCutThrough}) {
    SimParams p = deadlockProne();
    p.flow_control = fc;
    if (fc == FlowControl::kVirtualCutThrough) p.buffer_flits = p.packet_flits;
    p.deadlock = DeadlockHandling::kDrop;
    p.deadlock_timeout_clocks = 200;
    p.creation_max = 4000;
    const Results r = simulate(makeRing(8), p);
    SCOPED_TRACE(flowControlName(fc));
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
  // Drop only removes packets blocked for the timeout: at light load none is.
  SimParams p = baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.deadlock = DeadlockHandling::kDrop;
  p.deadlock_timeout_clocks = 1000;
  setLoad(p, 0.05);
  p.creation_max = 2000;
  const Results r = simulate(makeMesh({4, 4}), p);
  EXPECT_EQ(r.status, RunStatus::kOk);
  EXPECT_EQ(r.messages.dropped, 0);
  EXPECT_EQ(r.messages.delivered, 2000);
}

TEST(Deadlock, NothingIsDroppedWithoutDrop) {
  for (DeadlockHandling dh : {DeadlockHandling::kNone, DeadlockHandling::kAvoid}) {
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
