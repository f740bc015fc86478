// The pseudo-random generator of the simulator: xoshiro256** (Blackman & Vigna, "Scrambled
// linear pseudorandom number generators", 2018) seeded through splitmix64. Every traffic
// source owns one stream, so results do not depend on the order sources are visited.
#pragma once

#include <cmath>
#include <cstdint>

namespace ndl::rt {

// splitmix64 (Steele, Lea, Flood 2014): used only to expand a seed into generator state.
inline uint64_t splitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Rng {
 public:
  Rng() : Rng(0, 0) {}
  // Stream `stream` of seed `seed`: distinct streams start from unrelated states.
  Rng(uint64_t seed, uint64_t stream) {
    uint64_t sm = seed ^ (0xd1b54a32d192ed03ULL * (stream + 1));
    splitMix64(sm);
    for (auto& word : s_) word = splitMix64(sm);
  }

  // A generator with the given raw state (for checking against the published reference).
  static Rng fromState(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3) {
    Rng rng;
    rng.s_[0] = s0;
    rng.s_[1] = s1;
    rng.s_[2] = s2;
    rng.s_[3] = s3;
    return rng;
  }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, n), unbiased (Lemire's multiply-and-reject method).
  uint64_t below(uint64_t n) {
    __extension__ using U128 = unsigned __int128;
    U128 m = static_cast<U128>(next()) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<U128>(next()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

  // Number of Bernoulli(p) trials up to and including the first success (>= 1). Drawing the
  // gap once is equivalent to one coin per clock and far cheaper at light load. log_fail is
  // log1p(-p), given by the caller: a source draws every gap with the same p.
  int64_t geometric(double p, double log_fail) {
    if (p >= 1.0) return 1;
    if (p <= 0.0) return INT64_MAX / 4;
    const double u = 1.0 - uniform01();  // (0, 1]
    const double gap = std::floor(std::log(u) / log_fail);
    return gap > 4.0e18 ? INT64_MAX / 4 : static_cast<int64_t>(gap) + 1;
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace ndl::rt
