// An exact distribution of integer latencies (in clocks): counts per value up to a cap and
// the raw values beyond it, so mean, percentiles and max are exact while memory depends on
// the spread of latencies, not on how many were recorded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ndl::rt {

struct LatencySummary {
  uint64_t count = 0;
  double mean = 0;
  int64_t p50 = 0;
  int64_t p99 = 0;
  int64_t max = 0;
};

// Counts in bins of equal width for output: bin i holds the latencies in
// [first + i * width, first + (i + 1) * width). The width is 1, 2 or 5 times a power of ten,
// the smallest that covers the values seen in at most the bins asked for; first is a multiple
// of it. No bins when nothing was recorded.
struct LatencyBins {
  int64_t first = 0;
  int64_t width = 1;
  std::vector<uint64_t> counts;
};

class LatencyHistogram {
 public:
  static constexpr int64_t kExactLimit = 1 << 16;

  void add(int64_t value) {
    ++count_;
    sum_ += value;
    if (value > max_) max_ = value;
    if (value < kExactLimit) {
      if (static_cast<size_t>(value) >= counts_.size()) counts_.resize(value + 1, 0);
      ++counts_[value];
    } else {
      large_.push_back(value);
    }
  }
  uint64_t count() const { return count_; }
  double mean() const { return count_ ? static_cast<double>(sum_) / count_ : 0.0; }
  int64_t max() const { return max_; }
  // Nearest-rank percentile: the smallest value v with at least ceil(q * count) values <= v.
  int64_t percentile(double q) const;
  LatencySummary summary() const;
  LatencyBins bins(int64_t max_bins) const;

 private:
  std::vector<uint64_t> counts_;
  mutable std::vector<int64_t> large_;
  uint64_t count_ = 0;
  int64_t sum_ = 0;
  int64_t max_ = 0;
};

}  // namespace ndl::rt
