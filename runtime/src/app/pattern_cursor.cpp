// Stepping through pattern programs; collective algorithms.
#include "ndl/runtime/app/pattern_cursor.h"

namespace ndl::rt {
namespace {

int32_t wrap(int64_t v, int32_t nodes) {
  const int64_t m = v % nodes;
  return static_cast<int32_t>(m < 0 ? m + nodes : m);
}

// Binomial tree over relative ranks: rank r > 0 hangs below r - h, h the highest power of two
// <= r, and its children are r + 2^k for k > log2(h) (every k for the root) while below N.
int64_t highBit(int64_t r) {
  int64_t h = 1;
  while (h * 2 <= r) h *= 2;
  return h;
}
int64_t firstChildBit(int64_t r) { return r == 0 ? 1 : highBit(r) * 2; }

}  // namespace

std::string_view collectiveName(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::kBarrier: return "barrier";
    case CollectiveKind::kAllToAll: return "alltoall";
    case CollectiveKind::kBroadcast: return "broadcast";
    case CollectiveKind::kReduce: return "reduce";
  }
  return "?";
}

bool collectiveStep(CollectiveKind kind, int32_t n, int32_t nodes, int32_t root, uint32_t i,
                    int32_t* peer, bool* send) {
  const int64_t N = nodes;
  switch (kind) {
    case CollectiveKind::kBarrier: {
      // Round k: send to n + 2^k, then wait for n - 2^k; ceil(log2 N) rounds.
      const int64_t d = int64_t{1} << (i / 2);
      if (i / 2 >= 62 || d >= N) return false;
      *send = i % 2 == 0;
      *peer = wrap(*send ? n + d : n - d, nodes);
      return true;
    }
    case CollectiveKind::kAllToAll: {
      // Pairwise exchange, N-1 rounds: round j sends to n+j, then waits for n-j. At most one
      // message per node is outstanding, where posting all N-1 sends first would put N^2
      // messages in flight at once.
      const int64_t j = i / 2 + 1;
      if (j >= N) return false;
      *send = i % 2 == 0;
      *peer = wrap(*send ? n + j : n - j, nodes);
      return true;
    }
    case CollectiveKind::kBroadcast: {
      const int64_t r = wrap(int64_t{n} - root, nodes);
      if (r != 0) {
        if (i == 0) {
          *send = false;
          *peer = wrap(root + r - highBit(r), nodes);
          return true;
        }
        --i;
      }
      int64_t d = firstChildBit(r);
      for (uint32_t j = 0; j < i && r + d < N; ++j) d *= 2;
      if (r + d >= N) return false;
      *send = true;
      *peer = wrap(root + r + d, nodes);
      return true;
    }
    case CollectiveKind::kReduce: {
      // The broadcast tree upside down: children from the farthest, then the parent.
      const int64_t r = wrap(int64_t{n} - root, nodes);
      const int64_t first = firstChildBit(r);
      uint32_t children = 0;
      for (int64_t d = first; r + d < N; d *= 2) ++children;
      if (i < children) {
        int64_t d = first;
        for (uint32_t j = 0; j < children - 1 - i; ++j) d *= 2;
        *send = false;
        *peer = wrap(root + r + d, nodes);
        return true;
      }
      if (i == children && r != 0) {
        *send = true;
        *peer = wrap(root + r - highBit(r), nodes);
        return true;
      }
      return false;
    }
  }
  return false;
}

PatternCursors::PatternCursors(const PatternProgram& program)
    : program_(program), cursors_(static_cast<size_t>(program.nodes)) {
  for (int32_t n = 0; n < program.nodes; ++n) cursors_[n].pc = program.start[n];
}

int PatternCursors::sendsLater(int32_t n, int32_t dst, uint64_t tag, uint64_t* budget) const {
  Cursor c = cursors_[n];
  for (; *budget > 0; --*budget) {
    const PatternStep s = step(c, n);
    if (s.kind == PatternStep::kDone) return 0;
    if (s.kind == PatternStep::kSend && s.peer == dst && s.tag == tag) return 1;
  }
  return -1;
}

PatternStep PatternCursors::step(Cursor& c, int32_t n) const {
  const uint32_t end = program_.start[n + 1];
  while (c.pc < end) {
    const PatternOp& op = program_.ops[c.pc];
    PatternStep step;
    step.op = c.pc;
    switch (op.kind()) {
      case PatternOpKind::kCompute:
        ++c.pc;
        step.kind = PatternStep::kCompute;
        step.value = op.value();
        return step;
      case PatternOpKind::kSend:
      case PatternOpKind::kRecv:
        ++c.pc;
        step.kind = op.kind() == PatternOpKind::kSend ? PatternStep::kSend : PatternStep::kRecv;
        step.peer = op.peer;
        step.tag = op.tag;
        step.value = op.value();
        return step;
      case PatternOpKind::kMark:
        ++c.pc;
        step.kind = PatternStep::kMark;
        step.value = op.value();
        return step;
      case PatternOpKind::kWait:
        ++c.pc;
        step.kind = PatternStep::kWait;
        step.names = static_cast<uint64_t>(op.value());
        return step;
      case PatternOpKind::kAfter: {
        // The reader puts it right before its send.
        const PatternOp& send = program_.ops[c.pc + 1];
        step.op = c.pc + 1;
        c.pc += 2;
        step.kind = PatternStep::kSend;
        step.names = static_cast<uint64_t>(op.value());
        step.peer = send.peer;
        step.tag = send.tag;
        step.value = send.value();
        return step;
      }
      case PatternOpKind::kRepeat:
        // The reader keeps repetitions with a body only, at most kPatternMaxDepth deep.
        c.frames[c.depth++] = Frame{c.pc, op.tag - 1};
        ++c.pc;
        break;
      case PatternOpKind::kEnd: {
        Frame& f = c.frames[c.depth - 1];
        if (f.left > 0) {
          --f.left;
          c.pc = f.repeat + 1;
        } else {
          --c.depth;
          ++c.pc;
        }
        break;
      }
      case PatternOpKind::kCollective: {
        int32_t peer = 0;
        bool send = false;
        if (!collectiveStep(op.coll(), n, program_.nodes, op.peer, c.coll_step, &peer, &send)) {
          c.coll_step = 0;
          ++c.coll_seq;
          ++c.pc;
          break;
        }
        ++c.coll_step;
        step.kind = send ? PatternStep::kSend : PatternStep::kRecv;
        step.peer = peer;
        step.tag = kCollectiveTag + c.coll_seq;
        step.value = send ? op.value() : 0;  // a collective's receives are waited for
        return step;
      }
    }
  }
  return PatternStep{};
}

}  // namespace ndl::rt
