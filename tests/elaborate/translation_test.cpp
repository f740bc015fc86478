// The check that lets the analyses trace a routing from the representatives only
// (compiler/elaborate/Translation.h): translation-invariant routings pass it on tori and
// hypercubes; routings that treat a node, a destination or a direction apart are refused, with
// the pair that shows it.

#include "compiler/elaborate/Translation.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/elaborate/TestGraphs.h"

namespace ndl::elab {
namespace {

using testing::buildHypercube;
using testing::buildTorus;
using testing::dimensionOrder;
using testing::ecube;

// f with the candidates of `other` wherever `apart` says so.
template <class Apart>
RouteFunctions patched(RouteFunctions f, const RouteFunctions& other, Apart apart) {
  f.candidates = [base = f.candidates, alt = other.candidates, apart](
                     NodeId cur, NodeId dst, Hop in, uint32_t wait, RouteState& s,
                     std::vector<Hop>& out) {
    return (apart(cur, dst) ? alt : base)(cur, dst, in, wait, s, out);
  };
  return f;
}

// Dimension order with the dimensions taken highest first (y before x on a 2-D torus).
RouteFunctions yFirst(const Graph& g) {
  RouteFunctions f = dimensionOrder(g, true);
  f.candidates = [&g](NodeId cur, NodeId dst, Hop, uint32_t, RouteState&, std::vector<Hop>& out) {
    const int64_t k = g.radices[0];
    const int64_t cx = cur % k, cy = cur / k, dx = dst % k, dy = dst / k;
    const uint16_t dim = cy != dy ? 1 : 0;
    const int64_t delta = ((dim ? dy - cy : dx - cx) % g.radices[dim] + g.radices[dim]) %
                          g.radices[dim];
    const int8_t dir = 2 * delta <= g.radices[dim] ? +1 : -1;
    const ChannelId c = g.findPort(cur, dim, dir);
    if (c != kNoChannel) out.push_back({c, 0});
    return CandidateStatus::kOk;
  };
  return f;
}

TEST(Translation, DimensionOrderMovesWithTheTranslationsOfATorus) {
  const Graph g = buildTorus({20, 20});
  const SymmetryVerdict v = symmetryVerdict(g, dimensionOrder(g, true), Limits{});
  EXPECT_TRUE(v.use) << v.why;
  EXPECT_TRUE(v.why.empty());
}

TEST(Translation, EcubeMovesWithTheTranslationsOfAHypercube) {
  const Graph g = buildHypercube(9);
  const SymmetryVerdict v = symmetryVerdict(g, ecube(g), Limits{});
  EXPECT_TRUE(v.use) << v.why;
}

TEST(Translation, ADestinationTreatedApartIsFoundFromEveryNode) {
  // 400 nodes, 100 of the 399 offsets compared per node: node 37 is every node's destination
  // at some offset, so whichever offsets are compared some node is compared toward it.
  const Graph g = buildTorus({20, 20});
  const RouteFunctions f =
      patched(dimensionOrder(g, true), yFirst(g), [](NodeId, NodeId dst) { return dst == 37; });
  const SymmetryVerdict v = symmetryVerdict(g, f, Limits{});
  EXPECT_FALSE(v.use);
  EXPECT_NE(v.why.find("toward node 37 are not the translates"), std::string::npos) << v.why;
}

TEST(Translation, ANodeTreatedApartIsFound) {
  const Graph g = buildTorus({20, 20});
  const RouteFunctions f =
      patched(dimensionOrder(g, true), yFirst(g), [](NodeId cur, NodeId) { return cur == 211; });
  const SymmetryVerdict v = symmetryVerdict(g, f, Limits{});
  EXPECT_FALSE(v.use);
  EXPECT_EQ(v.why.rfind("the routing's candidates at node 211 toward node ", 0), 0u) << v.why;
}

TEST(Translation, NotAskedWhenTheFormForbidsIt) {
  // A routing whose form already says it depends on where it runs (it reads the source, or
  // uses several classes) is traced everywhere without being compared.
  const Graph g = buildTorus({20, 20});
  RouteFunctions f = dimensionOrder(g, true);
  f.translationInvariant = false;
  const SymmetryVerdict v = symmetryVerdict(g, f, Limits{});
  EXPECT_FALSE(v.use);
  EXPECT_TRUE(v.why.empty());
}

TEST(Translation, TheComparisonsStayWithinTheirShareOfTheBudget) {
  // Under a hundredth of the budget (ndlc build) each node of a 20x20 torus is compared
  // toward one destination only: a pair treated apart may then pass, but the work stays
  // bounded (10 calls a pair: both sides, injected and by each of 4 channels).
  const Graph g = buildTorus({20, 20});
  RouteFunctions f = dimensionOrder(g, true);
  uint64_t calls = 0;
  f.candidates = [base = f.candidates, &calls](NodeId cur, NodeId dst, Hop in, uint32_t wait,
                                                RouteState& s, std::vector<Hop>& out) {
    ++calls;
    return base(cur, dst, in, wait, s, out);
  };
  Limits build;
  build.maxEvalSteps /= 100;
  EXPECT_TRUE(symmetryVerdict(g, f, build).use);
  EXPECT_LE(calls, build.maxEvalSteps / 750 + 10);
  EXPECT_GT(calls, 0u);
}

}  // namespace
}  // namespace ndl::elab
