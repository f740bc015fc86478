// Runs the programs of a pattern step by step: repetitions unrolled and collectives expanded
// into point-to-point messages as they are reached, so a pattern is never expanded in
// memory. The checker (pattern_check.cpp) and the simulator (application.cpp) step the same
// cursors, so what the checker accepts is what the simulator runs.
#pragma once

#include <cstdint>
#include <vector>

#include "ndl/runtime/app/pattern.h"

namespace ndl::rt {

// A collective's messages carry tag kCollectiveTag + n for a node's n-th collective; a
// pattern's own tags are below 2^32.
inline constexpr uint64_t kCollectiveTag = uint64_t{1} << 32;

struct PatternStep {
  enum Kind : uint8_t { kCompute, kSend, kRecv, kMark, kWait, kDone } kind = kDone;
  int32_t peer = 0;    // send: destination; recv: source
  uint64_t tag = 0;
  int64_t value = 0;   // compute: its duration (as stored); send: bits; mark: its label;
                       // recv: 0 (the program waits), or 1 + the name it is posted as
  uint64_t names = 0;  // wait, and a send `after`: the posted receives it waits for
  uint32_t op = 0;     // index of the operation in PatternProgram::ops (for its site)
};

// The i-th message of a collective at node n: returns false past the last. Algorithms
// (docs/workloads.md): barrier by dissemination, all-to-all by pairwise exchange, broadcast
// and reduce on a binomial tree rooted at `root`.
bool collectiveStep(CollectiveKind kind, int32_t n, int32_t nodes, int32_t root, uint32_t i,
                    int32_t* peer, bool* send);

// The sends of one node that wait for its posted receives (`send ... after NAME`), shared by
// the simulator (application.cpp) and the checker (pattern_check.cpp): they leave in any
// order, so each keeps a slot, which the pending receives name in their waiter lists, and a
// freed slot is reused.
template <class Deferred>
class DeferredSends {
 public:
  Deferred& operator[](uint32_t slot) { return items_[slot]; }
  const Deferred& operator[](uint32_t slot) const { return items_[slot]; }
  // Stores d and puts its slot on the waiter list of every post in `posts` it waits for
  // (names: bit k for the receive posted as name k).
  template <class Post>
  uint32_t add(const Deferred& d, uint64_t names, std::vector<Post>& posts) {
    uint32_t slot = 0;
    if (free_.empty()) {
      slot = static_cast<uint32_t>(items_.size());
      items_.push_back(d);
    } else {
      slot = free_.back();
      free_.pop_back();
      items_[slot] = d;
    }
    for (Post& p : posts)
      if ((names >> p.name & 1) != 0) p.waiters.push_back(slot);
    return slot;
  }
  void release(uint32_t slot) { free_.push_back(slot); }

 private:
  std::vector<Deferred> items_;
  std::vector<uint32_t> free_;
};

class PatternCursors {
 public:
  explicit PatternCursors(const PatternProgram& program);
  // The next step of node n's program (kDone from then on once it ended).
  PatternStep next(int32_t n) { return step(cursors_[n], n); }
  // Whether node n's program, run on from here with every receive taken as satisfied, sends
  // a message to dst with this tag (the cursors do not move): 1 yes, 0 no, -1 not found within
  // *budget steps (which it decreases by the steps taken).
  int sendsLater(int32_t n, int32_t dst, uint64_t tag, uint64_t* budget) const;
  // A node's collectives so far.
  uint32_t collectives(int32_t n) const { return cursors_[n].coll_seq; }

 private:
  struct Frame {
    uint32_t repeat = 0;  // index of the kRepeat
    uint32_t left = 0;    // iterations after this one
  };
  struct Cursor {
    uint32_t pc = 0;         // next operation
    uint32_t coll_step = 0;  // within the collective at pc
    uint32_t coll_seq = 0;
    uint32_t depth = 0;
    Frame frames[kPatternMaxDepth];
  };
  PatternStep step(Cursor& c, int32_t n) const;

  const PatternProgram& program_;
  std::vector<Cursor> cursors_;
};

}  // namespace ndl::rt
