// Routing traces: reference routings are minimal with mean hops equal to the
// average distance; a trace follows the first candidate; broken routings are
// reported (which pair, where), never hung.
#include "compiler/elaborate/Routing.h"

#include <gtest/gtest.h>

#include <memory>

#include "compiler/elaborate/Metrics.h"
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
using testing::minimalAdaptive;
using testing::singleChannel;
using testing::westFirst;

TEST(Routing, DimensionOrderOnTorusIsMinimal) {
  for (auto k : std::vector<std::vector<int64_t>>{{64, 64}, {16, 16, 16}, {7, 4}, {2, 3}}) {
    const Graph g = buildTorus(k);
    const RoutingStats s = routingHops(g, dimensionOrder(g, true));
    ASSERT_EQ(s.status, AnalysisStatus::kOk) << s.message;
    EXPECT_EQ(s.method, "representatives (1 source)");
    EXPECT_TRUE(s.minimal) << g.name;
    EXPECT_EQ(s.maxHops, torusClosedForm(k)->diameter) << g.name;
    EXPECT_EQ(s.avgHops, torusClosedForm(k)->avgDistance) << g.name;
  }
}

TEST(Routing, RepresentativesEqualAllPairs) {
  const Graph g = buildTorus({6, 5});
  Limits exact;
  exact.useSymmetry = false;
  const RoutingStats all = routingHops(g, dimensionOrder(g, true), exact);
  EXPECT_EQ(all.method, "all pairs (30 sources)");
  const RoutingStats sym = routingHops(g, dimensionOrder(g, true));
  EXPECT_EQ(all.avgHops, sym.avgHops);
  EXPECT_EQ(all.maxHops, sym.maxHops);
  EXPECT_TRUE(all.minimal);
}

TEST(Routing, DimensionOrderOnMeshAndEcube) {
  const std::vector<int64_t> k{8, 8};
  const Graph mesh = buildMesh(k);
  const RoutingStats m = routingHops(mesh, dimensionOrder(mesh, false));
  ASSERT_EQ(m.status, AnalysisStatus::kOk) << m.message;
  EXPECT_TRUE(m.minimal);
  EXPECT_EQ(m.maxHops, 14u);
  EXPECT_EQ(m.avgHops, meshClosedForm(k)->avgDistance);

  const Graph cube = buildHypercube(8);
  const RoutingStats c = routingHops(cube, ecube(cube));
  ASSERT_EQ(c.status, AnalysisStatus::kOk) << c.message;
  EXPECT_TRUE(c.minimal);
  EXPECT_EQ(c.maxHops, 8u);
  EXPECT_EQ(c.avgHops, hypercubeClosedForm(8)->avgDistance);
}

TEST(Routing, NonMinimalRouteIsNamed) {
  // Always x+ on a ring of 8: node 0 reaches 7 in 7 hops, not 1.
  const Graph g = buildRing(8);
  const RouteFunctions f =
      singleChannel([&](NodeId cur, NodeId, RouteState&) { return g.findPort(cur, 0, +1); }, true);
  const RoutingStats s = routingHops(g, f);
  ASSERT_EQ(s.status, AnalysisStatus::kOk);
  EXPECT_FALSE(s.minimal);
  EXPECT_EQ(s.maxHops, 7u);
  EXPECT_EQ(s.avgHops, (Ratio{4, 1}));  // (1 + ... + 7) / 7
  EXPECT_EQ(s.longSrc, 0u);
  EXPECT_GT(s.longHops, s.longDistance);
}

TEST(Routing, LoopIsReportedNotHung) {
  // Between nodes 0 and 1 forever: x+ from even nodes, x- from odd ones.
  const Graph g = buildRing(6);
  const RouteFunctions f = singleChannel(
      [&](NodeId cur, NodeId, RouteState&) { return g.findPort(cur, 0, cur % 2 == 0 ? +1 : -1); });
  Limits limits;
  limits.maxErrors = 3;
  const RoutingStats s = routingHops(g, f, limits);
  EXPECT_EQ(s.status, AnalysisStatus::kRouteErrors);
  ASSERT_EQ(s.errors.size(), 3u);
  const RouteError& e = s.errors[0];
  EXPECT_EQ(e.kind, RouteErrorKind::kHopLimit);
  EXPECT_EQ(e.src, 0u);
  EXPECT_EQ(e.dst, 2u);  // 0 -> 1 arrives; 0 -> 2 bounces
  EXPECT_EQ(e.hops, routeHopLimit(g, limits));
  EXPECT_NE(e.message.find("routing loop"), std::string::npos) << e.message;
}

