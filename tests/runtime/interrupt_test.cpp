// Ctrl-C and SIGTERM are honoured within a clock: a network whose single
// clock takes longer than a second to simulate still stops within a second
// of the request, with its results consistent (issue: a million nodes on one
// core; the stop flag used to be read every 4096 clocks).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "test_networks.h"

namespace ndl::rt {
namespace {

using testing::baseParams;
using testing::setLoad;

// Dimension order that takes 1 ms per call: 1024 routers each routing a header make one
// clock last over a second.
RouteSet slowRoute(const RouteContext& ctx) {
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return oracle::dimensionOrder(ctx);
}

TEST(Interrupt, HonouredWithinAClockThatTakesSeconds) {
  const NetworkDesc torus = makeTorus({32, 32});
  SimParams p = baseParams(FlowControl::kVirtualCutThrough, 1, 1, 1);
  p.route_fn = slowRoute;
  setLoad(p, 1.0);            // every node creates a message at clock 0: 1024 headers to route
  p.time_limit_clocks = 4;    // without the poll inside the clock: several seconds, status ok
  volatile int stop = 0;
  RunOptions options;
  options.stop = &stop;
  std::atomic<int64_t> requested_ns{0};
  std::thread interrupter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    requested_ns = std::chrono::steady_clock::now().time_since_epoch().count();
    stop = 1;
  });
  Simulator sim(torus, p);
  const Results r = sim.run(options);
  const auto returned = std::chrono::steady_clock::now().time_since_epoch().count();
  interrupter.join();
  EXPECT_EQ(r.status, RunStatus::kInterrupted);
  EXPECT_LT(static_cast<double>(returned - requested_ns.load()) * 1e-9, 1.0);
  EXPECT_LE(r.cycles, 2);  // stopped in clock 1, the first that routes
  EXPECT_TRUE(r.conserved);
  // In flight is what the simulator holds, counted apart: every message, one packet each,
  // created at clock 0 and none delivered by clock 1.
  EXPECT_EQ(r.messages.in_flight, r.messages.created - r.messages.refused);
  EXPECT_EQ(r.packets.in_flight, r.packets.created);
  EXPECT_EQ(r.messages.created, r.messages.delivered + r.messages.dropped +
                                    r.messages.refused + r.messages.in_flight);
  EXPECT_EQ(r.packets.created, r.packets.delivered + r.packets.dropped + r.packets.in_flight);
}

}  // namespace
}  // namespace ndl::rt
