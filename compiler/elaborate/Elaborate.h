// Elaboration: runs the program's topology definition to build its Graph,
// validates the graph (missing nodes, self-links, isolated nodes, a
// disconnected network, too many ports) and resolves the routing. Also
// adapts the routing definition to the analyses' RouteFunctions.
#pragma once

#include <optional>

#include "compiler/elaborate/Evaluator.h"
#include "compiler/elaborate/Graph.h"
#include "compiler/elaborate/Routing.h"
#include "compiler/sema/Check.h"

namespace ndl::elab {

struct Network {
  Graph graph;
  std::optional<uint32_t> routingDef;  // the chosen routing, explicit or the topology's own
  std::optional<int64_t> closedDiameter;      // declared by the topology
  std::optional<Rational> closedAverage;      // declared by the topology
};

// Needs: a CheckedProgram. Reports every problem at the Topology form (or
// the statement that caused it) and returns nullopt after an error. Once
// the result has its final address, point evaluator.network().graph at its
// graph so that routing functions can ask has-port.
std::optional<Network> elaborate(const sema::CheckedProgram& program, Evaluator& evaluator,
                                 DiagnosticEngine& diags);

// The routing definition as a route function over the graph. An
// evaluation error is reported once; later calls then return kNoChannel.
RouteFunctions routeFunctions(const Network& network, const sema::DefinitionTable& defs,
                              Evaluator& evaluator, bool& failed);

}  // namespace ndl::elab
