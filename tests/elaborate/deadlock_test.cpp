// Deadlock check of candidate routings against theory. Dally and Seitz:
// dimension order on a torus with one VC class has a dependency cycle
// around a ring, BookSim2's dateline classes break it, a mesh or hypercube
// under dimension order has none, nor does west-first on a mesh; minimal
// adaptive routing over one class has turn cycles. Duato: minimal adaptive
// backed by a dimension-order escape class (with its own dateline pair on a
// torus) is deadlock-free although its full graph has cycles. Reported
// cycles are checked against an independent exploration, and the
// translation method against exploring every destination.
#include "compiler/elaborate/Deadlock.h"

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "tests/elaborate/TestGraphs.h"

namespace ndl::elab {
namespace {

using testing::buildHypercube;
using testing::buildMesh;
using testing::buildRing;
using testing::buildTorus;
using testing::dimensionOrder;
using testing::ecube;
using testing::Escape;
using testing::escapeClassesOf;
using testing::minimalAdaptive;
using testing::singleChannel;
using testing::westFirst;

using Radices = std::vector<int64_t>;
// (channel * classes + class) -> (channel * classes + class).
using Edges = std::set<std::pair<uint64_t, uint64_t>>;

DeadlockOptions options(uint32_t numVcs, std::vector<bool> escapes = {}) {
  DeadlockOptions o;
  o.numVcs = numVcs;
  o.escapeClasses = std::move(escapes);
  return o;
}

uint64_t vertex(const RouteFunctions& f, Hop h) {
  return static_cast<uint64_t>(h.channel) * f.classes + h.vcClass;
}

// Every dependency of every state a packet can reach, found here by a
// breadth-first walk independent of the library's bookkeeping: per
// destination, from every source, over the candidates of an unblocked and
// of a long-blocked packet.
Edges bruteForceDependencies(const Graph& g, const RouteFunctions& f) {
  Edges edges;
  std::vector<Hop> out;
  for (NodeId d = 0; d < g.nodeCount; ++d) {
    std::set<uint64_t> seen;
    std::deque<Hop> todo;
    auto expand = [&](NodeId cur, Hop in) {
      for (uint32_t wait : {0u, 1u << 30}) {
        out.clear();
        RouteState st{};
        EXPECT_EQ(f.candidates(cur, d, in, wait, st, out), CandidateStatus::kOk);
        for (const Hop& h : out) {
          if (in.channel != kNoChannel) edges.insert({vertex(f, in), vertex(f, h)});
          if (g.channels[h.channel].dst != d && seen.insert(vertex(f, h)).second)
            todo.push_back(h);
        }
      }
    };
    for (NodeId s = 0; s < g.nodeCount; ++s)
      if (s != d) expand(s, Hop{kNoChannel, 0});
    while (!todo.empty()) {
      const Hop h = todo.front();
      todo.pop_front();
      expand(g.channels[h.channel].dst, h);
    }
  }
  return edges;
}

// The library's graph as an edge set: the one place that knows its layout.
Edges edgesOf(const DependencyGraph& deps) {
  Edges edges;
  for (uint64_t v = 0; v < deps.succ.size(); ++v)
    for (uint64_t w : deps.succ[v]) edges.insert({v, w});
  return edges;
}

// Consecutive hops of the cycle are joined (each enters the node the next
// leaves) and each is a dependency of some reachable state.
void expectRealCycle(const Graph& g, const RouteFunctions& f,
                     const std::vector<DependencyHop>& cycle) {
  ASSERT_GE(cycle.size(), 2u);
  const Edges deps = bruteForceDependencies(g, f);
  for (size_t i = 0; i < cycle.size(); ++i) {
    const DependencyHop& a = cycle[i];
    const DependencyHop& b = cycle[(i + 1) % cycle.size()];
    EXPECT_EQ(g.channels[a.channel].dst, g.channels[b.channel].src) << "hop " << i;
    EXPECT_TRUE(deps.count({vertex(f, {a.channel, a.vcClass}), vertex(f, {b.channel, b.vcClass})}))
        << "hop " << i << " is not a dependency of any reachable state";
  }
}

// Dimensions the cycle turns through.
std::set<uint16_t> dimsOf(const Graph& g, const std::vector<DependencyHop>& cycle) {
  std::set<uint16_t> dims;
  for (const DependencyHop& h : cycle) dims.insert(g.channels[h.channel].dim);
  return dims;
}

TEST(Deadlock, TorusWithOneVcHasARingCycle) {
  const Graph g = buildTorus({8, 8});
  const RouteFunctions f = dimensionOrder(g, true);
  const DeadlockResult r = checkDeadlock(g, f, options(1));
  ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
  EXPECT_FALSE(r.deadlockFree);
  EXPECT_FALSE(r.byDuato);
  EXPECT_EQ(r.classes, 1u);
  EXPECT_NE(r.method.find("translation"), std::string::npos) << r.method;
  expectRealCycle(g, f, r.cycle);
  // A DOR cycle stays in one ring: one dimension and direction, all k nodes.
  EXPECT_EQ(r.cycle.size(), 8u);
  for (const DependencyHop& h : r.cycle) {
    EXPECT_EQ(g.channels[h.channel].dim, g.channels[r.cycle[0].channel].dim);
    EXPECT_EQ(g.channels[h.channel].dir, g.channels[r.cycle[0].channel].dir);
  }
  // "n3:x+ -> ... -> n3:x+", without classes when there is one.
  const std::string first = "n" + std::to_string(g.channels[r.cycle[0].channel].src) + ":" +
                            g.portName(r.cycle[0].channel);
  EXPECT_EQ(r.cycleText.rfind(first + " -> ", 0), 0u) << r.cycleText;
  EXPECT_EQ(r.cycleText.substr(r.cycleText.size() - first.size()), first) << r.cycleText;
  EXPECT_EQ(r.cycleText.find("/vc"), std::string::npos) << r.cycleText;
}

TEST(Deadlock, DatelineClassesBreakTorusCycles) {
  for (const Radices& k : std::vector<Radices>{{4, 4}, {8, 8}, {5, 5}, {4, 4, 4}, {9}, {2, 3}}) {
    const Graph g = buildTorus(k);
    const RouteFunctions f = dimensionOrder(g, true, /*dateline=*/true);
    const DeadlockResult r = checkDeadlock(g, f, options(2));
    ASSERT_EQ(r.status, AnalysisStatus::kOk) << g.name << ": " << r.message;
    EXPECT_TRUE(r.deadlockFree) << g.name << ": " << r.cycleText;
    EXPECT_FALSE(r.byDuato);
    EXPECT_EQ(r.reason, "the channel dependency graph is acyclic");
    EXPECT_EQ(r.classes, 2u);
    EXPECT_GT(r.dependencies, 0u);
    // Dateline classes depend on absolute coordinates: never translated.
    EXPECT_EQ(r.method.find("translation"), std::string::npos) << r.method;
  }
}

TEST(Deadlock, DatelineDependenciesAreTheRoutesOwn) {
  const Graph g = buildTorus({5, 4});
  const RouteFunctions f = dimensionOrder(g, true, true);
  const DependencyBuild b = buildDependencies(g, f, options(2));
  ASSERT_EQ(b.status, AnalysisStatus::kOk) << b.message;
  const Edges edges = edgesOf(b.deps);
  EXPECT_EQ(edges, bruteForceDependencies(g, f));
  // The wrap channel x+ of node 4 (x = 4 -> 0) is only ever taken in class 1.
  const ChannelId wrap = g.findPort(4, 0, +1);
  ASSERT_TRUE(g.channels[wrap].flags & kWrap);
  for (const auto& [v, w] : edges) {
    if (v / 2 == wrap) {
      EXPECT_EQ(v % 2, 1u);
    }
    if (w / 2 == wrap) {
      EXPECT_EQ(w % 2, 1u);
    }
  }
}

TEST(Deadlock, MeshAndHypercubeAreAcyclic) {
  for (const Radices& k : std::vector<Radices>{{8, 8}, {4, 3, 3}, {7}}) {
    const Graph g = buildMesh(k);
    const DeadlockResult r = checkDeadlock(g, dimensionOrder(g, false), options(1));
    ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
    EXPECT_TRUE(r.deadlockFree) << g.name << ": " << r.cycleText;
    EXPECT_EQ(r.reason, "the channel dependency graph is acyclic");
    EXPECT_GT(r.dependencies, 0u);
  }
  const Graph cube = buildHypercube(6);
  const DeadlockResult r = checkDeadlock(cube, ecube(cube), options(1));
  ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
  EXPECT_TRUE(r.deadlockFree) << r.cycleText;
  EXPECT_NE(r.method.find("translation"), std::string::npos) << r.method;
}

TEST(Deadlock, WestFirstOnAMeshIsAcyclic) {
  for (const Radices& k : std::vector<Radices>{{5, 5}, {8, 8}, {6, 3}}) {
    const Graph g = buildMesh(k);
    const RouteFunctions f = westFirst(g);
    const DeadlockResult r = checkDeadlock(g, f, options(1));
    ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
    EXPECT_TRUE(r.deadlockFree) << g.name << ": " << r.cycleText;
    // More dependencies than dimension order: the routing is adaptive.
    EXPECT_GT(r.dependencies, checkDeadlock(g, dimensionOrder(g, false), options(1)).dependencies);
  }
}

TEST(Deadlock, MeshMinimalAdaptiveOverOneClassHasATurnCycle) {
  const Graph g = buildMesh({4, 4});
  const RouteFunctions f = minimalAdaptive(g, false, Escape::kNone);
  const DeadlockResult r = checkDeadlock(g, f, options(1));
  ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
  EXPECT_FALSE(r.deadlockFree);
  expectRealCycle(g, f, r.cycle);
  EXPECT_EQ(dimsOf(g, r.cycle).size(), 2u) << r.cycleText;  // a mesh cycle turns
}

TEST(Deadlock, MeshMinimalAdaptiveWithEscapeSatisfiesDuato) {
  for (const Radices& k : std::vector<Radices>{{4, 4}, {6, 5}, {3, 3, 3}}) {
    const Graph g = buildMesh(k);
    const RouteFunctions f = minimalAdaptive(g, false, Escape::kDimensionOrder);
    // The full graph has the adaptive class's turn cycles...
    const DeadlockResult plain = checkDeadlock(g, f, options(2));
    ASSERT_EQ(plain.status, AnalysisStatus::kOk) << plain.message;
    EXPECT_FALSE(plain.deadlockFree);
    expectRealCycle(g, f, plain.cycle);
    // ... which the escape class makes harmless.
    const DeadlockResult r = checkDeadlock(g, f, options(2, escapeClassesOf(Escape::kDimensionOrder)));
    ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
    EXPECT_TRUE(r.deadlockFree) << g.name << ": " << r.cycleText << " " << r.message;
    EXPECT_TRUE(r.byDuato);
    EXPECT_NE(r.reason.find("Duato"), std::string::npos) << r.reason;
    EXPECT_TRUE(r.cycle.empty());
  }
}

TEST(Deadlock, TorusMinimalAdaptiveWithDatelineEscapeSatisfiesDuato) {
  for (const Radices& k : std::vector<Radices>{{4, 4}, {5, 5}, {6, 4}, {3, 3, 3}}) {
    const Graph g = buildTorus(k);
    const RouteFunctions f = minimalAdaptive(g, true, Escape::kDateline);
    const DeadlockResult r = checkDeadlock(g, f, options(3, escapeClassesOf(Escape::kDateline)));
    ASSERT_EQ(r.status, AnalysisStatus::kOk) << g.name << ": " << r.message;
    EXPECT_TRUE(r.deadlockFree) << g.name << ": " << r.cycleText << " " << r.message;
    EXPECT_TRUE(r.byDuato) << g.name;
    EXPECT_EQ(r.classes, 3u);
  }
}

TEST(Deadlock, TorusEscapeWithoutDatelineFailsDuato) {
  // One escape class on a torus has the ring cycles of dimension order:
  // the extended graph's cycle is named, all of it in the escape class.
  const Graph g = buildTorus({5, 5});
  const RouteFunctions f = minimalAdaptive(g, true, Escape::kDimensionOrder);
  const DeadlockResult r = checkDeadlock(g, f, options(2, escapeClassesOf(Escape::kDimensionOrder)));
  ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
  EXPECT_FALSE(r.deadlockFree);
  EXPECT_FALSE(r.byDuato);
  ASSERT_FALSE(r.cycle.empty());
  for (const DependencyHop& h : r.cycle) EXPECT_EQ(h.vcClass, 1) << r.cycleText;
  EXPECT_NE(r.cycleText.find("/vc1"), std::string::npos) << r.cycleText;
}

TEST(Deadlock, EscapeMissingSomewhereIsNamed) {
  // The escape hop is left out at node 4 (the centre of a 3x3 mesh) for
  // destination 0: Duato's condition fails there, whatever the graph.
  const Graph g = buildMesh({3, 3});
  const RouteFunctions full = minimalAdaptive(g, false, Escape::kDimensionOrder);
  RouteFunctions f = full;
  f.candidates = [full](NodeId cur, NodeId dst, Hop in, uint32_t wait, RouteState& st,
                        std::vector<Hop>& out) {
    const CandidateStatus s = full.candidates(cur, dst, in, wait, st, out);
    if (cur == 4 && dst == 0) std::erase_if(out, [](const Hop& h) { return h.vcClass == 1; });
    return s;
  };
  const DeadlockResult r = checkDeadlock(g, f, options(2, escapeClassesOf(Escape::kDimensionOrder)));
  ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
  EXPECT_FALSE(r.deadlockFree);
  EXPECT_FALSE(r.byDuato);
  const std::string why = r.reason + " " + r.message;
  EXPECT_NE(why.find("node 4"), std::string::npos) << why;
  EXPECT_NE(why.find("destination 0"), std::string::npos) << why;
}

TEST(Deadlock, CandidatesAfterAWaitCount) {
  // Dimension order on a mesh, but a packet blocked for long may also take
  // y first: with the late answer the turns close into cycles.
  const Graph g = buildMesh({4, 4});
  const RouteFunctions dor = dimensionOrder(g, false);
  const RouteFunctions adaptive = minimalAdaptive(g, false, Escape::kNone);
  RouteFunctions f = dor;
  f.waits = true;
  f.candidates = [dor, adaptive](NodeId cur, NodeId dst, Hop in, uint32_t wait, RouteState& st,
                                 std::vector<Hop>& out) {
    return (wait == 0 ? dor : adaptive).candidates(cur, dst, in, wait, st, out);
  };
  const DeadlockResult r = checkDeadlock(g, f, options(1));
  ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
  EXPECT_FALSE(r.deadlockFree);
  EXPECT_EQ(dimsOf(g, r.cycle).size(), 2u) << r.cycleText;
}

// The dependencies laid out by translation are exactly those of exploring
// every destination, and both are those of the independent walk.
TEST(Deadlock, TranslationEqualsAllDestinations) {
  Limits exact;
  exact.useSymmetry = false;
  auto same = [&](const Graph& g, const RouteFunctions& f, const DeadlockOptions& opt) {
    ASSERT_TRUE(f.translationInvariant);
    const DependencyBuild sym = buildDependencies(g, f, opt);
    const DependencyBuild all = buildDependencies(g, f, opt, exact);
    ASSERT_EQ(sym.status, AnalysisStatus::kOk) << sym.message;
    ASSERT_EQ(all.status, AnalysisStatus::kOk) << all.message;
    EXPECT_NE(sym.method.find("translation"), std::string::npos) << g.name << ": " << sym.method;
    EXPECT_EQ(all.method.find("translation"), std::string::npos) << g.name << ": " << all.method;
    const Edges edges = edgesOf(all.deps);
    EXPECT_EQ(edgesOf(sym.deps), edges) << g.name;
    EXPECT_EQ(edges, bruteForceDependencies(g, f)) << g.name;
    EXPECT_EQ(sym.deps.edgeCount(), edges.size()) << g.name;
  };
  for (const Radices& k :
       std::vector<Radices>{{7}, {8}, {2, 3}, {5, 4}, {4, 4}, {3, 3, 3}, {6, 2, 3}}) {
    const Graph g = buildTorus(k);
    same(g, dimensionOrder(g, true), options(1));
    same(g, minimalAdaptive(g, true, Escape::kNone), options(1));
    same(g, minimalAdaptive(g, true, Escape::kDimensionOrder), options(2));
    // Duato's graphs too: the verdicts agree.
    const RouteFunctions f = minimalAdaptive(g, true, Escape::kDimensionOrder);
    const DeadlockOptions opt = options(2, escapeClassesOf(Escape::kDimensionOrder));
    const DeadlockResult a = checkDeadlock(g, f, opt), b = checkDeadlock(g, f, opt, exact);
    EXPECT_EQ(a.deadlockFree, b.deadlockFree) << g.name;
    EXPECT_EQ(a.byDuato, b.byDuato) << g.name;
    EXPECT_EQ(a.dependencies, b.dependencies) << g.name;
  }
  const Graph cube = buildHypercube(4);
  same(cube, ecube(cube), options(1));
}

TEST(Deadlock, SeveralRepresentativesAndTranslationSubgroup) {
  // A 4x4 torus whose even-x nodes have an extra one-way "express" channel
  // to x+2: only translations by even x map it onto itself, and
  // representatives {0, 1} stand for all nodes.
  Graph base = buildTorus({4, 4});
  Graph g = base;
  g.dimNames.push_back("e");
  g.channels.clear();
  g.outStart.assign(1, 0);
  for (NodeId u = 0; u < 16; ++u) {
    for (ChannelId c = base.outBegin(u); c < base.outEnd(u); ++c)
      g.channels.push_back(base.channels[c]);
    if (u % 2 == 0)
      g.channels.push_back(Channel{u, u / 4 * 4 + (u % 4 + 2) % 4, 2, +1, 0, kNoChannel});
    g.outStart.push_back(static_cast<ChannelId>(g.channels.size()));
  }
  for (Channel& c : g.channels)
    if (c.dim < 2) c.reverse = g.findPort(c.dst, c.dim, static_cast<int8_t>(-c.dir));
  g.representatives = {0, 1};
  // The express hop when it lands on the destination's x, else DOR.
  const RouteFunctions dor = dimensionOrder(g, true);
  RouteFunctions f = dor;
  f.candidates = [&g, dor](NodeId cur, NodeId dst, Hop in, uint32_t wait, RouteState& st,
                           std::vector<Hop>& out) {
    if (cur % 4 != dst % 4 && (cur % 4 + 2) % 4 == dst % 4) {
      const ChannelId e = g.findPort(cur, 2, +1);
      if (e != kNoChannel) {
        out.push_back({e, 0});
        return CandidateStatus::kOk;
      }
    }
    return dor.candidates(cur, dst, in, wait, st, out);
  };
  Limits exact;
  exact.useSymmetry = false;
  const DependencyBuild sym = buildDependencies(g, f, options(1));
  const DependencyBuild all = buildDependencies(g, f, options(1), exact);
  ASSERT_EQ(sym.status, AnalysisStatus::kOk) << sym.message;
  ASSERT_EQ(all.status, AnalysisStatus::kOk) << all.message;
  EXPECT_EQ(edgesOf(sym.deps), edgesOf(all.deps)) << sym.method;
  EXPECT_EQ(edgesOf(all.deps), bruteForceDependencies(g, f));
}

TEST(Deadlock, DeclaredInvarianceTheGraphDoesNotHaveIsNotTrusted) {
  // Declared invariant, but a mesh has no translates at its edges: the
  // result must still be that of every destination.
  Graph g = buildMesh({4, 3});
  g.representatives = {0};
  RouteFunctions f = minimalAdaptive(g, false, Escape::kNone);
  f.translationInvariant = true;
  Limits exact;
  exact.useSymmetry = false;
  const DependencyBuild sym = buildDependencies(g, f, options(1));
  ASSERT_EQ(sym.status, AnalysisStatus::kOk) << sym.message;
  EXPECT_EQ(edgesOf(sym.deps), edgesOf(buildDependencies(g, f, options(1), exact).deps))
      << sym.method;
  EXPECT_EQ(edgesOf(sym.deps), bruteForceDependencies(g, f));
}

TEST(Deadlock, LongCycleIsTruncated) {
  const Graph g = buildRing(40);
  const DeadlockResult r = checkDeadlock(g, dimensionOrder(g, true), options(1));
  ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
  ASSERT_FALSE(r.deadlockFree);
  EXPECT_EQ(r.cycle.size(), 40u);
  EXPECT_NE(r.cycleText.find("... (29 more hops) -> "), std::string::npos) << r.cycleText;
}

TEST(Deadlock, DatelineOnARingRoutedOneWay) {
  // Always x+ on a ring of 4, class 1 from the wrap on: routes of up to 3
  // hops cross the wrap at most once and never lap the ring in class 1.
  const Graph g = buildRing(4);
  RouteFunctions f = singleChannel([&](NodeId cur, NodeId, RouteState&) {
    return g.findPort(cur, 0, +1);
  });
  f.classes = 2;
  f.translationInvariant = false;
  f.candidates = [&g](NodeId cur, NodeId, Hop in, uint32_t, RouteState&, std::vector<Hop>& out) {
    const ChannelId c = g.findPort(cur, 0, +1);
    const bool wrapped = (in.channel != kNoChannel && in.vcClass == 1) ||
                         (g.channels[c].flags & kWrap);
    out.push_back({c, static_cast<uint8_t>(wrapped ? 1 : 0)});
    return CandidateStatus::kOk;
  };
  const DeadlockResult r = checkDeadlock(g, f, options(2));
  ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
  EXPECT_TRUE(r.deadlockFree) << r.cycleText;
  const RouteFunctions oneClass =
      singleChannel([&](NodeId cur, NodeId, RouteState&) { return g.findPort(cur, 0, +1); });
  EXPECT_FALSE(checkDeadlock(g, oneClass, options(1)).deadlockFree);
}

TEST(Deadlock, NoCandidateIsAnErrorNamingNodeAndDestination) {
  // Dimension order, except that node 5 offers nothing for node 2.
  const Graph g = buildTorus({4, 4});
  const RouteFunctions dor = dimensionOrder(g, true);
  RouteFunctions f = dor;
  f.translationInvariant = false;
  f.candidates = [dor](NodeId cur, NodeId dst, Hop in, uint32_t wait, RouteState& st,
                       std::vector<Hop>& out) {
    if (cur == 5 && dst == 2) return CandidateStatus::kOk;
    return dor.candidates(cur, dst, in, wait, st, out);
  };
  const DeadlockResult r = checkDeadlock(g, f, options(1));
  EXPECT_EQ(r.status, AnalysisStatus::kRouteErrors);
  ASSERT_FALSE(r.errors.empty());
  const RouteError& e = r.errors[0];
  EXPECT_EQ(e.kind, RouteErrorKind::kNoChannel);
  EXPECT_EQ(e.node, 5u);
  EXPECT_EQ(e.dst, 2u);
  EXPECT_NE(e.message.find("at node 5"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("to node 2"), std::string::npos) << e.message;
  EXPECT_EQ(r.message, e.message);
}

TEST(Deadlock, WrongChannelIsAnError) {
  const Graph g = buildRing(5);
  const RouteFunctions f =
      singleChannel([](NodeId cur, NodeId, RouteState&) -> ChannelId { return cur == 0 ? 0 : 1; });
  const DeadlockResult r = checkDeadlock(g, f, options(1));
  EXPECT_EQ(r.status, AnalysisStatus::kRouteErrors);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].kind, RouteErrorKind::kWrongChannel);
}

TEST(Deadlock, RoutingLoopDoesNotHang) {
  // Between nodes 0 and 1 forever: x+ from even nodes, x- from odd ones.
  // Either a routing error or a cycle; never a hang, never "free".
  const Graph g = buildTorus({4, 4});
  const RouteFunctions f = singleChannel(
      [&](NodeId cur, NodeId, RouteState&) { return g.findPort(cur, 0, cur % 2 == 0 ? +1 : -1); },
      true);
  const DeadlockResult r = checkDeadlock(g, f, options(1));
  EXPECT_TRUE(r.status == AnalysisStatus::kRouteErrors ||
              (r.status == AnalysisStatus::kOk && !r.deadlockFree))
      << r.message;
}

TEST(Deadlock, RefusesTooMuchWork) {
  const Graph g = buildTorus({300, 300});
  RouteFunctions f = dimensionOrder(g, true);
  f.translationInvariant = false;
  const DeadlockResult r = checkDeadlock(g, f, options(1));
  EXPECT_EQ(r.status, AnalysisStatus::kTooLarge);
  EXPECT_NE(r.message.find("too large"), std::string::npos) << r.message;
}

// The dependency check projects the evaluation steps of the routing's calls
// from the first destination and stops at once when the whole would
// exceed the budget.
TEST(Deadlock, StopsWhenEvaluationStepsWouldExceedTheBudget) {
  const Graph g = buildTorus({16, 16});
  RouteFunctions f = dimensionOrder(g, true);
  f.translationInvariant = false;
  auto steps = std::make_shared<uint64_t>(0);
  f.candidates = [inner = f.candidates, steps](NodeId cur, NodeId dst, Hop in, uint32_t wait,
                                               RouteState& s, std::vector<Hop>& out) {
    *steps += 1000;
    return inner(cur, dst, in, wait, s, out);
  };
  f.work = [steps] { return *steps; };
  Limits limits;
  limits.maxEvalSteps = 1'000'000;
  const DeadlockResult r = checkDeadlock(g, f, options(2), limits);
  EXPECT_EQ(r.status, AnalysisStatus::kTooLarge);
  EXPECT_NE(r.message.find("measured over 1 of 256 destinations"), std::string::npos)
      << r.message;
  limits.maxEvalSteps = 1'000'000'000;
  EXPECT_EQ(checkDeadlock(g, f, options(2), limits).status, AnalysisStatus::kOk);
}

// A routing that claims translation invariance and is not (node 0 routes
// adaptively, the others by dimension order) is explored from every
// destination: the work is estimated again for all of them and refused
// when it exceeds the budget, instead of running far past it.
TEST(Deadlock, EstimatesAgainWhenTranslationDoesNotHold) {
  const Graph g = buildTorus({16, 16});
  RouteFunctions f = dimensionOrder(g, true);
  const RouteFunctions adaptive = minimalAdaptive(g, true, Escape::kNone);
  f.candidates = [dor = f.candidates, ma = adaptive.candidates](
                     NodeId cur, NodeId dst, Hop in, uint32_t wait, RouteState& s,
                     std::vector<Hop>& out) {
    return (cur == 0 ? ma : dor)(cur, dst, in, wait, s, out);
  };
  f.translationInvariant = true;
  Limits limits;
  limits.maxRouteSteps = 50'000;  // the representative's 1,280 states pass, all 256 do not
  // The candidates at node 0 are not the translates of those elsewhere: found before any
  // destination is explored, so the estimate counts all 256 and the message says why.
  const DeadlockResult r = checkDeadlock(g, f, options(1), limits);
  EXPECT_EQ(r.status, AnalysisStatus::kTooLarge);
  EXPECT_NE(r.message.find("not by translation: the routing's candidates at node"),
            std::string::npos)
      << r.message;
  const DeadlockResult full = checkDeadlock(g, f, options(1));
  ASSERT_EQ(full.status, AnalysisStatus::kOk) << full.message;
  EXPECT_EQ(full.method.rfind("all destinations (256); not by translation", 0), 0u) << full.method;
}

TEST(Deadlock, NoRoutingIsInvalid) {
  const Graph g = buildRing(4);
  const DeadlockResult r = checkDeadlock(g, RouteFunctions{}, options(1));
  EXPECT_EQ(r.status, AnalysisStatus::kInvalid);
}

}  // namespace
}  // namespace ndl::elab
