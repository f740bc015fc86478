// The state of every router and channel as flat arrays indexed by small integer ids: input
// virtual channels with their flit rings, output VCs with their credits, the port wiring,
// and the links in flight (EventWheel). Router behaviour lives in router.h.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "ndl/runtime/net/arbiter.h"
#include "ndl/runtime/net/endpoints.h"
#include "ndl/runtime/net/event_wheel.h"
#include "ndl/runtime/net/flow_control.h"
#include "ndl/runtime/net/hot.h"
#include "ndl/runtime/net/network_desc.h"
#include "ndl/runtime/net/packet.h"
#include "ndl/runtime/net/prediction.h"
#include "ndl/runtime/net/router_limits.h"
#include "ndl/runtime/net/routing.h"
#include "ndl/runtime/net/topology_index.h"
#include "ndl/runtime/sim/sim_params.h"

namespace ndl::rt {

inline constexpr size_t kCacheLine = 64;

enum class VcState : uint8_t {
  kIdle,      // the front flit (if any) is the head of a packet not yet looked at
  kWaitTail,  // store-and-forward: waiting for the tail before routing
  kRouting,   // header delay (routing + switch) running until `ready`
  kVcAlloc,   // waiting for an output VC: routed again every router clock
  kActive,    // owns an output VC; flits cross the switch as credits allow
  kDiscard,   // the front packet was dropped; its flits are thrown away as they come
};

// 20 bytes: at 10 VCs per router this is a fifth of a router's memory.
struct InputVc {
  uint32_t ready = 0;  // low 32 bits of the clock the header may leave
  uint16_t head = 0;   // ring slot of the front flit (the front packet's id is that flit)
  uint16_t count = 0;  // flits buffered
  uint16_t sent = 0;   // flits of the front packet forwarded or discarded
  uint16_t len = 0;    // flits of the front packet
  uint8_t out_port = 0;
  // The output VC it holds as a bit of the router's route masks, out_port * VCs + the VC
  // (degree * VCs + endpoint * injection VCs, the place of that endpoint's ejection sentinel,
  // when it ejects): the step finds its credits at the router's first output VC plus this,
  // without a multiply.
  uint8_t out_ovc = 0;
  uint8_t cls = 0;    // fixed: the VC's class (network or injection classes)
  uint8_t spare = 0;  // with out_port and out_ovc, the candidates of a kBlocked header
  VcState state = VcState::kIdle;
  uint8_t port = 0;   // fixed: the input port this VC belongs to
  uint8_t index = 0;  // fixed: the VC's number at that port
  // kCollided: a collision was already counted for the front packet here.
  // kQueued: the previous tail left with this head already queued: the head reached the
  // front in clock `ready`, and its header delay counts from there.
  // kBlocked: the header in kVcAlloc found no free candidate when last routed; its candidate
  // output VCs (every tier) are then kept in out_port, out_ovc and spare, unused until a grant.
  // kPredicted: the header took the predictive path and asks for its output VC at the lowest
  // priority (a tentative reservation; docs/prediction.md).
  // Without hint bits (MispredictionCheck None): kToPredicted: it asks for any VC of the
  // predicted port, kept in spare, in place of the routing's candidates; kCopy: the front
  // packet is a mispredicted copy, which follows predictions; kCopyPass: the VC is sending the
  // copy of its front packet, whose flits stay until the packet itself leaves.
  uint8_t flags = 0;
  static constexpr uint8_t kCollided = 1;
  static constexpr uint8_t kQueued = 2;
  static constexpr uint8_t kBlocked = 4;
  static constexpr uint8_t kPredicted = 8;
  static constexpr uint8_t kToPredicted = 16;
  static constexpr uint8_t kCopy = 32;
  static constexpr uint8_t kCopyPass = 64;
  static constexpr int kBlockedBits = 24;
  uint32_t blockedCandidates() const {
    return out_port | static_cast<uint32_t>(out_ovc) << 8 | static_cast<uint32_t>(spare) << 16;
  }
  void setBlocked(uint32_t candidates) {
    out_port = static_cast<uint8_t>(candidates);
    out_ovc = static_cast<uint8_t>(candidates >> 8);
    spare = static_cast<uint8_t>(candidates >> 16);
    flags |= kBlocked;
  }
};

static_assert(sizeof(InputVc) == 20, "InputVc is sized for memory per node");

// What routers report from one clock, consumed by the statistics after the clock.
struct CycleLog {
  struct Arrival {
    int32_t node;
    uint32_t packet;
  };
  // Tails ejected, at the router (node) where they left; the simulator keys them by the
  // endpoint that received them (the router's first endpoint + the packet's dst_local).
  std::vector<Arrival> arrivals;
  std::vector<Arrival> drops;     // packets dropped by the deadlock timeout, and where
  std::vector<uint32_t> freed;    // dropped packets whose last flit was discarded
  int64_t flit_hops = 0;          // flits that crossed a network link
  bool moved = false;             // a flit moved other than over a link (deadlock detection)
  bool suspect = false;           // a header has been blocked for the deadlock timeout
  void clear() {
    arrivals.clear();
    drops.clear();
    freed.clear();
    moved = false;
    suspect = false;
  }
};

class Network {
 public:
  // Throws std::invalid_argument when the description does not fit the runtime's limits.
  Network(const NetworkDesc& desc, const SimParams& params);
  // vc_base_ points into vc_store_: a copy would point into the original.
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;
  ~Network() {
    if (current_ == this) current_ = nullptr;
  }

