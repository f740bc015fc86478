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
#include <string_view>
#include <vector>

#include "compiler/elaborate/Analysis.h"
#include "compiler/elaborate/Graph.h"

namespace ndl::elab {

// State carried by a packet: words[0] its source, words[1] its header
// fields packed (docs/routing.md); zero before `init` runs.
struct RouteState {
  int64_t words[16];
};

// One initial state and its probability, 1 / denominator: the product of
// the ranges of the random draws that lead to it.
struct InitialState {
  RouteState state;
  uint64_t denominator = 1;
};

// Random initial states enumerated by the analyses, at most.
inline constexpr size_t kMaxInitialStates = 1 << 16;

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
  // The states a packet from src to dst may be injected in, each with its
  // probability 1 / denominator (header fields drawn at random). Empty: one
  // state, zero but for the source. Returns false when there are more than
  // kMaxInitialStates (`out` then holds only the first ones).
  std::function<bool(NodeId src, NodeId dst, std::vector<InitialState>& out)> initials;
  // Every candidate of a packet at `cur` bound for `dst` (cur != dst) that
  // arrived by `in` (in.channel == kNoChannel at its source, where in.vcClass
  // is its injection VC's class) and has waited `blockedFor` clocks: the
  // first tier first, each tier in the order of its output ports and
  // classes, so out[0] is what selection First takes on an idle network.
  // For a routing that reads congestion, its answer on an idle network, then
  // the candidates of every other outcome of its congestion comparisons.
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
  // Evaluation steps spent by every call so far (unset: not measured). A
  // routing call costs from a few steps (DimensionOrder) to thousands (a
  // spanning tree climbed by recursion), so the analyses bound their work in
  // steps as well as in calls.
  std::function<uint64_t()> work;
  // The routing's (Hops e) for a pair, when it declares one: the trace compares every route
  // with it (RoutingStats::hopsDiffer). Empty: nothing to compare.
  std::function<std::optional<int64_t>(NodeId src, NodeId dst)> declaredHops;
  // (Loopback External): a packet from a node with a link back to itself to itself enters the
  // network, and the routing is asked at its source (Graph::selfLinked): the analyses trace
  // those routes and their dependencies too. They are left out of the hop statistics.
  bool selfRoutes = false;
};

// Bounds an analysis's routing calls by the evaluation steps they spend
// (RouteFunctions::work): after `done` of `total` units (sources traced,
// destinations explored) it stops the analysis when the steps spent so far,
// or the steps the whole would take at the rate measured, exceed the limit.
// Steps, not seconds, so that the same input always gets the same answer.
class WorkBudget {
 public:
  WorkBudget(const RouteFunctions& fns, uint64_t limit)
      : fns_(fns), limit_(limit), start_(fns.work ? fns.work() : 0) {}
  // nullopt within the budget, else why the analysis stops.
  std::optional<std::string> over(uint64_t done, uint64_t total, std::string_view what,
                                  std::string_view units) const;

 private:
  const RouteFunctions& fns_;
  uint64_t limit_;
  uint64_t start_;
};

// Every initial state of a packet from src to dst (one when the routing
// draws nothing); false when there are too many to enumerate.
inline bool initialStates(const RouteFunctions& fns, NodeId src, NodeId dst,
                          std::vector<InitialState>& out) {
  out.clear();
  if (!fns.initials) {
    InitialState one{};
    one.state.words[0] = src;
    one.denominator = 1;
    out.push_back(one);
    return true;
  }
  return fns.initials(src, dst, out);
}

enum class RouteErrorKind : uint8_t {
  kNoChannel,     // the routing offered no candidate before the destination
  kMissingPort,   // the routing named a port the node does not have
  kWrongChannel,  // route returned a channel that does not leave the current node
  kHopLimit,      // the packet did not arrive within the hop limit: a routing loop
};

struct RouteError {
  RouteErrorKind kind;
  NodeId src = 0, dst = 0;         // src: kAnySource when not known
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
// A blocked-for value standing for "blocked for long": the analyses ask a
// routing that escapes or recovers after a wait for its late answer with it.
inline constexpr uint32_t kLongWait = 1u << 30;
// Source of an error found where the packet's source is not known (the
// dependency check explores a routing that does not read `source` for all
// sources at once): the message then names the destination only.
inline constexpr NodeId kAnySource = UINT32_MAX;

// The hop limit a trace uses: limits.maxRouteHops, or 4N + 64.
uint32_t routeHopLimit(const Graph& graph, const Limits& limits);

RouteError makeRouteError(const Graph& graph, RouteErrorKind kind, NodeId src, NodeId dst,
                          NodeId node, uint32_t hops, ChannelId channel);

// Follows the route from src to dst (src != dst) that selection First takes
// on an idle network (the first candidate at every step) from `initial`
// (by default the routing's first initial state), calling onHop(Hop) for each hop. Returns the first error, or
// nullopt when the packet arrives. A template so that the analyses' per-hop
// work inlines.
template <class OnHop>
std::optional<RouteError> traceRoute(const Graph& graph, const RouteFunctions& fns, NodeId src,
                                     NodeId dst, uint32_t hopLimit, OnHop&& onHop,
                                     const RouteState* initial = nullptr) {
  RouteState state;
  if (initial) {
    state = *initial;
  } else {
    std::vector<InitialState> states;
    initialStates(fns, src, dst, states);
    if (states.empty()) {
      state = RouteState{};
      state.words[0] = src;
    } else {
      state = states[0].state;
    }
  }
  NodeId cur = src;
  uint32_t hops = 0;
  Hop in{kNoChannel, 0};
  std::vector<Hop> out;
  // A route from a node to itself (an external loop, RouteFunctions::selfRoutes) makes at least
  // one hop: the packet ejects only once it comes in over a link.
  while (cur != dst || (hops == 0 && src == dst)) {
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

  // Pairs whose traced route differs from RouteFunctions::declaredHops, and the first.
  uint64_t hopsDiffer = 0;
  NodeId differSrc = 0, differDst = 0;
  int64_t differDeclared = 0;
  uint32_t differTraced = 0;

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
// the routing is translation-invariant (its form allows it and its
// candidates move with the translations: symmetryVerdict, Translation.h) and
// symmetry is allowed, else all nodes (empty vector = all nodes). `why`: why
// not, when the form allowed it but the candidates did not move.
std::vector<NodeId> routeSources(const Graph& graph, const RouteFunctions& fns,
                                 const Limits& limits, std::string* why = nullptr);

}  // namespace ndl::elab
