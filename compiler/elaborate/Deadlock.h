// Deadlock check of candidate routings by channel dependency graph (Dally
// and Seitz; Duato for adaptive routings). Vertices are (channel, VC class);
// there is an edge from a vertex to every (channel, class) a packet holding
// it may ask for next, over every candidate of every tier, with the packet
// not yet blocked and blocked for long (routings may change their answer
// after a wait). A routing is deadlock-free when the graph has no cycle, or,
// failing that, when its escape classes satisfy Duato's condition: every
// state a packet can reach offers an escape candidate, and the extended
// dependency graph of the escape classes (direct dependencies, and indirect
// ones through non-escape hops) has no cycle. `ndlc info` reports the
// verdict and names a cycle; the checker warns on it (spec 3.2).
//
// Header state (RouteState) is not part of a vertex: the stdlib's routings
// keep none, and a routing's answer is taken as a function of (node, arrival
// channel, class, destination).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compiler/elaborate/Analysis.h"
#include "compiler/elaborate/Graph.h"
#include "compiler/elaborate/Routing.h"

namespace ndl::elab {

struct DeadlockOptions {
  uint32_t numVcs = 1;               // for messages
  std::vector<bool> escapeClasses;   // per network class; empty: none declared
};

// Vertex (channel c, class k) is c * classes + k; succ[v] lists the vertices
// some packet may ask for while it holds v, sorted and without repeats.
struct DependencyGraph {
  uint32_t classes = 1;
  std::vector<std::vector<uint32_t>> succ;
  uint64_t edgeCount() const;
};

struct DependencyHop {
  ChannelId channel;
  uint8_t vcClass;
  friend bool operator==(const DependencyHop&, const DependencyHop&) = default;
};

struct DependencyBuild {
  AnalysisStatus status = AnalysisStatus::kOk;
  DependencyGraph deps;
  // Duato: the extended graph of the escape classes (vertices as above, only
  // escape ones with successors), and the first state found without an
  // escape candidate, if any.
  DependencyGraph extended;
  bool escapeConnected = true;
  std::string escapeGap;
  std::string method;          // "all destinations (64)", "4 destinations + translation (...)"
  std::string message;         // why status is not kOk
  uint64_t estimatedWork = 0;  // routing-function calls
  std::vector<RouteError> errors;
};

// Explores, for every destination, every state a packet bound there can
// reach, and records the dependencies. With a translation-invariant routing
// on a network with radices and representatives, only one destination per
// orbit of the translations that map the graph onto itself is explored and
// its dependencies are translated; a sample of other destinations is
// explored too and must agree, else every destination is explored (`method`
// says which).
DependencyBuild buildDependencies(const Graph& graph, const RouteFunctions& fns,
                                  const DeadlockOptions& options, const Limits& limits = {});

// One cycle (each hop depends on the next, the last on the first), or
// nullopt. Iterative DFS: graphs have millions of vertices.
std::optional<std::vector<DependencyHop>> findCycle(const DependencyGraph& deps);

// "n0:x+ -> n1:x+ -> n2:x+ -> n0:x+", with "/vc1" after each port when
// showClass; cycles longer than maxShown hops keep their start and end and
// say how many hops were left out.
std::string formatCycle(const Graph& graph, std::span<const DependencyHop> cycle, bool showClass,
                        size_t maxShown = 12);

struct DeadlockResult {
  AnalysisStatus status = AnalysisStatus::kOk;
  bool deadlockFree = false;  // meaningful when status is kOk
  bool byDuato = false;       // free by the escape classes, not by an acyclic graph
  std::string reason;         // why it is free, in words
  std::vector<DependencyHop> cycle;
  std::string cycleText;
  uint32_t classes = 1;
  uint64_t dependencies = 0;  // edges of the dependency graph
  std::string method;
  std::string message;
  uint64_t estimatedWork = 0;
  std::vector<RouteError> errors;
};

DeadlockResult checkDeadlock(const Graph& graph, const RouteFunctions& fns,
                             const DeadlockOptions& options, const Limits& limits = {});

}  // namespace ndl::elab
