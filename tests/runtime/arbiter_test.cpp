// Building blocks: the round-robin arbiter, the generator against the published
// xoshiro256** reference, the exact latency histogram and the batch-means interval.
#include "ndl/runtime/net/arbiter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ndl/runtime/stats/latency_histogram.h"
#include "ndl/runtime/stats/steady_state.h"
#include "ndl/runtime/traffic/rng.h"

namespace ndl::rt {
namespace {

TEST(Arbiter, RoundRobinServesEveryRequesterOncePerRound) {
  const uint64_t requests = 0b1011'0100;  // requesters 2, 4, 5, 7
  uint32_t pointer = 0;
  std::vector<int> order;
  for (int i = 0; i < 8; ++i) {
    const int winner = roundRobinPick(requests, pointer);
    order.push_back(winner);
    pointer = roundRobinNext(winner);
  }
  EXPECT_EQ(order, (std::vector<int>{2, 4, 5, 7, 2, 4, 5, 7}));
  EXPECT_EQ(roundRobinPick(0, 5), -1);
  EXPECT_EQ(roundRobinPick(uint64_t{1} << 63, 0), 63);
  EXPECT_EQ(roundRobinPick(1, 63), 0);  // wraps around
}

TEST(Rng, MatchesXoshiro256StarStarReference) {
  // From state {1, 2, 3, 4}: the first output is rotl(2*5, 7)*9 = 11520; the update gives
  // s1 = 0, so the second is 0 (hand-computed from the published algorithm).
  Rng rng = Rng::fromState(1, 2, 3, 4);
  EXPECT_EQ(rng.next(), 11520u);
  EXPECT_EQ(rng.next(), 0u);
}

TEST(Rng, StreamsAreIndependentAndReproducible) {
  Rng a(42, 0), b(42, 0), c(42, 1), d(43, 0);
  const uint64_t x = a.next();
  EXPECT_EQ(x, b.next());
  EXPECT_NE(x, c.next());
  EXPECT_NE(x, d.next());
}

TEST(Rng, BelowIsUniformAndGeometricHasMeanOneOverP) {
  Rng rng(7, 3);
  std::vector<int> counts(10, 0);
  const int n = 100000;
  for (int i = 0; i < n; ++i) ++counts[rng.below(10)];
  for (int c : counts) EXPECT_NEAR(c, n / 10, 5 * std::sqrt(n * 0.1 * 0.9));
  for (double p : {0.5, 0.1, 0.01}) {
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += static_cast<double>(rng.geometric(p, std::log1p(-p)));
    const double sd = std::sqrt((1 - p) / (p * p));
    EXPECT_NEAR(sum / n, 1 / p, 5 * sd / std::sqrt(n));
  }
  EXPECT_EQ(rng.geometric(1.0, std::log1p(-1.0)), 1);
  EXPECT_EQ(rng.geometric(0.0, 0.0), INT64_MAX / 4);  // a source that never creates
}

TEST(LatencyHistogram, ExactNearestRankPercentiles) {
  LatencyHistogram h;
  for (int v = 1; v <= 100; ++v) h.add(v);
  h.add(LatencyHistogram::kExactLimit + 5);  // beyond the exact table
  EXPECT_EQ(h.count(), 101u);
  EXPECT_EQ(h.percentile(0.5), 51);    // ceil(0.5 * 101) = 51st value
  EXPECT_EQ(h.percentile(0.99), 100);  // ceil(0.99 * 101) = 100th value
  EXPECT_EQ(h.percentile(1.0), LatencyHistogram::kExactLimit + 5);
  EXPECT_EQ(h.max(), LatencyHistogram::kExactLimit + 5);
  EXPECT_DOUBLE_EQ(h.mean(), (5050.0 + LatencyHistogram::kExactLimit + 5) / 101);
}

TEST(LatencyHistogram, BinsOfOneTwoOrFiveTimesAPowerOfTen) {
  LatencyHistogram empty;
  EXPECT_TRUE(empty.bins(100).counts.empty());
  // 7..30: 24 values fit in 100 bins of 1, starting at the lowest.
  LatencyHistogram narrow;
  for (int v = 7; v <= 30; ++v) narrow.add(v);
  LatencyBins b = narrow.bins(100);
  EXPECT_EQ(b.first, 7);
  EXPECT_EQ(b.width, 1);
  EXPECT_EQ(b.counts, std::vector<uint64_t>(24, 1));
  // 3..450 in at most 10 bins: widths 1, 2, 5, 10, 20 are too narrow, 50 spans 0..499 (bin 9
  // holds 450).
  LatencyHistogram wide;
  for (int v : {3, 49, 50, 120, 450, 450}) wide.add(v);
  b = wide.bins(10);
  EXPECT_EQ(b.first, 0);
  EXPECT_EQ(b.width, 50);
  EXPECT_EQ(b.counts, (std::vector<uint64_t>{2, 1, 1, 0, 0, 0, 0, 0, 0, 2}));
  // Values beyond the exact table are binned too.
  wide.add(LatencyHistogram::kExactLimit + 5);
  b = wide.bins(100);
  EXPECT_EQ(b.width, 1000);
  uint64_t sum = 0;
  for (uint64_t c : b.counts) sum += c;
  EXPECT_EQ(sum, 7u);
  EXPECT_EQ(b.counts.back(), 1u);
  EXPECT_EQ(b.first + static_cast<int64_t>(b.counts.size() - 1) * b.width, 65000);
}

TEST(SteadyState, TruncatesTransientAndCoversTrueMean) {
  // A decaying transient on top of i.i.d. noise of known mean 50: MSER must cut the start
  // and the 95% interval must cover 50.
  Rng rng(1, 0);
  BatchSeries series;
  for (int i = 0; i < 200000; ++i) {
    const double transient = i < 20000 ? 400.0 * (20000 - i) / 20000 : 0.0;
    series.add(50 + transient + 20 * (rng.uniform01() - 0.5));
  }
  const SteadyState s = series.analyse();
  EXPECT_TRUE(s.detected);
  EXPECT_GT(s.truncated, 5000u);
  EXPECT_LT(s.truncated, 100000u);
  EXPECT_EQ(s.batches, 20);
  EXPECT_NEAR(s.mean, 50, s.ci95_half_width + 0.5);
  EXPECT_LT(s.ci95_half_width, 1.0);
}

TEST(SteadyState, StudentQuantiles) {
  EXPECT_DOUBLE_EQ(studentT975(19), 2.093);
  EXPECT_NEAR(studentT975(1000), 1.96, 0.01);
}

}  // namespace
}  // namespace ndl::rt
