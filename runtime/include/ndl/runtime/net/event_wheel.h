// Flits on links and credits on their way back, bucketed by the clock they arrive. Sending
// only ever schedules into a later clock, which is what makes a cycle two-phase: routers
// evaluate from the current state, and what they send becomes visible no earlier than the
// next clock, whatever the order routers were visited in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ndl/runtime/net/hot.h"

namespace ndl::rt {

struct FlitEvent {
  uint32_t vc;      // global input VC id at the receiving router
  uint32_t packet;  // the flit's packet
  int32_t router;   // the receiving router
};

// One credit returned (a flit left the buffer): 4 bytes, so that a clock's credits stream
// through half the memory of an event with a count.
struct CreditEvent {
  uint32_t ovc;  // global output VC id at the sending router
};

class EventWheel {
 public:
  // `horizon`: the longest delay ever scheduled, in clocks.
  explicit EventWheel(int32_t horizon = 1) {
    uint32_t size = 2;
    while (size <= static_cast<uint32_t>(horizon)) size *= 2;
    mask_ = size - 1;
    flits_.resize(size);
    credits_.resize(size);
  }
  void reserve(size_t per_bucket) {
    for (auto& b : flits_) b.reserve(per_bucket);
    for (auto& b : credits_) b.reserve(per_bucket);
  }
  NDL_HOT void sendCredit(int64_t arrival, uint32_t ovc) {
    append(credits_[arrival & mask_], CreditEvent{ovc});
  }
  std::vector<FlitEvent>& flitsAt(int64_t clock) { return flits_[clock & mask_]; }
  std::vector<CreditEvent>& creditsAt(int64_t clock) { return credits_[clock & mask_]; }
  // The last clock after c at which a flit or a credit already sent arrives, or -1 when none
  // is on its way (clock c's own bucket is delivered). It looks at every bucket: for the
  // no-movement backstop, at most once in its window, never per clock.
  int64_t lastArrivalAfter(int64_t c) const {
    for (int64_t d = mask_; d >= 1; --d) {
      const size_t b = static_cast<size_t>((c + d) & mask_);
      if (!flits_[b].empty() || !credits_[b].empty()) return c + d;
    }
    return -1;
  }

  // push_back with its reallocation out of line. In line, that path takes the new event's
  // address, so the compiler builds the event on the stack and reads it back, and the 8-byte
  // read over two 4-byte writes misses store forwarding: a stall on every flit sent. Public
  // for senders that keep a clock's bucket (flitsAt, creditsAt) at hand.
  template <class T>
  NDL_HOT static void append(std::vector<T>& bucket, const T& event) {
    if (bucket.size() == bucket.capacity()) [[unlikely]] grow(bucket);
    if (bucket.size() == bucket.capacity()) __builtin_unreachable();
    bucket.push_back(event);
  }

 private:
  template <class T>
  [[gnu::noinline]] static void grow(std::vector<T>& bucket) {
    bucket.reserve(2 * bucket.capacity() + 16);
  }

  uint32_t mask_ = 1;
  std::vector<std::vector<FlitEvent>> flits_;
  std::vector<std::vector<CreditEvent>> credits_;
};

}  // namespace ndl::rt
