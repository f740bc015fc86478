// C++ builders of the regular topologies, laid out as elaboration lays them
// out (node id = mixed radix, dimension 0 fastest; dimensions x, y, z, d3,
// ...; per node, channels by dimension, + before -; wrap-around channels
// flagged kWrap), and reference routings over them. For the elaborate
// tests and benchmark only: the product builds topologies from NDL.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/elaborate/Graph.h"
#include "compiler/elaborate/Routing.h"

namespace ndl::elab::testing {

Graph buildTorus(const std::vector<int64_t>& radices);  // representatives {0}
Graph buildMesh(const std::vector<int64_t>& radices);   // no representatives
Graph buildRing(int64_t k);                             // a 1-D torus
Graph buildHypercube(unsigned n);                       // radices 2 ... 2, representatives {0}

// Dimension-order routing, lowest dimension first; on a torus the shorter
// way, ties to +. Port = graph.findPort(node, dim, dir).
RouteFunctions dimensionOrder(const Graph& graph, bool torus);
// E-cube on a hypercube: lowest differing address bit first.
RouteFunctions ecube(const Graph& graph);

}  // namespace ndl::elab::testing
