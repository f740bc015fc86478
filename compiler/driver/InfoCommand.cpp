// `ndlc info FILE [--json]` (spec 3.2): the network's size, degree,
// diameter and average distance, the routing's hop counts, and whether the
// routing is deadlock-free with the configured virtual channels.
#include <fmt/format.h>

#include <algorithm>

#include <iostream>
#include <iterator>
#include <string>
#include <nlohmann/json.hpp>

#include "compiler/driver/Commands.h"
#include "compiler/driver/InterfaceInfo.h"
#include "compiler/elaborate/Metrics.h"

namespace ndl::driver {
namespace {

// A bisection's bandwidth each way: its links carry a flit of the channel width per network
// clock in each direction.
double bisectionBitsPerSecond(int64_t links, const sema::Parameters& p) {
  return static_cast<double>(links) * static_cast<double>(p.channelWidthBits) *
         p.networkHz.toDouble();
}

std::string bitRate(double bps) {
  static constexpr const char* kUnits[] = {"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s",
                                           "Pbit/s"};
  size_t u = 0;
  while (bps >= 1000 && u + 1 < std::size(kUnits)) {
    bps /= 1000;
    ++u;
  }
  return fmt::format("{:.4g} {}", bps, kUnits[u]);
}

using nlohmann::json;

// A hop's clocks at zero load under a router pipeline, in network clocks, link excluded: the
// header's stages, then the switch stages its flit takes.
int64_t pipelineHop(const sema::Parameters& p) {
  return p.headerDelayNetworkClocks + p.pipelineFlitNetworkClocks;
}

// The same for a header whose prediction hits: PredictivePath's IB, then the same ST.
int64_t predictiveHop(const sema::Parameters& p) {
  return p.predictHeaderNetworkClocks + p.pipelineFlitNetworkClocks;
}

double toDouble(const elab::Ratio& r) {
  return static_cast<double>(r.num) / static_cast<double>(r.den);
}

struct RoutingSummary {
  bool known = false;
  std::string name;
  uint32_t maxHops = 0;
  double avgHops = 0;
  std::optional<bool> minimal;
  std::string method;
  std::string note;
};

// Hop counts of a routing that states them per pair, (Hops e): the pairs
// from the representatives (or from every node) to every other node.
RoutingSummary hopsOnly(const FrontEndResult& r, uint32_t def) {
  RoutingSummary s;
  const elab::Graph& g = r.network->graph;
  // Between routers with endpoints, as the traces (a switch is no source or destination).
  std::vector<elab::NodeId> sources;
  for (elab::NodeId n : g.representatives)
    if (g.terminal(n)) sources.push_back(n);
  if (sources.empty())
    for (elab::NodeId n = 0; n < g.nodeCount; ++n)
      if (g.terminal(n)) sources.push_back(n);
  uint64_t dests = 0;
  for (elab::NodeId n = 0; n < g.nodeCount; ++n) dests += g.terminal(n);
  if (static_cast<uint64_t>(sources.size()) * g.nodeCount > 400'000'000ULL) {
    s.note = "too many pairs to evaluate";
    return s;
  }
  uint64_t sum = 0;
  for (elab::NodeId src : sources) {
    for (elab::NodeId dst = 0; dst < g.nodeCount; ++dst) {
      if (dst == src || !g.terminal(dst)) continue;
      elab::Value args[3] = {elab::Value::integer(src), elab::Value::integer(dst),
                             elab::Value::integer(src)};
      std::optional<elab::Value> h =
          r.evaluator->callExpr(def, *r.checked->defs.defs[def].hops, args);
      if (!h) return s;
      s.maxHops = std::max<uint32_t>(s.maxHops, static_cast<uint32_t>(h->a));
      sum += static_cast<uint64_t>(h->a);
    }
  }
  s.known = true;
  if (dests > 1)
    s.avgHops = static_cast<double>(sum) / (static_cast<double>(sources.size()) * (dests - 1));
  // A hop formula (RDT's sum of per-rank hops, spec 3.1) need not count a
  // real path, so it says nothing about minimality: s.minimal stays unset.
  s.method = g.representatives.empty() ? "hop formula, all pairs"
                                        : fmt::format("hop formula, {} representative{}",
                                                      sources.size(), sources.size() == 1 ? "" : "s");
  return s;
}

RoutingSummary traced(FrontEndResult& r) {
  RoutingSummary s;
  bool failed = false;
  elab::RouteFunctions fns =
      elab::routeFunctions(*r.network, r.checked->defs, *r.evaluator, failed);
  elab::RoutingStats st = elab::routingHops(r.network->graph, fns);
  s.method = st.method;
  if (failed || st.status != elab::AnalysisStatus::kOk) {
    s.note = failed ? "the routing failed" : st.message;
    return s;
  }
  s.known = true;
  s.maxHops = st.maxHops;
  s.avgHops = toDouble(st.avgHops);
  s.minimal = st.minimal;
  return s;
}

}  // namespace

int runInfo(const InfoOptions& options) {
  SourceManager sources;
  DiagnosticEngine diags(sources, options.diag);
  FrontEndResult r;
  runFrontEnd(options.file, options.pipeline, sources, diags, r);
  if (!r.network || diags.hasErrors()) {
    diags.printText(std::cerr);
    return kExitInputError;
  }
  const elab::Graph& g = r.network->graph;
  elab::DegreeStats degree = elab::degreeStats(g);
  elab::DistanceStats dist = elab::graphDistances(g);

  // A routing with a hop formula (Hops ...) reports it as its own figure
  // (RDT's vector-routing diameter); when it also chooses ports, the traced
  // routes are reported beside it: they count every hop taken.
  RoutingSummary routing;
  std::optional<RoutingSummary> routes;
  if (r.network->routingDef) {
    uint32_t def = *r.network->routingDef;
    const sema::Definition& rd = r.checked->defs.defs[def];
    routing = rd.hops ? hopsOnly(r, def) : traced(r);
    routing.name = rd.name;
    if (rd.hops && rd.hasRoute && options.pipeline.routeAnalysis) routes = traced(r);
  }
  if (diags.hasErrors()) {
    diags.printText(std::cerr);
    return kExitInputError;
  }

  std::optional<bool> deadlockFree;
  std::string deadlockText;
  if (r.deadlock && r.deadlock->status == elab::AnalysisStatus::kOk) {
    deadlockFree = r.deadlock->deadlockFree;
    deadlockText = r.deadlock->deadlockFree ? "none: " + r.deadlock->reason
                                            : "possible: cycle " + r.deadlock->cycleText;
  } else if (r.deadlock) {
    deadlockText = "not analysed: " + r.deadlock->message;
  } else {
    deadlockText = routing.name.empty() ? "not analysed: no routing"
                                        : "not analysed: " + routing.name +
                                              " gives hop counts, not ports";
  }

  const sema::Parameters& p = r.checked->params;
  const double memory = simulatorMemoryBytes(r);
  // Endpoints: how many, at how many routers, the fewest and most at a router with any.
  uint64_t switches = 0;
  uint32_t concMin = UINT32_MAX, concMax = 0;
  for (elab::NodeId v = 0; v < g.nodeCount; ++v) {
    const uint32_t e = g.endpointsAt(v);
    if (e == 0) {
      ++switches;
      continue;
    }
    concMin = std::min(concMin, e);
    concMax = std::max(concMax, e);
  }
  bool distOk = dist.status == elab::AnalysisStatus::kOk;
  if (options.json) {
    json j;
    j["network"] = g.name;
    j["nodes"] = g.nodeCount;
    j["routers"] = g.nodeCount;
    j["endpoints"] = g.endpointCount();
    j["switches"] = switches;  // routers without endpoints
    j["concentration_min"] = concMin;  // endpoints at a router that has any
    j["concentration_max"] = concMax;
    j["links"] = g.linkCount();
    j["channels"] = g.channels.size();
    json attrs = json::array();
    for (const elab::NodeAttribute& a : g.attributes)
      attrs.push_back({{"node", a.node}, {"name", a.name}, {"value", a.value}});
    j["node_attributes"] = std::move(attrs);
    j["degree_min"] = degree.min;
    j["degree_max"] = degree.max;
    j["diameter"] = distOk ? json(dist.diameter) : json(nullptr);
    j["avg_distance"] = distOk ? json(toDouble(dist.avgDistance)) : json(nullptr);
    j["distance_method"] = dist.method;
    if (r.network->closedDiameter) j["closed_form_diameter"] = *r.network->closedDiameter;
    if (r.network->closedAverage) j["closed_form_avg_distance"] = r.network->closedAverage->toDouble();
    if (r.network->closedBisection) {
      j["bisection_links"] = *r.network->closedBisection;
      j["bisection_bits_per_second"] = bisectionBitsPerSecond(*r.network->closedBisection, p);
    }
    j["routing"] = routing.name;
    j["routing_max_hops"] = routing.known ? json(routing.maxHops) : json(nullptr);
    j["routing_avg_hops"] = routing.known ? json(routing.avgHops) : json(nullptr);
    j["routing_minimal"] = routing.minimal ? json(*routing.minimal) : json(nullptr);
    j["routing_method"] = routing.method;
    if (routes && routes->known) {
      j["routing_traced_max_hops"] = routes->maxHops;
      j["routing_traced_avg_hops"] = routes->avgHops;
      j["routing_traced_minimal"] = routes->minimal ? json(*routes->minimal) : json(nullptr);
    } else if (routes) {
      j["routing_traced_note"] = routes->note;
    }
    j["virtual_channels"] = p.virtualChannels;
    j["deadlock_free"] = deadlockFree ? json(*deadlockFree) : json(nullptr);
    if (r.deadlock && !r.deadlock->deadlockFree) j["deadlock_cycle"] = r.deadlock->cycleText;
    if (r.deadlock && r.deadlock->deadlockFree) j["deadlock_reason"] = r.deadlock->reason;
    if (!deadlockFree) j["deadlock_note"] = deadlockText;  // why it was not analysed
    if (r.network->routingDef)
      j["wait_breaks"] = r.network->waitBreaks ? json(*r.network->waitBreaks) : json(nullptr);
    if (memory > 0) j["simulator_memory_bytes"] = static_cast<uint64_t>(memory);
    if (!p.pipelineClocks.empty()) {
      json stages = json::object();
      for (size_t k = 0; k < p.pipelineClocks.size(); ++k)
        stages[std::string(sema::kPipelineStageNames[k])] = p.pipelineClocks[k];
      j["pipeline"] = {{"stages_clocks", stages},
                       {"header_clocks", p.headerDelayNetworkClocks},
                       {"flit_clocks", p.pipelineFlitNetworkClocks},
                       {"zero_load_hop_clocks", pipelineHop(p)}};
      if (r.network->predictorDef)
        j["pipeline"]["predictive"] = {
            {"predictor", r.checked->defs.defs[*r.network->predictorDef].name},
            {"header_clocks", p.predictHeaderNetworkClocks},
            {"zero_load_hop_clocks", predictiveHop(p)}};
    }
    if (p.interface) j["interfaces"] = json::array({interfaceJson(*p.interface)});
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << fmt::format("network           {}\n", g.name);
    std::cout << fmt::format("nodes             {}\n", g.nodeCount);
    if (!g.endpoints.empty())
      std::cout << fmt::format(
          "endpoints         {} at {} routers ({} per router){}\n", g.endpointCount(),
          g.nodeCount - switches,
          concMin == concMax ? fmt::format("{}", concMin) : fmt::format("{} to {}", concMin, concMax),
          switches ? fmt::format(", {} switches", switches) : "");
    std::cout << fmt::format("links             {} ({} channels)\n", g.linkCount(), g.channels.size());
    std::cout << fmt::format("degree            {} to {}\n", degree.min, degree.max);
    if (distOk) {
      std::cout << fmt::format("diameter          {} ({})\n", dist.diameter, dist.method);
      std::cout << fmt::format("average distance  {:.6g} = {}/{}\n", toDouble(dist.avgDistance),
                               dist.avgDistance.num, dist.avgDistance.den);
    } else {
      std::cout << fmt::format("diameter          not computed: {}\n", dist.message);
    }
    if (r.network->closedDiameter)
      std::cout << fmt::format("closed form       diameter {}, average distance {}\n",
                               *r.network->closedDiameter,
                               r.network->closedAverage ? r.network->closedAverage->str() : "-");
    if (r.network->closedBisection)
      std::cout << fmt::format("bisection         {} links (declared by the topology), {} each way\n",
                               *r.network->closedBisection,
                               bitRate(bisectionBitsPerSecond(*r.network->closedBisection, p)));
    if (!routing.name.empty()) {
      if (routing.known)
        std::cout << fmt::format("routing           {}: max {} hops, mean {:.6g}, {} ({})\n",
                                 routing.name, routing.maxHops, routing.avgHops,
                                 !routing.minimal ? "minimality not known"
                                 : *routing.minimal ? "minimal" : "not minimal",
                                 routing.method);
      else
        std::cout << fmt::format("routing           {}: not traced: {}\n", routing.name,
                                 routing.note);
      if (routes && routes->known)
        std::cout << fmt::format("routes            max {} hops, mean {:.6g}, {} ({})\n",
                                 routes->maxHops, routes->avgHops,
                                 routes->minimal.value_or(false) ? "minimal" : "not minimal",
                                 routes->method);
      else if (routes)
        std::cout << fmt::format("routes            not traced: {}\n", routes->note);
    }
    std::cout << fmt::format("deadlock          {} ({} virtual channel{})\n", deadlockText,
                             p.virtualChannels, p.virtualChannels == 1 ? "" : "s");
    // How the simulator treats a header waiting for an output VC (docs/routing.md).
    if (r.network->routingDef) {
      const auto& breaks = r.network->waitBreaks;
      const int64_t outputVcs = static_cast<int64_t>(degree.max) * p.virtualChannels;
      if (outputVcs > 24)  // the runtime keeps a blocked header's candidates in 24 bits
        std::cout << fmt::format("waiting           routed again every router clock (a router has "
                                 "{} output VCs; at most 24 keep a waiting header's candidates)\n",
                                 outputVcs);
      else if (!breaks && r.network->waitBreaksTooMany)
        std::cout << fmt::format("waiting           routed again every router clock (the routing "
                                 "compares (blocked-for) with more than {} distinct values)\n",
                                 elab::kMaxWaitBreaks);
      else if (!breaks && r.network->readsCongestion)
        std::cout << "waiting           routed again every router clock (the routing reads "
                     "congestion)\n";
      else if (!breaks)
        std::cout << "waiting           routed again every router clock (the routing reads "
                     "(blocked-for) other than against a constant)\n";
      else if (breaks->empty())
        std::cout << "waiting           routed again once a candidate VC may be free\n";
      else
        std::cout << fmt::format("waiting           routed again once a candidate VC may be free, "
                                 "or at a wait of {} network clocks\n",
                                 fmt::join(*breaks, ", "));
    }
    if (!p.pipelineClocks.empty()) {
      std::string stages;
      for (size_t k = 0; k < p.pipelineClocks.size(); ++k)
        stages += fmt::format("{}{} {}", k ? ", " : "", sema::kPipelineStageNames[k],
                              p.pipelineClocks[k]);
      std::cout << fmt::format("router pipeline   {}: a hop costs {} clocks + link at zero load; "
                               "a header holds its VC {} clock{}, each flit then takes {}\n",
                               stages, pipelineHop(p), p.headerDelayNetworkClocks,
                               p.headerDelayNetworkClocks == 1 ? "" : "s",
                               p.pipelineFlitNetworkClocks);
      if (r.network->predictorDef)
        std::cout << fmt::format("predictive path   IB {}, ST {} ({}): a hop whose prediction "
                                 "hits costs {} clocks + link at zero load\n",
                                 p.predictHeaderClocks, p.pipelineFlitClocks,
                                 r.checked->defs.defs[*r.network->predictorDef].name,
                                 predictiveHop(p));
    }
    if (p.interface) std::cout << interfaceText(*p.interface);
    if (memory > 0)
      std::cout << fmt::format("simulator memory  about {:.1f} MB ({:.0f} bytes per node)\n",
                               memory / 1e6, memory / g.nodeCount);
  }
  if (diags.warningCount()) diags.printText(std::cerr);
  return kExitOk;
}

}  // namespace ndl::driver
