// The steady-state measurement of a synthetic run (docs/runtime.md 3.1): sample periods of
// SimulationInterval decide when the warm-up ends, when latency and accepted rate have
// converged, and whether the network is saturated. BookSim2's rule (its warm-up and stopping
// thresholds of 5%, three converged periods, a latency threshold), with the warm-up's test
// widened to the sampling noise of a period so that light loads settle too.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ndl::rt {

// Count, sum and sum of squares of latencies, clocks.
struct Moments {
  int64_t n = 0;
  double sum = 0, sq = 0;
  void add(double x) {
    ++n;
    sum += x;
    sq += x * x;
  }
  double mean() const { return n > 0 ? sum / static_cast<double>(n) : 0.0; }
  double variance() const;  // of one sample; 0 below two
};

// What the statistics saw in a sample period (rates in flits per endpoint per clock).
struct PeriodFigures {
  Moments latency;      // warm-up: this period's messages; measuring: the measured ones so far
  double accepted = 0;  // this period (warm-up) or the window so far (measuring)
  // Since the end of the first period (warm-up) or the window's start (measuring): the first
  // period fills an empty network, which delivers less than is created without saturating.
  double span_accepted = 0, span_offered = 0;
  Moments ages;                 // this period's message latencies and the held messages' ages
  double network_latency = 0;   // this period's mean, head entry to delivery (no queueing)
  int64_t held = 0;             // messages held at the period's end
};

// A steady run's outcome (docs/runtime.md 3.1); kNone while running, for a burst, or when the
// run stopped for another reason.
enum class Verdict : uint8_t { kNone, kConverged, kSaturated, kUnconverged };
// "converged", "saturated", "unconverged"; "" for kNone. The JSON's and the report's word.
std::string_view verdictName(Verdict v);

// What a steady run reports about its phases (Results::measurement).
struct MeasurementReport {
  bool steady = false;
  Verdict verdict = Verdict::kNone;
  std::string reason;  // why saturated or not converged
  int64_t period_clocks = 0;
  int64_t warmup_end_clock = -1;   // the window opens: messages created from here are measured
  int64_t window_end_clock = -1;   // converged: messages created before here are measured
  int64_t drain_end_clock = -1;    // the last measured message resolved
  int32_t warmup_periods = 0;
  int32_t measured_periods = 0;
  double saturation_latency_clocks = 0;  // the threshold in force at the end
  double latency_at_stop_clocks = 0;     // mean of the last period's and held messages' ages
};

class SteadyMeasurement {
 public:
  enum class Phase : uint8_t { kWarmup, kMeasure, kDrain, kDone };
  static constexpr double kThreshold = 0.05;  // BookSim2's warmup_thres and stopping_thres
  static constexpr int32_t kMinWarmupPeriods = 3;
  static constexpr int32_t kConvergedPeriods = 3;
  static constexpr int32_t kMaxPeriods = 10;  // per phase, as BookSim2's max_samples
  static constexpr double kSaturationLatency = 500;  // clocks, BookSim2's latency_thres
  // ... or this times the lowest period mean network latency, whichever is more: a network
  // whose messages take long without queueing is not saturated by that alone.
  static constexpr double kSaturationFactor = 5;
  // Accepted below this share of the offered flits (over two periods at least) is saturation.
  static constexpr double kAcceptedShare = 0.9;

  explicit SteadyMeasurement(int64_t period_clocks) {
    report_.steady = true;
    report_.period_clocks = period_clocks;
  }

  // At the end of a period (clock `end`); returns the phase that follows.
  Phase endPeriod(int64_t end, const PeriodFigures& f);
  // The measured messages have all resolved.
  void drained(int64_t end);
  // The run stopped for another reason (time limit, deadlock) while still measuring.
  void stopped();

  Phase phase() const { return phase_; }
  const MeasurementReport& report() const { return report_; }

 private:
  void saturate(int64_t end, std::string reason);

  Phase phase_ = Phase::kWarmup;
  MeasurementReport report_;
  int32_t periods_ = 0;  // in the current phase
  int32_t converged_ = 0;
  Moments last_;
  double last_accepted_ = -1;
  double lowest_network_ = 0;
  int64_t held_at_phase_start_ = 0;
  int32_t held_rises_ = 0;
  int64_t last_held_ = 0;
};

}  // namespace ndl::rt