  // The network last constructed, the one a generated simulator runs: a congestion read of an
  // NDL routing finds its router's output VCs here (generated_entry.cpp, ndl_port_load), so
  // that routing calls carry nothing for it.
  static const Network* current() { return current_; }
  // Router r's output VCs, port * VCs + VC: the credits, kOwned set while a packet owns one.
  const uint16_t* outVcRow(int32_t r) const {
    return &out_vc_[static_cast<size_t>(ovcBegin(router_[r]))];
  }
  int32_t vcsPerPort() const { return vcs_; }
  // (port-queue-at R P): flits router r's output port `local` held downstream as the router
  // clock began, over its VCs (the snapshot beginRound takes with SimParams::global_congestion).
  int32_t snapshotQueue(int32_t r, int32_t local) const {
    const uint16_t* e = &queue_snapshot_[static_cast<size_t>(ovcBegin(router_[r])) +
                                         static_cast<size_t>(local) * vcs_];
    int32_t credits = 0;
    for (int32_t k = 0; k < vcs_; ++k) credits += e[k] & static_cast<uint16_t>(~kOwnedBit);
    return vcs_ * buffer_flits_ - credits;
  }

  int32_t routers() const { return routers_; }
  int32_t degree(int32_t r) const { return router_[r].degree(); }
  const TopologyIndex& topology() const { return topo_; }

  // ---- the endpoints' side of the injection channels
  const EndpointLayout& endpoints() const { return endpoints_; }
  int32_t injectionVcs() const { return inj_vcs_; }
  // Global id of injection VC i of the router's endpoint `local` (0 .. its endpoints - 1).
  uint32_t injectionVc(int32_t r, int32_t local, int32_t i) const {
    return static_cast<uint32_t>(router_[r].vc_begin + router_[r].degree() * vcs_ +
                                 local * inj_vcs_ + i);
  }
  int32_t bufferedFlits(uint32_t gv) const { return vc(gv).count; }
  int32_t bufferFlits() const { return buffer_flits_; }
  // Writes one flit into an injection VC (the caller checked there is room).
  void pushInjected(int32_t r, uint32_t gv, uint32_t packet) {
    pushFlit(gv, packet);
    router_[r].nonempty |= uint64_t{1} << (gv - router_[r].vc_begin);
    ++flits_in_network_;
  }

