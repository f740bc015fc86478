// The endpoints as traffic sources: message creation (Bernoulli per clock or periodic),
// destination and length choice, the injection queue with its capacity, and packetization
// into the endpoint's injection channel, one flit per clock. Sources are numbered by endpoint
// (endpoints.h); the network is driven by router (pending, inject).
#pragma once

#include <cstdint>
#include <vector>

#include "ndl/runtime/net/endpoints.h"
#include "ndl/runtime/net/network.h"
#include "ndl/runtime/net/packet.h"
#include "ndl/runtime/sim/sim_params.h"
#include "ndl/runtime/stats/statistics.h"
#include "ndl/runtime/traffic/due_wheel.h"
#include "ndl/runtime/traffic/rng.h"

namespace ndl::rt {

class TrafficSources {
 public:
  // Coordinate patterns (Transpose on a square network, Tornado, Neighbor) use the topology's
  // coordinates only with one endpoint per router; otherwise they number endpoints as a ring
  // or by address bits, as on a network without coordinates.
  TrafficSources(const SimParams& params, const TopologyIndex& topo,
                 const EndpointLayout& endpoints);

  // Creates the messages due at clock c; accepted ones join their source's queue and wake
  // its router.
  void createDue(int64_t c, PacketStore& store, Statistics& stats, Network& net);
  // A message of the application (application.h), created at clock c: never refused, since
  // the program holds its data; MessageMaxCount bounds synthetic creation only. node and
  // dest are endpoints.
  void enqueueApp(int32_t node, int32_t dest, int64_t bits, uint64_t tag, int64_t c,
                  PacketStore& store, Statistics& stats, Network& net) {
    enqueue(node, dest, bits, c, store, stats, net, tag);
  }
  // Message m of a class answered by another (TrafficClass's Reply) was delivered whole at
  // clock c: its destination sends the reply back to its source. Never refused: the protocol
  // must answer.
  bool replies() const { return replies_; }
  void reply(const Message& m, int64_t c, PacketStore& store, Statistics& stats, Network& net);
  // The endpoints of router r at clock c: each hands at most one flit to one of its
  // injection VCs.
  void inject(int32_t r, int64_t c, PacketStore& store, Statistics& stats, Network& net);

  // Whether an endpoint of router r has a message to inject: one bit per router, so that the
  // router steps of a network larger than the caches ask it without loading the sources.
  bool pending(int32_t r) const { return (pending_[r >> 6] >> (r & 63)) & 1; }
  // The same, a bit per router: router r is bit r % 64 of word r / 64.
  const std::vector<uint64_t>& pendingWords() const { return pending_; }
  void prefetch(int32_t r) const {
    if (pending(r)) __builtin_prefetch(&sources_[static_cast<size_t>(endpoints_.first(r))]);
  }
  // No source will ever create another message.
  bool exhausted() const {
    return due_.empty() && blocked_ == 0 && script_next_ >= params_.script.size();
  }
  int64_t queuedMessages() const { return queued_; }
  uint64_t* patternState(int32_t node) {
    return &pattern_state_[pattern_state_.size() == 1 ? 0 : node];
  }

 private:
  struct Source {
    Rng rng;
    uint32_t head = kNone;  // injection queue (linked through Message::next)
    uint32_t tail = kNone;
    int32_t size = 0;
    uint32_t packet = kNone;  // packet being written into the injection channel
    uint16_t written = 0;
    uint8_t vc = 0;
    uint8_t next_vc = 0;
    uint64_t packets_made = 0;  // numbers the draws of header fields
    bool blocked = false;       // InjectionQueueOverflow Block: holds a message, creates none
  };
  uint64_t initialHeader(Source& s, int32_t e, const Packet& p) const;
  // Endpoint e, the router r's endpoint `local`: hands at most one flit to its injection VCs.
  // kOneEach: e == r and local == 0, known at compile time (the layout of every network
  // whose topology says nothing of endpoints keeps the code it had before endpoints).
  template <bool kOneEach>
  [[gnu::always_inline]] inline void injectAt(int32_t r, int32_t e, int32_t local, int64_t c,
                                              PacketStore& store, Statistics& stats,
                                              Network& net);
  // inject for routers with other than one endpoint each; out of line, so that inject keeps
  // the size (and the register saves) it has with one endpoint per router.
  [[gnu::noinline]] void injectEndpoints(int32_t r, int64_t c, PacketStore& store,
                                         Statistics& stats, Network& net);
  // injectAt for a packet's head flit, taking the next message's packet first when none is
  // being written.
  // With one endpoint per router it takes the arguments inject has, so that inject's call
  // is a jump (no arguments on the stack).
  [[gnu::noinline]] void injectHead(int32_t r, int64_t c, PacketStore& store, Statistics& stats,
                                    Network& net);
  [[gnu::noinline]] void injectHeadAt(int32_t r, int32_t e, int32_t local, int64_t c,
                                      PacketStore& store, Statistics& stats, Network& net);
  template <bool kOneEach>
  [[gnu::always_inline]] inline void injectHeadBody(int32_t r, int32_t e, int32_t local,
                                                    int64_t c, PacketStore& store,
                                                    Statistics& stats, Network& net);
  // A creation process (the main traffic's, or a class's): Bernoulli at `rate` per clock,
  // Periodic every `periodic_gap` clocks, or OnOff: the probabilities of a creation per clock
  // while on, of an on period ending and of an off period ending at a clock, with their
  // log1p(-p) for geometric draws.
  struct Process {
    CreationProcess kind = CreationProcess::kBernoulli;
    double rate = 0, log_no_creation = 0;
    int64_t periodic_gap = 1;
    double duty = 1;
    double on_rate = 0, log_no_on_rate = 0;
    double on_end = 0, log_no_on_end = 0;
    double off_end = 0, log_no_off_end = 0;
    Process() = default;
    Process(CreationProcess kind, double rate, double interval_clocks, double burst_clocks,
            double duty);
  };
  // An on/off source's chain: its current or next on period, [on_start, on_end] (clocks).
  struct OnOffState {
    int64_t on_start = 0;
    int64_t on_end = -1;
  };
  // A source's first creation (its chain started in its stationary state under OnOff), and
  // the clock of its next one after clock c (c + 1 at the earliest).
  static int64_t firstCreation(Rng& rng, const Process& p, OnOffState* o);
  static int64_t nextCreation(Rng& rng, const Process& p, OnOffState* o, int64_t c);
  static int64_t nextOnOff(Rng& rng, const Process& p, OnOffState& o, int64_t c);
  int64_t nextCreation(int32_t e, int64_t c) {
    return nextCreation(sources_[static_cast<size_t>(e)].rng, main_,
                        on_off_.empty() ? nullptr : &on_off_[static_cast<size_t>(e)], c);
  }
  void create(int32_t node, int64_t c, PacketStore& store, Statistics& stats, Network& net);
  // `refusable`: a synthetic creation, refused when the queue is full (InjectionQueueOverflow
  // Refuse); an application's message or a reply is not.
  void enqueue(int32_t node, int32_t dest, int64_t bits, int64_t c, PacketStore& store,
               Statistics& stats, Network& net, uint64_t tag = kNoTag, uint8_t cls = 0,
               bool refusable = true);

