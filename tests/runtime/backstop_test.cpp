// The no-movement backstop (docs/runtime.md 2.5) stops a run in which flits wait in the
// network and nothing moves for deadlock_detect_clocks. Idle time with an empty network, flits
// and credits on their way over a wire, a header's delay and a slower router clock are no
// stall: runs that have more of them than the window run to their end. A network that really
// stalls is still stopped, once what was on its way has landed.
#include <gtest/gtest.h>

#include "test_networks.h"

namespace ndl::rt {
namespace {

using testing::baseParams;
using testing::setLoad;

TEST(Backstop, IdleStretchesAreNoStall) {
  // Three messages 30000 clocks apart on an otherwise idle line of 4 nodes, under the default
  // window of 10000 clocks: before each of the later two the network has been empty (nothing
  // moving) for longer than the window.
  SimParams p = baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.script = {{0, 0, 3, 128}, {30000, 1, 2, 128}, {60000, 3, 0, 128}};
  const Results r = simulate(makeMesh({4}), p);
  EXPECT_EQ(r.status, RunStatus::kOk) << r.status_message;
  EXPECT_EQ(r.params.deadlock_detect_clocks, 10000);
  EXPECT_EQ(r.messages.delivered, 3);
  EXPECT_GT(r.cycles, 60000);
  EXPECT_TRUE(r.conserved);
}

TEST(Backstop, CreditsOnTheirWayAreNoStall) {
  // A 4-flit worm through 2-flit buffers: after two flits each waits for the credit of the
  // one ahead, which takes CreditDelay = 250 clocks (the most a link takes) to come back; no
  // flit moves meanwhile, for longer than a window of 100 clocks between moves.
  SimParams p = baseParams(FlowControl::kWormhole, 4, 2, 1);
  p.credit_delay_clocks = 250;
  p.deadlock_detect_clocks = 100;
  p.time_limit_clocks = 1000000;
  const Results r = testing::runSingle(makeMesh({3}), p, 0, 2);
  EXPECT_EQ(r.status, RunStatus::kOk) << r.status_message;
  EXPECT_EQ(r.messages.delivered, 1);
  // The scenario holds: the worm's last flits waited for credits (at both hops at once).
  EXPECT_GT(r.cycles, 250);
}

TEST(Backstop, AHeaderDelayIsNoStall) {
  // NodeHardwareDelay 20000 clocks: the header waits that long at each router with nothing
  // else in the network.
  SimParams p = baseParams(FlowControl::kWormhole, 2, 4, 20000);
  p.time_limit_clocks = 1000000;
  const Results r = testing::runSingle(makeMesh({2}), p, 0, 1);
  EXPECT_EQ(r.status, RunStatus::kOk) << r.status_message;
  EXPECT_EQ(r.messages.delivered, 1);
  EXPECT_GT(r.cycles, 2 * 20000);
}

TEST(Backstop, ASlowRouterClockIsNoStall) {
  // Routers clocked 20000 times slower than the links: they act every 20000 link clocks (and
  // their one-clock header delay is as long), more than the window between moves.
  SimParams p = baseParams(FlowControl::kWormhole, 2, 4, 1);
  p.network_frequency_hz = 1e9;
  p.router_frequency_hz = 1e9 / 20000;
  p.header_delay_clocks = 20000;
  p.time_limit_clocks = 2000000;
  const Results r = testing::runSingle(makeMesh({2}), p, 0, 1);
  EXPECT_EQ(r.status, RunStatus::kOk) << r.status_message;
  EXPECT_EQ(r.messages.delivered, 1);
  EXPECT_GT(r.cycles, 3 * 20000);
}

TEST(Backstop, ARealStallIsStillStopped) {
  // The one-VC ring that deadlocks (deadlock_test.cpp) with the wait-for search off
  // (DropAfterTimeout with a timeout that never comes) and credits that take 250 clocks: the
  // backstop stops the run, after the last credit landed and a window without a move, and
  // names the cycle.
  SimParams p = baseParams(FlowControl::kWormhole, 8, 2, 1);
  p.virtual_channels = 1;
  setLoad(p, 0.9);
  p.injection_queue_capacity = 4;
  p.deadlock = DeadlockHandling::kDropAfterTimeout;
  p.deadlock_timeout_clocks = 1000000000;
  p.deadlock_detect_clocks = 3000;
  p.credit_delay_clocks = 250;
  p.time_limit_clocks = 400000;
  const Results r = simulate(makeRing(8), p);
  ASSERT_EQ(r.status, RunStatus::kDeadlock) << r.status_message;
  EXPECT_EQ(r.deadlock_searches, 0);
  EXPECT_EQ(r.deadlock.clock, r.cycles - 1);
  EXPECT_FALSE(r.deadlock.cycle.empty());
  EXPECT_NE(r.status_message.find("deadlock at clock"), std::string::npos) << r.status_message;
  EXPECT_LT(r.cycles, 400000);
  EXPECT_EQ(r.packets.dropped, 0);
  EXPECT_GT(r.packets.in_flight, 0);
  EXPECT_TRUE(r.conserved);
}

}  // namespace
}  // namespace ndl::rt
