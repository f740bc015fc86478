// The processing elements as traffic sources: message creation (Bernoulli per clock or
// periodic), destination and length choice, the injection queue with its capacity, and
// packetization into the injection channel, one flit per clock.
#pragma once

#include <cstdint>
#include <vector>

#include "ndl/runtime/net/network.h"
#include "ndl/runtime/net/packet.h"
#include "ndl/runtime/sim/sim_params.h"
#include "ndl/runtime/stats/statistics.h"
#include "ndl/runtime/traffic/due_wheel.h"
#include "ndl/runtime/traffic/rng.h"

namespace ndl::rt {

class TrafficSources {
 public:
  TrafficSources(const SimParams& params, const TopologyIndex& topo, int32_t nodes);

  // Creates the messages due at clock c; accepted ones join their source's queue and wake
  // its router.
  void createDue(int64_t c, PacketStore& store, Statistics& stats, Network& net);
  // A message of the application (application.h), created at clock c: never refused, since
  // the program holds its data; MessageMaxCount bounds synthetic creation only.
  void enqueueApp(int32_t node, int32_t dest, int64_t bits, uint64_t tag, int64_t c,
                  PacketStore& store, Statistics& stats, Network& net) {
    enqueue(node, dest, bits, c, store, stats, net, tag);
  }
  // The PE of router r at clock c: hands at most one flit to an injection VC.
  void inject(int32_t r, int64_t c, PacketStore& store, Statistics& stats, Network& net);

  // Whether the PE of router r has a message to inject: one bit per source, so that the
  // router steps of a network larger than the caches ask it without loading the source.
  bool pending(int32_t r) const { return (pending_[r >> 6] >> (r & 63)) & 1; }
  // The same, a bit per source: source r is bit r % 64 of word r / 64.
  const std::vector<uint64_t>& pendingWords() const { return pending_; }
  void prefetch(int32_t r) const {
    if (pending(r)) __builtin_prefetch(&sources_[r]);
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
  uint64_t initialHeader(Source& s, const Packet& p) const;
  // inject for a packet's head flit, taking the next message's packet first when none is
  // being written.
  [[gnu::noinline]] void injectHead(int32_t r, int64_t c, PacketStore& store, Statistics& stats,
                                    Network& net);
  int64_t nextGap(Source& s);
  void create(int32_t node, int64_t c, PacketStore& store, Statistics& stats, Network& net);
  void enqueue(int32_t node, int32_t dest, int64_t bits, int64_t c, PacketStore& store,
               Statistics& stats, Network& net, uint64_t tag = kNoTag);

  const SimParams& params_;
  const TopologyIndex& topo_;
  DestFn dest_fn_;
  int32_t nodes_;
  int64_t length_step_;
  int64_t length_choices_;
  int64_t periodic_gap_;
  double log_no_creation_;  // log1p(-creation_rate), for the gaps of a Bernoulli process
  int64_t created_ = 0;
  int64_t queued_ = 0;
  int32_t blocked_ = 0;    // sources blocked on a full queue
  bool stopped_ = false;   // MessageCreationMax reached: no source creates again
  size_t script_next_ = 0;
  std::vector<Source> sources_;
  std::vector<uint64_t> pending_;  // bit r: source r has a queued message or a packet to write
  void notePending(int32_t r, const Source& s) {
    const uint64_t bit = uint64_t{1} << (r & 63);
    if (s.head != kNone || s.packet != kNone) {
      pending_[r >> 6] |= bit;
    } else {
      pending_[r >> 6] &= ~bit;
    }
  }
  // Per-source state of the destination function; only patterns with state (AllToAll and
  // generated ones) get a slot per node, the others share one.
  std::vector<uint64_t> pattern_state_;
  DueWheel due_;  // when each creating source creates next
};

}  // namespace ndl::rt
