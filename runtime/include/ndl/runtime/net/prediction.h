// Predictive switching (seed 001; docs/prediction.md): per-port state rings that a predictor
// written in NDL reads and its OnForward block writes, the updates on their way to the rings
// (PredictorLatency), and the prediction counters. The network holds one only when the
// program names a predictor: a program without one keeps the router step as it is.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "ndl/runtime/net/memory_estimate.h"
#include "ndl/runtime/net/routing.h"

namespace ndl::rt {

inline constexpr int32_t kEjectionCode = -2;  // (ejection-port)

// A ring of (define-port-state name (Ring capacity Symbol)): its capacity and symbol range.
struct RingSpec {
  int64_t capacity = 1;
  int64_t lo = 0;
  int64_t hi = 0;
  bool per_router = false;  // (define-router-state ...): one per router, not per port
};

// Every input and injection port's rings in flat arrays: per port and ring, its length and
// newest slot, and `capacity` symbols of the narrowest width holding hi - lo. The generated
// predictor reads the rings of the port select() named.
class PortRings {
 public:
  void init(const std::vector<RingSpec>& specs, int32_t ports) {
    specs_ = specs;
    offset_.clear();
    width_.clear();
    size_t at = 0;
    for (const RingSpec& s : specs_) {
      const int w = ringSymbolBytes(s.lo, s.hi);
      width_.push_back(w);
      offset_.push_back(at);
      at += static_cast<size_t>(s.capacity) * static_cast<size_t>(w);
    }
    stride_ = at;
    data_.assign(stride_ * static_cast<size_t>(ports), 0);
    state_.assign(specs_.size() * static_cast<size_t>(ports), Head{});
  }
  size_t bytes() const { return data_.size() + state_.size() * sizeof(Head); }
  void select(int32_t port) { port_ = port; }
  int64_t length(int64_t k) const { return head(k).length; }
  // Entry i, 0 the newest (the caller checked i < length).
  int64_t ref(int64_t k, int64_t i) const {
    const RingSpec& s = specs_[static_cast<size_t>(k)];
    const int64_t slot = (head(k).newest + s.capacity - i) % s.capacity;
    return s.lo + static_cast<int64_t>(load(k, slot));
  }
  int64_t count(int64_t k, int64_t x) const {
    const RingSpec& s = specs_[static_cast<size_t>(k)];
    if (x < s.lo || x > s.hi) return 0;
    int64_t n = 0;
    for (int64_t i = 0; i < head(k).length; ++i) n += ref(k, i) == x;
    return n;
  }
  // x as the newest entry; the oldest falls out of a full ring (the caller checked the range).
  void push(int64_t k, int64_t x) {
    const RingSpec& s = specs_[static_cast<size_t>(k)];
    Head& h = head(k);
    const int64_t slot = h.length == 0 ? 0 : (h.newest + 1) % s.capacity;
    store(k, slot, static_cast<uint64_t>(x - s.lo));
    h.newest = static_cast<uint16_t>(slot);
    if (h.length < s.capacity) ++h.length;
  }

