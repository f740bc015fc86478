// Round-robin arbitration over request bit masks: the requester at or after the pointer
// wins, and the pointer then moves past the winner, so every requester is served within one
// round (fair, starvation-free).
#pragma once

#include <cstdint>

namespace ndl::rt {

// First set bit of `requests` at or after `start` (cyclically); -1 if there is none.
inline int roundRobinPick(uint64_t requests, uint32_t start) {
  if (requests == 0) return -1;
  const uint64_t upper = start < 64 ? requests & (~uint64_t{0} << start) : 0;
  return __builtin_ctzll(upper != 0 ? upper : requests);
}

// The pointer value after `winner` was granted.
inline uint8_t roundRobinNext(int winner) { return static_cast<uint8_t>((winner + 1) & 63); }

}  // namespace ndl::rt