  // ---- per-clock driving
  // Makes the flits and credits that arrive at clock c visible (the commit of the sends of
  // earlier clocks) and marks receiving routers active. Without prefetching: a network
  // larger than the caches is stepped with stageArrivals.
  void deliver(int64_t c);
  // The same commit spread over the clock's stepping, for networks larger than the caches:
  // stageArrivals delivers the credits, marks the receiving routers active and sorts the
  // flits by blocks of routers, in place; deliverThrough(r), called with routers in
  // increasing order, commits the flits of the blocks up to r's just before r is stepped
  // (called in any other order it commits early, which is still correct), so that a receiving
  // VC is loaded once for its delivery and its step instead of twice (the whole clock's
  // deliveries in between would evict it); deliverRest commits what is left. Flits reach
  // distinct VCs (one per link and clock), so the order of commits changes no result.
  void stageArrivals(int64_t c);
  NDL_HOT void deliverThrough(int32_t r) {
    const uint32_t block = static_cast<uint32_t>(r) >> kStageShift;
    if (block >= staged_next_) deliverBlocks(block + 1);
  }
  void deliverRest();
  // Starts a round of router steps at clock c: every router with work is stepped in it.
  void beginRound(int64_t c) {
    if (predict_) [[unlikely]] applyUpdates(c);
    // Every output VC's credits as the clock begins, for routings that read other routers'
    // queues: a copy of the array, no allocation after the first (sized once).
    if (!queue_snapshot_.empty()) [[unlikely]]
      std::copy(out_vc_.begin(), out_vc_.end(), queue_snapshot_.begin());
    round_prev_ = round_now_;
    round_now_ = static_cast<uint32_t>(c);
    credit_bucket_ = &wheel_.creditsAt(c + credit_delay_);
    if (link_delay_ > 0) flit_bucket_ = &wheel_.flitsAt(c + link_delay_);
  }
  // One router clock of router r at clock c (in the round begun last): routing, VC and switch
  // allocation, traversal. Returns whether the router still holds flits (routerBusy), which
  // the step has at hand and the caller would otherwise load again.
  template <class Route>
  bool stepRouter(int32_t r, int64_t c, const Route& route, PacketStore& store, CycleLog& log);
  // Steps the routers of `word` (router base + b for bit b) and returns those left idle.
  template <class Route>
  uint64_t stepWord(uint64_t word, int32_t base, int64_t c, const Route& route,
                    PacketStore& store, CycleLog& log);

  bool routerBusy(int32_t r) const { return router_[r].nonempty != 0; }
  // The routers with work, a bit each (router r is bit r % 64 of word r / 64). The
  // simulator steps them in memory order: a clock's work then streams through the router
  // arrays instead of jumping about them, which is what keeps a network whose state is far
  // larger than the caches (a million routers: about a gigabyte) fast.
  NDL_HOT void activate(int32_t r) { active_[r >> 6] |= uint64_t{1} << (r & 63); }
  std::vector<uint64_t>& activeWords() { return active_; }
  // Ask the memory system for what router r's step will read (its entry; then the VCs
  // holding flits with their front flits, its ports, output VCs and counters) while the routers
  // before it are stepped: the loads then overlap instead of waiting for each other.
  NDL_HOT void prefetchEntry(int32_t r) const {
    // Both ends: two entries in eight straddle two cache lines.
    __builtin_prefetch(&router_[r], 1);
    __builtin_prefetch(reinterpret_cast<const std::byte*>(&router_[r] + 1) - 1, 1);
  }
  NDL_HOT void prefetchRouter(int32_t r) const {
    const Router& x = router_[r];
    for (uint64_t m = x.nonempty; m != 0; m &= m - 1) {
      const uint32_t gv = static_cast<uint32_t>(x.vc_begin + __builtin_ctzll(m));
      prefetchVc(gv);
    }
    // A router's ports (16 bytes each) span two cache lines from degree 4 on.
    __builtin_prefetch(&ports_[x.portBegin()], 1);
    __builtin_prefetch(&ports_[x.portBegin() + x.degree()], 1);
    __builtin_prefetch(&out_vc_[ovcBegin(x)], 1);
    // What only headers use (routing, grants, collisions) only for a router with headers:
    // at light load most steps pass the flits of worms that own their output VCs already.
    if ((x.nonempty & ~x.owning) != 0) {
      __builtin_prefetch(&in_code_[x.portBegin()]);
      __builtin_prefetch(&class_grants_[static_cast<size_t>(r) * classes_], 1);
      __builtin_prefetch(&collisions_[r], 1);
    }
  }
  // The last stage, one step ahead: the packets whose headers are at the front of r's VCs
  // (their length and destination), found through the flits prefetched before.
  NDL_HOT void prefetchPackets(int32_t r, const PacketStore& store) const {
    // Only VCs without an output VC (headers to route); a worm on its way reads its packet
    // only to count a hop as its head leaves, and reading its state here would wait for
    // memory.
    const Router& x = router_[r];
    for (uint64_t m = x.nonempty & ~x.owning; m != 0; m &= m - 1) {
      const uint32_t gv = static_cast<uint32_t>(x.vc_begin + __builtin_ctzll(m));
      __builtin_prefetch(&store.packets[frontPacket(gv)], 1);
    }
  }

  int64_t flitsInNetwork() const { return flits_in_network_; }