 private:
  struct Head {
    uint16_t length = 0;
    uint16_t newest = 0;
  };
  static_assert(sizeof(Head) == kRingHeadBytes, "the memory estimate counts a ring's head");
  Head& head(int64_t k) {
    return state_[static_cast<size_t>(port_) * specs_.size() + static_cast<size_t>(k)];
  }
  const Head& head(int64_t k) const {
    return state_[static_cast<size_t>(port_) * specs_.size() + static_cast<size_t>(k)];
  }
  uint8_t* at(int64_t k, int64_t slot) const {
    return const_cast<uint8_t*>(data_.data()) + stride_ * static_cast<size_t>(port_) +
           offset_[static_cast<size_t>(k)] +
           static_cast<size_t>(slot * width_[static_cast<size_t>(k)]);
  }
  // Little-endian hosts, as the runtime assumes elsewhere.
  uint64_t load(int64_t k, int64_t slot) const {
    uint64_t v = 0;
    std::memcpy(&v, at(k, slot), static_cast<size_t>(width_[static_cast<size_t>(k)]));
    return v;
  }
  void store(int64_t k, int64_t slot, uint64_t v) {
    std::memcpy(at(k, slot), &v, static_cast<size_t>(width_[static_cast<size_t>(k)]));
  }
  std::vector<RingSpec> specs_;
  std::vector<size_t> offset_;
  std::vector<int> width_;
  size_t stride_ = 0;
  std::vector<uint8_t> data_;
  std::vector<Head> state_;
  int32_t port_ = 0;
};

// A predictor's state: the rings of every input and injection port (define-port-state) and
// of every router (define-router-state), each numbered in its own kind.
struct PredictorRings {
  PortRings ports;
  PortRings routers;
  void init(const std::vector<RingSpec>& specs, int32_t port_count, int32_t router_count) {
    std::vector<RingSpec> per_port, per_router;
    for (const RingSpec& s : specs) (s.per_router ? per_router : per_port).push_back(s);
    ports.init(per_port, port_count);
    routers.init(per_router, per_router.empty() ? 0 : router_count);
  }
  size_t bytes() const { return ports.bytes() + routers.bytes(); }
  // The rings a predictor sees: its port's and its router's.
  void select(int32_t port, int32_t router) {
    ports.select(port);
    routers.select(router);
  }
};

// The predictor's hooks (generated_entry.cpp): the predicted port code of a header at the
// front of its VC at global input port `port` (-1 none, -2 the ejection), and the OnForward
// update of that port as a header leaves it by out_code; both with the port's and the
// router's rings.
using PredictFn = int64_t (*)(const RouteContext& ctx, PredictorRings& rings, int32_t port);
using ForwardFn = void (*)(const RouteContext& ctx, PredictorRings& rings, int32_t port,
                           int32_t out_code);

// Prediction counters, by the kind of input port (0 network, 1 injection).
struct PredictionCounters {
  int64_t heads[2] = {};        // headers routed (a router traversal each)
  int64_t predictions[2] = {};  // a port predicted
  int64_t hits[2] = {};         // the prediction among the routing's candidates: PST path
  int64_t busy[2] = {};         // not predicted: the router's predictor served another header
  int64_t lost[2] = {};         // hits whose tentative reservation failed: the normal path
  // Without hint bits (MispredictionCheck None): copies sent the wrong way, by the kind of
  // port whose miss sent them; and copies found at a port that does not predict, with their
  // flits (all of a copy's flits are thrown away once it is found).
  int64_t mispredicted[2] = {};
  int64_t found = 0;
  int64_t discarded_flits = 0;
};

// An OnForward update on its way to its port's rings.
struct PendingUpdate {
  int64_t due;
  int32_t router, src, dst, port;
  int16_t arrived, in_class;
  int16_t out_code;
  uint8_t in_port, injected;
};

struct Prediction {
  PredictFn predict = nullptr;
  ForwardFn forward = nullptr;
  RouteFn route = nullptr;   // the hit check asks the routing at once
  int32_t header_delay = 1;  // PredictivePath's IB, link clocks
  int32_t latency = 4;       // PredictorLatency, link clocks
  bool check_none = false;   // MispredictionCheck None: a miss sends a copy the wrong way
  std::vector<uint32_t> copy_of;  // per input VC in a copy pass: the copy's packet id
  PredictorRings rings;
  // Per router, the predictor's service: the router clock (+ 1) of its last prediction, the
  // head it served then, and the round-robin pointer, the local VC after the one served at
  // the clock before that.
  struct Served {
    uint32_t clock = 0;  // + 1: 0 is never
    uint32_t gv = 0;     // the served head's VC
    uint32_t since = 0;  // the clock its header delay counts from
    uint8_t local = 0;   // and its number in the router
    uint8_t next = 0;    // round robin: this local VC first
    uint8_t kind = 0;    // 0 network, 1 injection port
    // 0 no port predicted, 1 predicted, 2 hit, 3 a miss whose copy goes first (None),
    // 4 a copy following its prediction
    uint8_t outcome = 0;
    uint8_t restore = 0;  // the head's out_port before the prediction
  };
  std::vector<Served> served;
  // Updates in order of due clock (one latency for all), a ring buffer of a power-of-two size.
  std::vector<PendingUpdate> pending;
  size_t pending_head = 0, pending_count = 0;
  PredictionCounters counters;
};

}  // namespace ndl::rt