  // Traffic classes beyond the first (SimParams::classes): each a Bernoulli stream per
  // endpoint, due as id k * nodes + endpoint in due_ (ids below nodes_ are class 0, the main
  // traffic, as without classes). Every class, the first included, draws its creations'
  // destinations and lengths and its replies' lengths from a stream of its own per endpoint.
  struct ClassStream {
    double rate = 0;
    Process process;
    std::vector<OnOffState> on_off;  // per endpoint under OnOff
    DestFn dest = nullptr;
    int32_t user_pattern = -1;  // kCustom: which pattern written in NDL
    int64_t min_bits = 0, length_step = 1, length_choices = 1;
    int32_t reply = -1;
    std::vector<uint64_t> pattern_state;  // per endpoint for patterns with state, else one
  };
  void setUpClasses();
  void createClass(int32_t k, int32_t node, int64_t c, PacketStore& store, Statistics& stats,
                   Network& net);
  int64_t drawBits(Rng& rng, const ClassStream& k) const {
    return k.min_bits + k.length_step * static_cast<int64_t>(
                                            rng.below(static_cast<uint64_t>(k.length_choices)));
  }
  Rng& classRng(int32_t k, int32_t node) {
    return class_rng_[static_cast<size_t>(k) * static_cast<size_t>(nodes_) +
                      static_cast<size_t>(node)];
  }
  std::vector<ClassStream> classes_;
  // Classes of different priorities: a source's queue holds its messages highest priority
  // first, first come first served within one. class_level_[k]: class k's rank among the
  // distinct priorities (0 the highest); level_tail_[endpoint * levels_ + rank]: the last
  // queued message of that rank, or kNone. Empty with one priority.
  std::vector<uint8_t> class_level_;
  std::vector<uint8_t> class_priority_;
  std::vector<uint32_t> level_tail_;
  int32_t levels_ = 1;
  void queueByPriority(Source& s, int32_t node, uint32_t id, PacketStore& store);
  std::vector<Rng> class_rng_;
  bool replies_ = false;

  const SimParams& params_;
  const EndpointLayout& endpoints_;
  bool one_each_;  // endpoints_.oneEach(), a byte the injection reads
  TopologyIndex no_coordinates_;  // what coordinate patterns see when endpoints are not routers
  const TopologyIndex& topo_;
  DestFn dest_fn_;
  int32_t nodes_;
  int64_t length_step_;
  int64_t length_choices_;
  Process main_;                    // the main traffic's (class 0's) process
  std::vector<OnOffState> on_off_;  // per endpoint under OnOff only
  int64_t created_ = 0;
  int64_t queued_ = 0;
  int32_t blocked_ = 0;    // sources blocked on a full queue
  bool stopped_ = false;   // MessageCreationMax reached: no source creates again
  size_t script_next_ = 0;
  std::vector<Source> sources_;
  // bit r: an endpoint of router r has a queued message or a packet to write
  std::vector<uint64_t> pending_;
  static bool hasWork(const Source& s) { return s.head != kNone || s.packet != kNone; }
  // Endpoint e (of router r) has work, or has none any more.
  void notePending(int32_t r, int32_t e, const Source& s) {
    const uint64_t bit = uint64_t{1} << (r & 63);
    if (hasWork(s)) {
      pending_[r >> 6] |= bit;
    } else if (endpoints_.oneEach() || !otherHasWork(r, e)) {
      pending_[r >> 6] &= ~bit;
    }
  }
  bool otherHasWork(int32_t r, int32_t e) const;
  // Per-source state of the destination function; only patterns with state (AllToAll and
  // generated ones) get a slot per endpoint, the others share one.
  std::vector<uint64_t> pattern_state_;
  DueWheel due_;  // when each creating source creates next
};

}  // namespace ndl::rt