  // ---- progress under way, for the no-movement backstop (deadlock_search.cpp)
  // The last clock in which a flit or a credit arrived (deliver, stageArrivals), or -1.
  int64_t lastArrival() const { return last_arrival_; }
  // The router pipeline's ST clocks, which an ejected tail also takes to its endpoint.
  int32_t flitPipe() const { return flit_pipe_; }
  // The last clock after c at which something already under way lands: a flit or a credit on
  // a wire, the end of a header's delay (routing and switch set-up), a header's first look
  // by its router; -1 when nothing is. Cold: it looks at the whole wheel and every VC.
  int64_t progressPendingUntil(int64_t c) const;

  // ---- deadlocks as wait-for cycles (deadlock_search.cpp)
  // Looks for VCs that can never move again: blocked VCs all of whose ways forward wait on
  // VCs that are themselves such. Fills `cycle` with global input VCs, each waiting for the
  // next, and returns true when there are any. `route` is the routing the step uses.
  bool findDeadlock(RouteFn route, int64_t c, const PacketStore& store,
                    std::vector<uint32_t>& cycle) const;
  // Drops the packets whose headers wait in the cycle's VCs; returns how many.
  int dropCycle(const std::vector<uint32_t>& cycle, int64_t c, PacketStore& store, CycleLog& log);
  // "n3:x+ vc0": the channel into the VC's router that feeds input VC gv.
  std::string vcName(uint32_t gv) const;
  // "n3:x+": a channel by its sending router and port, named by dimension and direction.
  std::string channelName(int32_t r, int32_t port) const;
  // Per channel (a router's network port with a receiver), the flits it carried, in the order
  // of routers and their ports; f(router, port, to_router, flits).
  template <class F>
  void forEachChannel(F f) const {
    for (int32_t r = 0; r < routers_; ++r) {
      for (int32_t p = 0; p < router_[r].degree(); ++p) {
        const int32_t g = router_[r].portBegin() + p;
        if (ports_[g].down_router >= 0) f(r, p, ports_[g].down_router, port_flits_[g]);
      }
    }
  }
  const std::vector<int64_t>& collisions() const { return collisions_; }
  // Packets granted an output VC of each network class, router by router (classes() per
  // router); grants that set the routing's RecoveryField (recoveries) and grants to packets
  // that have it set (recovery hops).
  int32_t classes() const { return classes_; }
  const std::vector<int64_t>& classGrants() const { return class_grants_; }
  // Kept only for a routing with a recovery field (none else can recover): 0 otherwise.
  int64_t recoveries(int32_t r) const { return recoveries_.empty() ? 0 : recoveries_[r]; }
  int64_t recoveryHops(int32_t r) const { return recovery_hops_.empty() ? 0 : recovery_hops_[r]; }
  // Times a packet took the recovery token (TokenClasses), and the clocks it was held.
  int64_t tokenCaptures() const { return token_captures_; }
  // Predictive switching (docs/prediction.md): null without a predictor.
  const Prediction* prediction() const { return predict_.get(); }
  int64_t tokenHeldClocks(int64_t c) const {
    return token_held_clocks_ + (token_holder_ != kNoHolder ? c - token_since_ : 0);
  }
  // Bytes held by the network state, for the memory figure of the benchmark.
  size_t stateBytes() const;

