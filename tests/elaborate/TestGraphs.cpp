#include "tests/elaborate/TestGraphs.h"

#include <string>

namespace ndl::elab::testing {
namespace {

std::string dimName(size_t d) {
  static const char* const kFirst[] = {"x", "y", "z"};
  return d < 3 ? kFirst[d] : "d" + std::to_string(d);
}

// Grid with one bidirectional link per neighbour pair along each dimension
// (and, with wrap, around it). Radix-1 dimensions have no links; a radix-2
// torus dimension has two parallel links, the second one wrapping.
Graph buildGrid(const std::vector<int64_t>& radices, bool wrap, const char* kind) {
  Graph g;
  uint64_t n = 1;
  for (int64_t k : radices) n *= static_cast<uint64_t>(k);
  g.nodeCount = static_cast<NodeId>(n);
  g.radices = radices;
  g.name = kind;
  for (size_t d = 0; d < radices.size(); ++d) {
    g.dimNames.push_back(dimName(d));
    g.name += " " + std::to_string(radices[d]);
  }
  g.outStart.assign(n + 1, 0);
  std::vector<uint64_t> stride(radices.size(), 1);
  for (size_t d = 1; d < radices.size(); ++d) stride[d] = stride[d - 1] * radices[d - 1];
  // Per node and dimension the same pattern: count first, then fill.
  auto forEachPort = [&](NodeId u, auto&& f) {
    for (size_t d = 0; d < radices.size(); ++d) {
      const int64_t k = radices[d];
      const int64_t c = static_cast<int64_t>(u / stride[d]) % k;
      if (k == 1) continue;
      for (int8_t dir : {int8_t{+1}, int8_t{-1}}) {
        const int64_t to = c + dir;
        const bool wraps = to < 0 || to >= k;
        if (wraps && !wrap) continue;
        const int64_t c2 = (to + k) % k;
        f(static_cast<uint16_t>(d), dir,
          static_cast<NodeId>(u + (c2 - c) * static_cast<int64_t>(stride[d])), wraps);
      }
    }
  };
  for (NodeId u = 0; u < n; ++u) {
    uint32_t deg = 0;
    forEachPort(u, [&](uint16_t, int8_t, NodeId, bool) { ++deg; });
    g.outStart[u + 1] = g.outStart[u] + deg;
  }
  g.channels.resize(g.outStart[n]);
  for (NodeId u = 0; u < n; ++u) {
    ChannelId c = g.outStart[u];
    forEachPort(u, [&](uint16_t d, int8_t dir, NodeId v, bool wraps) {
      g.channels[c++] = Channel{u, v, d, dir, static_cast<uint8_t>(wraps ? kWrap : 0), kNoChannel};
    });
  }
  for (ChannelId c = 0; c < g.channels.size(); ++c) {
    Channel& ch = g.channels[c];
    ch.reverse = g.findPort(ch.dst, ch.dim, static_cast<int8_t>(-ch.dir));
  }
  return g;
}

}  // namespace

Graph buildTorus(const std::vector<int64_t>& radices) {
  Graph g = buildGrid(radices, true, radices.size() == 1 ? "Ring" : "Torus");
  g.representatives = {0};  // vertex-transitive: the translations
  return g;
}

Graph buildMesh(const std::vector<int64_t>& radices) {
  // Mesh orbits differ in size (corners vs inner nodes): no representatives.
  return buildGrid(radices, false, "Mesh");
}

Graph buildRing(int64_t k) { return buildTorus({k}); }

Graph buildHypercube(unsigned n) {
  Graph g = buildGrid(std::vector<int64_t>(n, 2), false, "Hypercube");
  g.name = "Hypercube " + std::to_string(n);
  g.representatives = {0};
  return g;
}

RouteFunctions dimensionOrder(const Graph& graph, bool torus) {
  RouteFunctions f;
  f.translationInvariant = torus;
  const std::vector<int64_t> radices = graph.radices;
  f.route = [&graph, radices, torus](NodeId cur, NodeId dst, RouteState&) -> ChannelId {
    int64_t stride = 1;
    for (size_t d = 0; d < radices.size(); ++d) {
      const int64_t k = radices[d];
      const int64_t a = cur / stride % k, b = dst / stride % k;
      stride *= k;
      if (a == b) continue;
      int8_t dir;
      if (torus) {
        const int64_t forward = (b - a + k) % k;
        dir = forward <= k - forward ? +1 : -1;
      } else {
        dir = b > a ? +1 : -1;
      }
      return graph.findPort(cur, static_cast<uint16_t>(d), dir);
    }
    return kNoChannel;
  };
  return f;
}

RouteFunctions ecube(const Graph& graph) {
  RouteFunctions f;
  f.translationInvariant = true;
  f.route = [&graph](NodeId cur, NodeId dst, RouteState&) -> ChannelId {
    const uint32_t diff = cur ^ dst;
    const int d = __builtin_ctz(diff);
    return graph.findPort(cur, static_cast<uint16_t>(d), (dst >> d) & 1 ? +1 : -1);
  };
  return f;
}

}  // namespace ndl::elab::testing
