// Messages and packets in flight, kept in pools indexed by small integer ids: a flit in a
// buffer is just its packet's id, so buffers stay 4 bytes per flit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ndl::rt {

inline constexpr uint32_t kNone = 0xffffffffu;
// Message::tag of a synthetic message; an application's carry their pattern tag.
inline constexpr uint64_t kNoTag = ~uint64_t{0};

// src and dst are ENDPOINT ids (endpoints.h); with one endpoint per router, router ids.
struct Message {
  int64_t created = 0;       // clock the source created it
  int64_t first_entry = -1;  // clock its first head entered the network
  int64_t length_bits = 0;
  int32_t src = 0;
  int32_t dst = 0;
  uint32_t packets = 0;   // packets it was split into
  uint32_t injected = 0;  // packets handed to the injection channel so far
  uint32_t resolved = 0;  // packets delivered or dropped
  uint32_t dropped = 0;   // packets dropped
  uint32_t collisions = 0;
  uint32_t max_hops = 0;
  uint32_t next = kNone;  // link in the source's injection queue
  uint8_t cls = 0;        // its traffic class (SimParams::classes); 0 without classes
  uint64_t tag = kNoTag;  // the pattern's tag of an application message (application.h)
};

// src and dst are ROUTER ids, what routing reads; the endpoints at those routers are
// src_local and dst_local (endpoint id = the router's first endpoint + local, endpoints.h).
struct Packet {
  int64_t head_entry = 0;  // clock its head entered the source router's injection VC
  uint64_t header = 0;     // routing state carried in the header
  uint32_t message = 0;
  int32_t src = 0;
  int32_t dst = 0;
  uint16_t len = 0;  // flits
  uint16_t hops = 0;
  uint16_t collisions = 0;
  uint8_t dropped = 0;
  uint8_t src_local = 0;  // the sending endpoint among its router's (below kMaxPorts)
  uint8_t dst_local = 0;  // the receiving endpoint among its router's: it ejects at deg + this
  // A mispredicted packet's copy (MispredictionCheck None, docs/prediction.md): no message's,
  // never delivered; it follows predictions until a port that does not predict discards it.
  uint8_t mispredicted = 0;
  uint8_t priority = 0;  // its class's (SimParams::TrafficClass::priority); 0 without
};

static_assert(sizeof(Packet) == 40, "packets stay 40 bytes: the endpoint fields use padding");

// Whether a header at router r that came in by port `in_port` (below `deg`: a link; else an
// injection port) ejects there. A packet from an endpoint to itself (an interface's external
// loop, docs/interfaces.md) is routed at its source like any other: it leaves by the link its
// routing takes back to this router and ejects when it comes in again.
inline bool ejectsAt(const Packet& p, int32_t r, int32_t in_port, int32_t deg) {
  return p.dst == r && (in_port < deg || p.src_local != p.dst_local);
}

// A pool of records with reuse of freed ids. Growth happens only when more records are live
// than ever before, so a steady-state run does not allocate.
template <typename T>
class Pool {
 public:
  uint32_t allocate() {
    if (!free_.empty()) {
      const uint32_t id = free_.back();
      free_.pop_back();
      items_[id] = T{};
      ++live_;
      return id;
    }
    items_.emplace_back();
    ++live_;
    return static_cast<uint32_t>(items_.size() - 1);
  }
  void release(uint32_t id) {
    free_.push_back(id);
    --live_;
  }
  void reserve(size_t n) {
    items_.reserve(n);
    free_.reserve(n);
  }
  T& operator[](uint32_t id) { return items_[id]; }
  const T& operator[](uint32_t id) const { return items_[id]; }
  size_t live() const { return live_; }
  // Calls f(record) for every live record. Cold (the end of a run): it marks the free ids
  // first.
  template <class F>
  void forEachLive(F&& f) const {
    std::vector<bool> free(items_.size(), false);
    for (uint32_t id : free_) free[id] = true;
    for (size_t id = 0; id < items_.size(); ++id) {
      if (!free[id]) f(items_[id]);
    }
  }

 private:
  std::vector<T> items_;
  std::vector<uint32_t> free_;
  size_t live_ = 0;
};

struct PacketStore {
  Pool<Message> messages;
  Pool<Packet> packets;
};

}  // namespace ndl::rt