 private:
  void pushFlit(uint32_t gv, uint32_t packet) {
    InputVc& v = vc(gv);
    ring(gv)[(v.head + v.count) & depth_mask_] = packet;
    ++v.count;
  }
  // The front packet is gone; a head queued behind it is at the front from clock c.
  static void releaseFront(InputVc& v, int64_t c) {
    v.state = VcState::kIdle;
    v.flags = v.count > 0 ? InputVc::kQueued : 0;
    v.ready = static_cast<uint32_t>(c);
  }
  // Where a router's ports and output VCs start, and its degree, as the step has them.
  struct RouterFrame {
    int32_t pb;
    int32_t ob;
    int32_t deg;
  };
  void moveFlit(int32_t r, uint32_t gv, int l, const RouterFrame& f, int64_t c, CycleLog& log);
  uint32_t frontPacket(uint32_t gv) const { return ring(gv)[vc(gv).head]; }
  void routeHead(int32_t r, uint32_t gv, InputVc& v, uint32_t since, uint32_t now,
                 PacketStore& store);
  // Routes a header waiting for an output VC and picks a free candidate: its output port,
  // the free VCs of that port it may take (`want`: those that write the header as the chosen
  // one does), the one selection chose (`first`) and the packet's header once it takes one.
  // False when no candidate is free.
  // Whether a header found blocked in an earlier clock is still blocked without routing it
  // again: its answer cannot have changed (no wait breakpoint crossed since) and none of its
  // candidates is free now, as the recovery token allows them now.
  bool stillBlocked(uint32_t gv, const InputVc& v, const RouterFrame& f, int32_t r,
                    uint32_t now) const;
  template <class Route>
  bool selectRoute(int32_t r, int l, InputVc& v, const RouterFrame& f, uint32_t now,
                   const Route& route, PacketStore& store, int& o, uint64_t& want, int& first,
                   uint64_t& header) const;
  [[noreturn]] void badHeader(int32_t r, int32_t dest, int32_t error) const;
  [[noreturn]] void noCandidate(int32_t r, int32_t dest) const;
  void discardFlits(int32_t r, uint32_t gv, int64_t c, CycleLog& log);
  // Exactly two switch requests, from different input ports for different output ports
  // (switch allocation then grants both).
  bool twoApart(uint64_t requests, uint32_t vb, int32_t r) const;
  // Whether the traffic classes differ in priority (a constant in a specialized simulator).
  bool prioritized() const;
  // Out of line, so that a step without priorities keeps its code: round robin from `start`
  // among the local VCs `req` whose front packet has the highest priority; the input ports
  // `inputs` whose chosen VC (chosen[port]) has the highest priority.
  [[gnu::noinline]] int pickPriority(uint64_t req, uint32_t start, uint32_t vb) const;
  [[gnu::noinline]] uint32_t topInputs(uint32_t inputs, const int* chosen, uint32_t vb) const;
  // Headers of router r that were ready to leave and did not: collisions, the drop timeout.
  [[gnu::noinline]] void headsStayed(int32_t r, uint64_t stayed, int64_t c, PacketStore& store,
                                     CycleLog& log);
  void dropFront(int32_t r, uint32_t gv, int64_t c, PacketStore& store, CycleLog& log);
  [[noreturn]] void badRoute(int32_t r, int32_t dest, int32_t port) const;
  // The router holding global input VC gv (binary search: cold paths only).
  int32_t routerOfVc(uint32_t gv) const;
  // Input VCs of router r: its network VCs and its endpoints' injection VCs.
  int32_t localVcs(int32_t r) const {
    const uint32_t end = r + 1 < routers_ ? static_cast<uint32_t>(router_[r + 1].vc_begin)
                                          : vc_count_;
    return static_cast<int32_t>(end - static_cast<uint32_t>(router_[r].vc_begin));
  }
  // What blocked VC gv waits for, appended to `targets`; false when it can move (now or
  // once something already in flight arrives).
  // Credits an unowned output VC needs before it is given to a packet of `len` flits: room
  // for the whole packet under cut-through and store-and-forward, an empty buffer under
  // atomic VC allocation.
  uint16_t allocationCredits(int32_t len) const {
    return static_cast<uint16_t>(std::max(creditsToAllocate(flow_, len), atomic_credits_));
  }
  bool waitsFor(int32_t r, uint32_t gv, uint32_t now, RouteFn route, const PacketStore& store,
                std::vector<uint32_t>& targets) const;

  // ---- the recovery token (TokenClasses; DISHA). One token in the network: free, it passes
  // the routers in node order, one router per clock, starting from the router that last
  // released it; held, it belongs to one packet until that packet's tail leaves the network.
  // May `packet`, at router r in clock `now`, take a VC of a token class?
  bool tokenAllows(uint32_t packet, int32_t r, uint32_t now) const {
    if (token_holder_ == packet) return true;
    return token_holder_ == kNoHolder && freeTokenAt(now) == r;
  }
  // The router the free token passes in clock `now`. Out of line: its division stays out of
  // the router step (tests/lit/build/emit_llvm.ndl).
  [[gnu::noinline]] int32_t freeTokenAt(uint32_t now) const;
  void takeToken(uint32_t packet, int64_t c) {
    if (token_holder_ == packet) return;
    token_holder_ = packet;
    token_since_ = c;
    ++token_captures_;
  }
  void releaseToken(int32_t r, int64_t c) {
    token_held_clocks_ += c - token_since_;
    token_holder_ = kNoHolder;
    token_from_ = r;
    token_since_ = c;
  }

