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

LatencyBins LatencyHistogram::bins(int64_t max_bins) const {
  LatencyBins out;
  if (count_ == 0) return out;
  int64_t low = max_;
  for (size_t v = 0; v < counts_.size(); ++v) {
    if (counts_[v] != 0) {
      low = static_cast<int64_t>(v);
      break;
    }
  }
  for (const int64_t v : large_) low = std::min(low, v);
  // 1, 2, 5, 10, 20, 50, ...: the first that spans [low, max_] in max_bins bins.
  static constexpr int64_t kSteps[] = {1, 2, 5};
  int64_t decade = 1;
  for (int k = 0;; ++k) {
    out.width = kSteps[k % 3] * decade;
    out.first = low / out.width * out.width;
    if ((max_ - out.first) / out.width < max_bins) break;
    if (k % 3 == 2) decade *= 10;
  }
  out.counts.assign(static_cast<size_t>((max_ - out.first) / out.width + 1), 0);
  for (size_t v = static_cast<size_t>(low); v < counts_.size(); ++v)
    out.counts[(static_cast<int64_t>(v) - out.first) / out.width] += counts_[v];
  for (const int64_t v : large_) ++out.counts[(v - out.first) / out.width];
  return out;
}

LatencySummary LatencyHistogram::summary() const {
  return {count_, mean(), percentile(0.5), percentile(0.99), max_};
}

}  // namespace ndl::rt
