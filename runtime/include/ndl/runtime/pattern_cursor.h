// Runs the programs of a pattern step by step: repetitions unrolled and collectives expanded
// into point-to-point messages as they are reached, so a pattern is never expanded in
// memory. The checker (pattern_check.cpp) and the simulator (application.cpp) step the same
// cursors, so what the checker accepts is what the simulator runs.
#pragma once

#include <cstdint>
#include <vector>

#include "ndl/runtime/pattern.h"

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
