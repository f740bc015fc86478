// Closed-loop execution of a communication pattern (docs/workloads.md): every node's program
// runs against the simulated network. A send puts a message into the node's injection queue
// and the program goes on; a receive waits until the message has arrived; a compute gap
// holds the program for its time divided by (1 + ProcessorPerformanceExpandRate).
//
// Time: a message delivered during clock c is seen by its receiver at the start of clock c+1,
// so a message created at clock t with INSIGHT latency T occupies T + 1 clocks of the
// program's time, and a ping-pong round trip on an idle network takes 2 (T + 1).
//
// With an interface (docs/interfaces.md) the programs keep exact picoseconds instead: a send
// costs the host SoftwareOverhead + HostWriteTime, then the message passes the send path and
// is injected at the network clock's next edge; a message delivered during clock c is at the
// interface at edge (c+1)T, passes the receive path, and a receive sees it at the host's next
// poll at or after both that and the time it was issued, then pays HostReadTime. A message to
// the node itself goes from the send path straight into the receive path (the internal loop).
// Programs act at their exact times, in time order; the network's clock only decides when a
// time is reached (at the first edge at or after it).
#pragma once

#include <cstdint>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

#include "ndl/runtime/app/interface_timing.h"
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
  // cycle_ps: the network clock's period; compute gaps become clocks with it (without an
  // interface; with one they stay picoseconds).
  Application(std::shared_ptr<const PatternProgram> program, double cycle_ps, double expand_rate,
              const InterfaceTiming& interface = {});

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
  bool stuck() const {
    return !complete() && wakes_.empty() && in_flight_ == 0 && events_.empty();
  }
  // What the run measured when it ended at clock `end` (a compute gap or wait still under way
  // counts up to there).
  void report(ApplicationResult& out, int64_t end) const;

 private:
  // Times are network clocks, or picoseconds with an interface (exact_).
  struct NodeState {
    int64_t finish = -1;
    int64_t compute = 0;  // clocks computing, the gap under way included whole
    int64_t busy_until = 0;  // end of the last compute gap
    int64_t hold_until = 0;  // end of the host's last send or read (with an interface)
    int64_t read_until = 0;  // end of the host's last read: waiting, counted whole at once
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
      int64_t at = 0;        // when it was posted
      bool matched = false;  // its message is here; the host is still detecting or reading it
    };
    struct Deferred {
      uint64_t names = 0;  // receives it still waits for (by name)
      uint64_t seq = 0;    // program order
      AppSend send;
      int64_t written = 0;  // with an interface: when the host's write of it ends
    };
    std::vector<Post> posts;  // pending, in the order they were posted
    DeferredSends<Deferred> deferred;
    std::vector<uint32_t> ready;  // slots whose receives all completed: they go next clock
    uint64_t seq = 0;
    Post held{};  // a post waiting for the previous receive of its name
    bool holding = false;
  };
  struct Wake {
    int64_t time;
    int32_t node;
    bool operator>(const Wake& o) const {
      return time != o.time ? time > o.time : node > o.node;
    }
  };
  // With an interface, what happens at a time on the node side: a message enters its node's
  // send path (the host's write ended) or receive path (from the network's edge, or from the
  // send path in the internal loop), leaves the receive path, or the host's read of a posted
  // receive's message ends (of the post named `name`). Stages are booked as messages enter
  // them, in time order, so a message never queues behind one that comes later.
  enum class EventKind : uint8_t { kEnterSend, kEnterReceive, kArrive, kComplete };
  struct Event {
    int64_t time;
    uint64_t seq;  // the order events were made: ties go first come, first served
    AppSend msg;
    uint32_t name;
    int32_t from;  // kEnterReceive: the domain it comes from
    EventKind kind;
    bool operator>(const Event& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };
  // With an interface: a message through its send path, injected when clock `clock` begins.
  struct Injection {
    int64_t clock;
    uint64_t seq;
    AppSend send;
    bool operator>(const Injection& o) const {
      return clock != o.clock ? clock > o.clock : seq > o.seq;
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
  void advance(int32_t n, int64_t t);
  void mark(int32_t n, uint32_t label, uint32_t op, int64_t t);
  void post(int32_t n, Posted::Post p, int64_t t);
  void flushDeferred(int32_t n, int64_t t);
  // The message of a send goes on its way, its host's write ending at time t.
  void issue(const AppSend& m, int64_t t);
  void handle(const Event& e);
  // A message is at node dst's host side at time t (it left the receive path).
  void arrive(int32_t dst, int32_t src, uint64_t tag, int64_t t);
  void completePost(int32_t n, size_t i, int64_t t);
  // When a receive that can see its message from time t has read it: the next poll, then the
  // host's read (t itself without an interface).
  int64_t detect(int64_t t) const {
    return nextPoll(t, iface_.poll_interval_ps, iface_.poll_phase_ps) + iface_.host_read_ps;
  }
  int64_t computeTime(int64_t ps) const;
  size_t slot(int32_t dst, int32_t src, uint64_t tag) const;
  void addArrived(int32_t dst, int32_t src, uint64_t tag);
  bool takeArrived(int32_t dst, int32_t src, uint64_t tag);

  std::shared_ptr<const PatternProgram> program_;
  PatternCursors cursors_;
  double clock_ps_;  // (1 + rate) * cycle
  double expand_rate_;
  InterfaceTiming iface_;  // all zero without an interface
  bool exact_;             // an interface: times are picoseconds
  int64_t period_;         // the network clock in the time unit: 1, or its picoseconds
  int64_t send_cost_;      // the host's time per send
  int32_t last_send_domain_ = 0;
  std::vector<int64_t> send_free_, receive_free_;  // per node and stage: when it is free
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  std::priority_queue<Injection, std::vector<Injection>, std::greater<Injection>> injections_;
  uint64_t seq_ = 0;
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
