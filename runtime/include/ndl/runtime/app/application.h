// Closed-loop execution of a communication pattern (docs/workloads.md): every node's program
// runs against the simulated network. A send puts a message into the node's injection queue
// and the program goes on; a receive waits until the message has arrived; a compute gap
// holds the program for its time divided by (1 + ProcessorPerformanceExpandRate).
//
// Time: a message delivered during clock c is seen by its receiver at the start of clock c+1,
// so a message created at clock t with INSIGHT latency T occupies T + 1 clocks of the
// program's time, and a ping-pong round trip on an idle network takes 2 (T + 1).
#pragma once

#include <cstdint>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

#include "ndl/runtime/app/pattern.h"
#include "ndl/runtime/app/pattern_cursor.h"
#include "ndl/runtime/stats/results.h"

namespace ndl::rt {

struct AppSend {
  int32_t src = 0;
  int32_t dst = 0;
  int64_t bits = 0;
  uint64_t tag = 0;
};

class Application {
 public:
  // cycle_ps: the network clock's period; compute gaps become clocks with it.
  Application(std::shared_ptr<const PatternProgram> program, double cycle_ps, double expand_rate);

  // Clock c begins: programs whose compute ended or whose receive completed go on. Their
  // sends are left in sends() for the caller to queue, in node order.
  void advanceDue(int64_t c);
  std::vector<AppSend>& sends() { return sends_; }
  // An application message has wholly arrived during clock c (or was dropped).
  void onDelivered(int32_t dst, int32_t src, uint64_t tag, int64_t c);
  void onDropped() {
    --in_flight_;
    ++dropped_;
  }

  // Every program ended and every message it sent has arrived.
  bool complete() const { return finished_ == nodes_ && in_flight_ == 0; }
  // Not complete, yet nothing will ever wake a program: a receive whose message was dropped.
  bool stuck() const { return !complete() && wakes_.empty() && in_flight_ == 0; }
  // What the run measured when it ended at clock `end` (a compute gap or wait still under way
  // counts up to there).
  void report(ApplicationResult& out, int64_t end) const;

 private:
  struct NodeState {
    int64_t finish = -1;
    int64_t compute = 0;  // clocks computing, the gap under way included whole
    int64_t busy_until = 0;  // end of the last compute gap
    int64_t waiting = 0;  // clocks waiting in receives
    int64_t wait_since = -1;
    uint64_t wait_tag = 0;
    int32_t wait_src = -1;  // -1: not waiting
    uint32_t wait_op = 0;
    uint64_t pending = 0;     // names whose posted receive has not completed
    uint64_t wait_names = 0;  // waited for (wait, a name posted again, the program's end)
    bool at_end = false;      // the program ended; it waits for its posted receives
  };
  // Posted receives and the sends that wait for them, of the nodes that use names only. A
  // waiting send belongs to the receives pending when its line was reached (a name posted
  // again later is another receive): each pending receive lists its waiting sends, and a
  // send goes once it is off every list, so each completion costs only its own sends.
  struct Posted {
    struct Post {
      int32_t src;
      uint64_t tag;
      uint32_t name;
      uint32_t op;
      std::vector<uint32_t> waiters;  // slots in `deferred`
    };
    struct Deferred {
      uint64_t names = 0;  // receives it still waits for (by name)
      uint64_t seq = 0;    // program order
      AppSend send;
    };
    std::vector<Post> posts;  // pending, in the order they were posted
    DeferredSends<Deferred> deferred;
    std::vector<uint32_t> ready;  // slots whose receives all completed: they go next clock
    uint64_t seq = 0;
    Post held{};  // a post waiting for the previous receive of its name
    bool holding = false;
  };
  struct Wake {
    int64_t clock;
    int32_t node;
    bool operator>(const Wake& o) const {
      return clock != o.clock ? clock > o.clock : node > o.node;
    }
  };
  // Messages arrived before their receive, keyed (dst, src, tag): open addressing with
  // linear probing and backward-shift deletion, so no allocation per message.
  struct Arrived {
    int32_t dst = -1;  // -1: empty slot
    int32_t src = 0;
    uint64_t tag = 0;
    int64_t count = 0;
  };
  void advance(int32_t n, int64_t c);
  void mark(int32_t n, uint32_t label, uint32_t op, int64_t c);
  void post(int32_t n, const Posted::Post& p);
  void flushDeferred(int32_t n);
  int64_t computeClocks(int64_t ps) const;
  size_t slot(int32_t dst, int32_t src, uint64_t tag) const;
  void addArrived(int32_t dst, int32_t src, uint64_t tag);
  bool takeArrived(int32_t dst, int32_t src, uint64_t tag);

  std::shared_ptr<const PatternProgram> program_;
  PatternCursors cursors_;
  double clock_ps_;  // (1 + rate) * cycle
  int32_t nodes_;
  int32_t finished_ = 0;
  int64_t in_flight_ = 0;
  int64_t sent_ = 0;
  int64_t delivered_ = 0;
  int64_t dropped_ = 0;
  int64_t last_arrival_end_ = 0;
  std::vector<NodeState> state_;
  std::unordered_map<int32_t, Posted> posted_;
  std::priority_queue<Wake, std::vector<Wake>, std::greater<Wake>> wakes_;
  std::vector<AppSend> sends_;
  std::vector<Arrived> table_;
  size_t table_used_ = 0;
  // `mark` series, found by (label << 32 | node); marks are application steps, not flits.
  std::unordered_map<uint64_t, size_t> mark_index_;
  std::vector<ApplicationResult::Mark> marks_;
  size_t mark_clocks_ = 0;
};

}  // namespace ndl::rt
