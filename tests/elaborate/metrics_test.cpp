// Metrics against theory: degrees, link counts, diameters and average
// distances of the regular topologies equal their closed forms exactly,
// by symmetry (one BFS) and by exact all-pairs BFS.
#include "compiler/elaborate/Metrics.h"

#include <gtest/gtest.h>

#include "tests/elaborate/TestGraphs.h"

namespace ndl::elab {
namespace {

using testing::buildHypercube;
using testing::buildMesh;
using testing::buildRing;
using testing::buildTorus;

Limits exact() {
  Limits l;
  l.useSymmetry = false;
  return l;
}

void expectMatches(const Graph& g, const std::optional<ClosedForm>& form, const Limits& limits) {
  ASSERT_TRUE(form);
  const DistanceStats s = graphDistances(g, limits);
  ASSERT_EQ(s.status, AnalysisStatus::kOk) << g.name << ": " << s.message;
  EXPECT_EQ(s.diameter, form->diameter) << g.name;
  EXPECT_EQ(s.avgDistance, form->avgDistance)
      << g.name << " " << s.avgDistance.num << "/" << s.avgDistance.den << " vs "
      << form->avgDistance.num << "/" << form->avgDistance.den;
}

TEST(Metrics, Torus64x64) {
  const Graph g = buildTorus({64, 64});
  EXPECT_EQ(degreeStats(g).min, 4u);
  EXPECT_EQ(degreeStats(g).max, 4u);
  EXPECT_EQ(g.linkCount(), 2u * 64 * 64);  // two links per node
  const DistanceStats s = graphDistances(g);
  EXPECT_EQ(s.diameter, 64u);
  EXPECT_EQ(s.method, "symmetry: 1 BFS");
  const std::vector<int64_t> k{64, 64};
  EXPECT_EQ(s.avgDistance, torusClosedForm(k)->avgDistance);
}

TEST(Metrics, Torus16x16x16) {
  const Graph g = buildTorus({16, 16, 16});
  EXPECT_EQ(degreeStats(g).min, 6u);
  EXPECT_EQ(degreeStats(g).max, 6u);
  const std::vector<int64_t> k{16, 16, 16};
  expectMatches(g, torusClosedForm(k), {});
  EXPECT_EQ(graphDistances(g).diameter, 24u);
}

TEST(Metrics, Hypercube12) {
  const Graph g = buildHypercube(12);
  EXPECT_EQ(degreeStats(g).min, 12u);
  EXPECT_EQ(degreeStats(g).max, 12u);
  EXPECT_EQ(g.linkCount(), 12u * 2048);  // n 2^(n-1)
  EXPECT_EQ(graphDistances(g).diameter, 12u);
  expectMatches(g, hypercubeClosedForm(12), {});
}

TEST(Metrics, Mesh8x8) {
  const Graph g = buildMesh({8, 8});
  EXPECT_EQ(degreeStats(g).min, 2u);  // corners
  EXPECT_EQ(degreeStats(g).max, 4u);
  EXPECT_EQ(g.linkCount(), 2u * 8 * 7);
  const DistanceStats s = graphDistances(g);
  EXPECT_EQ(s.diameter, 14u);
  EXPECT_EQ(s.method, "all-pairs BFS (1 pass of 64 sources)");
  const std::vector<int64_t> k{8, 8};
  EXPECT_EQ(s.avgDistance, meshClosedForm(k)->avgDistance);
}

TEST(Metrics, ClosedFormsOfSmallCasesByHand) {
  // Ring of 4: distances 1, 2, 1 from every node.
  const std::vector<int64_t> ring4{4};
  EXPECT_EQ(torusClosedForm(ring4)->avgDistance, (Ratio{4, 3}));
  EXPECT_EQ(torusClosedForm(ring4)->diameter, 2u);
  // Line of 3: ordered pairs at distances 1,1,1,1,2,2.
  const std::vector<int64_t> line3{3};
  EXPECT_EQ(meshClosedForm(line3)->avgDistance, (Ratio{4, 3}));
  // 3-cube: 3 nodes at 1, 3 at 2, 1 at 3 -> 12/7.
  EXPECT_EQ(hypercubeClosedForm(3)->avgDistance, (Ratio{12, 7}));
}

TEST(Metrics, AllPairsEqualsClosedForms) {
  for (auto k : std::vector<std::vector<int64_t>>{
           {3}, {4}, {7}, {8}, {2, 3}, {5, 4}, {3, 3, 3}, {6, 5}, {10, 10}, {2, 2, 2, 2}}) {
    expectMatches(buildTorus(k), torusClosedForm(k), exact());
    expectMatches(buildMesh(k), meshClosedForm(k), exact());
  }
  for (unsigned n = 1; n <= 7; ++n)
    expectMatches(buildHypercube(n), hypercubeClosedForm(n), exact());
}

TEST(Metrics, SymmetryEqualsAllPairs) {
  for (auto k : std::vector<std::vector<int64_t>>{{9}, {5, 4}, {4, 4, 4}, {12, 10}}) {
    const Graph g = buildTorus(k);
    const DistanceStats sym = graphDistances(g);
    const DistanceStats all = graphDistances(g, exact());
    EXPECT_NE(sym.method, all.method);
    EXPECT_EQ(sym.diameter, all.diameter);
    EXPECT_EQ(sym.avgDistance, all.avgDistance);
  }
}

TEST(Metrics, LargeTorusBySymmetry) {
  const Graph g = buildTorus({1024, 1024});
  const DistanceStats s = graphDistances(g);
  ASSERT_EQ(s.status, AnalysisStatus::kOk);
  EXPECT_EQ(s.method, "symmetry: 1 BFS");
  EXPECT_EQ(s.diameter, 1024u);
  const std::vector<int64_t> k{1024, 1024};
  EXPECT_EQ(s.avgDistance, torusClosedForm(k)->avgDistance);
}

TEST(Metrics, OneWayRing) {
  // Distances 1 .. k-1 from every node: average k/2.
  Graph g;
  const NodeId k = 9;
  g.nodeCount = k;
  g.dimNames = {"x"};
  for (NodeId u = 0; u < k; ++u) {
    g.outStart.push_back(u);
    g.channels.push_back(Channel{u, (u + 1) % k, 0, +1, 0, kNoChannel});
  }
  g.outStart.push_back(k);
  const DistanceStats s = graphDistances(g);
  EXPECT_EQ(s.diameter, k - 1);
  EXPECT_EQ(s.avgDistance, Ratio::make(k, 2));
  EXPECT_EQ(g.linkCount(), k);
}

TEST(Metrics, DisconnectedNetwork) {
  // Two one-way triangles, 0 -> 1 -> 2 -> 0 and 3 -> 4 -> 5 -> 3.
  Graph g;
  g.nodeCount = 6;
  g.dimNames = {"x"};
  for (NodeId u = 0; u < 6; ++u) {
    g.outStart.push_back(u);
    g.channels.push_back(Channel{u, u / 3 * 3 + (u + 1) % 3, 0, +1, 0, kNoChannel});
  }
  g.outStart.push_back(6);
  const DistanceStats s = graphDistances(g);
  EXPECT_EQ(s.status, AnalysisStatus::kDisconnected);
  EXPECT_EQ(s.from, 0u);
  EXPECT_EQ(s.to, 3u);
  EXPECT_EQ(s.message, "node 0 cannot reach node 3");
}

TEST(Metrics, RefusesAllPairsBeyondLimits) {
  Graph big = buildTorus({300, 300});
  big.representatives.clear();
  const DistanceStats s = graphDistances(big);
  EXPECT_EQ(s.status, AnalysisStatus::kTooLarge);
  EXPECT_NE(s.message.find("too large for exact all-pairs"), std::string::npos) << s.message;

  Limits tight;
  tight.maxBfsWork = 1000;
  Graph small = buildTorus({32, 32});
  small.representatives.clear();
  const DistanceStats t = graphDistances(small, tight);
  EXPECT_EQ(t.status, AnalysisStatus::kTooLarge);
  EXPECT_GT(t.estimatedWork, 1000u);
  EXPECT_NE(t.message.find("estimated"), std::string::npos);
}

TEST(Metrics, ClosedFormsRejectNonsense) {
  const std::vector<int64_t> none, zero{0, 4}, one{1};
  EXPECT_FALSE(torusClosedForm(none));
  EXPECT_FALSE(meshClosedForm(zero));
  EXPECT_FALSE(torusClosedForm(one));
  EXPECT_FALSE(hypercubeClosedForm(0));
}

}  // namespace
}  // namespace ndl::elab
