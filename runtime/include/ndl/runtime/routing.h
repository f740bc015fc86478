// Routing primitives: the interface between the router and a routing function (generated
// from NDL or one of the reference implementations here), and the reference algorithms
// DimensionOrder (mesh, torus, ring) and Ecube (hypercube).
#pragma once

#include <cstdint>

#include "ndl/runtime/topology_index.h"

namespace ndl::rt {

enum class DeadlockHandling : uint8_t { kNone, kDrop, kAvoid };

// Everything a routing function may look at when a header reaches the front of its VC.
struct RouteContext {
  const TopologyIndex* topo;
  int32_t node;     // router making the decision
  int32_t src;      // packet source
  int32_t dest;     // packet destination
  int32_t in_port;  // port the packet arrived on; the node's degree for the PE port
  int32_t in_vc;    // VC it arrived on
  int32_t num_vcs;  // VCs per network output port
  DeadlockHandling deadlock;
  uint64_t* header;  // routing state the packet header carries (e.g. RDT vectors); starts 0
};

// Where the header goes: an output port (or kEject) and the inclusive range of output VCs
// it may be given.
struct RouteResult {
  int32_t port;
  uint8_t vc_lo;
  uint8_t vc_hi;
};
inline constexpr int32_t kEject = -1;

using RouteFn = RouteResult (*)(const RouteContext&);

// The output VC range for a hop along dimension `dim` under dateline deadlock avoidance: the
// VCs are split into two classes; a packet uses class 0 in a dimension until it crosses the
// wrap-around link of that dimension, class 1 after. Without Avoid every VC is allowed.
inline RouteResult datelineHop(const RouteContext& ctx, int32_t port, int32_t dim, bool crosses) {
  if (ctx.deadlock != DeadlockHandling::kAvoid || !ctx.topo->wraps() || ctx.num_vcs < 2) {
    return {port, 0, static_cast<uint8_t>(ctx.num_vcs - 1)};
  }
  const int32_t half = ctx.num_vcs / 2;
  const bool already = ctx.topo->portDim(ctx.node, ctx.in_port) == dim && ctx.in_vc >= half;
  if (crosses || already) {
    return {port, static_cast<uint8_t>(half), static_cast<uint8_t>(ctx.num_vcs - 1)};
  }
  return {port, 0, static_cast<uint8_t>(half - 1)};
}

// The direction (+1 / -1) of a minimal step from coordinate cur to dst != cur along a
// dimension of radix k: on a ring the shorter way with ties to +, else toward dst.
inline int32_t minimalSign(int32_t cur, int32_t dst, int32_t k, bool wrap) {
  if (!wrap) return dst > cur ? 1 : -1;
  const int32_t forward = dst >= cur ? dst - cur : dst - cur + k;
  return forward <= k - forward ? 1 : -1;
}

// Whether a step from coordinate cur in direction sign uses the wrap-around link.
inline bool crossesWrap(int32_t cur, int32_t sign, int32_t k) {
  return (sign > 0 && cur == k - 1) || (sign < 0 && cur == 0);
}

// Dimension-order routing: lowest dimension first; on a wrapping dimension the shorter way,
// ties to +.
inline RouteResult dimensionOrderRoute(const RouteContext& ctx) {
  const TopologyIndex& t = *ctx.topo;
  const int32_t n = t.numDims();
  for (int32_t d = 0; d < n; ++d) {
    const int32_t cur = t.coord(ctx.node, d);
    const int32_t dst = t.coord(ctx.dest, d);
    if (cur == dst) continue;
    const int32_t k = t.radix(d);
    const int32_t sign = minimalSign(cur, dst, k, t.wraps());
    return datelineHop(ctx, t.dirPort(ctx.node, d, sign), d,
                       t.wraps() && crossesWrap(cur, sign, k));
  }
  return {kEject, 0, 0};
}

// E-cube routing on a hypercube (node ids are the binary addresses): correct the lowest
// differing address bit first.
inline RouteResult ecubeRoute(const RouteContext& ctx) {
  const uint32_t diff = static_cast<uint32_t>(ctx.node ^ ctx.dest);
  if (diff == 0) return {kEject, 0, 0};
  const int32_t d = __builtin_ctz(diff);
  const int32_t sign = (ctx.dest >> d) & 1 ? 1 : -1;
  return {ctx.topo->dirPort(ctx.node, d, sign), 0, static_cast<uint8_t>(ctx.num_vcs - 1)};
}

}  // namespace ndl::rt
