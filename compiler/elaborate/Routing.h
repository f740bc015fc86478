// The routing function as the analyses see it, and the route tracer they
// share: `routingHops` gives the routing's own maximum and mean hop count
// and whether it is minimal (spec 3.2); the deadlock check (Deadlock.h)
// traces the same routes to build channel dependencies. Routing functions
// come from NDL code through the evaluator, or from C++ in tests.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compiler/elaborate/Analysis.h"
#include "compiler/elaborate/Graph.h"

namespace ndl::elab {

// Header state carried by a packet (e.g. RDT's per-rank hop vectors);
// zero before `init` runs.
struct RouteState {
  int64_t words[16];
};

struct RouteFunctions {
  std::function<void(NodeId src, NodeId dst, RouteState&)> init;        // may be empty
  std::function<ChannelId(NodeId cur, NodeId dst, RouteState&)> route;  // output channel
  // The route from s to d is the translate of the route from a
  // representative: routes from graph.representatives stand for all sources.
  bool translationInvariant = false;
};

enum class RouteErrorKind : uint8_t {
  kNoChannel,     // route returned kNoChannel before the destination
  kWrongChannel,  // route returned a channel that does not leave the current node
  kHopLimit,      // the packet did not arrive within the hop limit: a routing loop
};

struct RouteError {
  RouteErrorKind kind;
  NodeId src = 0, dst = 0;
  NodeId node = 0;                 // where it went wrong
  uint32_t hops = 0;               // hops taken before that
  ChannelId channel = kNoChannel;  // kWrongChannel: what route returned
  std::string message;
};

// The hop limit a trace uses: limits.maxRouteHops, or 4N + 64.
uint32_t routeHopLimit(const Graph& graph, const Limits& limits);

RouteError makeRouteError(const Graph& graph, RouteErrorKind kind, NodeId src, NodeId dst,
                          NodeId node, uint32_t hops, ChannelId channel);

// Follows the route from src to dst (src != dst), calling onHop(channel) for
// each channel taken. Returns the first error, or nullopt when the packet
// arrives. A template so that the analyses' per-hop work inlines.
template <class OnHop>
std::optional<RouteError> traceRoute(const Graph& graph, const RouteFunctions& fns, NodeId src,
                                     NodeId dst, uint32_t hopLimit, OnHop&& onHop) {
  RouteState state{};
  if (fns.init) fns.init(src, dst, state);
  NodeId cur = src;
  uint32_t hops = 0;
  while (cur != dst) {
    if (hops >= hopLimit)
      return makeRouteError(graph, RouteErrorKind::kHopLimit, src, dst, cur, hops, kNoChannel);
    const ChannelId c = fns.route(cur, dst, state);
    if (c == kNoChannel)
      return makeRouteError(graph, RouteErrorKind::kNoChannel, src, dst, cur, hops, c);
    if (c >= graph.channels.size() || graph.channels[c].src != cur)
      return makeRouteError(graph, RouteErrorKind::kWrongChannel, src, dst, cur, hops, c);
    onHop(c);
    cur = graph.channels[c].dst;
    ++hops;
  }
  return std::nullopt;
}

struct RoutingStats {
  AnalysisStatus status = AnalysisStatus::kOk;
  // Meaningful when status is kOk.
  uint32_t maxHops = 0;
  Ratio avgHops;        // over ordered pairs of distinct nodes
  bool minimal = true;  // every route has hops == BFS distance
  // The first route found longer than the distance, when !minimal.
  NodeId longSrc = 0, longDst = 0;
  uint32_t longHops = 0, longDistance = 0;

  std::vector<RouteError> errors;  // at most limits.maxErrors
  std::string method;              // "representatives (1 source)", "all pairs (4096 sources)"
  std::string message;             // why status is not kOk
  uint64_t estimatedWork = 0;      // routing-function calls
};

// Traces every ordered pair of distinct nodes, or, when the routing is
// translation-invariant and the graph has representatives, every route
// from a representative (weighted like graphDistances). Refuses (kTooLarge)
// when the estimated number of routing calls exceeds limits.maxRouteSteps.
RoutingStats routingHops(const Graph& graph, const RouteFunctions& fns, const Limits& limits = {});

// The sources whose routes stand for all routes: the representatives when
// the routing is translation-invariant and symmetry is allowed, else all
// nodes (empty vector = all nodes).
std::vector<NodeId> routeSources(const Graph& graph, const RouteFunctions& fns,
                                 const Limits& limits);

}  // namespace ndl::elab