  TopologyIndex topo_;
  FlowControl flow_;
  DeadlockHandling deadlock_;
  int32_t routers_ = 0;
  EndpointLayout endpoints_;
  inline static const Network* current_ = nullptr;
  int32_t vcs_ = 1;      // per network port
  int32_t inj_vcs_ = 1;  // per endpoint's injection port
  int32_t buffer_flits_ = 1;
  int32_t depth_ = 1;  // ring slots per VC, a power of two >= buffer_flits_
  uint32_t depth_mask_ = 0;
  int32_t header_delay_ = 1;  // link clocks (router clocks converted when the domains differ)
  int32_t credit_delay_ = 1;  // link clocks; the shortest when links' credits differ
  // Links with their own delay (docs/topologies.md): per output VC, the clocks its credits
  // wait beyond credit_delay_ (holdLateCredits), empty when every credit takes one delay;
  // credit_delay_of_ is the constructor's per-port scratch for it.
  std::vector<uint8_t> credit_extra_;
  std::vector<int32_t> credit_delay_of_;
  static constexpr uint32_t kLateCredit = 0x80000000u;  // a credit held once already
  int64_t drop_timeout_ = 0;  // blocked this long: suspected (or dropped, DropAfterTimeout)
  Selection selection_ = Selection::kFirst;
  uint64_t seed_ = 0;             // of selection Random
  bool has_header_ = false;       // the routing declares header fields
  SelectFn select_fn_ = nullptr;  // Selection::kUser
  // Only with (Predictor ...): routeHead and the grants then call out of line.
  std::unique_ptr<Prediction> predict_;
  void predictHead(int32_t r, uint32_t gv, InputVc& v, uint32_t since, uint32_t now,
                   const Packet& p);
  void lostReservation(int32_t r, uint32_t gv, InputVc& v, const PacketStore& store);
  // Without hint bits: the request for any free VC of the predicted port, the grant's start
  // of a copy pass, a flit of the copy, and a copy found at a port that does not predict.
  bool predictedRequest(uint32_t gv, const InputVc& v, const RouterFrame& f,
                        const PacketStore& store, int& o, uint64_t& want, int& first,
                        uint64_t& header) const;
  void startPredictedMove(int32_t r, uint32_t gv, InputVc& v, PacketStore& store);
  void moveCopyFlit(int32_t r, uint32_t gv, int l, const RouterFrame& f, int64_t c,
                    CycleLog& log);
  void discardCopy(InputVc& v);
  void toPredicted(InputVc& v, uint32_t since, int32_t port);
  void forwarded(int32_t r, uint32_t gv, const InputVc& v, int32_t out_code, int64_t c,
                 const PacketStore& store);
  void applyUpdates(int64_t c);
  void applyUpdate(const PendingUpdate& u);
  uint8_t out_class_[64] = {};    // class of network VC k (the same at every port)
  std::vector<SimParams::HeaderField> header_fields_;  // for error messages
  // Output VC bit b of a route mask (b = port * vcs + vc): its port and VC.
  uint8_t bit_port_[64] = {};
  std::vector<std::string> dim_names_;  // for channel names in deadlock reports
  // Per global port: the portCode of its output side, and of the hop that brings packets
  // in (the travel direction seen by (arrived-along)).
  std::vector<int16_t> out_code_;
  std::vector<int16_t> in_code_;

