// The mean flits of a synthetic message, exactly: the checker converts an OfferedLoad into a
// creation rate with it, and a simulator reports the load its configuration offers with it,
// so the two agree by construction.
#pragma once

#include <algorithm>
#include <cstdint>

namespace ndl::rt {

// A source draws a message's length uniformly from lo .. hi bits, in whole bytes when both
// ends are (a step of 8 bits), else in bits (traffic_source.cpp, lengthStep); a message of b
// bits is ceil(b / unit) packets of `per` flits each (unit: the data bits of a packet; under
// (NetworkPacketSize Message) the channel width, and per 1: one packet of ceil(b / width)
// flits). The mean is sum / count.
__extension__ typedef __int128 FlitsSum;  // a sum over 2^61 lengths of up to 2^16 flits each
struct MessageFlitsMean {
  FlitsSum sum = 0;
  FlitsSum count = 1;
  double value() const { return static_cast<double>(sum) / static_cast<double>(count); }
};

inline int64_t messageLengthStep(int64_t lo, int64_t hi) {
  return lo % 8 == 0 && hi % 8 == 0 ? 8 : 1;
}

// The sum over i in 0 .. n - 1 of floor((a i + b) / m), a, b >= 0, m > 0, in O(log m) steps
// (the Euclid-like reduction of the AtCoder Library's floor_sum): a message range of 2^40
// bits over a packet of 32 is not summed length by length.
inline FlitsSum floorSum(FlitsSum n, FlitsSum m, FlitsSum a, FlitsSum b) {
  FlitsSum sum = 0;
  for (;;) {
    if (a >= m) {
      sum += n * (n - 1) / 2 * (a / m);
      a %= m;
    }
    if (b >= m) {
      sum += n * (b / m);
      b %= m;
    }
    const FlitsSum y = a * n + b;
    if (y < m) return sum;
    n = y / m;
    b = y % m;
    const FlitsSum t = m;
    m = a;
    a = t;
  }
}

inline MessageFlitsMean meanMessageFlits(int64_t lo, int64_t hi, int64_t unit, int64_t per) {
  MessageFlitsMean m;
  if (unit <= 0 || hi < lo || lo < 0) return m;
  const int64_t step = messageLengthStep(lo, hi);
  m.count = (hi - lo) / step + 1;
  // ceil((lo + i step) / unit) = floor((step i + lo + unit - 1) / unit).
  m.sum = floorSum(m.count, unit, step, static_cast<FlitsSum>(lo) + unit - 1) * per;
  return m;
}

}  // namespace ndl::rt
