// Steady-state analysis of the message-latency sequence: a streaming series of batch means
// (fixed memory, batch size doubling as needed), MSER truncation of the initial transient
// (White 1997, applied to batch means) and a 95% confidence interval on the mean latency
// from non-overlapping batch means (Student t).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ndl::rt {

struct SteadyState {
  bool detected = false;       // a truncation point was found and enough batches remain
  uint64_t samples = 0;        // messages analysed (the measured window, arrival order)
  uint64_t truncated = 0;      // leading messages removed as the transient
  int32_t batches = 0;         // batches of the confidence interval
  double mean = 0;             // mean latency after truncation, clocks
  double ci95_half_width = 0;  // clocks
};

class BatchSeries {
 public:
  static constexpr size_t kMaxBatches = 1024;
  void add(double value);
  SteadyState analyse() const;

 private:
  std::vector<double> means_;  // completed batches of batch_size_ samples
  uint64_t batch_size_ = 1;
  double partial_sum_ = 0;
  uint64_t partial_count_ = 0;
  uint64_t samples_ = 0;
};

// Two-sided 95% Student t quantile for `dof` degrees of freedom.
double studentT975(int32_t dof);

}  // namespace ndl::rt
