// GraphCheck: each structural problem is found, named with its node, and a
// well-formed network has none.
#include <gtest/gtest.h>

#include <utility>

#include "compiler/elaborate/GraphCheck.h"
#include "tests/elaborate/TestGraphs.h"

namespace ndl::elab {
namespace {

// A custom network from a list of links (a, b): two channels each when
// bidirectional, one from a to b otherwise; all in one dimension "l".
Graph fromLinks(NodeId n, const std::vector<std::pair<NodeId, NodeId>>& links, bool bidirectional) {
  struct Out {
    NodeId to;
    int8_t dir;
    size_t link;
  };
  std::vector<std::vector<Out>> out(n);
  for (size_t i = 0; i < links.size(); ++i) {
    out[links[i].first].push_back({links[i].second, +1, i});
    if (bidirectional) out[links[i].second].push_back({links[i].first, -1, i});
  }
  Graph g;
  g.nodeCount = n;
  g.dimNames = {"l"};
  g.outStart.push_back(0);
  std::vector<ChannelId> firstOfLink(links.size(), kNoChannel);
  for (NodeId u = 0; u < n; ++u) {
    for (const Out& o : out[u]) {
      const auto c = static_cast<ChannelId>(g.channels.size());
      g.channels.push_back(Channel{u, o.to, 0, o.dir, 0, kNoChannel});
      if (firstOfLink[o.link] == kNoChannel) {
        firstOfLink[o.link] = c;
      } else {
        g.channels[c].reverse = firstOfLink[o.link];
        g.channels[firstOfLink[o.link]].reverse = c;
      }
    }
    g.outStart.push_back(static_cast<ChannelId>(g.channels.size()));
  }
  return g;
}

std::vector<GraphProblemKind> kinds(const std::vector<GraphProblem>& ps) {
  std::vector<GraphProblemKind> k;
  for (const auto& p : ps) k.push_back(p.kind);
  return k;
}

TEST(GraphCheck, RegularTopologiesAreClean) {
  EXPECT_TRUE(checkGraph(testing::buildTorus({8, 8})).empty());
  EXPECT_TRUE(checkGraph(testing::buildTorus({2, 3})).empty());
  EXPECT_TRUE(checkGraph(testing::buildMesh({4, 3, 2})).empty());
  EXPECT_TRUE(checkGraph(testing::buildHypercube(5)).empty());
  EXPECT_TRUE(checkGraph(testing::buildRing(5)).empty());
}

TEST(GraphCheck, SelfLink) {
  Graph g = fromLinks(3, {{0, 1}, {1, 2}, {2, 2}}, true);
  auto ps = checkGraph(g);
  ASSERT_EQ(ps.size(), 1u) << ps[0].message;
  EXPECT_EQ(ps[0].kind, GraphProblemKind::kSelfLink);
  EXPECT_EQ(ps[0].node, 2u);
  EXPECT_NE(ps[0].message.find("node 2 is linked to itself"), std::string::npos);
}

TEST(GraphCheck, IsolatedNode) {
  Graph g = fromLinks(4, {{0, 1}, {1, 2}}, true);
  auto ps = checkGraph(g);
  ASSERT_EQ(kinds(ps), std::vector{GraphProblemKind::kIsolatedNode});
  EXPECT_EQ(ps[0].node, 3u);
  EXPECT_EQ(ps[0].message, "node 3 has no links");
}

TEST(GraphCheck, TwoComponentsAreDisconnected) {
  Graph g = fromLinks(5, {{0, 1}, {1, 2}, {3, 4}}, true);
  auto ps = checkGraph(g);
  ASSERT_EQ(kinds(ps), std::vector{GraphProblemKind::kDisconnected});
  EXPECT_EQ(ps[0].node, 3u);
  EXPECT_NE(ps[0].message.find("node 3 cannot be reached from node 0"), std::string::npos);
}

TEST(GraphCheck, OneWayLinksNeedStrongConnectivity) {
  // 0 -> 1 -> 2 -> 0 is strongly connected; 2 -> 3 leaves 3 unable to return.
  EXPECT_TRUE(checkGraph(fromLinks(3, {{0, 1}, {1, 2}, {2, 0}}, false)).empty());
  auto ps = checkGraph(fromLinks(4, {{0, 1}, {1, 2}, {2, 0}, {2, 3}}, false));
  ASSERT_EQ(kinds(ps), std::vector{GraphProblemKind::kDisconnected});
  EXPECT_EQ(ps[0].node, 3u);
  EXPECT_NE(ps[0].message.find("node 3 cannot reach node 0"), std::string::npos);
}

TEST(GraphCheck, TooManyPorts) {
  std::vector<std::pair<NodeId, NodeId>> star;
  for (NodeId leaf = 1; leaf <= 65; ++leaf) star.push_back({0, leaf});
  auto ps = checkGraph(fromLinks(66, star, true));
  ASSERT_EQ(kinds(ps), std::vector{GraphProblemKind::kTooManyPorts});
  EXPECT_EQ(ps[0].node, 0u);
  EXPECT_NE(ps[0].message.find("65 ports"), std::string::npos);
  star.pop_back();  // 64 ports is the limit, not over it
  EXPECT_TRUE(checkGraph(fromLinks(65, star, true)).empty());
}

TEST(GraphCheck, ProblemsOfOneKindAreCapped) {
  // Nodes 2..101 are isolated: 100 problems, 3 kept, the last says the rest.
  Graph g = fromLinks(102, {{0, 1}}, true);
  auto ps = checkGraph(g, 3);
  ASSERT_EQ(ps.size(), 3u);
  EXPECT_EQ(ps[2].node, 4u);
  EXPECT_NE(ps[2].message.find("and 97 more"), std::string::npos);
}

TEST(GraphCheck, IsolatedNodeZeroDoesNotHideConnectivity) {
  auto ps = checkGraph(fromLinks(5, {{1, 2}, {3, 4}}, true));
  ASSERT_EQ(kinds(ps),
            (std::vector{GraphProblemKind::kIsolatedNode, GraphProblemKind::kDisconnected}));
  EXPECT_EQ(ps[1].node, 3u);
  EXPECT_NE(ps[1].message.find("from node 1"), std::string::npos);
}

TEST(GraphCheck, MalformedGraphIsReportedAlone) {
  Graph g = testing::buildRing(4);
  g.channels[2].dst = 9;
  auto ps = checkGraph(g);
  ASSERT_EQ(kinds(ps), std::vector{GraphProblemKind::kMalformed});
  g = testing::buildRing(4);
  g.outStart.pop_back();
  EXPECT_EQ(kinds(checkGraph(g)), std::vector{GraphProblemKind::kMalformed});
}

}  // namespace
}  // namespace ndl::elab
