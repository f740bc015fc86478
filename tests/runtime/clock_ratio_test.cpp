// A router slower than its links acts in the network clocks its own edges fall in, counted
// in integers (runtime/sim/clock_ratio.h).
#include "ndl/runtime/sim/clock_ratio.h"

#include <gtest/gtest.h>

namespace ndl::rt {
namespace {

// The clocks of [0, n) in which a router of fr Hz acts on links of fl Hz, by exact integers.
std::vector<int64_t> exactTicks(int64_t fr, int64_t fl, int64_t n) {
  std::vector<int64_t> out;
  for (int64_t c = 0; c < n; ++c)
    if ((c + 1) * fr / fl > c * fr / fl) out.push_back(c);
  return out;
}

std::vector<int64_t> ticks(const ClockRatio& r, int64_t n) {
  std::vector<int64_t> out;
  for (int64_t c = 0; c < n; ++c)
    if (r.acts(c)) out.push_back(c);
  return out;
}

TEST(ClockRatio, EveryClockWithoutASlowerRouter) {
  EXPECT_TRUE(ClockRatio(0, 1e8).every());
  EXPECT_TRUE(ClockRatio(1e8, 1e8).every());
  EXPECT_TRUE(ClockRatio(2e8, 1e8).every());
  EXPECT_TRUE(ClockRatio(1e8, 1e8).acts(12345));
}

TEST(ClockRatio, ActsWhereTheRoutersEdgesFallExactly) {
  // 29 MHz on 100 MHz links: in doubles 100 x 0.29 is 28.999..., which put the edge of
  // router clock 29 one network clock late.
  EXPECT_EQ(ticks(ClockRatio(29e6, 100e6), 1000), exactTicks(29, 100, 1000));
  EXPECT_TRUE(ClockRatio(29e6, 100e6).acts(99));
  EXPECT_FALSE(ClockRatio(29e6, 100e6).acts(100));
  EXPECT_EQ(ticks(ClockRatio(50e6, 100e6), 64), exactTicks(1, 2, 64));
  EXPECT_EQ(ticks(ClockRatio(62.5e6, 125e6), 64), exactTicks(1, 2, 64));
  EXPECT_EQ(ticks(ClockRatio(1e8, 3e8), 999), exactTicks(1, 3, 999));
  EXPECT_EQ(ticks(ClockRatio(133e6, 250e6), 5000), exactTicks(133, 250, 5000));
}

TEST(ClockRatio, CountsOneActionPerRouterClockOverLongRuns) {
  // Over 10^12 network clocks a 33 MHz router on 100 MHz links has 33 * 10^10 edges: the
  // count is the floor of the ratio's multiple, to the clock.
  const ClockRatio r(33e6, 100e6);
  int64_t n = 0;
  const int64_t start = 1000000000000 - 1000;
  for (int64_t c = start; c < start + 1000; ++c) n += r.acts(c);
  EXPECT_EQ(n, (start + 1000) * 33 / 100 - start * 33 / 100);
}

}  // namespace
}  // namespace ndl::rt
