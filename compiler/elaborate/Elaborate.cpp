#include "compiler/elaborate/Elaborate.h"

#include <fmt/format.h>

#include "compiler/elaborate/GraphCheck.h"
#include "compiler/elaborate/TopologyBuilder.h"
#include "compiler/support/InternalError.h"

namespace ndl::elab {
namespace {

DiagKind problemKind(GraphProblemKind k) {
  switch (k) {
    case GraphProblemKind::kSelfLink: return DiagKind::SelfLink;
    case GraphProblemKind::kIsolatedNode: return DiagKind::IsolatedNode;
    case GraphProblemKind::kDisconnected: return DiagKind::DisconnectedNetwork;
    case GraphProblemKind::kTooManyPorts: return DiagKind::TooManyPorts;
    case GraphProblemKind::kMalformed: break;
  }
  return DiagKind::EvaluationError;
}

std::string_view problemHint(GraphProblemKind k) {
  switch (k) {
    case GraphProblemKind::kIsolatedNode: return "every node needs at least one link";
    case GraphProblemKind::kDisconnected:
      return "add links so that every node can reach every other";
    case GraphProblemKind::kTooManyPorts: return "a router has at most 64 ports";
    default: return "";
  }
}

// Per-dimension facts routing functions ask about: wrap-around links
// (wraps) and whether the dimension has ports at all (has-dim).
void describeNetwork(const Graph& g, NetworkContext& ctx) {
  ctx.nodeCount = g.nodeCount;
  ctx.setRadices(g.radices);
  ctx.wraps.assign(g.dimNames.size(), 0);
  ctx.dimUsed.assign(g.dimNames.size(), 0);
  for (const Channel& c : g.channels) {
    ctx.dimUsed[c.dim] = 1;
    if (c.flags & kWrap) ctx.wraps[c.dim] = 1;
  }
}

}  // namespace

std::optional<Network> elaborate(const sema::CheckedProgram& program, Evaluator& evaluator,
                                 DiagnosticEngine& diags) {
  const sema::Parameters& p = program.params;
  const sema::Definition& def = program.defs.defs[p.topology.def];
  SourceRange site = p.topology.call->range;

  std::vector<Value> args;
  for (const sema::Expr& a : p.topology.args) {
    std::optional<Value> v = evaluator.evaluate(a);
    if (!v) return std::nullopt;
    args.push_back(*v);
  }
  TopologyBuilder builder;
  evaluator.setBuilder(&builder);
  std::optional<Value> done = evaluator.call(p.topology.def, args, site);
  evaluator.setBuilder(nullptr);
  if (!done) return std::nullopt;
  if (!builder.nodesDeclared()) {
    diags.report(DiagKind::BadDefinition, def.range,
                 fmt::format("topology '{}' never declares its nodes", def.name))
        .withHint("start its body with (Nodes n)");
    return std::nullopt;
  }

  Network net;
  net.closedDiameter = builder.diameter;
  net.closedAverage = builder.averageDistance;
  std::string defaultRouting = builder.defaultRouting;
  net.graph = builder.finish(p.topology.text);

  bool bad = false;
  for (const GraphProblem& problem : checkGraph(net.graph)) {
    if (problem.kind == GraphProblemKind::kMalformed)
      throw InternalError("elaboration built a malformed graph: " + problem.message);
    diags.report(problemKind(problem.kind), site, problem.message)
        .withHint(std::string(problemHint(problem.kind)));
    bad = true;
  }
  if (bad) return std::nullopt;
  describeNetwork(net.graph, evaluator.network());

  if (p.routingDef) {
    net.routingDef = p.routingDef;
  } else if (!defaultRouting.empty()) {
    std::optional<uint32_t> r = program.defs.find(defaultRouting);
    if (!r || program.defs.defs[*r].kind != sema::DefKind::Routing) {
      diags.report(DiagKind::UnknownName, def.range,
                   fmt::format("topology '{}' names the default routing '{}', which is not "
                               "defined",
                               def.name, defaultRouting))
          .withHint("define it with (define-routing (Name) ...)");
      return std::nullopt;
    }
    net.routingDef = *r;
  }
  return net;
}

RouteFunctions routeFunctions(const Network& network, const sema::DefinitionTable& defs,
                              Evaluator& evaluator, bool& failed) {
  RouteFunctions fns;
  const Graph* g = &network.graph;
  uint32_t def = *network.routingDef;
  fns.init = [](NodeId src, NodeId, RouteState& s) { s.words[0] = src; };
  fns.route = [g, def, &evaluator, &failed](NodeId cur, NodeId dst, RouteState& s) -> ChannelId {
    if (failed) return kNoChannel;
    Value args[3] = {Value::integer(cur), Value::integer(dst), Value::integer(s.words[0])};
    std::optional<Value> port = evaluator.call(def, args, SourceRange{});
    if (!port) {
      failed = true;
      return kNoChannel;
    }
    int64_t dim = port->portDim();
    if (dim < 0 || dim > 0xFFFF) return kNoChannel;
    return g->findPort(cur, static_cast<uint16_t>(dim), port->portDir());
  };
  // Routings in NDL see only (current, dest, source) and the network's
  // coordinates; on a network with declared symmetry their routes from the
  // representatives stand for all.
  fns.translationInvariant = !network.graph.representatives.empty() && defs.defs[def].hasRoute;
  return fns;
}

}  // namespace ndl::elab
