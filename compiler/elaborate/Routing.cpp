#include "compiler/elaborate/Routing.h"

#include "compiler/elaborate/Translation.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "compiler/elaborate/Metrics.h"

namespace ndl::elab {

uint32_t routeHopLimit(const Graph& g, const Limits& limits) {
  if (limits.maxRouteHops != 0) return limits.maxRouteHops;
  return static_cast<uint32_t>(std::min<uint64_t>(4ULL * g.nodeCount + 64, UINT32_MAX));
}

RouteError makeRouteError(const Graph& g, RouteErrorKind kind, NodeId src, NodeId dst, NodeId node,
                          uint32_t hops, ChannelId channel) {
  RouteError e{kind, src, dst, node, hops, channel, {}};
  const std::string route = src == kAnySource
                                ? fmt::format("a packet for node {}", dst)
                                : fmt::format("the route from node {} to node {}", src, dst);
  switch (kind) {
    case RouteErrorKind::kNoChannel:
      e.message = hops == kUnknownHops
                      ? fmt::format("{} has no candidate at node {}", route, node)
                      : fmt::format("{} has no candidate at node {} after {} hops", route, node,
                                    hops);
      break;
    case RouteErrorKind::kMissingPort:
      e.message = fmt::format("{} takes port (port {} {}) at node {}, which has no such port",
                              route, static_cast<int64_t>(channel >> 1), (channel & 1) ? 1 : -1,
                              node);
      break;
    case RouteErrorKind::kWrongChannel:
      e.message = channel < g.channels.size()
                      ? fmt::format(
                            "{} chose channel {} at node {}, but that channel leaves "
                            "node {}",
                            route, channel, node, g.channels[channel].src)
                      : fmt::format("{} chose channel {} at node {}, which does not exist", route,
                                    channel, node);
      break;
    case RouteErrorKind::kHopLimit:
      e.message = fmt::format(
          "{} does not arrive within {} hops (a routing loop); it was at "
          "node {}",
          route, hops, node);
      break;
  }
  return e;
}

std::optional<RouteError> routeCandidates(const Graph& g, const RouteFunctions& fns, NodeId src,
                                          NodeId dst, NodeId cur, Hop in, uint32_t hops,
                                          uint32_t blockedFor, RouteState& state,
                                          std::vector<Hop>& out) {
  out.clear();
  switch (fns.candidates(cur, dst, in, blockedFor, state, out)) {
    case CandidateStatus::kOk: break;
    case CandidateStatus::kMissingPort:
      return makeRouteError(g, RouteErrorKind::kMissingPort, src, dst, cur, hops, out[0].channel);
    case CandidateStatus::kFailed:
      return makeRouteError(g, RouteErrorKind::kNoChannel, src, dst, cur, hops, kNoChannel);
  }
  if (out.empty())
    return makeRouteError(g, RouteErrorKind::kNoChannel, src, dst, cur, hops, kNoChannel);
  for (const Hop& h : out)
    if (h.channel >= g.channels.size() || g.channels[h.channel].src != cur)
      return makeRouteError(g, RouteErrorKind::kWrongChannel, src, dst, cur, hops, h.channel);
  return std::nullopt;
}

std::vector<NodeId> routeSources(const Graph& g, const RouteFunctions& fns, const Limits& limits,
                                 std::string* why) {
  SymmetryVerdict verdict = symmetryVerdict(g, fns, limits);
  if (why) *why = std::move(verdict.why);
  if (!verdict.use) return {};
  // Representatives stand for sources: those at switches send nothing.
  std::vector<NodeId> reps;
  for (NodeId r : g.representatives)
    if (g.terminal(r)) reps.push_back(r);
  return reps;
}

std::optional<std::string> WorkBudget::over(uint64_t done, uint64_t total, std::string_view what,
                                            std::string_view units) const {
  if (!fns_.work || done == 0) return std::nullopt;
  const uint64_t spent = fns_.work() - start_;
  const double projected = static_cast<double>(spent) * static_cast<double>(total) /
                           static_cast<double>(done);
  if (projected <= static_cast<double>(limit_)) return std::nullopt;
  return fmt::format(
      "{} would take about {:.2g} evaluation steps of the routing's NDL code (limit {:.2g}), "
      "measured over {} of {} {}",
      what, projected, static_cast<double>(limit_), done, total, units);
}

RoutingStats routingHops(const Graph& g, const RouteFunctions& fns, const Limits& limits) {
  RoutingStats s;
  const NodeId n = g.nodeCount;
  if (!fns.candidates || n == 0) {
    s.status = AnalysisStatus::kInvalid;
    s.message = !fns.candidates ? "no routing function" : "the network has no nodes";
    return s;
  }
  if (n == 1) {
    s.method = "single node";
    return s;
  }
  std::string notTranslated;
  const std::vector<NodeId> reps = routeSources(g, fns, limits, &notTranslated);
  // Routes run between routers with endpoints: a switch is neither source nor destination.
  std::vector<NodeId> sources = reps;
  if (sources.empty())
    for (NodeId v = 0; v < n; ++v)
      if (g.terminal(v)) sources.push_back(v);
  const uint64_t sourceCount = sources.size();
  auto sourceAt = [&](uint64_t i) { return sources[i]; };
  s.method = reps.empty() ? fmt::format("all pairs ({} sources)", sourceCount)
                          : fmt::format("representatives ({} source{})", reps.size(),
                                        reps.size() == 1 ? "" : "s");
  if (!notTranslated.empty()) s.method += "; not by translation: " + notTranslated;

  // A minimal routing calls route once per hop: the distance sum from the
  // first source estimates the calls per source.
  Bfs bfs(g);
  const Bfs::Result first = bfs.run(sourceAt(0));
  // Header fields drawn at random: every outcome is traced, weighted by its
  // probability.
  std::vector<InitialState> initials;
  const bool enumerable = initialStates(fns, sourceAt(0), sourceAt(0) == 0 ? 1 : 0, initials);
  const uint64_t outcomes = enumerable ? initials.size() : kMaxInitialStates + 1;
  s.estimatedWork = sourceCount * (first.distanceSum + g.channels.size()) * outcomes;
  const uint64_t budget = outcomes > 1 ? limits.maxDrawSteps : limits.maxRouteSteps;
  if ((reps.empty() && n > limits.maxAllPairsNodes) || s.estimatedWork > budget) {
    s.status = AnalysisStatus::kTooLarge;
    // Too many nodes, or too many random outcomes of the header fields for each route.
    s.message =
        outcomes > 1
            ? fmt::format("{} routes of a network of {} nodes, each with {}{} random outcomes, "
                          "are too many to trace; estimated {} routing steps (limit {})",
                          reps.empty() ? "all" : "the representatives'", n,
                          enumerable ? "" : "more than ", outcomes - !enumerable,
                          s.estimatedWork, budget)
            : fmt::format("network of {} nodes is too large to trace {} routes; estimated {} "
                          "routing steps (limit {})",
                          n, reps.empty() ? "all" : "the representatives'", s.estimatedWork,
                          budget);
    return s;
  }

  const uint32_t hopLimit = routeHopLimit(g, limits);
  // The mean is kept exact: sum / (den * pairs), where sum adds each pair's
  // probability-weighted hops over a common denominator den (the least
  // common multiple of the outcomes' denominators, 1 without random draws).
  UInt128 hopSum = 0, den = 1;
  uint64_t pairs = 0;
  bool exact = true;
  double approx = 0;  // the same mean in floating point, should `den` outgrow 128 bits
  const WorkBudget budgetSteps(fns, limits.maxEvalSteps);
  for (uint64_t i = 0; i < sourceCount && s.errors.size() < limits.maxErrors; ++i) {
    if (auto why = budgetSteps.over(i, sourceCount, "tracing every route", "sources")) {
      s.status = AnalysisStatus::kTooLarge;
      s.message = std::move(*why);
      return s;
    }
    const NodeId src = sourceAt(i);
    const Bfs::Result res = i == 0 ? first : bfs.run(src);
    if (res.reached != n) {
      s.status = AnalysisStatus::kDisconnected;
      const auto& d = bfs.dist();
      s.message = fmt::format("node {} cannot reach node {}", src,
                              std::find(d.begin(), d.end(), Bfs::kUnreached) - d.begin());
      return s;
    }
    const std::vector<uint32_t>& dist = bfs.dist();
    for (NodeId dst = 0; dst < n; ++dst) {
      if (dst == src || !g.terminal(dst)) continue;
      if (!initialStates(fns, src, dst, initials)) {
        s.status = AnalysisStatus::kTooLarge;
        s.message = fmt::format("a packet from node {} to node {} may start in more than {} "
                                "random header states; the trace enumerates them all",
                                src, dst, kMaxInitialStates);
        return s;
      }
      uint64_t pairDen = 1;
      for (const InitialState& init : initials) {
        // A denominator that saturated, or a common one that would not fit:
        // the mean is then kept in floating point only.
        if (init.denominator == UINT64_MAX ||
            pairDen / std::gcd(pairDen, init.denominator) > UINT64_MAX / init.denominator)
          exact = false;
        if (exact) pairDen = std::lcm(pairDen, init.denominator);
      }
      UInt128 pairSum = 0;
      double pairMean = 0;
      std::optional<int64_t> declared;
      if (fns.declaredHops) declared = fns.declaredHops(src, dst);
      bool differs = false;
      for (const InitialState& init : initials) {
        if (s.errors.size() >= limits.maxErrors) break;
        uint32_t hops = 0;
        auto err = traceRoute(g, fns, src, dst, hopLimit, [&](Hop) { ++hops; }, &init.state);
        if (err) {
          s.errors.push_back(std::move(*err));
          continue;
        }
        pairSum += static_cast<UInt128>(pairDen / init.denominator) * hops;
        pairMean += static_cast<double>(hops) / static_cast<double>(init.denominator);
        s.maxHops = std::max(s.maxHops, hops);
        if (declared && *declared != static_cast<int64_t>(hops) && !differs) {
          differs = true;
          if (s.hopsDiffer++ == 0) {
            s.differSrc = src;
            s.differDst = dst;
            s.differDeclared = *declared;
            s.differTraced = hops;
          }
        }
        if (hops != dist[dst] && s.minimal) {
          s.minimal = false;
          s.longSrc = src;
          s.longDst = dst;
          s.longHops = hops;
          s.longDistance = dist[dst];
        }
      }
      if (s.errors.size() >= limits.maxErrors) break;
      ++pairs;
      approx += pairMean;
      if (exact) {
        // Bring both to the common denominator lcm(den, pairDen).
        const uint64_t common = std::gcd(static_cast<uint64_t>(den % pairDen), pairDen);
        const uint64_t grow = pairDen / common;
        const UInt128 newDen = den * grow;
        exact = newDen / grow == den && hopSum <= ~UInt128{0} / grow;
        if (exact) {
          hopSum = hopSum * grow + pairSum * (newDen / pairDen);
          den = newDen;
        }
      }
    }
  }
  // The external loops: every node with a link back to itself, routed to itself. They are no
  // pair of distinct nodes, so they stay out of the hop statistics, but a loop the routing
  // cannot take is an error like any other route's.
  if (fns.selfRoutes) {
    std::vector<InitialState> loopInitials;
    for (NodeId r = 0; r < n && s.errors.size() < limits.maxErrors; ++r) {
      if (!g.terminal(r) || !g.selfLinked(r)) continue;
      initialStates(fns, r, r, loopInitials);  // at most kMaxInitialStates, as for any pair
      for (const InitialState& init : loopInitials) {
        auto err = traceRoute(g, fns, r, r, hopLimit, [](Hop) {}, &init.state);
        if (err) {
          s.errors.push_back(std::move(*err));
          break;
        }
      }
    }
  }
  if (!s.errors.empty()) {
    s.status = AnalysisStatus::kRouteErrors;
    s.message = s.errors.front().message;
    return s;
  }
  if (pairs == 0) return s;  // endpoints at one router only: no route crosses the network
  std::optional<Ratio> mean = exact && den <= ~UInt128{0} / std::max<uint64_t>(pairs, 1)
                                 ? Ratio::make128(hopSum, den * pairs)
                                 : std::nullopt;
  s.avgHops = mean ? *mean : Ratio::approximate(approx / static_cast<double>(pairs));
  return s;
}

}  // namespace ndl::elab
