// The compact port table (compiler/codegen/PortTable.cpp, decoded by the runtime's
// port_table.h) holds exactly the plain table's rows, and is small for regular networks.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "compiler/codegen/PortTable.h"
#include "compiler/elaborate/TopologyBuilder.h"
#include "ndl/runtime/sim/port_table.h"
#include "tests/elaborate/TestGraphs.h"

namespace ndl::codegen {
namespace {

using Row = std::array<int32_t, NDL_PORT_FIELDS>;

// The plain table as generated simulators carried it before: per node its output channels,
// then an input-only port per unidirectional channel ending there, in channel order.
std::vector<std::vector<Row>> plainTable(const elab::Graph& g) {
  std::vector<std::vector<Row>> ports(g.nodeCount);
  for (elab::NodeId n = 0; n < g.nodeCount; ++n) {
    for (elab::ChannelId c = g.outBegin(n); c < g.outEnd(n); ++c) {
      const elab::Channel& ch = g.channels[c];
      const bool bi = ch.reverse != elab::kNoChannel;
      ports[n].push_back({static_cast<int32_t>(ch.dst),
                          bi ? static_cast<int32_t>(ch.reverse - g.outBegin(ch.dst)) : -1,
                          bi ? 0 : 1, ch.dim, ch.dir, (ch.flags & elab::kWrap) ? 1 : 0});
    }
  }
  for (elab::NodeId n = 0; n < g.nodeCount; ++n) {
    for (elab::ChannelId c = g.outBegin(n); c < g.outEnd(n); ++c) {
      const elab::Channel& ch = g.channels[c];
      if (ch.reverse != elab::kNoChannel) continue;
      const auto local = static_cast<int32_t>(c - g.outBegin(n));
      ports[ch.dst].push_back({static_cast<int32_t>(n), local, 2, ch.dim, 0, 0});
      ports[n][local][1] = static_cast<int32_t>(ports[ch.dst].size() - 1);
    }
  }
  return ports;
}

std::vector<std::vector<Row>> decode(const elab::Graph& g, const PortTable& t) {
  std::vector<std::vector<Row>> ports(g.nodeCount);
  rt::PortTableView view{t.signatureStart.data(), t.signatureRows.data(), t.nodeRuns.data(),
                         static_cast<int64_t>(t.nodeRuns.size() / 2)};
  rt::forEachPort(view, [&](int32_t node, int32_t local, const int32_t* f) {
    EXPECT_EQ(static_cast<size_t>(local), ports[node].size());
    Row r;
    for (int i = 0; i < NDL_PORT_FIELDS; ++i) r[i] = f[i];
    ports[node].push_back(r);
  });
  return ports;
}

// Encodes, decodes, compares; returns the table for size checks.
PortTable roundTrip(const elab::Graph& g) {
  PortTable t = encodePortTable(g);
  const auto plain = plainTable(g);
  EXPECT_EQ(decode(g, t), plain);
  int64_t ports = 0;
  int64_t nodes = 0;
  for (const auto& p : plain) ports += static_cast<int64_t>(p.size());
  for (size_t r = 1; r < t.nodeRuns.size(); r += 2) nodes += t.nodeRuns[r];
  EXPECT_EQ(t.portCount, ports);
  EXPECT_EQ(nodes, g.nodeCount);
  return t;
}

TEST(PortTable, TorusIsAFewSignaturesAndThreeRunsPerRow) {
  const PortTable t = roundTrip(elab::testing::buildTorus({16, 8}));
  EXPECT_TRUE(t.wrap);
  // Interior nodes, the two ends of a row, each once more for the first and last rows.
  EXPECT_EQ(t.signatureStart.size() - 1, 9u);
  EXPECT_EQ(t.nodeRuns.size() / 2, 3u * 8);
}

TEST(PortTable, MillionNodeTorusStaysSmall) {
  const PortTable t = roundTrip(elab::testing::buildTorus({1024, 1024}));
  EXPECT_EQ(t.portCount, 4 * 1024 * 1024);
  EXPECT_LE(t.signatureRows.size() + t.nodeRuns.size() + t.signatureStart.size(), 8000u);
}

TEST(PortTable, MeshAndRing) {
  const PortTable mesh = roundTrip(elab::testing::buildMesh({5, 3, 4}));
  EXPECT_FALSE(mesh.wrap);
  // A node's peer ports depend on its neighbours' kinds too, but not on the mesh's size.
  const PortTable small = roundTrip(elab::testing::buildMesh({8, 8}));
  const PortTable large = roundTrip(elab::testing::buildMesh({300, 200}));
  EXPECT_EQ(small.signatureStart.size(), large.signatureStart.size());
  EXPECT_LE(large.nodeRuns.size() / 2, 5u * 200);
  const PortTable ring = roundTrip(elab::testing::buildRing(7));
  EXPECT_EQ(ring.nodeRuns.size() / 2, 3u);
}

TEST(PortTable, HypercubeIsASignaturePerNode) {
  // A node's ports follow its bits (signs and order): the table is as large as a plain one.
  const PortTable t = roundTrip(elab::testing::buildHypercube(10));
  EXPECT_EQ(t.signatureStart.size() - 1, 1024u);
}

TEST(PortTable, UnidirectionalAndIrregularNetworks) {
  // A unidirectional ring with a chord, a node without ports, and a bidirectional spur.
  elab::TopologyBuilder b;
  b.setNodes(6);
  for (int64_t n = 0; n < 4; ++n) ASSERT_EQ(b.addLink(n, (n + 1) % 4, 0, n == 3, false), "");
  ASSERT_EQ(b.addLink(0, 2, 1, false, false), "");
  ASSERT_EQ(b.addLink(2, 4, 2, false, true), "");
  const elab::Graph g = b.finish("test");
  const PortTable t = roundTrip(g);
  const auto plain = plainTable(g);
  EXPECT_TRUE(plain[5].empty());
  EXPECT_EQ(plain[2].size(), 4u);  // out x, out z, in y (from 0), in x (from 1)
}

}  // namespace
}  // namespace ndl::codegen