TEST(Routing, MissingPortIsReported) {
  // x+ forever on a mesh falls off the edge: findPort returns kNoChannel.
  const Graph g = buildMesh({4, 4});
  const RouteFunctions f =
      singleChannel([&](NodeId cur, NodeId, RouteState&) { return g.findPort(cur, 0, +1); });
  const RoutingStats s = routingHops(g, f);
  ASSERT_EQ(s.status, AnalysisStatus::kRouteErrors);
  const RouteError& e = s.errors[0];
  EXPECT_EQ(e.kind, RouteErrorKind::kNoChannel);
  EXPECT_EQ(e.src, 0u);
  EXPECT_EQ(e.dst, 4u);  // first destination not on row 0 beyond the start
  EXPECT_EQ(e.node, 3u);
  EXPECT_EQ(e.hops, 3u);
}

TEST(Routing, ChannelNotLeavingTheNodeIsReported) {
  const Graph g = buildRing(5);
  const RouteFunctions f =
      singleChannel([](NodeId cur, NodeId, RouteState&) -> ChannelId { return cur == 0 ? 0 : 1; });
  const RoutingStats s = routingHops(g, f);
  ASSERT_EQ(s.status, AnalysisStatus::kRouteErrors);
  const RouteError& e = s.errors[0];
  EXPECT_EQ(e.kind, RouteErrorKind::kWrongChannel);
  EXPECT_EQ(e.node, 1u);  // 0 leaves on channel 0 (x+) to 1, which picks channel 1 of node 0
  EXPECT_EQ(e.channel, 1u);
  EXPECT_NE(e.message.find("leaves node 0"), std::string::npos) << e.message;
}

TEST(Routing, InitSeesSourceAndDestination) {
  // A routing that carries its remaining hop count in the header, set by
  // init: x+ until the count runs out.
  const Graph g = buildRing(6);
  RouteFunctions f = singleChannel([&](NodeId cur, NodeId, RouteState& st) {
    return --st.words[0] >= 0 ? g.findPort(cur, 0, +1) : kNoChannel;
  });
  f.initials = [](NodeId src, NodeId dst, std::vector<InitialState>& out) {
    InitialState one{};
    one.state.words[0] = (dst + 6 - src) % 6;
    out.assign(1, one);
    return true;
  };
  const RoutingStats s = routingHops(g, f);
  ASSERT_EQ(s.status, AnalysisStatus::kOk) << s.message;
  EXPECT_EQ(s.maxHops, 5u);
}

// Random initial states weigh by their probability, not equally: a packet
// steps back once before going x+ with probability 1/4 (two states of 1/2
// and 1/4 go straight). Straight: 3 hops on average over the 5 destinations;
// stepping back from distance h: h + 2 hops, or 1 when the step back arrives
// (h = 5): 19/5. Mean 3/4 * 3 + 1/4 * 19/5 = 16/5 (equal weights: 49/15).
TEST(Routing, InitialStatesWeighByProbability) {
  const Graph g = buildRing(6);
  RouteFunctions f = singleChannel([&](NodeId cur, NodeId, RouteState& st) {
    const bool back = st.words[1] == 1;
    st.words[1] = 0;
    return g.findPort(cur, 0, back ? -1 : +1);
  });
  f.initials = [](NodeId src, NodeId, std::vector<InitialState>& out) {
    out.clear();
    for (auto [back, den] : {std::pair<int64_t, uint64_t>{0, 2}, {0, 4}, {1, 4}}) {
      InitialState one{};
      one.state.words[0] = src;
      one.state.words[1] = back;
      one.denominator = den;
      out.push_back(one);
    }
    return true;
  };
  const RoutingStats s = routingHops(g, f);
  ASSERT_EQ(s.status, AnalysisStatus::kOk) << s.message;
  EXPECT_EQ(s.avgHops, (Ratio{16, 5}));
  EXPECT_EQ(s.maxHops, 6u);
  EXPECT_FALSE(s.minimal);
}

