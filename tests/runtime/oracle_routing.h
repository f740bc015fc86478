// Routing oracles for the runtime tests: dimension order (ties to +, as the stdlib's
// DimensionOrder under selection First), with or without BookSim2's dateline classes, and
// e-cube, written against the runtime's routing interface (routing.h). The product's
// routings are NDL code (stdlib/routing.ndl); these stand in for them where a test drives
// the runtime library directly.
#pragma once

#include "ndl/runtime/net/routing.h"

namespace ndl::rt::oracle {

// The output VCs of `port` in VCs [lo, hi) of `vcs`, as tier 0 of a route.
inline RouteSet single(int32_t port, int32_t vcs, int32_t lo, int32_t hi) {
  const uint64_t bits = ((uint64_t{1} << (hi - lo)) - 1) << lo;
  return RouteSet{{bits << (port * vcs), 0, 0, 0}, -1};
}

// The lowest differing dimension, its direction (shorter way, ties to +) and whether the
// way there crosses the wrap-around link; false when the packet is home.
inline bool dorStep(const RouteContext& ctx, int32_t& dim, int32_t& sign, bool& crosses) {
  const TopologyIndex& t = *ctx.topo;
  for (int32_t d = 0; d < t.numDims(); ++d) {
    const int32_t cur = t.coord(ctx.node, d);
    const int32_t dst = t.coord(ctx.dest, d);
    if (cur == dst) continue;
    const int32_t k = t.radix(d);
    if (!t.wraps()) {
      sign = dst > cur ? 1 : -1;
    } else {
      const int32_t forward = dst >= cur ? dst - cur : dst - cur + k;
      sign = forward <= k - forward ? 1 : -1;
    }
    crosses = t.wraps() && (sign > 0 ? dst < cur : dst > cur);
    dim = d;
    return true;
  }
  return false;
}

// Dimension order over every VC of the port.
inline RouteSet dimensionOrder(const RouteContext& ctx) {
  int32_t dim = 0, sign = 0;
  bool crosses = false;
  if (!dorStep(ctx, dim, sign, crosses)) return RouteSet{{0, 0, 0, 0}, -1};
  return single(ctx.topo->dirPort(ctx.node, dim, sign), ctx.num_vcs, 0, ctx.num_vcs);
}

// Dimension order with BookSim2's dateline classes: VCs [0, half) and [half, vcs); a packet
// takes the upper class for a whole dimension when its way there crosses the wrap-around
// link, decided when it enters the dimension.
inline RouteSet dimensionOrderDateline(const RouteContext& ctx) {
  int32_t dim = 0, sign = 0;
  bool crosses = false;
  if (!dorStep(ctx, dim, sign, crosses)) return RouteSet{{0, 0, 0, 0}, -1};
  const int32_t half = ctx.num_vcs / 2;
  const bool straight = ctx.arrived == portCode(dim, sign);
  const bool upper = straight ? ctx.in_vc >= half : crosses;
  const int32_t port = ctx.topo->dirPort(ctx.node, dim, sign);
  return upper ? single(port, ctx.num_vcs, half, ctx.num_vcs) : single(port, ctx.num_vcs, 0, half);
}

// E-cube on a hypercube (node ids are the addresses): lowest differing bit first.
inline RouteSet ecube(const RouteContext& ctx) {
  const uint32_t diff = static_cast<uint32_t>(ctx.node ^ ctx.dest);
  const int32_t d = __builtin_ctz(diff);
  const int32_t sign = (ctx.dest >> d) & 1 ? 1 : -1;
  return single(ctx.topo->dirPort(ctx.node, d, sign), ctx.num_vcs, 0, ctx.num_vcs);
}

}  // namespace ndl::rt::oracle
