// Percentiles of the exact latency distribution.
#include "ndl/runtime/stats/latency_histogram.h"

#include <algorithm>
#include <cmath>

namespace ndl::rt {

int64_t LatencyHistogram::percentile(double q) const {
  if (count_ == 0) return 0;
  uint64_t rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_)));
  rank = std::clamp<uint64_t>(rank, 1, count_);
  uint64_t seen = 0;
  for (size_t v = 0; v < counts_.size(); ++v) {
    seen += counts_[v];
    if (seen >= rank) return static_cast<int64_t>(v);
  }
  std::sort(large_.begin(), large_.end());
  return large_[rank - seen - 1];
}

LatencySummary LatencyHistogram::summary() const {
  return {count_, mean(), percentile(0.5), percentile(0.99), max_};
}

}  // namespace ndl::rt
