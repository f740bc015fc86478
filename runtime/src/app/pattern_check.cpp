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

#include "ndl/runtime/app/pattern.h"
#include "ndl/runtime/app/pattern_cursor.h"

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
        wait_op_(p.nodes, 0), names_(p.nodes) {}

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
  // kBlocked: in a receive (wait_); kNames: waiting for posted receives (a `wait`, a name
  // posted again, or the program's end).
  enum State : uint8_t { kReady, kBlocked, kNames, kDone };
  struct Pending {
    int64_t count = 0;
    uint32_t op = 0;  // the first send still unreceived
  };
  struct Post {
    Key key;
    uint32_t name = 0;
    uint32_t op = 0;
    std::vector<uint32_t> waiters;  // slots of the sends waiting for this receive
  };
  // A send waiting for the receives pending when its line was reached (application.h).
  struct Deferred {
    uint64_t names = 0;
    Key key;
    uint32_t op = 0;
    uint64_t seq = 0;  // program order
  };
  // Posted receives of one node (`recv ... as NAME`), and its sends waiting for them.
  struct Names {
    uint64_t pending = 0;  // names whose receive has not completed
    uint64_t ever = 0;     // names posted so far
    uint64_t waited = 0;   // in state kNames: what it waits for
    bool at_end = false;
    bool holding = false;
    Post held;
    std::vector<Post> posts;
    DeferredSends<Deferred> deferred;
    uint64_t seq = 0;
  };

  void advance(int32_t n, std::deque<int32_t>& ready) {
    Names& x = names_[n];
    if (state_[n] == kBlocked || state_[n] == kDone) return;  // queued twice
    if (state_[n] == kNames) {
      if ((x.waited & x.pending) != 0) return;
      x.waited = 0;
      state_[n] = kReady;
      if (x.at_end) {
        state_[n] = kDone;
        return;
      }
      if (x.holding) {
        x.holding = false;
        post(n, x.held);
      }
    }
    for (;;) {
      if (++steps_ > budget_) return;
      const PatternStep s = cursors_.next(n);
      if (s.kind == PatternStep::kDone) {
        if (x.pending != 0) {
          state_[n] = kNames;
          x.waited = x.pending;
          x.at_end = true;
          return;
        }
        state_[n] = kDone;
        return;
      }
      if (s.kind == PatternStep::kCompute || s.kind == PatternStep::kMark) continue;
      if (s.names != 0 && (s.names & ~x.ever) != 0) {
        notPosted(n, s.names & ~x.ever, s.op);
        return;  // reported; this program stops here
      }
      if (s.kind == PatternStep::kWait) {
        if ((s.names & x.pending) == 0) continue;
        state_[n] = kNames;
        x.waited = s.names;
        return;
      }
      if (s.kind == PatternStep::kSend) {
        const Key key{s.peer, n, s.tag};
        if ((s.names & x.pending) != 0) {
          if (++deferred_live_ > kMaxDeferred) {
            add(PatternErrorKind::kSize, s.op,
                fmt::format("more than {} sends wait for receives at once", kMaxDeferred),
                "wait for the receives (`wait NAME`) before sending more");
            steps_ = budget_ + 1;  // stop here: reported
            return;
          }
          x.deferred.add({s.names & x.pending, key, s.op, x.seq++}, s.names, x.posts);
          continue;
        }
        deliver(key, s.op, ready);
        continue;
      }
      if (s.value != 0) {  // a posted receive
        const Post p{Key{n, s.peer, s.tag}, static_cast<uint32_t>(s.value - 1), s.op};
        x.ever |= uint64_t{1} << p.name;
        if ((x.pending >> p.name & 1) != 0) {  // posted again: first the previous one
          x.held = p;
          x.holding = true;
          state_[n] = kNames;
          x.waited = uint64_t{1} << p.name;
          return;
        }
        post(n, p);
        continue;
      }
      const Key key{n, s.peer, s.tag};
      if (take(key)) continue;
      state_[n] = kBlocked;
      wait_[n] = key;
      wait_op_[n] = s.op;
      return;
    }
  }

  bool take(const Key& key) {
    auto it = pending_.find(key);
    if (it == pending_.end()) return false;
    if (--it->second.count == 0) pending_.erase(it);
    return true;
  }
  void post(int32_t n, const Post& p) {
    if (take(p.key)) return;
    names_[n].pending |= uint64_t{1} << p.name;
    names_[n].posts.push_back(p);
  }
  // A message becomes available to its receiver: a posted receive takes it first, then a
  // receive the program waits in; else it waits for one. Sends released by a completed
  // posted receive are delivered in turn (a work list: no recursion).
  void deliver(const Key& first, uint32_t first_op, std::deque<int32_t>& ready) {
    std::vector<std::pair<Key, uint32_t>> work{{first, first_op}};
    while (!work.empty()) {
      const auto [key, op] = work.back();
      work.pop_back();
      Names& x = names_[key.dst];
      auto post = std::find_if(x.posts.begin(), x.posts.end(),
                               [&](const Post& p) { return p.key == key; });
      if (post != x.posts.end()) {
        const uint64_t bit = uint64_t{1} << post->name;
        x.pending &= ~bit;
        // Released sends go in program order (their slots' order is not): reversed onto
        // the work list, which is taken from the back.
        std::vector<uint32_t> released;
        for (uint32_t slot : post->waiters)
          if ((x.deferred[slot].names &= ~bit) == 0) released.push_back(slot);
        x.posts.erase(post);
        std::sort(released.begin(), released.end(),
                  [&](uint32_t a, uint32_t b) { return x.deferred[a].seq > x.deferred[b].seq; });
        for (uint32_t slot : released) {
          work.push_back({x.deferred[slot].key, x.deferred[slot].op});
          x.deferred.release(slot);
          --deferred_live_;
        }
        if (state_[key.dst] == kNames && (x.waited & x.pending) == 0) ready.push_back(key.dst);
        continue;
      }
      if (state_[key.dst] == kBlocked && wait_[key.dst] == key) {
        state_[key.dst] = kReady;  // its receive is satisfied
        ready.push_back(key.dst);
        continue;
      }
      Pending& e = pending_[key];
      if (e.count++ == 0) e.op = op;
    }
  }

  void notPosted(int32_t n, uint64_t names, uint32_t op) {
    const std::string& name = p_.names[static_cast<size_t>(__builtin_ctzll(names))];
    add(PatternErrorKind::kUnmatched, op,
        fmt::format("node {} waits for the receive '{}', which its program has not posted", n,
                    name),
        fmt::format("post it first: `recv SRC [tag T] as {}`", name));
    state_[n] = kDone;  // stop this program; the others go on
  }

  void report() {
    // A program waiting for posted receives waits, for the checks below, for the first of
    // them still pending.
    for (int32_t n = 0; n < p_.nodes; ++n) {
      if (state_[n] != kNames) continue;
      for (const Post& p : names_[n].posts) {
        if ((names_[n].waited >> p.name & 1) == 0) continue;
        wait_[n] = p.key;
        wait_op_[n] = p.op;
        state_[n] = kBlocked;
        break;
      }
    }
    // Receives first: a receive nobody sends; else the programs wait for each other; only
    // when every program ended, sends nobody received.
    for (int32_t n = 0; n < p_.nodes && errors_.size() < 20; ++n) {
      if (state_[n] != kBlocked) continue;
      const Key& key = wait_[n];
      int later = 0;
      const Names& from = names_[key.src];
      bool deferred = false;
      for (const Post& p : from.posts)
        for (uint32_t slot : p.waiters) deferred = deferred || from.deferred[slot].key == key;
      if (deferred) {
        later = 1;  // sent once its own posted receives complete
      } else if (state_[key.src] != kDone) {
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
  std::vector<Names> names_;
  // Sends waiting for receives, over all nodes; bounded so the check's memory is.
  static constexpr uint64_t kMaxDeferred = uint64_t{1} << 22;
  uint64_t deferred_live_ = 0;
};

}  // namespace

bool checkPatternPrograms(const PatternProgram& program, uint64_t budget,
                          std::vector<PatternError>& errors) {
  Checker checker(program, budget, errors);
  checker.run();
  return checker.finished();
}

}  // namespace ndl::rt
