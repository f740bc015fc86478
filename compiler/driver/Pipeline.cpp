#include "compiler/driver/Pipeline.h"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>

#include <iostream>

#include "compiler/driver/InputFiles.h"
#include "compiler/driver/RuntimeLimits.h"
#include "compiler/elaborate/Patterns.h"
#include "compiler/parse/Loader.h"
#include "compiler/parse/Overrides.h"
#include "compiler/sema/Check.h"
#include "ndl/runtime/net/memory_estimate.h"
#include "ndl/runtime/net/router_limits.h"

namespace ndl::driver {

namespace fs = std::filesystem;

namespace {

static_assert(sema::kMaxVirtualChannels == rt::kMaxVcsPerPort);
static_assert(sema::kMaxPacketFlits == rt::kMaxPacketFlits);
static_assert(sema::kMaxLinkDelayClocks == rt::kMaxLinkDelayClocks);
static_assert(sema::kMaxInternalSpeedup == rt::kMaxInternalSpeedup);

// What a simulator's routers support (runtime/net/router_limits.h): a network the simulator would
// refuse when it starts is refused here, at the form that sets the size.
void checkRouterLimits(const FrontEndResult& result, DiagnosticEngine& diags) {
  const sema::Parameters& p = result.checked->params;
  const elab::Graph& g = result.network->graph;
  // A node's ports as the simulator lays them out: one per output channel (a two-way link's
  // port serves both directions) and one per input channel without a reverse (one-way in).
  // Each endpoint adds a port (its injection and ejection) with InjectionVirtualChannels VCs.
  uint32_t ports = 0;
  elab::NodeId widest = 0;
  std::vector<uint32_t> inOnly(g.nodeCount, 0);
  for (const elab::Channel& ch : g.channels)
    if (ch.reverse == elab::kNoChannel) ++inOnly[ch.dst];
  for (elab::NodeId u = 0; u < g.nodeCount; ++u) {
    const uint32_t k = g.outDegree(u) + inOnly[u];
    if (k + g.endpointsAt(u) > ports + g.endpointsAt(widest)) {
      ports = k;
      widest = u;
    }
  }
  const uint32_t endpoints = g.endpointsAt(widest);
  if (!g.endpoints.empty() && ports + endpoints > static_cast<uint32_t>(rt::kMaxPorts)) {
    diags.report(DiagKind::TooManyPorts, p.topology.call->range,
                 fmt::format("router {} has {} ports and {} endpoints; a simulator's router has "
                             "at most {} ports, an endpoint taking one",
                             widest, ports, endpoints, rt::kMaxPorts))
        .withHint("ndlc info analyses such a network; a simulation needs fewer ports or "
                  "endpoints per router");
    return;
  }
  if (ports + 1 > static_cast<uint32_t>(rt::kMaxPorts)) {
    diags.report(DiagKind::TooManyPorts, p.topology.call->range,
                 fmt::format("node {} has {} ports; a simulator's router has at most {} "
                             "besides its PE port",
                             widest, ports, rt::kMaxPorts - 1))
        .withHint("ndlc info analyses such a network; a simulation needs fewer ports per node");
    return;
  }
  const int64_t vcs = static_cast<int64_t>(ports) * p.virtualChannels +
                     static_cast<int64_t>(endpoints) * p.injectionVirtualChannels;
  if (!g.endpoints.empty() && vcs > rt::kMaxLocalVcs) {
    const SourceRange at = p.where[static_cast<size_t>(sema::FormId::VirtualChannels)];
    diags.report(DiagKind::TooManyVirtualChannels, at.valid() ? at : p.topology.call->range,
                 fmt::format("{} ports x {} virtual channels + {} endpoints x {} make {} input "
                             "VCs at router {}; a simulator's router has at most {}",
                             ports, p.virtualChannels, endpoints, p.injectionVirtualChannels, vcs,
                             widest, rt::kMaxLocalVcs))
        .withHint("fewer VirtualChannels or InjectionVirtualChannels");
    return;
  }
  if (vcs > rt::kMaxLocalVcs) {
    const SourceRange at = p.where[static_cast<size_t>(sema::FormId::VirtualChannels)];
    diags.report(DiagKind::TooManyVirtualChannels, at.valid() ? at : p.topology.call->range,
                 fmt::format("{} ports x {} virtual channels + {} at the PE port make {} input VCs "
                             "at node {}; a simulator's router has at most {}",
                             ports, p.virtualChannels, p.injectionVirtualChannels, vcs, widest,
                             rt::kMaxLocalVcs))
        .withHint(fmt::format("at most {} VirtualChannels on {}",
                              (rt::kMaxLocalVcs - p.injectionVirtualChannels) / ports,
                              p.topology.text));
  }
}

}  // namespace

void runFrontEnd(const std::string& path, const PipelineOptions& options, SourceManager& sources,
                 DiagnosticEngine& diags, FrontEndResult& result) {
  uint32_t errorsBefore = diags.errorCount();

  parse::Loader loader(sources, diags, parse::LoadOptions{options.stdlibDir});
  result.program = options.mainText ? loader.loadText(path, *options.mainText, path)
                                    : loader.load(path);
  if (!result.program) return;
  parse::applyOverrides(*result.program, options.overrides, sources, diags);
  if (options.dumpAfter == Stage::Parse) {
    for (const ast::Module& m : result.program->modules) {
      std::cout << ";; " << sources.name(m.file) << "\n";
      for (const ast::Node& form : m.forms) std::cout << ast::print(form) << "\n";
    }
  }
  if (diags.errorCount() != errorsBefore) return;

  result.checked = sema::check(*result.program, diags, options.requirement);
  if (!result.checked) return;
  if (result.checked->library) {
    // Nothing to show after sema or elaboration: a library sets no parameter, builds no network.
    if (options.dumpAfter == Stage::Sema || options.dumpAfter == Stage::Elaborate) {
      const auto& defs = result.checked->defs.defs;
      const auto own = std::count_if(defs.begin(), defs.end(), [&](const sema::Definition& d) {
        return d.range.file == result.program->mainFile;
      });
      std::cout << fmt::format(";; a library: {} definitions checked; no parameters, no network\n",
                               own);
    }
    return;
  }
  const sema::Parameters& params = result.checked->params;
  if (options.dumpAfter == Stage::Sema) std::cout << sema::printParameters(params);

  result.evaluator = std::make_unique<elab::Evaluator>(result.checked->defs, diags);
  result.network = elab::elaborate(*result.checked, *result.evaluator, diags);
  if (!result.network) return;
  const elab::Graph& graph = result.network->graph;
  result.evaluator->network().graph = &graph;
  if (options.dumpAfter == Stage::Elaborate)
    std::cout << fmt::format("network {}: {} nodes, {} channels\n", graph.name, graph.nodeCount,
                             graph.channels.size());
  if (options.requirement != sema::Requirement::Network) {  // a program to simulate
    checkRouterLimits(result, diags);
    checkRuntimeLimits(result, diags);
    checkPatternFile(result, sources, diags);
    checkTraceFile(result, sources, diags);
    if (diags.errorCount() != errorsBefore) return;
    if (!elab::checkUserPatterns(*result.checked, *result.network, *result.evaluator, diags))
      return;
  }
  if (options.routeAnalysis) checkDeadlock(result, diags);
}

double simulatorMemoryBytes(const FrontEndResult& result) {
  const sema::Parameters& p = result.checked->params;
  if (p.bufferFlits <= 0) return 0;
  rt::NetworkShape shape;
  shape.routers = result.network->graph.nodeCount;
  shape.ports = static_cast<int64_t>(result.network->graph.channels.size());
  shape.vcs = p.virtualChannels;
  shape.injection_vcs = p.injectionVirtualChannels;
  shape.buffer_flits = p.bufferFlits;
  if (!result.network->graph.endpoints.empty())
    shape.endpoints = static_cast<int64_t>(result.network->graph.endpointCount());
  for (const elab::RingShape& ring : elab::portStateShapes(*result.network, result.checked->defs))
    (ring.perRouter ? shape.router_state_bytes : shape.port_state_bytes) +=
        rt::ringBytes(ring.capacity, ring.lo, ring.hi);
  shape.queue_snapshot = result.network->readsGlobalCongestion;
  return rt::estimateSimulatorBytes(shape);
}

void checkDeadlock(FrontEndResult& result, DiagnosticEngine& diags, elab::Evaluator* evaluator,
                   const elab::Limits& limits) {
  const sema::Parameters& params = result.checked->params;
  const elab::Network& net = *result.network;
  if (!net.routingDef) return;
  const sema::Definition& routing = result.checked->defs.defs[*net.routingDef];
  if (!routing.hasRoute) return;  // only hop counts: nothing to trace
  bool failed = false;
  elab::RouteFunctions fns =
      elab::routeFunctions(net, result.checked->defs,
                           evaluator ? *evaluator : *result.evaluator, failed);
  elab::DeadlockOptions options;
  options.numVcs = static_cast<uint32_t>(params.virtualChannels);
  options.escapeClasses = net.escapeClasses;
  // Route traces find what the dependency check cannot see: a routing loop.
  const elab::RoutingStats traced = elab::routingHops(net.graph, fns, limits);
  if (traced.errors.empty()) result.deadlock = elab::checkDeadlock(net.graph, fns, options, limits);
  SourceRange site = params.topology.call->range;
  if (failed) return;  // the evaluation error is reported
  static const std::vector<elab::RouteError> kNone;
  const std::vector<elab::RouteError>& errors =
      !traced.errors.empty() ? traced.errors : result.deadlock ? result.deadlock->errors : kNone;
  if (!errors.empty()) {
    const elab::RouteError& e = errors.front();
    diags.report(DiagKind::RoutingError, site,
                 fmt::format("routing {} fails on {}: {}", routing.name, params.topology.text,
                             e.message))
        .withHint(e.src == e.dst
                      ? "under (Loopback External) a node's message to itself is routed at its "
                        "source: the routing takes the link back to the node there, e.g. (if "
                        "(and (injected) (= current dest)) (port 1 1) ...) (docs/interfaces.md)"
                      : "every route must reach its destination through existing ports")
        .note(routing.nameRange, "routing defined here");
    return;
  }
  if (traced.status != elab::AnalysisStatus::kOk) {
    // What the check does not follow fails at run time: say so rather than pass in silence.
    diags.report(DiagKind::RoutingUnchecked, site,
                 fmt::format("routing {} was not traced on {}: {}", routing.name,
                             params.topology.text, traced.message))
        .withHint("a route that fails (no candidate, a port the node lacks, a header field "
                  "set out of its range) stops the simulation with a routing error instead; on "
                  "a smaller network, or with fewer random outcomes, the check traces them all")
        .note(routing.nameRange, "routing defined here");
  }
  if (traced.status == elab::AnalysisStatus::kOk && traced.hopsDiffer > 0) {
    diags.report(DiagKind::HopsMismatch, routing.hopsRange,
                 fmt::format("routing {}'s (Hops ...) gives {} hop{} from node {} to node {}, but "
                             "its route there takes {}; {} pair{} of {} differ",
                             routing.name, traced.differDeclared,
                             traced.differDeclared == 1 ? "" : "s", traced.differSrc,
                             traced.differDst, traced.differTraced, traced.hopsDiffer,
                             traced.hopsDiffer == 1 ? "" : "s", params.topology.text))
        .withHint("ndlc info reports the formula as the routing's hops: make it count the "
                  "route's hops, or write (NominalHops e) for a figure that is not the route's "
                  "length");
  }
  if (!result.deadlock) return;
  const elab::DeadlockResult& d = *result.deadlock;
  if (d.status == elab::AnalysisStatus::kOk && d.deadlockFree && d.byDuato &&
      !net.atomicVcAllocation && params.flowControl == sema::EnumId::FlowControl_Wormhole) {
    SourceRange at = params.where[static_cast<size_t>(sema::FormId::VcAllocation)];
    diags.report(DiagKind::DeadlockPossible, at.valid() ? at : site,
                 fmt::format("routing {} is deadlock-free by Duato's condition only with atomic "
                             "VC allocation: under Wormhole with (VcAllocation NonAtomic) a packet "
                             "given an escape VC behind another packet's tail waits for that "
                             "packet, which may wait for adaptive VCs for ever",
                             routing.name))
        .withHint("(VcAllocation Atomic) gives a VC only when its buffer is empty");
    return;
  }
  if (d.status == elab::AnalysisStatus::kOk && !d.deadlockFree) {
    std::string handling;
    switch (params.deadlockHandling) {
      case sema::EnumId::DeadlockHandling_Avoid:
        handling = fmt::format(
            "under DeadlockHandling Avoid {} uses VC classes that do not break this cycle, so a "
            "run stops at the first deadlock it finds",
            routing.name);
        break;
      case sema::EnumId::DeadlockHandling_Detect:
        handling = "DeadlockHandling Detect stops a run at the first deadlock and names its cycle";
        break;
      case sema::EnumId::DeadlockHandling_DropAfterTimeout:
        handling = fmt::format(
            "DeadlockHandling DropAfterTimeout removes a packet blocked for {} router clocks and "
            "counts it as dropped",
            params.deadlockTimeoutClocks);
        break;
      default:
        handling =
            "DeadlockHandling Drop removes the packets of each deadlock found at run time and "
            "counts them as dropped";
        break;
    }
    diags.report(DiagKind::DeadlockPossible, site,
                 fmt::format("{} with {} virtual channel{} can deadlock: routing {} has the "
                             "cyclic channel dependency {}",
                             params.topology.text, params.virtualChannels,
                             params.virtualChannels == 1 ? "" : "s", routing.name, d.cycleText))
        .withHint(!routing.recoveryField.empty()
                      ? fmt::format("{} recovers from deadlocks: a packet blocked for {} router "
                                    "clocks may set {} and leave the cycle (docs/routing.md); {} "
                                    "if one is not broken",
                                    routing.name, params.recoveryTimeoutClocks,
                                    routing.recoveryField, handling)
                  : params.deadlockHandling == sema::EnumId::DeadlockHandling_Avoid
                      ? handling
                      : fmt::format("{}; under (DeadlockHandling Avoid) {} uses its deadlock-free "
                                    "VC classes if it declares them (docs/routing.md says what "
                                    "each stdlib routing needs)",
                                    handling, routing.name));
  }
}

fs::path defaultStdlibDir(const char* argv0) {
  if (const char* env = std::getenv("NDL_STDLIB"); env && *env) return env;
  std::error_code ec;
  fs::path exe = fs::canonical("/proc/self/exe", ec);
  if (ec) exe = fs::absolute(argv0, ec);
  fs::path installed = exe.parent_path().parent_path() / "share" / "ndl" / "stdlib";
  if (fs::is_directory(installed, ec)) return installed;
  return NDL_SOURCE_STDLIB_DIR;
}

fs::path defaultPythonDir() {
  std::error_code ec;
  fs::path exe = fs::canonical("/proc/self/exe", ec);
  if (ec) return {};
  // The build tree stages it beside build/ndlc; an installed prefix has bin/ndlc and
  // share/ndl/python.
  for (const fs::path& dir : {exe.parent_path(), exe.parent_path().parent_path()}) {
    fs::path candidate = dir / "share" / "ndl" / "python";
    if (fs::is_regular_file(candidate / "ndl" / "engine.py", ec)) return candidate;
  }
  return {};
}

}  // namespace ndl::driver
