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

// State carried by a packet: words[0] its source, words[1] its header
// fields packed (docs/routing.md); zero before `init` runs.
struct RouteState {
  int64_t words[16];
};

// A hop of a packet: the channel it takes, the VC class it is given there,
// and its header once it has taken the hop (header fields written by the
// routing).
struct Hop {
  ChannelId channel = kNoChannel;
  uint8_t vcClass = 0;
  uint64_t header = 0;
  friend bool operator==(const Hop&, const Hop&) = default;
};

enum class CandidateStatus : uint8_t {
  kOk,
  kMissingPort,  // the routing named a port the node does not have; out[0].channel = the
                 // port's code (dim * 2 + (dir > 0)) instead of a channel
  kFailed,       // an evaluation error, already reported
};

struct RouteFunctions {
  // The state of a packet from src to dst as injected; a routing whose
  // header fields draw random values has several equally likely initial
  // states, numbered 0 .. outcomes(src, dst) - 1. Both may be empty (one
  // outcome, a zero state but for the source).
  std::function<void(NodeId src, NodeId dst, uint32_t outcome, RouteState&)> init;
  std::function<uint32_t(NodeId src, NodeId dst)> outcomes;
  // Every candidate of a packet at `cur` bound for `dst` (cur != dst) that
  // arrived by `in` (in.channel == kNoChannel at its source, where in.vcClass
  // is its injection VC's class) and has waited `blockedFor` clocks: the
  // first tier first, each tier in the order of its output ports and
  // classes, so out[0] is what selection First takes on an idle network.
  // Empty when the routing offers nothing.
  std::function<CandidateStatus(NodeId cur, NodeId dst, Hop in, uint32_t blockedFor, RouteState&,
                                std::vector<Hop>& out)>
      candidates;
  // Network VC classes the hops' vcClass values range over.
  uint32_t classes = 1;
  // The candidates may depend on blockedFor / on the packet's source (the
  // init state's words[0]); the analyses then ask for both waits / explore
  // source by source.
  bool waits = true;
  bool readsSource = true;
  // The route from s to d is the translate of the route from a
  // representative: routes from graph.representatives stand for all sources.
  bool translationInvariant = false;
  // The packet carries header fields: the analyses' states include them.
  bool hasHeader = false;
};

// How many initial states a packet from src to dst may start in.
inline uint32_t initOutcomes(const RouteFunctions& fns, NodeId src, NodeId dst) {
  return fns.outcomes ? fns.outcomes(src, dst) : 1;
}
// The initial state `outcome` of a packet from src to dst.
inline RouteState initState(const RouteFunctions& fns, NodeId src, NodeId dst, uint32_t outcome) {
  RouteState state{};
  state.words[0] = src;
  if (fns.init) fns.init(src, dst, outcome, state);
  return state;
}

enum class RouteErrorKind : uint8_t {
  kNoChannel,     // the routing offered no candidate before the destination
  kMissingPort,   // the routing named a port the node does not have
  kWrongChannel,  // route returned a channel that does not leave the current node
  kHopLimit,      // the packet did not arrive within the hop limit: a routing loop
};

struct RouteError {
  RouteErrorKind kind;
  NodeId src = 0, dst = 0;
  NodeId node = 0;                 // where it went wrong
  uint32_t hops = 0;               // hops taken before that
  ChannelId channel = kNoChannel;  // kWrongChannel: what route returned; kMissingPort: the port
  std::string message;
};

// The candidates at one step of a trace, checked: nullopt and `error` set
// when the routing failed, offered nothing or named a channel that does not
// leave `cur`.
std::optional<RouteError> routeCandidates(const Graph& graph, const RouteFunctions& fns,
                                          NodeId src, NodeId dst, NodeId cur, Hop in,
                                          uint32_t hops, uint32_t blockedFor, RouteState& state,
                                          std::vector<Hop>& out);

// Hop count of an error found outside a trace (the dependency check explores
// states, not routes): the message then names no hop count.
inline constexpr uint32_t kUnknownHops = UINT32_MAX;

// The hop limit a trace uses: limits.maxRouteHops, or 4N + 64.
uint32_t routeHopLimit(const Graph& graph, const Limits& limits);

RouteError makeRouteError(const Graph& graph, RouteErrorKind kind, NodeId src, NodeId dst,
                          NodeId node, uint32_t hops, ChannelId channel);

// Follows the route from src to dst (src != dst) that selection First takes
// on an idle network (the first candidate at every step) from initial state
// `outcome`, calling onHop(Hop) for each hop. Returns the first error, or
// nullopt when the packet arrives. A template so that the analyses' per-hop
// work inlines.
template <class OnHop>
std::optional<RouteError> traceRoute(const Graph& graph, const RouteFunctions& fns, NodeId src,
                                     NodeId dst, uint32_t hopLimit, OnHop&& onHop,
                                     uint32_t outcome = 0) {
  RouteState state = initState(fns, src, dst, outcome);
  NodeId cur = src;
  uint32_t hops = 0;
  Hop in{kNoChannel, 0};
  std::vector<Hop> out;
  while (cur != dst) {
    if (hops >= hopLimit)
      return makeRouteError(graph, RouteErrorKind::kHopLimit, src, dst, cur, hops, kNoChannel);
    if (auto err = routeCandidates(graph, fns, src, dst, cur, in, hops, 0, state, out)) return err;
    in = out[0];
    state.words[1] = static_cast<int64_t>(in.header);
    onHop(in);
    cur = graph.channels[in.channel].dst;
    ++hops;
  }
  return std::nullopt;
}

struct RoutingStats {
  AnalysisStatus status = AnalysisStatus::kOk;
  // Meaningful when status is kOk.
  uint32_t maxHops = 0;
  Ratio avgHops;        // over ordered pairs of distinct nodes and random header outcomes
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
