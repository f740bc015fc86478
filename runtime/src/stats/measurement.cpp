// The phases of a steady-state run; called once per sample period, never per flit.
#include "ndl/runtime/stats/measurement.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace ndl::rt {

std::string_view verdictName(Verdict v) {
  switch (v) {
    case Verdict::kConverged: return "converged";
    case Verdict::kSaturated: return "saturated";
    case Verdict::kUnconverged: return "unconverged";
    case Verdict::kNone: break;
  }
  return "";
}

double Moments::variance() const {
  if (n < 2) return 0.0;
  const double m = mean();
  return std::max(0.0, (sq - static_cast<double>(n) * m * m) / static_cast<double>(n - 1));
}

namespace {

// Whether two period means differ by no more than the threshold, or (the warm-up) than two
// standard errors of their difference: a light load's period holds few messages, and its
// means move by more than 5% from noise alone.
bool close(double now, double before, double noise) {
  return std::fabs(now - before) <= std::max(SteadyMeasurement::kThreshold * now, 2 * noise);
}

}  // namespace

void SteadyMeasurement::saturate(int64_t end, std::string reason) {
  phase_ = Phase::kDone;
  report_.verdict = Verdict::kSaturated;
  report_.reason = std::move(reason);
  if (report_.window_end_clock < 0 && report_.warmup_end_clock >= 0) report_.window_end_clock = end;
}

SteadyMeasurement::Phase SteadyMeasurement::endPeriod(int64_t end, const PeriodFigures& f) {
  if (phase_ == Phase::kDone) return phase_;
  ++periods_;
  const Moments& period = f.latency;
  const Moments& ages = f.ages;
  const double accepted = f.accepted;
  const int64_t held = f.held;
  if (f.network_latency > 0) {
    lowest_network_ = lowest_network_ == 0 ? f.network_latency
                                           : std::min(lowest_network_, f.network_latency);
  }
  const double limit = std::max(kSaturationLatency, kSaturationFactor * lowest_network_);
  report_.saturation_latency_clocks = limit;
  report_.latency_at_stop_clocks = ages.mean();
  if (ages.n > 0 && ages.mean() > limit) {
    saturate(end, fmt::format("the messages delivered in the last period and those still held "
                              "average {:.1f} clocks since their creation, above the {:.0f} "
                              "clocks of saturation",
                              ages.mean(), limit));
    return phase_;
  }
  // Two periods of the span at least (the warm-up's span starts after its first period).
  const int32_t span_periods = phase_ == Phase::kWarmup ? periods_ - 1 : periods_;
  if (phase_ != Phase::kDrain && span_periods >= 2 &&
      f.span_accepted < kAcceptedShare * f.span_offered) {
    saturate(end, fmt::format("the network accepted {:.4g} of the {:.4g} flits per endpoint per "
                              "clock offered over the last {} periods",
                              f.span_accepted, f.span_offered, span_periods));
    return phase_;
  }
  held_rises_ += held > last_held_;
  last_held_ = held;
  // The held messages grew in most periods of the phase: the sources' queues are growing.
  const bool growing = held_rises_ * 4 > periods_ * 3;
  const bool had_last = last_.n > 0 && period.n > 0 && last_accepted_ > 0;
  if (phase_ == Phase::kWarmup) {
    report_.warmup_periods = periods_;
    bool settled = false;
    if (periods_ >= kMinWarmupPeriods && had_last) {
      const double lat_noise =
          std::sqrt(period.variance() / period.n + last_.variance() / last_.n);
      const double acc_noise =
          accepted * std::sqrt(1.0 / period.n + 1.0 / last_.n);  // arrivals counted
      settled = close(period.mean(), last_.mean(), lat_noise) &&
                close(accepted, last_accepted_, acc_noise);
    }
    last_ = period;
    last_accepted_ = accepted;
    if (!settled && periods_ < kMaxPeriods) return phase_;
    if (!settled && growing) {
      saturate(end, fmt::format("the warm-up did not settle in {} periods while the messages "
                                "held grew in {} of them",
                                periods_, held_rises_));
      return phase_;
    }
    if (!settled) {
      report_.reason = fmt::format("the warm-up did not settle in {} periods; measured from then",
                                   periods_);
    }
    phase_ = Phase::kMeasure;
    report_.warmup_end_clock = end;
    periods_ = converged_ = held_rises_ = 0;
    last_ = Moments{};
    last_accepted_ = -1;
    return phase_;
  }
  if (phase_ == Phase::kMeasure) {
    report_.measured_periods = periods_;
    const bool ok = had_last &&
                    std::fabs(period.mean() - last_.mean()) <= kThreshold * period.mean() &&
                    std::fabs(accepted - last_accepted_) <= kThreshold * accepted;
    converged_ = ok ? converged_ + 1 : 0;
    last_ = period;
    last_accepted_ = accepted;
    if (converged_ < kConvergedPeriods && periods_ < kMaxPeriods) return phase_;
    if (converged_ < kConvergedPeriods) {
      if (growing) {
        saturate(end, fmt::format("latency and accepted rate did not converge in {} periods "
                                  "while the messages held grew in {} of them",
                                  periods_, held_rises_));
        return phase_;
      }
      report_.verdict = Verdict::kUnconverged;
      report_.reason = fmt::format("latency and accepted rate did not converge in {} periods",
                                   periods_);
    }
    phase_ = Phase::kDrain;
    report_.window_end_clock = end;
    periods_ = 0;
    return phase_;
  }
  // Draining: the load stays on while the measured messages arrive.
  if (periods_ >= kMaxPeriods) {
    saturate(end, fmt::format("the measured messages did not drain in {} periods", periods_));
  }
  return phase_;
}

void SteadyMeasurement::drained(int64_t end) {
  if (phase_ != Phase::kDrain) return;
  phase_ = Phase::kDone;
  report_.drain_end_clock = end;
  if (report_.verdict == Verdict::kNone) report_.verdict = Verdict::kConverged;
}

void SteadyMeasurement::stopped() {
  if (phase_ == Phase::kDone) return;
  phase_ = Phase::kDone;
  if (report_.verdict == Verdict::kNone) report_.verdict = Verdict::kUnconverged;
  if (report_.reason.empty()) report_.reason = "the run stopped before the measurement ended";
}

}  // namespace ndl::rt
