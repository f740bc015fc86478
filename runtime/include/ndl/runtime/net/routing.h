// The interface between the router and a routing function (generated from NDL; tests bring
// their own oracles): what a header knows when it is routed, and the candidate routes the
// routing returns as bit masks over the router's output VCs (docs/routing.md).
#pragma once

#include <cstdint>
#include <stdexcept>

#include "ndl/runtime/net/topology_index.h"

namespace ndl::rt {

// What the simulator does about deadlocks (docs/runtime.md 2.5). Except under
// kDropAfterTimeout it looks for wait-for cycles among blocked VCs; kDrop removes the packets
// of a cycle it finds, the others stop the run at the first one (kAvoid: the routing's
// deadlock-free classes are in use, so a cycle means the routing is wrong).
enum class DeadlockHandling : uint8_t { kDetect, kDrop, kAvoid, kDropAfterTimeout };

// How the router picks one candidate among the free ones of the first tier that has any.
// kUser: a selection written in NDL scores each free candidate (SelectFn); the highest wins.
enum class Selection : uint8_t { kFirst, kRandom, kMostCredits, kStraightFirst, kUser };

// A port's code as NDL's (port dim dir) names it: dim * 2 + (dir > 0); -1 when the port has
// no (dimension, direction) or the packet was injected.
inline constexpr int32_t portCode(int32_t dim, int32_t sign) {
  return dim < 0 || sign == 0 ? -1 : dim * 2 + (sign > 0 ? 1 : 0);
}

// Everything a routing function may look at when it routes a header.
struct RouteContext {
  const TopologyIndex* topo;
  int32_t node;      // router making the decision
  int32_t src;       // packet source
  int32_t dest;      // packet destination (never `node`: the router ejects by itself)
  int32_t in_port;   // port the packet arrived on; degree + i for endpoint i's injection port
  int32_t in_vc;     // VC it arrived on
  int32_t num_vcs;   // VCs per network output port
  int32_t in_class;  // class of that VC (network classes, or injection classes at the PE)
  int32_t arrived;   // portCode of the hop that brought it (its travel direction); -1 injected
  uint32_t blocked_for;  // link clocks it has waited for an output VC here
  uint64_t header = 0;   // the packet's header fields, packed (docs/routing.md)
};
// The bit of an output VC's entry set while a packet owns it (Network::kOwned).
inline constexpr uint16_t kOwnedBit = 0x8000;

// Candidate routes in priority tiers: bit (output port * num_vcs + vc) of tier t is set when
// that output VC is a candidate of tier t. The router takes a candidate of the first tier
// that has a free one. bad_port >= 0 reports a port the routing named that the node lacks
// (its portCode), for the error message.
inline constexpr int kRouteTiers = 4;

// A header field written by the candidates that take it: cand[t] are those of tier t (same
// bits as the tiers); taking one replaces the header bits `clear` with `value`.
struct HeaderWrite {
  uint64_t cand[kRouteTiers];
  uint64_t clear;
  uint64_t value;
};
inline constexpr int kMaxHeaderWrites = 8;

// header_error: 0, or kind << 8 | field (kind 1: a value outside the field's range, 2: two
// values for one field in one route). Only write[0 .. writes) is meaningful: the rest is left
// unset so that a routing without header fields pays nothing for them.
struct RouteSet {
  uint64_t tier[kRouteTiers];
  int32_t bad_port;
  int32_t header_error = 0;
  uint8_t writes = 0;
  HeaderWrite write[kMaxHeaderWrites];
};
// What the routing of one packet did wrong at run time (no candidate, a
// port the node lacks, a header value outside its range): the run stops
// with status routing_error and still reports what it measured.
class RoutingFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// A traffic pattern written in NDL failed for a source: an evaluation error, or a destination
// outside the network. The run stops with status pattern_error.
class PatternFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int32_t kHeaderOutOfRange = 1, kHeaderTwoValues = 2;

using RouteFn = RouteSet (*)(const RouteContext&);

// What a selection written in NDL sees of one free candidate (docs/routing.md): its output
// port's code and class, the free slots of that VC, and of its port the VCs not owned and the
// free slots over them.
struct Candidate {
  int32_t out_port;  // portCode
  int32_t out_class;
  int32_t credits;
  int32_t port_free_vcs;
  int32_t port_credits;
};
using SelectFn = int64_t (*)(const RouteContext&, const Candidate&);

// The header of a new packet from src to dst; `random` seeds its draws. Throws RoutingFailure
// for any value the checker's evaluator refuses (one outside its field's range, an empty
// draw, a division by zero, ...), placed in the source.
using HeaderInitFn = uint64_t (*)(int32_t src, int32_t dst, uint64_t random);

}  // namespace ndl::rt
