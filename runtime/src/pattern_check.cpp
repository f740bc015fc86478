// Checks that a pattern's programs can all finish: runs them in zero time with the cursors the
// simulator uses (a send is available to its receiver at once, a receive waits for its send)
// until every program ended or none can go on. Then the leftovers are the errors: a receive
// nobody sends, a send nobody receives, and programs that wait for each other (a dependency
// cycle). Collectives need no check of their own: the reader gives every node the same ones
// in the same order (they are written for `node all` only).
#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <tuple>
#include <unordered_map>

#include "ndl/runtime/pattern.h"
#include "ndl/runtime/pattern_cursor.h"

namespace ndl::rt {
namespace {

struct Key {
  int32_t dst = 0;
  int32_t src = 0;
  uint64_t tag = 0;
  bool operator==(const Key& o) const { return dst == o.dst && src == o.src && tag == o.tag; }
};
struct KeyHash {
  size_t operator()(const Key& k) const {
    uint64_t h = (static_cast<uint64_t>(static_cast<uint32_t>(k.dst)) << 32) ^
                 static_cast<uint32_t>(k.src);
    h ^= k.tag * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
    return static_cast<size_t>(h * 0xbf58476d1ce4e5b9ULL);
  }
};

std::string tagText(uint64_t tag) {
  return tag >= kCollectiveTag ? fmt::format("collective #{}", tag - kCollectiveTag + 1)
                               : fmt::format("tag {}", tag);
}

class Checker {
 public:
  Checker(const PatternProgram& p, uint64_t budget, std::vector<PatternError>& errors)
      : budget_(budget), p_(p), errors_(errors), cursors_(p), state_(p.nodes, kReady), wait_(p.nodes),
        wait_op_(p.nodes, 0) {}

  void run() {
    std::deque<int32_t> ready;
    for (int32_t n = 0; n < p_.nodes; ++n) ready.push_back(n);
    while (!ready.empty() && steps_ <= budget_) {
      const int32_t n = ready.front();
      ready.pop_front();
      advance(n, ready);
    }
    if (steps_ > budget_) return;  // too long to run through: unchecked, not wrong
    report();
  }
  bool finished() const { return steps_ <= budget_; }

 private:
  enum State : uint8_t { kReady, kBlocked, kDone };
  struct Pending {
    int64_t count = 0;
    uint32_t op = 0;  // the first send still unreceived
  };
  void advance(int32_t n, std::deque<int32_t>& ready) {
    for (;;) {
      if (++steps_ > budget_) return;
      const PatternStep s = cursors_.next(n);
      if (s.kind == PatternStep::kDone) {
        state_[n] = kDone;
        return;
      }
      if (s.kind == PatternStep::kCompute || s.kind == PatternStep::kMark) continue;
      if (s.kind == PatternStep::kSend) {
        const Key key{s.peer, n, s.tag};
        if (state_[s.peer] == kBlocked && wait_[s.peer] == key) {
          state_[s.peer] = kReady;  // its receive is satisfied
          ready.push_back(s.peer);
          continue;
        }
        Pending& e = pending_[key];
        if (e.count++ == 0) e.op = s.op;
        continue;
      }
      const Key key{n, s.peer, s.tag};
      auto it = pending_.find(key);
      if (it != pending_.end()) {
        if (--it->second.count == 0) pending_.erase(it);
        continue;
      }
      state_[n] = kBlocked;
      wait_[n] = key;
      wait_op_[n] = s.op;
      return;
    }
  }

