// C++ builders of the regular topologies, laid out as elaboration lays them
// out (node id = mixed radix, dimension 0 fastest; dimensions x, y, z, d3,
// ...; per node, channels by dimension, + before -; wrap-around channels
// flagged kWrap), and reference candidate routings over them. For the
// elaborate tests and benchmark only: the product builds topologies and
// routings from NDL.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "compiler/elaborate/Graph.h"
#include "compiler/elaborate/Routing.h"

namespace ndl::elab::testing {

Graph buildTorus(const std::vector<int64_t>& radices);  // representatives {0}
Graph buildMesh(const std::vector<int64_t>& radices);   // no representatives
Graph buildRing(int64_t k);                             // a 1-D torus
Graph buildHypercube(unsigned n);                       // radices 2 ... 2, representatives {0}

// The reference routings below read neither the source nor blockedFor
// (readsSource = waits = false), and name ports by graph.findPort(node,
// dim, dir).

// Dimension-order routing, lowest dimension first; on a torus the shorter
// way, ties to +; one candidate. With dateline (torus only) 2 classes, as
// BookSim2 assigns them: class 1 for the whole of a dimension's route when
// it crosses that dimension's wrap-around link, else class 0. Dateline
// classes depend on absolute coordinates: not translation-invariant.
RouteFunctions dimensionOrder(const Graph& graph, bool torus, bool dateline = false);

// E-cube on a hypercube: lowest differing address bit first.
RouteFunctions ecube(const Graph& graph);

// What backs a minimal adaptive routing up.
enum class Escape : uint8_t {
  kNone,           // classes {adaptive}
  kDimensionOrder, // classes {adaptive, escape}: the DOR hop in class 1
  kDateline,       // torus: classes {adaptive, escape-low, escape-high}, the DOR hop
                   // with its dateline class in 1 + class
};

// Minimal adaptive on a mesh or torus: every minimal direction (both ways
// half way round an even torus dimension) in class 0, then the escape hop.
// Translation-invariant on a torus unless the escape uses the dateline.
RouteFunctions minimalAdaptive(const Graph& graph, bool torus, Escape escape);

// DeadlockOptions::escapeClasses for minimalAdaptive(..., escape).
std::vector<bool> escapeClassesOf(Escape escape);

// West-first turn model on a 2-D mesh (Glass and Ni): all west (x-) hops
// first, then any minimal direction among east, north and south; one class.
RouteFunctions westFirst(const Graph& mesh);

// A routing of one candidate per step, class 0, from a function returning
// the channel (kNoChannel: no candidate). For ad hoc routings in tests.
RouteFunctions singleChannel(std::function<ChannelId(NodeId cur, NodeId dst, RouteState&)> route,
                             bool translationInvariant = false);

}  // namespace ndl::elab::testing