  // per router, in one 24-byte entry: a router step starts with it. Its output VCs (and the
  // ejection sentinel after them) are numbered as its input VCs, from vc_begin (ovcBegin),
  // and its first port and degree share a word, so that eight entries fill three cache lines.
  struct Router {
    uint64_t nonempty = 0;  // local input VCs holding flits
    uint64_t owning = 0;    // local input VCs in kActive (owning an output VC, or ejecting)
    int32_t vc_begin = 0;   // first global input VC
    // first global port << kDegreeBits | degree; the network ports come first, then one port
    // per endpoint (degree + endpoints ports in all)
    uint32_t ports = 0;
    static constexpr int kDegreeBits = 5;  // degree < kMaxPorts
    int32_t portBegin() const { return static_cast<int32_t>(ports >> kDegreeBits); }
    int32_t degree() const { return static_cast<int32_t>(ports & ((1u << kDegreeBits) - 1)); }
  };
  static_assert(kMaxPorts <= 1 << Router::kDegreeBits);
  static_assert(sizeof(Router) == 24, "the router entry is sized for memory per node");
  int32_t ovcBegin(const Router& x) const { return x.vc_begin; }
  std::vector<Router> router_;
  std::vector<int64_t> collisions_;
  int32_t atomic_credits_ = 0;  // buffer_flits_ under atomic VC allocation, else 0
  int32_t classes_ = 1;
  uint64_t recovery_field_ = 0;
  std::vector<int64_t> class_grants_;  // router * classes_ + class
  std::vector<int64_t> recoveries_;
  std::vector<int64_t> recovery_hops_;
  static constexpr uint32_t kNoHolder = 0xffffffffu;
  uint64_t token_vc_ = 0;              // bit k: network VC k (at every port) is of a token class
  // Per router, with token classes only: its VCs that own an output VC of a token class (the
  // recovery lane), so that switch allocation looks for the lane only where it is.
  std::vector<uint8_t> lane_vcs_;
  uint64_t token_bits_ = 0;            // the same over route-mask bits (port * vcs + vc)
  uint32_t token_holder_ = kNoHolder;  // the packet holding the token
  int32_t token_from_ = 0;             // where the free token was released
  int64_t token_since_ = 0;            // and when; or when the holder took it
  int64_t token_captures_ = 0;
  int64_t token_held_clocks_ = 0;
  std::vector<uint64_t> active_;  // activate()
  // Waiting headers (SimParams::wait_breaks): whether a blocked header may skip its routing,
  // and the waits at which its answer may change. Routers with work are stepped every router
  // clock, so a header found blocked was last routed (or skipped) at the previous round,
  // round_prev_.
  bool wait_memo_ = false;
  uint8_t wait_break_count_ = 0;
  uint32_t wait_breaks_[16] = {};
  uint32_t round_now_ = 0;
  uint32_t round_prev_ = 0;

  // per global port, packed (16 bytes) so one cache line serves a router's ports
  struct Port {
    // Output side: input VC 0 of the receiving port less this port's first route-mask bit
    // (its number at its router * VCs), so that a flit's VC there is this plus out_ovc.
    int32_t down_base = 0;
    int32_t up_ovc = -1;       // input side: output VC 0 of the sending port, or the sink
    int32_t down_router = -1;  // output side: the receiving router, or -1 (no receiver)
    uint8_t link_delay = 0;    // output side, link clocks (at most kMaxLinkDelayClocks)
    uint8_t va_ptr = 0;        // VC allocation pointer (output side)
    uint8_t sa_out_ptr = 0;    // switch allocation pointer (output side)
    uint8_t sa_in_ptr = 0;     // switch allocation pointer (input side)
  };
  std::vector<Port> ports_;
  // Flits sent out of each port over its link (the channel's load; ejection ports stay 0).
  std::vector<uint64_t> port_flits_;

  // Per global input VC, one record: its state (InputVc) followed by its ring of depth_ flit
  // slots (packet ids). What a router step and a delivery read and write of a VC is then one
  // record, a cache line or two neighbouring ones, not a line in each of two arrays.
  std::vector<std::byte> vc_store_;
  std::byte* vc_base_ = nullptr;  // the first record, in vc_store_, aligned to a cache line
  size_t vc_stride_ = 0;          // bytes per record
  uint32_t vc_count_ = 0;
  InputVc& vc(uint32_t gv) { return *reinterpret_cast<InputVc*>(vc_base_ + gv * vc_stride_); }
  const InputVc& vc(uint32_t gv) const {
    return *reinterpret_cast<const InputVc*>(vc_base_ + gv * vc_stride_);
  }
  // Both ends of a record: it may straddle two cache lines.
  NDL_HOT void prefetchVc(uint32_t gv) const {
    const std::byte* p = vc_base_ + gv * vc_stride_;
    __builtin_prefetch(p, 1);
    __builtin_prefetch(p + vc_stride_ - 1, 1);
  }
  uint32_t* ring(uint32_t gv) {
    return reinterpret_cast<uint32_t*>(vc_base_ + gv * vc_stride_ + sizeof(InputVc));
  }
  const uint32_t* ring(uint32_t gv) const {
    return reinterpret_cast<const uint32_t*>(vc_base_ + gv * vc_stride_ + sizeof(InputVc));
  }

