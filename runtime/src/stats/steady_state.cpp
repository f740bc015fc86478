// Batch means, MSER truncation and the confidence interval on mean message latency.
#include "ndl/runtime/stats/steady_state.h"

#include <cmath>
#include <limits>

namespace ndl::rt {

void BatchSeries::add(double value) {
  ++samples_;
  partial_sum_ += value;
  if (++partial_count_ < batch_size_) return;
  means_.push_back(partial_sum_ / static_cast<double>(batch_size_));
  partial_sum_ = 0;
  partial_count_ = 0;
  if (means_.size() == kMaxBatches) {
    // Keep memory fixed: merge neighbouring batches and double the batch size.
    for (size_t i = 0; i < kMaxBatches / 2; ++i) {
      means_[i] = 0.5 * (means_[2 * i] + means_[2 * i + 1]);
    }
    means_.resize(kMaxBatches / 2);
    batch_size_ *= 2;
  }
}

double studentT975(int32_t dof) {
  static constexpr double kTable[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                      2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                      2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                                      2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof < 1) return std::numeric_limits<double>::infinity();
  if (dof <= 30) return kTable[dof];
  return 1.960 + 2.4 / dof;  // close to the tabulated values above 30
}

SteadyState BatchSeries::analyse() const {
  SteadyState out;
  out.samples = samples_;
  const size_t m = means_.size();
  if (m < 20) return out;
  // MSER: choose the truncation d (at most half the series) that minimises the squared
  // standard error of the remaining batch means.
  size_t best_d = 0;
  double best = std::numeric_limits<double>::infinity();
  double suffix_sum = 0, suffix_sq = 0;
  std::vector<double> stat(m + 1, 0);
  for (size_t i = m; i-- > 0;) {
    suffix_sum += means_[i];
    suffix_sq += means_[i] * means_[i];
    const double n = static_cast<double>(m - i);
    const double mean = suffix_sum / n;
    stat[i] = (suffix_sq - n * mean * mean) / (n * n);
  }
  for (size_t d = 0; d <= m / 2; ++d) {
    if (stat[d] < best) {
      best = stat[d];
      best_d = d;
    }
  }
  const size_t kept = m - best_d;
  // Group the kept batch means into 20 batches for the interval.
  const int32_t groups = 20;
  const size_t per = kept / groups;
  if (per == 0) return out;
  double sum = 0, sq = 0;
  for (int32_t g = 0; g < groups; ++g) {
    double s = 0;
    for (size_t j = 0; j < per; ++j) s += means_[best_d + g * per + j];
    const double x = s / static_cast<double>(per);
    sum += x;
    sq += x * x;
  }
  const double mean = sum / groups;
  const double var = std::max(0.0, (sq - groups * mean * mean) / (groups - 1));
  out.detected = best_d < m / 2;
  out.truncated = best_d * batch_size_;
  out.batches = groups;
  out.mean = mean;
  out.ci95_half_width = studentT975(groups - 1) * std::sqrt(var / groups);
  return out;
}

}  // namespace ndl::rt
