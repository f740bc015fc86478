// DueWheel: sources come out by clock and then by node, as from a heap ordered by (clock,
// node), whether their clock is within the wheel's slots or far beyond.
#include "ndl/runtime/traffic/due_wheel.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <queue>
#include <random>
#include <utility>
#include <vector>

namespace ndl::rt {
namespace {

std::vector<int32_t> takeAll(DueWheel& w, int64_t c) { return w.take(c); }

TEST(DueWheel, TakesByClockThenNode) {
  DueWheel w;
  w.push(3, 7);
  w.push(3, 2);
  w.push(1, 9);
  w.push(5000, 1);  // beyond the slots: held apart until its clock comes near
  EXPECT_TRUE(takeAll(w, 0).empty());
  EXPECT_EQ(takeAll(w, 1), (std::vector<int32_t>{9}));
  EXPECT_EQ(takeAll(w, 3), (std::vector<int32_t>{2, 7}));  // clocks 2 and 3
  EXPECT_FALSE(w.empty());
  EXPECT_TRUE(takeAll(w, 4999).empty());
  EXPECT_EQ(takeAll(w, 5000), (std::vector<int32_t>{1}));
  EXPECT_TRUE(w.empty());
}

TEST(DueWheel, AgreesWithAHeapOverALongRun) {
  // Sources creating at geometric-like gaps, some far longer than the slots, each pushed
  // again when taken: the wheel gives every clock's sources in the heap's order.
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<int64_t> gap(1, 3000);
  using Due = std::pair<int64_t, int32_t>;
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> heap;
  DueWheel w;
  for (int32_t n = 0; n < 300; ++n) {
    const int64_t first = gap(rng) - 1;
    heap.push({first, n});
    w.push(first, n);
  }
  for (int64_t c = 0; c < 20000; ++c) {
    std::vector<int32_t> expected;
    while (!heap.empty() && heap.top().first <= c) {
      expected.push_back(heap.top().second);
      heap.pop();
    }
    const std::vector<int32_t> got = w.take(c);
    ASSERT_EQ(got, expected) << "clock " << c;
    for (int32_t n : got) {
      const int64_t next = c + gap(rng);
      heap.push({next, n});
      w.push(next, n);
    }
  }
}

TEST(DueWheel, ClearForgetsEverything) {
  DueWheel w;
  w.push(2, 1);
  w.push(9000, 2);
  w.clear();
  EXPECT_TRUE(w.empty());
  EXPECT_TRUE(takeAll(w, 10000).empty());
}

}  // namespace
}  // namespace ndl::rt