  // per global output VC: credits (free downstream slots) in the low 15 bits, and kOwned
  // while a packet holds the VC; each router's are followed by its endpoints' ejection
  // sentinels (one at the first of each endpoint's injection-VC numbers), and
  // the last entries are the credit sink, where the credits of ports without a sender
  // (injection ports) go, never read
  static constexpr uint16_t kOwned = kOwnedBit;
  static constexpr uint16_t kCreditMask = 0x7fff;
  std::vector<uint16_t> out_vc_;
  std::vector<uint16_t> queue_snapshot_;  // out_vc_ as the clock began; empty unless read

  EventWheel wheel_;
  // Where this round's sends arrive (beginRound): the credits' bucket, and the flits' when
  // every link has the same delay, link_delay_ (else 0 and each send finds its own). Both
  // include flit_pipe_, the router pipeline's ST clocks (0 without RouterPipeline).
  std::vector<CreditEvent>* credit_bucket_ = nullptr;
  std::vector<FlitEvent>* flit_bucket_ = nullptr;
  int32_t link_delay_ = 0;
  int32_t flit_pipe_ = 0;
  // stageArrivals: the clock's flits, sorted in their wheel bucket by blocks of 2^kStageShift
  // routers; block b's are (*staged_)[staged_start_[b], staged_start_[b + 1]); blocks below
  // staged_next_ are delivered. staged_fill_ is the sort's next free slot per block.
  static constexpr int kStageShift = 8;
  std::vector<FlitEvent>* staged_ = nullptr;
  std::vector<uint32_t> staged_start_;
  std::vector<uint32_t> staged_fill_;
  uint32_t staged_next_ = 0;
  template <bool kPrefetch>
  void commitFlits(const FlitEvent* begin, const FlitEvent* end);
  void deliverBlocks(uint32_t end);
  template <bool kPrefetch>
  void deliverCredits(int64_t c);
  void lateCredits(int32_t uniform, size_t ovcs, int32_t& horizon);
  void holdLateCredits(int64_t c);
  int64_t flits_in_network_ = 0;
  int64_t last_arrival_ = -1;
  // Traffic classes of different priorities: each input VC's front packet's priority, which
  // VC and switch allocation serve highest first (round robin within one). Empty without.
  // Last, so that the other members keep their offsets (and the step its code) without.
  std::vector<uint8_t> vc_prio_;
  bool priorities_ = false;
  // (SwitchInputArbitration ByOutput): per input port, the round-robin pointer over the
  // outputs its VCs request (the VC for the chosen output then by sa_in_ptr). Empty with ByVc.
  std::vector<uint8_t> sa_in_out_ptr_;
  bool byOutput() const { return !sa_in_out_ptr_.empty(); }
  int pickByOutput(uint64_t req, int in, int32_t pb, uint32_t vb) const;
  // (SwitchHold Packet): per router, its local VCs whose packet holds its connection through
  // the switch (won it and has flits to send): at most one per input and per output port.
  // Empty with Flit.
  std::vector<uint64_t> sa_held_;
  bool holding() const { return !sa_held_.empty(); }
  uint64_t sendHeld(int32_t r, uint64_t held, uint64_t rest, const RouterFrame& f, int64_t c,
                    CycleLog& log, uint64_t& moved);
  // After input port `in` was granted the switch for output `o`.
  void grantedOutput(int32_t pb, int in, int o) {
    if (byOutput()) [[unlikely]]
      sa_in_out_ptr_[static_cast<size_t>(pb + in)] = roundRobinNext(o);
  }
  // (InternalSpeedup S), S > 1: the router's allocation and switch run S times a clock
  // (stepRouter), and a network output port queues what crosses it for its channel, which
  // carries one flit a clock: per port, the first clock its channel is free (queue_free_).
  // An endpoint takes one flit a clock: its sentinel's credit is taken for the rest of the
  // clock (moveFlit). Empty at S = 1 (docs/runtime.md 2.1).
  int32_t speedup_ = 1;
  std::vector<int64_t> queue_free_;
  bool sped() const { return speedup_ > 1; }
  // The clock a flit crossing to network port g at clock c leaves on its channel.
  int64_t queueDeparture(int32_t g, int64_t c) {
    const int64_t t = std::max(c, queue_free_[static_cast<size_t>(g)]);
    queue_free_[static_cast<size_t>(g)] = t + 1;
    return t;
  }
  template <class Route>
  bool stepPass(int32_t r, int64_t c, const Route& route, PacketStore& store, CycleLog& log);
};

}  // namespace ndl::rt
