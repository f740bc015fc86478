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
// flits). The mean is sum / count, summed by quotient: lengths with the same ceiling have the
// same flits.
__extension__ typedef __int128 FlitsSum;  // a sum over 2^61 lengths of up to 2^16 flits each
struct MessageFlitsMean {
  FlitsSum sum = 0;
  FlitsSum count = 1;
  double value() const { return static_cast<double>(sum) / static_cast<double>(count); }
};

inline int64_t messageLengthStep(int64_t lo, int64_t hi) {
  return lo % 8 == 0 && hi % 8 == 0 ? 8 : 1;
}

inline MessageFlitsMean meanMessageFlits(int64_t lo, int64_t hi, int64_t unit, int64_t per) {
  MessageFlitsMean m;
  if (unit <= 0 || hi < lo) return m;
  const int64_t step = messageLengthStep(lo, hi);
  m.count = (hi - lo) / step + 1;
  for (int64_t q = (lo + unit - 1) / unit; q <= (hi + unit - 1) / unit; ++q) {
    const int64_t from = std::max<int64_t>(lo, (q - 1) * unit + 1);
    const int64_t to = std::min<int64_t>(hi, q * unit);
    const int64_t first = from + ((lo - from) % step + step) % step;  // = lo (mod step)
    if (first > to) continue;
    m.sum += static_cast<FlitsSum>(q) * ((to - first) / step + 1);
  }
  m.sum *= per;
  return m;
}

}  // namespace ndl::rt
