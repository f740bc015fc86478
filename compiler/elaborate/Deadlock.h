// Deadlock check by channel dependency graph (Dally and Seitz): a routing is
// deadlock-free on its virtual-channel classes when the graph whose
// vertices are (channel, VC class) and whose edges join consecutive hops of
// some route has no cycle. `ndlc info` reports the verdict and, if there is
// a cycle, one cycle in words; the checker warns on it (spec 3.2).
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

enum class VcPolicy : uint8_t {
  // A packet may take any VC: the VCs are one class, with the cycles of 1 VC.
  kAnyVc,
  // Class 0 until the packet crosses a kWrap channel in the current
  // dimension (that channel included), then class 1; back to class 0 when
  // the packet changes dimension. Needs at least 2 VCs. The runtime's
  // datelineHop (runtime/include/ndl/runtime/routing.h) does the same.
  kDateline,
};

struct DeadlockOptions {
  uint32_t numVcs = 1;
  VcPolicy policy = VcPolicy::kAnyVc;
};

// Number of VC classes the policy distinguishes.
uint32_t vcClasses(VcPolicy policy);

// The class a packet has on `to` after `from` in class `cls`; from ==
// kNoChannel for the first hop.
uint8_t nextClass(const Graph& graph, VcPolicy policy, uint8_t cls, ChannelId from, ChannelId to);

// Vertex (channel c, class k) is c * classes + k. next[v] has bit p set when
// some route takes, after v, the output port p of the channel's destination
// (channel outBegin(dst) + p); the class there follows from nextClass.
struct DependencyGraph {
  uint32_t classes = 1;
  VcPolicy policy = VcPolicy::kAnyVc;
  std::vector<uint64_t> next;
  uint64_t edgeCount() const;
};

struct DependencyBuild {
  AnalysisStatus status = AnalysisStatus::kOk;
  DependencyGraph deps;
  std::string method;          // "representatives + translation (...)", "all pairs (...)"
  std::string message;         // why status is not kOk
  uint64_t estimatedWork = 0;  // routing-function calls
  std::vector<RouteError> errors;
};

// Traces the routes and records their dependencies. With a
// translation-invariant routing, representatives and radices (node id =
// mixed radix, dimension 0 fastest), only the representatives' routes are
// traced: each representative r stands for the sources r + t, t in the
// translations that map node 0's neighbourhood onto itself, and the
// dependencies of those sources are the translates of r's. When the graph
// does not bear that out (a translate is missing, the orbits do not cover
// the nodes once), every pair is traced instead; `method` says which.
DependencyBuild buildDependencies(const Graph& graph, const RouteFunctions& fns,
                                  const DeadlockOptions& options, const Limits& limits = {});

struct DependencyHop {
  ChannelId channel;
  uint8_t vcClass;
  friend bool operator==(const DependencyHop&, const DependencyHop&) = default;
};

// One cycle of the dependency graph (each hop depends on the next, the
// last on the first), or nullopt. Iterative DFS: graphs have millions of
// vertices.
std::optional<std::vector<DependencyHop>> findCycle(const Graph& graph,
                                                    const DependencyGraph& deps);

// "n0:x+ -> n1:x+ -> n2:x+ -> n0:x+", with "/vc1" after each port when
// showClass; cycles longer than maxShown hops keep their start and end and
// say how many hops were left out.
std::string formatCycle(const Graph& graph, std::span<const DependencyHop> cycle, bool showClass,
                        size_t maxShown = 12);

struct DeadlockResult {
  AnalysisStatus status = AnalysisStatus::kOk;
  bool deadlockFree = false;  // meaningful when status is kOk
  std::vector<DependencyHop> cycle;
  std::string cycleText;
  uint32_t classes = 1;
  uint64_t dependencies = 0;  // distinct edges of the dependency graph
  std::string method;
  std::string message;
  uint64_t estimatedWork = 0;
  std::vector<RouteError> errors;
};

DeadlockResult checkDeadlock(const Graph& graph, const RouteFunctions& fns,
                             const DeadlockOptions& options, const Limits& limits = {});

}  // namespace ndl::elab
