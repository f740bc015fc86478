// Connects the Topology and RoutingAlgorithm forms to their definitions
// (stdlib or user): the topology's arguments are type-checked against its
// parameters, the routing name must name a routing.
#pragma once

#include "compiler/sema/Definitions.h"
#include "compiler/sema/Parameters.h"

namespace ndl::sema {

// The stdlib routing a RoutingAlgorithm name means: names kept from INSIGHT's vocabulary
// (XFirstYNext, StarChannel) stand for the stdlib's definitions.
std::string_view canonicalRouting(std::string_view name);

// Needs: resolve() and checkDefinitions(). Returns false after reporting.
bool bindNetwork(Parameters& params, DefinitionTable& defs, DiagnosticEngine& diags);

}  // namespace ndl::sema
