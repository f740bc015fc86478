// Deadlock check against theory (Dally and Seitz): dimension-order routing
// on a torus with one VC class has a dependency cycle around a ring, the
// dateline classes break it, and a mesh or a hypercube under
// dimension-order routing has none. The reported cycle is checked to be a
// real cycle of route dependencies, and the translation method is checked
// against tracing every pair.
#include "compiler/elaborate/Deadlock.h"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "tests/elaborate/TestGraphs.h"

namespace ndl::elab {
namespace {

using testing::buildHypercube;
using testing::buildMesh;
using testing::buildRing;
using testing::buildTorus;
using testing::dimensionOrder;
using testing::ecube;

constexpr DeadlockOptions kOneVc{1, VcPolicy::kAnyVc};
constexpr DeadlockOptions kDateline{2, VcPolicy::kDateline};

// Every dependency (channel, class) -> (channel, class) of every route,
// traced here independently of the library's bookkeeping.
std::set<std::tuple<ChannelId, int, ChannelId, int>> bruteForceDependencies(const Graph& g,
                                                                            const RouteFunctions& f,
                                                                            VcPolicy policy) {
  std::set<std::tuple<ChannelId, int, ChannelId, int>> deps;
  for (NodeId s = 0; s < g.nodeCount; ++s) {
    for (NodeId d = 0; d < g.nodeCount; ++d) {
      if (s == d) continue;
      ChannelId prev = kNoChannel;
      int cls = 0;
      NodeId cur = s;
      RouteState st{};
      if (f.init) f.init(s, d, st);
      while (cur != d) {
        const ChannelId c = f.route(cur, d, st);
        const Channel& ch = g.channels[c];
        // Dateline by its definition: class 1 from the wrap channel on, in
        // the same dimension.
        int next = 0;
        if (policy == VcPolicy::kDateline) {
          const bool sameDim = prev != kNoChannel && g.channels[prev].dim == ch.dim;
          next = ((sameDim && cls == 1) || (ch.flags & kWrap)) ? 1 : 0;
        }
        if (prev != kNoChannel) deps.insert({prev, cls, c, next});
        prev = c;
        cls = next;
        cur = ch.dst;
      }
    }
  }
  return deps;
}

void expectRealCycle(const Graph& g, const RouteFunctions& f, VcPolicy policy,
                     const std::vector<DependencyHop>& cycle) {
  ASSERT_GE(cycle.size(), 2u);
  const auto deps = bruteForceDependencies(g, f, policy);
  for (size_t i = 0; i < cycle.size(); ++i) {
    const DependencyHop& a = cycle[i];
    const DependencyHop& b = cycle[(i + 1) % cycle.size()];
    EXPECT_EQ(g.channels[a.channel].dst, g.channels[b.channel].src);
    EXPECT_TRUE(deps.count({a.channel, a.vcClass, b.channel, b.vcClass}))
        << "hop " << i << " is not a dependency of any route";
  }
}

TEST(Deadlock, TorusWithOneVcHasARingCycle) {
  const Graph g = buildTorus({8, 8});
  const RouteFunctions f = dimensionOrder(g, true);
  const DeadlockResult r = checkDeadlock(g, f, kOneVc);
  ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
  EXPECT_FALSE(r.deadlockFree);
  EXPECT_EQ(r.method, "representatives + translation (1 source traced, 64 translates)");
  expectRealCycle(g, f, VcPolicy::kAnyVc, r.cycle);
  // A DOR cycle stays in one ring: one dimension and direction, all k nodes.
  EXPECT_EQ(r.cycle.size(), 8u);
  for (const DependencyHop& h : r.cycle) {
    EXPECT_EQ(g.channels[h.channel].dim, g.channels[r.cycle[0].channel].dim);
    EXPECT_EQ(g.channels[h.channel].dir, g.channels[r.cycle[0].channel].dir);
  }
  const std::string first = "n" + std::to_string(g.channels[r.cycle[0].channel].src) + ":" +
                            g.portName(r.cycle[0].channel);
  EXPECT_EQ(r.cycleText.rfind(first + " -> ", 0), 0u) << r.cycleText;
  EXPECT_EQ(r.cycleText.substr(r.cycleText.size() - first.size()), first) << r.cycleText;
}

TEST(Deadlock, AnyVcHasTheCyclesOfOneVc) {
  const Graph g = buildTorus({5, 4});
  const DeadlockResult r = checkDeadlock(g, dimensionOrder(g, true), {4, VcPolicy::kAnyVc});
  ASSERT_EQ(r.status, AnalysisStatus::kOk);
  EXPECT_FALSE(r.deadlockFree);
  EXPECT_EQ(r.classes, 1u);
  EXPECT_EQ(r.cycleText.find("/vc"), std::string::npos);
}

TEST(Deadlock, DatelineBreaksTorusCycles) {
  for (auto k :
       std::vector<std::vector<int64_t>>{{8, 8}, {5, 4}, {2, 3}, {9}, {64, 64}, {16, 16, 16}}) {
    const Graph g = buildTorus(k);
    const DeadlockResult r = checkDeadlock(g, dimensionOrder(g, true), kDateline);
    ASSERT_EQ(r.status, AnalysisStatus::kOk) << g.name << ": " << r.message;
    EXPECT_TRUE(r.deadlockFree) << g.name << ": " << r.cycleText;
    EXPECT_EQ(r.classes, 2u);
    EXPECT_GT(r.dependencies, 0u);
  }
}

TEST(Deadlock, DatelineNeedsTwoVcs) {
  const Graph g = buildTorus({4, 4});
  const DeadlockResult r = checkDeadlock(g, dimensionOrder(g, true), {1, VcPolicy::kDateline});
  EXPECT_EQ(r.status, AnalysisStatus::kInvalid);
  EXPECT_NE(r.message.find("at least 2 virtual channels"), std::string::npos);
}

TEST(Deadlock, MeshAndHypercubeAreAcyclic) {
  for (auto k : std::vector<std::vector<int64_t>>{{8, 8}, {4, 3, 3}, {7}}) {
    const Graph g = buildMesh(k);
    const DeadlockResult r = checkDeadlock(g, dimensionOrder(g, false), kOneVc);
    ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
    EXPECT_TRUE(r.deadlockFree) << g.name << ": " << r.cycleText;
    EXPECT_EQ(r.method, "all pairs (" + std::to_string(g.nodeCount) + " sources)");
  }
  const Graph cube = buildHypercube(6);
  const DeadlockResult r = checkDeadlock(cube, ecube(cube), kOneVc);
  ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
  EXPECT_TRUE(r.deadlockFree);
  EXPECT_EQ(r.method, "representatives + translation (1 source traced, 64 translates)");
}

// The dependencies laid out by translation are exactly those of every pair.
TEST(Deadlock, TranslationEqualsAllPairs) {
  Limits exact;
  exact.useSymmetry = false;
  auto same = [&](const Graph& g, const RouteFunctions& f, DeadlockOptions opt) {
    const DependencyBuild sym = buildDependencies(g, f, opt);
    const DependencyBuild all = buildDependencies(g, f, opt, exact);
    ASSERT_EQ(sym.status, AnalysisStatus::kOk) << sym.message;
    ASSERT_EQ(all.status, AnalysisStatus::kOk) << all.message;
    EXPECT_NE(sym.method.find("translation"), std::string::npos) << sym.method;
    EXPECT_EQ(all.method.find("translation"), std::string::npos) << all.method;
    EXPECT_EQ(sym.deps.next, all.deps.next) << g.name;
    // And both agree with a brute-force trace.
    const auto brute = bruteForceDependencies(g, f, opt.policy);
    EXPECT_EQ(all.deps.edgeCount(), brute.size()) << g.name;
  };
  for (auto k :
       std::vector<std::vector<int64_t>>{{7}, {8}, {2, 3}, {5, 4}, {4, 4}, {3, 3, 3}, {6, 2, 3}}) {
    const Graph g = buildTorus(k);
    same(g, dimensionOrder(g, true), kOneVc);
    same(g, dimensionOrder(g, true), kDateline);
  }
  const Graph cube = buildHypercube(4);
  same(cube, ecube(cube), kOneVc);
  same(cube, ecube(cube), kDateline);
}

TEST(Deadlock, SeveralRepresentativesAndTranslationSubgroup) {
  // A 4x4 torus whose even-x nodes have an extra one-way "express" channel
  // to x+2: translations by even x map it onto itself, so representatives
  // {0, 1} with translations {even x} * {all y} cover all sources.
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
  // Express hop when it lands exactly on the destination's x, else DOR.
  const RouteFunctions dor = dimensionOrder(g, true);
  RouteFunctions f;
  f.translationInvariant = true;
  f.route = [&g, dor](NodeId cur, NodeId dst, RouteState& st) {
    if (cur % 4 != dst % 4 && (cur % 4 + 2) % 4 == dst % 4) {
      const ChannelId e = g.findPort(cur, 2, +1);
      if (e != kNoChannel) return e;
    }
    return dor.route(cur, dst, st);
  };
  Limits exact;
  exact.useSymmetry = false;
  for (DeadlockOptions opt : {kOneVc, kDateline}) {
    const DependencyBuild sym = buildDependencies(g, f, opt);
    const DependencyBuild all = buildDependencies(g, f, opt, exact);
    ASSERT_EQ(sym.status, AnalysisStatus::kOk) << sym.message;
    EXPECT_EQ(sym.method, "representatives + translation (2 sources traced, 8 translates)");
    EXPECT_EQ(sym.deps.next, all.deps.next);
  }
}

TEST(Deadlock, BrokenTranslationFallsBackToAllPairs) {
  // Declared invariant, but the mesh has no translates at its edges.
  Graph g = buildMesh({4, 3});
  g.representatives = {0};
  RouteFunctions meshDor = dimensionOrder(g, false);
  meshDor.translationInvariant = true;
  const DeadlockResult r = checkDeadlock(g, meshDor, kOneVc);
  ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
  EXPECT_TRUE(r.deadlockFree);
  EXPECT_NE(r.method.find("all pairs (12 sources; no translation:"), std::string::npos) << r.method;
}

TEST(Deadlock, LongCycleIsTruncated) {
  const Graph g = buildRing(40);
  const DeadlockResult r = checkDeadlock(g, dimensionOrder(g, true), kOneVc);
  ASSERT_FALSE(r.deadlockFree);
  EXPECT_EQ(r.cycle.size(), 40u);
  EXPECT_NE(r.cycleText.find("... (29 more hops) -> "), std::string::npos) << r.cycleText;
}

TEST(Deadlock, DatelineOnARingRoutedOneWay) {
  // Always x+ on a ring of 4: routes of up to 3 hops cross the wrap at most
  // once and never lap the ring in class 1, so the classes stay acyclic.
  const Graph g = buildRing(4);
  RouteFunctions f;
  f.translationInvariant = true;
  f.route = [&](NodeId cur, NodeId, RouteState&) { return g.findPort(cur, 0, +1); };
  const DeadlockResult r = checkDeadlock(g, f, kDateline);
  ASSERT_EQ(r.status, AnalysisStatus::kOk);
  EXPECT_TRUE(r.deadlockFree) << r.cycleText;
  EXPECT_FALSE(checkDeadlock(g, f, kOneVc).deadlockFree);
}

TEST(Deadlock, DatelineDoesNotFixTurnCycles) {
  // Even sources route x first, odd ones y first: the four turns around
  // the square (0,0) (1,0) (1,1) (0,1) all occur, from sources 0, 1, 4 and 3
  // in turn, a cycle the dateline classes do not break. The text shows the
  // classes.
  const Graph g = buildTorus({3, 3});
  RouteFunctions f;
  f.init = [](NodeId src, NodeId, RouteState& st) { st.words[0] = src % 2; };
  f.route = [&g](NodeId cur, NodeId dst, RouteState& st) {
    const int64_t cx = cur % 3, cy = cur / 3, dx = dst % 3, dy = dst / 3;
    auto step = [&](uint16_t dim, int64_t a, int64_t b) {
      return g.findPort(cur, dim, (b - a + 3) % 3 == 1 ? +1 : -1);
    };
    if (st.words[0] == 0) return cx != dx ? step(0, cx, dx) : step(1, cy, dy);
    return cy != dy ? step(1, cy, dy) : step(0, cx, dx);
  };
  const DeadlockResult r = checkDeadlock(g, f, kDateline);
  ASSERT_EQ(r.status, AnalysisStatus::kOk) << r.message;
  EXPECT_FALSE(r.deadlockFree);
  expectRealCycle(g, f, VcPolicy::kDateline, r.cycle);
  EXPECT_NE(r.cycleText.find("/vc"), std::string::npos) << r.cycleText;
}

TEST(Deadlock, RoutingErrorsAreReportedNotHung) {
  const Graph g = buildTorus({4, 4});
  RouteFunctions f;
  f.translationInvariant = true;
  f.route = [&](NodeId cur, NodeId, RouteState&) {
    return g.findPort(cur, 0, cur % 2 == 0 ? +1 : -1);
  };
  const DeadlockResult r = checkDeadlock(g, f, kOneVc);
  EXPECT_EQ(r.status, AnalysisStatus::kRouteErrors);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].kind, RouteErrorKind::kHopLimit);
}

TEST(Deadlock, RefusesTooMuchWork) {
  const Graph g = buildTorus({300, 300});
  RouteFunctions f = dimensionOrder(g, true);
  f.translationInvariant = false;
  const DeadlockResult r = checkDeadlock(g, f, kOneVc);
  EXPECT_EQ(r.status, AnalysisStatus::kTooLarge);
  EXPECT_NE(r.message.find("too large"), std::string::npos);
}

}  // namespace
}  // namespace ndl::elab