  void report() {
    // Receives first: a receive nobody sends; else the programs wait for each other; only
    // when every program ended, sends nobody received.
    for (int32_t n = 0; n < p_.nodes && errors_.size() < 20; ++n) {
      if (state_[n] != kBlocked) continue;
      const Key& key = wait_[n];
      int later = 0;
      if (state_[key.src] != kDone) {
        uint64_t left = budget_ > steps_ ? budget_ - steps_ : 0;
        later = cursors_.sendsLater(key.src, key.dst, key.tag, &left);
        steps_ = budget_ - left;
        if (later < 0) {
          steps_ = budget_ + 1;  // too long to search: unchecked (what was found stands)
          return;
        }
      }
      if (later == 0) {
        add(PatternErrorKind::kUnmatched, wait_op_[n],
            fmt::format("node {} waits for a message from node {} with {} that is never sent", n,
                        key.src, tagText(key.tag)),
            fmt::format("add `send {} SIZE{}` to node {}'s program, or remove this receive", n,
                        key.tag >= kCollectiveTag ? "" : fmt::format(" tag {}", key.tag),
                        key.src));
      }
    }
    if (!errors_.empty()) return;  // what waits on a missing send is no cycle of its own
    for (int32_t n = 0; n < p_.nodes; ++n) {
      if (state_[n] != kBlocked) continue;
      cycleFrom(n);
      return;  // one cycle is enough: the others are usually the same one seen elsewhere
    }
    // Sends nobody receives, in file order.
    std::vector<std::pair<uint32_t, Key>> left;
    for (const auto& [key, e] : pending_) left.push_back({e.op, key});
    std::sort(left.begin(), left.end(), [&](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first
                                : std::tie(a.second.dst, a.second.src, a.second.tag) <
                                      std::tie(b.second.dst, b.second.src, b.second.tag);
    });
    for (const auto& [op, key] : left) {
      if (errors_.size() >= 20) break;
      add(PatternErrorKind::kUnmatched, op,
          fmt::format("node {}'s message to node {} with {} is never received", key.src, key.dst,
                      tagText(key.tag)),
          fmt::format("add `recv {}{}` to node {}'s program, or remove this send", key.src,
                      key.tag >= kCollectiveTag ? "" : fmt::format(" tag {}", key.tag), key.dst));
    }
  }

  void cycleFrom(int32_t start) {
    std::vector<int32_t> path;
    std::vector<int32_t> seen(p_.nodes, -1);
    int32_t n = start;
    while (seen[n] < 0) {
      seen[n] = static_cast<int32_t>(path.size());
      path.push_back(n);
      n = wait_[n].src;
      if (state_[n] != kBlocked) break;  // waits on a chain that ends elsewhere
    }
    const size_t from = seen[n] >= 0 ? static_cast<size_t>(seen[n]) : 0;
    std::string chain;
    for (size_t i = from; i < path.size(); ++i) {
      const int32_t m = path[i];
      chain += fmt::format("node {} waits (line {}) for node {}'s {}; ", m,
                           p_.sites[wait_op_[m]].line, wait_[m].src, tagText(wait_[m].tag));
    }
    chain.resize(chain.size() - 2);
    add(PatternErrorKind::kCycle, wait_op_[path[from]],
        fmt::format("the programs wait for each other and never finish: {}", chain),
        "each of these sends comes after a receive of the cycle: move a send before its "
        "node's receive");
  }

  void add(PatternErrorKind kind, uint32_t op, std::string message, std::string hint) {
    PatternError e;
    e.kind = kind;
    e.line = p_.sites[op].line;
    e.col = p_.sites[op].col;
    e.length = 1;
    e.message = std::move(message);
    e.hint = std::move(hint);
    errors_.push_back(std::move(e));
  }

  const uint64_t budget_;
  uint64_t steps_ = 0;
  const PatternProgram& p_;
  std::vector<PatternError>& errors_;
  PatternCursors cursors_;
  std::vector<uint8_t> state_;
  std::vector<Key> wait_;
  std::vector<uint32_t> wait_op_;
  std::unordered_map<Key, Pending, KeyHash> pending_;
};

}  // namespace

bool checkPatternPrograms(const PatternProgram& program, uint64_t budget,
                          std::vector<PatternError>& errors) {
  Checker checker(program, budget, errors);
  checker.run();
  return checker.finished();
}

}  // namespace ndl::rt
