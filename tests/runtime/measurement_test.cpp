// The phases of a steady run (docs/runtime.md 3.1), fed period figures directly: when the
// warm-up ends, when the measurement converges, and the two tests of saturation.
#include "ndl/runtime/stats/measurement.h"

#include <gtest/gtest.h>

namespace ndl::rt {
namespace {

using Phase = SteadyMeasurement::Phase;

Moments moments(int64_t n, double mean, double sd) {
  Moments m;
  m.n = n;
  m.sum = static_cast<double>(n) * mean;
  m.sq = static_cast<double>(n - 1) * sd * sd + static_cast<double>(n) * mean * mean;
  return m;
}

// A period of `n` messages at latency `lat` (sd `sd`) and `acc` flits/endpoint/clock, all of
// them accepted, with 100 messages held of the same age.
PeriodFigures period(double lat, double acc, int64_t n = 2000, double sd = 10) {
  PeriodFigures f;
  f.latency = moments(n, lat, sd);
  f.accepted = f.span_accepted = f.span_offered = acc;
  f.ages = moments(n + 100, lat, sd);
  f.network_latency = lat * 0.9;
  f.held = 100;
  return f;
}

TEST(SteadyMeasurement, ASteadyLoadWarmsUpThreePeriodsConvergesInFourAndDrains) {
  SteadyMeasurement m(1000);
  EXPECT_EQ(m.endPeriod(1000, period(40, 0.3)), Phase::kWarmup);
  EXPECT_EQ(m.endPeriod(2000, period(40, 0.3)), Phase::kWarmup);
  EXPECT_EQ(m.endPeriod(3000, period(40, 0.3)), Phase::kMeasure);  // the third at the earliest
  EXPECT_EQ(m.report().warmup_end_clock, 3000);
  // The first measured period has nothing to compare with; three within 5% follow.
  for (int64_t end : {4000, 5000, 6000}) EXPECT_EQ(m.endPeriod(end, period(40, 0.3)), Phase::kMeasure);
  EXPECT_EQ(m.endPeriod(7000, period(41, 0.3)), Phase::kDrain);
  EXPECT_EQ(m.report().window_end_clock, 7000);
  EXPECT_EQ(m.report().measured_periods, 4);
  m.drained(7123);
  EXPECT_EQ(m.phase(), Phase::kDone);
  EXPECT_EQ(m.report().verdict, Verdict::kConverged);
  EXPECT_EQ(m.report().drain_end_clock, 7123);
}

TEST(SteadyMeasurement, AChangeAboveFivePercentRestartsTheConvergedCount) {
  SteadyMeasurement m(1000);
  for (int64_t end : {1000, 2000, 3000}) m.endPeriod(end, period(40, 0.3));
  m.endPeriod(4000, period(40, 0.3));
  m.endPeriod(5000, period(40, 0.3));
  m.endPeriod(6000, period(40, 0.3));
  EXPECT_EQ(m.endPeriod(7000, period(44, 0.3)), Phase::kMeasure);  // +10%: count restarts
  EXPECT_EQ(m.endPeriod(8000, period(44, 0.3)), Phase::kMeasure);
  EXPECT_EQ(m.endPeriod(9000, period(44, 0.3)), Phase::kMeasure);
  EXPECT_EQ(m.endPeriod(10000, period(44, 0.3)), Phase::kDrain);
}

TEST(SteadyMeasurement, ALightLoadSettlesWithinItsSamplingNoise) {
  // 50 messages a period, sd 15: two standard errors of a difference are 6 clocks, so
  // periods 8% apart are within the noise (but not within 5%).
  SteadyMeasurement m(1000);
  EXPECT_EQ(m.endPeriod(1000, period(40, 0.01, 50, 15)), Phase::kWarmup);
  EXPECT_EQ(m.endPeriod(2000, period(43, 0.0092, 50, 15)), Phase::kWarmup);
  EXPECT_EQ(m.endPeriod(3000, period(40, 0.01, 50, 15)), Phase::kMeasure);
  // The same difference with 5,000 messages a period is a transient.
  SteadyMeasurement busy(1000);
  busy.endPeriod(1000, period(40, 0.3, 5000, 15));
  busy.endPeriod(2000, period(43, 0.3, 5000, 15));
  EXPECT_EQ(busy.endPeriod(3000, period(40, 0.3, 5000, 15)), Phase::kWarmup);
}

TEST(SteadyMeasurement, AnAgeAboveTheThresholdIsSaturation) {
  SteadyMeasurement m(1000);
  PeriodFigures f = period(40, 0.3);
  f.ages = moments(3000, 520, 100);
  EXPECT_EQ(m.endPeriod(1000, f), Phase::kDone);
  EXPECT_EQ(m.report().verdict, Verdict::kSaturated);
  EXPECT_EQ(m.report().saturation_latency_clocks, 500);
  // A network whose messages take 200 clocks without queueing: five times that.
  SteadyMeasurement slow(1000);
  f.network_latency = 200;
  EXPECT_EQ(slow.endPeriod(1000, f), Phase::kWarmup);
  EXPECT_EQ(slow.report().saturation_latency_clocks, 1000);
}

TEST(SteadyMeasurement, AcceptingUnderNinetyPercentOfTheOfferIsSaturationAfterTwoPeriods) {
  SteadyMeasurement m(1000);
  PeriodFigures f = period(40, 0.35);
  f.span_offered = 0.45;
  EXPECT_EQ(m.endPeriod(1000, f), Phase::kWarmup);  // the first period fills the network
  EXPECT_EQ(m.endPeriod(2000, f), Phase::kWarmup);  // one period of the span
  EXPECT_EQ(m.endPeriod(3000, f), Phase::kDone);
  EXPECT_EQ(m.report().verdict, Verdict::kSaturated);
  EXPECT_NE(m.report().reason.find("accepted 0.35 of the 0.45"), std::string::npos)
      << m.report().reason;
}

TEST(SteadyMeasurement, ALatencyThatKeepsGrowingWithTheQueuesIsSaturation) {
  SteadyMeasurement m(1000);
  Phase p = Phase::kWarmup;
  for (int k = 1; k <= 10; ++k) {
    PeriodFigures f = period(40 + 10.0 * k, 0.3);
    f.held = 100 * k;
    p = m.endPeriod(1000 * k, f);
  }
  EXPECT_EQ(p, Phase::kDone);
  EXPECT_EQ(m.report().verdict, Verdict::kSaturated);
  EXPECT_EQ(m.report().warmup_periods, 10);
}

TEST(SteadyMeasurement, AWarmupThatNeverSettlesWithoutGrowingQueuesIsMeasuredAnyway) {
  SteadyMeasurement m(1000);
  Phase p = Phase::kWarmup;
  for (int k = 1; k <= 10; ++k) {
    PeriodFigures f = period(k % 2 ? 40 : 60, 0.3);
    f.held = k % 2 ? 100 : 90;
    p = m.endPeriod(1000 * k, f);
  }
  EXPECT_EQ(p, Phase::kMeasure);
  EXPECT_NE(m.report().reason.find("did not settle"), std::string::npos);
  m.stopped();
  EXPECT_EQ(m.report().verdict, Verdict::kUnconverged);
}

}  // namespace
}  // namespace ndl::rt
