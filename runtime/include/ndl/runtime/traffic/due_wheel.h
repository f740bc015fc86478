// When each source creates its next message: a timing wheel of the next kSlots clocks, with a
// heap for the few later times. Sources are taken clock by clock, in increasing node order
// within a clock, the order a heap ordered by (clock, node) pops them in; a push and a take
// cost a vector append each, where the heap sifted through log2(nodes) levels (whose branches
// mispredict) for every message.
#pragma once

#include <algorithm>
#include <cstdint>
#include <queue>
#include <vector>

namespace ndl::rt {

class DueWheel {
 public:
  DueWheel() : slots_(kSlots) {}

  // Source `node` creates at clock `cycle`, no earlier than the clock taken next.
  void push(int64_t cycle, int32_t node) {
    cycle = std::max(cycle, next_);
    ++size_;
    if (cycle - next_ < kSlots) {
      slots_[static_cast<size_t>(cycle) & kMask].push_back(node);
    } else {
      later_.push({cycle, node});
    }
  }

  // The sources due at clocks up to c not taken yet, by clock and then by node.
  const std::vector<int32_t>& take(int64_t c) {
    taken_.clear();
    for (; next_ <= c; ++next_) {
      std::vector<int32_t>& slot = slots_[static_cast<size_t>(next_) & kMask];
      if (!slot.empty()) {
        std::sort(slot.begin(), slot.end());
        taken_.insert(taken_.end(), slot.begin(), slot.end());
        size_ -= slot.size();
        slot.clear();
      }
      // The slot just emptied now stands for clock next_ + kSlots.
      while (!later_.empty() && later_.top().cycle <= next_ + kSlots) {
        slots_[static_cast<size_t>(later_.top().cycle) & kMask].push_back(later_.top().node);
        later_.pop();
      }
    }
    return taken_;
  }

  bool empty() const { return size_ == 0; }
  void clear() {
    for (std::vector<int32_t>& slot : slots_) slot.clear();
    later_ = {};
    size_ = 0;
  }

 private:
  static constexpr int64_t kSlots = 1024;  // mean gaps up to hundreds of clocks stay in slots
  static constexpr size_t kMask = kSlots - 1;
  struct Later {
    int64_t cycle;
    int32_t node;
    bool operator>(const Later& o) const {
      return cycle != o.cycle ? cycle > o.cycle : node > o.node;
    }
  };
  std::vector<std::vector<int32_t>> slots_;  // slot t % kSlots: due at t, next_ <= t < next_ + kSlots
  std::priority_queue<Later, std::vector<Later>, std::greater<Later>> later_;
  std::vector<int32_t> taken_;
  int64_t next_ = 0;  // the next clock to take
  size_t size_ = 0;
};

}  // namespace ndl::rt
