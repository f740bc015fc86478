// Which network clocks a slower router acts in, in integers: a router of frequency fr on links
// of frequency fl acts in network clock c when one of its own edges falls in it, that is when
// floor((c + 1) fr / fl) > floor(c fr / fl). The ratio is the exact one of the two frequencies
// (each a double, so an integer times a power of two), kept as a fraction in lowest terms; a
// double ratio would drift (29 MHz on 100 MHz links: 100 x 0.29 is 28.999... in doubles).
#pragma once

#include <cmath>
#include <cstdint>
#include <numeric>

namespace ndl::rt {

// 128 bits: (c + 1) times a 53-bit numerator for any clock c below 2^62.
__extension__ typedef unsigned __int128 ClockRatioWide;

class ClockRatio {
 public:
  // fr <= 0 or fr >= fl: the router acts in every network clock.
  ClockRatio(double fr, double fl) {
    if (!(fr > 0) || !(fr < fl)) return;
    int er = 0, el = 0;
    // fr = mr 2^(er - 53), fl = ml 2^(el - 53), mr and ml integers below 2^53.
    int64_t mr = static_cast<int64_t>(std::ldexp(std::frexp(fr, &er), 53));
    int64_t ml = static_cast<int64_t>(std::ldexp(std::frexp(fl, &el), 53));
    const int64_t g = std::gcd(mr, ml);
    mr /= g;
    ml /= g;
    // fr / fl = mr / ml * 2^(er - el), er <= el since fr < fl.
    num_ = mr;
    den_ = static_cast<ClockRatioWide>(ml);
    for (int shift = el - er; shift > 0; --shift) {
      if (num_ % 2 == 0) {
        num_ /= 2;
      } else if (den_ < (static_cast<ClockRatioWide>(1) << 100)) {
        den_ *= 2;  // beyond: a ratio below 2^-47, an edge every 10^14 clocks, kept there
      }
    }
    every_ = false;
  }

  bool every() const { return every_; }
  // Whether the router acts in network clock c (c >= 0, below 2^62).
  bool acts(int64_t c) const {
    if (every_) return true;
    const ClockRatioWide n = static_cast<ClockRatioWide>(num_);
    const ClockRatioWide k = static_cast<ClockRatioWide>(c);
    return (k + 1) * n / den_ > k * n / den_;
  }

 private:
  bool every_ = true;
  int64_t num_ = 1;
  ClockRatioWide den_ = 1;
};

}  // namespace ndl::rt
