// Conservation (docs/runtime.md 3): every message and packet created is delivered, dropped,
// refused or still held by the simulator. "In flight" is what the simulator holds, counted
// from its records apart from the statistics' counters, so that a message or a packet lost or
// counted twice makes conservation fail instead of being absorbed by a difference.
#include <gtest/gtest.h>

#include <string>

#include "ndl/runtime/stats/report.h"
#include "ndl/runtime/stats/statistics.h"
#include "test_networks.h"

namespace ndl::rt {
namespace {

using testing::baseParams;
using testing::setLoad;

TEST(Conservation, InFlightIsWhatTheSimulatorHolds) {
  // One message of three packets, stopped after its first clock: the source has made the
  // first packet and written its head into the injection channel, the other two are still to
  // be made from the message in its queue. All of it is held.
  SimParams p = baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.message_max_bits = 3 * p.data_bits_per_packet;
  p.script = {{0, 0, 3, 3 * p.data_bits_per_packet}};
  p.time_limit_clocks = 1;
  const Results r = simulate(makeMesh({4}), p);
  EXPECT_EQ(r.cycles, 1);
  EXPECT_EQ(r.messages.created, 1);
  EXPECT_EQ(r.messages.in_flight, 1);
  EXPECT_EQ(r.messages.queued, 1);
  EXPECT_EQ(r.packets.created, 3);
  EXPECT_EQ(r.packets.in_flight, 3);
  EXPECT_TRUE(r.conserved);
}

TEST(Conservation, HoldsWithEveryOutcomeAtOnce) {
  // Multi-packet messages on a one-VC ring that deadlocks, cycles dropped (Drop), small
  // queues that refuse, stopped by the time limit with messages queued, in the network and
  // partly delivered: every count is non-zero and they add up exactly, for messages and for
  // packets.
  SimParams p = baseParams(FlowControl::kWormhole, 4, 2, 1);
  p.virtual_channels = 1;
  p.message_min_bits = p.data_bits_per_packet;
  p.message_max_bits = 3 * p.data_bits_per_packet;
  setLoad(p, 0.9);
  p.injection_queue_capacity = 2;
  p.deadlock = DeadlockHandling::kDrop;
  p.deadlock_timeout_clocks = 100;
  p.time_limit_clocks = 20000;
  const Results r = simulate(makeRing(8), p);
  for (int64_t n :
       {r.messages.delivered, r.messages.dropped, r.messages.refused, r.messages.in_flight,
        r.messages.queued, r.packets.delivered, r.packets.dropped, r.packets.in_flight}) {
    EXPECT_GT(n, 0);
  }
  EXPECT_EQ(r.messages.created,
            r.messages.delivered + r.messages.dropped + r.messages.refused + r.messages.in_flight);
  EXPECT_EQ(r.packets.created, r.packets.delivered + r.packets.dropped + r.packets.in_flight);
  EXPECT_TRUE(r.conserved);
  EXPECT_NE(formatReport(r).find("conservation: holds\n"), std::string::npos);
}

// Dimension order that fails (no candidate) at its n-th call.
int64_t g_calls_left = 0;
RouteSet failingRoute(const RouteContext& ctx) {
  if (--g_calls_left == 0) return RouteSet{{0, 0, 0, 0}, -1};
  return oracle::dimensionOrder(ctx);
}

TEST(Conservation, HoldsWhenARoutingFailureCutsAClockShort) {
  // A one-VC ring dropping headers blocked for 20 clocks (DropAfterTimeout), stopped by a
  // routing failure part way through a clock: what the routers stepped before it did in that
  // clock (packets dropped, tails ejected) is counted as the records say, so the counts still
  // add up, whichever call fails.
  int64_t dropped = 0;
  for (int64_t n = 300; n < 400; ++n) {
    SimParams p = baseParams(FlowControl::kWormhole, 4, 2, 1);
    p.virtual_channels = 1;
    p.message_min_bits = p.data_bits_per_packet;
    p.message_max_bits = 3 * p.data_bits_per_packet;
    setLoad(p, 0.9);
    p.deadlock = DeadlockHandling::kDropAfterTimeout;
    p.deadlock_timeout_clocks = 20;
    p.route_fn = failingRoute;
    p.time_limit_clocks = 100000;
    g_calls_left = n;
    const Results r = simulate(makeRing(8), p);
    ASSERT_EQ(r.status, RunStatus::kRoutingError) << n;
    EXPECT_TRUE(r.conserved) << "failing at call " << n << ": " << formatReport(r);
    dropped += r.packets.dropped;
  }
  EXPECT_GT(dropped, 0);
}

TEST(Conservation, HoldsWhenAPacketsInitialHeaderFails) {
  // A message of two packets to node 3, whose first packet's initial header values are
  // refused (as a routing's (random 0) is) when the source makes it: the run stops there,
  // the message and both its packets still held, none half made.
  SimParams p = baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.message_max_bits = 2 * p.data_bits_per_packet;
  p.script = {{0, 0, 1, p.data_bits_per_packet}, {50, 0, 3, 2 * p.data_bits_per_packet}};
  p.header_init = [](int32_t, int32_t dst, uint64_t) -> uint64_t {
    if (dst == 3) throw RoutingFailure("the initial header of a packet to node 3 is refused");
    return 0;
  };
  const Results r = simulate(makeMesh({4}), p);
  ASSERT_EQ(r.status, RunStatus::kRoutingError) << r.status_message;
  EXPECT_EQ(r.messages.created, 2);
  EXPECT_EQ(r.messages.delivered, 1);
  EXPECT_EQ(r.messages.in_flight, 1);
  EXPECT_EQ(r.packets.created, 3);
  EXPECT_EQ(r.packets.in_flight, 2);
  EXPECT_TRUE(r.conserved) << formatReport(r);
}

// The statistics of one message of two packets, one delivered, finished with `held` as what
// the simulator says it holds.
Results finishWith(const HeldCounts& held) {
  SimParams p = baseParams(FlowControl::kWormhole, 4, 4, 1);
  NetworkDesc two;
  two.nodes.resize(2);
  const EndpointLayout endpoints(two);
  Statistics stats(p, endpoints);
  Message m;
  m.src = 0;
  m.dst = 1;
  m.packets = 2;
  stats.onCreated(m, 8);
  Packet packet;
  packet.src = 0;
  packet.dst = 1;
  packet.len = 4;
  stats.onPacketDelivered(packet, 10, false, 0);  // the first of two
  Results r;
  stats.finish(20, 4, {0, 0}, held, r);
  return r;
}

TEST(Conservation, AMiscountIsCaught) {
  // The message and its second packet are held: conserved.
  const Results ok = finishWith({1, 1, 0});
  EXPECT_TRUE(ok.conserved);
  EXPECT_EQ(ok.messages.in_flight, 1);
  EXPECT_EQ(ok.packets.in_flight, 1);
  // A packet the simulator lost, or holds twice; a message lost; a queue longer than what is
  // held: each is caught, and the report says by how much the counts part.
  for (const HeldCounts& bad :
       {HeldCounts{1, 0, 0}, HeldCounts{1, 2, 0}, HeldCounts{0, 1, 0}, HeldCounts{1, 1, 2}}) {
    const Results r = finishWith(bad);
    EXPECT_FALSE(r.conserved);
    const std::string line =
        "conservation: VIOLATED: messages created - delivered - dropped - refused - in flight = " +
        std::to_string(1 - bad.messages) +
        ", packets created - delivered - dropped - in flight = " + std::to_string(1 - bad.packets) +
        ", " + std::to_string(bad.queued_messages) + " queued of " + std::to_string(bad.messages) +
        " in flight\n";
    EXPECT_NE(formatReport(r).find(line), std::string::npos) << formatReport(r);
  }
}

}  // namespace
}  // namespace ndl::rt