// A trace takes the first candidate: minimal adaptive routings and the turn
// model are minimal too, whatever else they offer.
TEST(Routing, TraceFollowsTheFirstCandidate) {
  const std::vector<int64_t> tk{6, 5}, mk{5, 4};
  const Graph torus = buildTorus(tk);
  for (Escape e : {Escape::kNone, Escape::kDimensionOrder, Escape::kDateline}) {
    const RoutingStats s = routingHops(torus, minimalAdaptive(torus, true, e));
    ASSERT_EQ(s.status, AnalysisStatus::kOk) << s.message;
    EXPECT_TRUE(s.minimal);
    EXPECT_EQ(s.avgHops, torusClosedForm(tk)->avgDistance);
  }
  const Graph mesh = buildMesh(mk);
  const RoutingStats w = routingHops(mesh, westFirst(mesh));
  ASSERT_EQ(w.status, AnalysisStatus::kOk) << w.message;
  EXPECT_TRUE(w.minimal);
  EXPECT_EQ(w.avgHops, meshClosedForm(mk)->avgDistance);

  // The hops a trace reports are out[0] of each step, with its class.
  const Graph ring = buildRing(8);
  const RouteFunctions dl = dimensionOrder(ring, true, true);
  std::vector<Hop> hops;
  ASSERT_FALSE(traceRoute(ring, dl, 6, 1, 100, [&](Hop h) { hops.push_back(h); }));
  ASSERT_EQ(hops.size(), 3u);  // 6 -> 7 -> 0 -> 1, across the wrap: class 1 throughout
  for (const Hop& h : hops) EXPECT_EQ(h.vcClass, 1) << ring.portName(h.channel);
  EXPECT_TRUE(ring.channels[hops[1].channel].flags & kWrap);
  hops.clear();
  ASSERT_FALSE(traceRoute(ring, dl, 1, 4, 100, [&](Hop h) { hops.push_back(h); }));
  ASSERT_EQ(hops.size(), 3u);
  for (const Hop& h : hops) EXPECT_EQ(h.vcClass, 0);
}

TEST(Routing, CandidatesAreValidated) {
  const Graph g = buildRing(5);
  RouteFunctions f = singleChannel([](NodeId, NodeId, RouteState&) { return ChannelId{0}; });
  std::vector<Hop> out;
  RouteState st{};
  // Channel 0 leaves node 0: fine there, wrong at node 2.
  EXPECT_FALSE(routeCandidates(g, f, 0, 3, 0, Hop{}, 0, 0, st, out));
  ASSERT_EQ(out.size(), 1u);
  const auto err = routeCandidates(g, f, 0, 3, 2, Hop{}, 2, 0, st, out);
  ASSERT_TRUE(err);
  EXPECT_EQ(err->kind, RouteErrorKind::kWrongChannel);
  EXPECT_EQ(err->node, 2u);
  EXPECT_EQ(err->hops, 2u);
  // Nothing offered: no candidate, naming node and destination.
  f = singleChannel([](NodeId, NodeId, RouteState&) { return kNoChannel; });
  const auto none = routeCandidates(g, f, 1, 3, 2, Hop{}, 1, 0, st, out);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->kind, RouteErrorKind::kNoChannel);
  EXPECT_NE(none->message.find("at node 2"), std::string::npos) << none->message;
  EXPECT_NE(none->message.find("to node 3"), std::string::npos) << none->message;
}

TEST(Routing, RefusesTooMuchWork) {
  const Graph g = buildTorus({300, 300});
  RouteFunctions f = dimensionOrder(g, true);
  f.translationInvariant = false;
  const RoutingStats s = routingHops(g, f);
  EXPECT_EQ(s.status, AnalysisStatus::kTooLarge);
  EXPECT_NE(s.message.find("too large"), std::string::npos);
}

// A routing whose every call costs 1,000 evaluation steps (as an NDL
// routing climbing a tree by recursion may): the trace measures the first
// source, projects the whole and stops at once instead of running for
// minutes; within the budget it answers as usual.
RouteFunctions costly(RouteFunctions f, uint64_t stepsPerCall) {
  auto steps = std::make_shared<uint64_t>(0);
  f.candidates = [inner = f.candidates, steps, stepsPerCall](
                     NodeId cur, NodeId dst, Hop in, uint32_t blockedFor, RouteState& s,
                     std::vector<Hop>& out) {
    *steps += stepsPerCall;
    return inner(cur, dst, in, blockedFor, s, out);
  };
  f.work = [steps] { return *steps; };
  return f;
}

TEST(Routing, StopsWhenEvaluationStepsWouldExceedTheBudget) {
  const Graph g = buildTorus({16, 16});
  RouteFunctions f = dimensionOrder(g, true);
  f.translationInvariant = false;
  Limits limits;
  limits.maxEvalSteps = 1'000'000;  // one source costs 255 routes x 8 hops x 1,000
  const RoutingStats s = routingHops(g, costly(f, 1000), limits);
  EXPECT_EQ(s.status, AnalysisStatus::kTooLarge);
  EXPECT_NE(s.message.find("tracing every route would take about 5.2e+08 evaluation steps"),
            std::string::npos)
      << s.message;
  EXPECT_NE(s.message.find("measured over 1 of 256 sources"), std::string::npos) << s.message;
  limits.maxEvalSteps = 600'000'000;
  const RoutingStats ok = routingHops(g, costly(f, 1000), limits);
  ASSERT_EQ(ok.status, AnalysisStatus::kOk) << ok.message;
  EXPECT_EQ(ok.maxHops, 16u);
}

}  // namespace
}  // namespace ndl::elab
