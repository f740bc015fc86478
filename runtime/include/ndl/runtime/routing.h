// The interface between the router and a routing function (generated from NDL; tests bring
// their own oracles): what a header knows when it is routed, and the candidate routes the
// routing returns as bit masks over the router's output VCs (docs/routing.md).
#pragma once

#include <cstdint>

#include "ndl/runtime/topology_index.h"

namespace ndl::rt {

// What the simulator does about deadlocks (docs/runtime.md 2.5). Except under
// kDropAfterTimeout it looks for wait-for cycles among blocked VCs; kDrop removes the packets
// of a cycle it finds, the others stop the run at the first one (kAvoid: the routing's
// deadlock-free classes are in use, so a cycle means the routing is wrong).
enum class DeadlockHandling : uint8_t { kDetect, kDrop, kAvoid, kDropAfterTimeout };

// How the router picks one candidate among the free ones of the first tier that has any.
enum class Selection : uint8_t { kFirst, kRandom, kMostCredits, kStraightFirst };

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
  int32_t in_port;   // port the packet arrived on; the node's degree for the PE port
  int32_t in_vc;     // VC it arrived on
  int32_t num_vcs;   // VCs per network output port
  int32_t in_class;  // class of that VC (network classes, or injection classes at the PE)
  int32_t arrived;   // portCode of the hop that brought it (its travel direction); -1 injected
  uint32_t blocked_for;  // router clocks it has waited for an output VC here
};

// Candidate routes in priority tiers: bit (output port * num_vcs + vc) of tier t is set when
// that output VC is a candidate of tier t. The router takes a candidate of the first tier
// that has a free one. bad_port >= 0 reports a port the routing named that the node lacks
// (its portCode), for the error message.
inline constexpr int kRouteTiers = 4;
struct RouteSet {
  uint64_t tier[kRouteTiers];
  int32_t bad_port;
};

using RouteFn = RouteSet (*)(const RouteContext&);

}  // namespace ndl::rt
