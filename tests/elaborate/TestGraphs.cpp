#include "tests/elaborate/TestGraphs.h"

#include <optional>
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

namespace {

// Coordinates of a node along each dimension (node id = mixed radix).
struct Coords {
  std::vector<int64_t> radices;
  int64_t at(NodeId n, size_t d) const {
    for (size_t i = 0; i < d; ++i) n = static_cast<NodeId>(n / radices[i]);
    return n % radices[d];
  }
};

// The ways that are minimal along one dimension from a to b (a != b): one,
// or both half way round an even torus dimension (+ first).
std::vector<int8_t> minimalWays(int64_t a, int64_t b, int64_t k, bool torus) {
  if (!torus) return {static_cast<int8_t>(b > a ? +1 : -1)};
  const int64_t forward = (b - a + k) % k;
  if (forward * 2 == k) return {+1, -1};
  return {static_cast<int8_t>(forward * 2 < k ? +1 : -1)};
}

// Whether going `dir` from a to b crosses the wrap-around link (k-1 to 0
// going +, 0 to k-1 going -).
bool crossesWrap(int64_t a, int64_t b, int8_t dir) { return dir > 0 ? b < a : b > a; }

// The dimension-order hop (lowest differing dimension, the shorter way,
// ties to +) with its dateline class: inherited from the arrival hop while
// the packet stays in the dimension, else 1 when the rest of the way
// crosses the wrap. `low` is the class without a crossing.
std::optional<Hop> dorHop(const Graph& g, const Coords& xy, NodeId cur, NodeId dst, Hop in,
                          bool torus, bool dateline, uint8_t low) {
  for (size_t d = 0; d < xy.radices.size(); ++d) {
    const int64_t a = xy.at(cur, d), b = xy.at(dst, d);
    if (a == b) continue;
    const int8_t dir = minimalWays(a, b, xy.radices[d], torus)[0];
    const ChannelId c = g.findPort(cur, static_cast<uint16_t>(d), dir);
    uint8_t cls = low;
    if (dateline) {
      const bool stays = in.channel != kNoChannel && g.channels[in.channel].dim == d &&
                         g.channels[in.channel].dir == dir &&
                         (in.vcClass == low || in.vcClass == low + 1);
      cls = stays ? in.vcClass : static_cast<uint8_t>(low + (crossesWrap(a, b, dir) ? 1 : 0));
    }
    if (c == kNoChannel) return std::nullopt;
    return Hop{c, cls};
  }
  return std::nullopt;
}

RouteFunctions plain(uint32_t classes, bool translationInvariant) {
  RouteFunctions f;
  f.classes = classes;
  f.translationInvariant = translationInvariant;
  f.readsSource = false;
  f.waits = false;
  return f;
}

}  // namespace

RouteFunctions dimensionOrder(const Graph& graph, bool torus, bool dateline) {
  dateline = dateline && torus;
  RouteFunctions f = plain(dateline ? 2 : 1, torus && !dateline);
  const Coords xy{graph.radices};
  f.candidates = [&graph, xy, torus, dateline](NodeId cur, NodeId dst, Hop in, uint32_t,
                                              RouteState&, std::vector<Hop>& out) {
    if (auto h = dorHop(graph, xy, cur, dst, in, torus, dateline, 0)) out.push_back(*h);
    return CandidateStatus::kOk;
  };
  return f;
}

RouteFunctions ecube(const Graph& graph) {
  RouteFunctions f = plain(1, true);
  f.candidates = [&graph](NodeId cur, NodeId dst, Hop, uint32_t, RouteState&,
                          std::vector<Hop>& out) {
    const int d = __builtin_ctz(cur ^ dst);
    const ChannelId c = graph.findPort(cur, static_cast<uint16_t>(d), (dst >> d) & 1 ? +1 : -1);
    if (c != kNoChannel) out.push_back({c, 0});
    return CandidateStatus::kOk;
  };
  return f;
}

RouteFunctions minimalAdaptive(const Graph& graph, bool torus, Escape escape) {
  const bool dateline = escape == Escape::kDateline;
  RouteFunctions f = plain(escape == Escape::kNone ? 1 : dateline ? 3 : 2, torus && !dateline);
  const Coords xy{graph.radices};
  f.candidates = [&graph, xy, torus, escape, dateline](NodeId cur, NodeId dst, Hop in, uint32_t,
                                                        RouteState&, std::vector<Hop>& out) {
    for (size_t d = 0; d < xy.radices.size(); ++d) {
      const int64_t a = xy.at(cur, d), b = xy.at(dst, d);
      if (a == b) continue;
      for (int8_t dir : minimalWays(a, b, xy.radices[d], torus)) {
        const ChannelId c = graph.findPort(cur, static_cast<uint16_t>(d), dir);
        if (c != kNoChannel) out.push_back({c, 0});
      }
    }
    if (escape != Escape::kNone)
      if (auto h = dorHop(graph, xy, cur, dst, in, torus, dateline, 1)) out.push_back(*h);
    return CandidateStatus::kOk;
  };
  return f;
}

std::vector<bool> escapeClassesOf(Escape escape) {
  switch (escape) {
    case Escape::kNone: return {};
    case Escape::kDimensionOrder: return {false, true};
    case Escape::kDateline: return {false, true, true};
  }
  return {};
}

RouteFunctions westFirst(const Graph& mesh) {
  RouteFunctions f = plain(1, false);
  const Coords xy{mesh.radices};
  f.candidates = [&mesh, xy](NodeId cur, NodeId dst, Hop, uint32_t, RouteState&,
                             std::vector<Hop>& out) {
    auto add = [&](uint16_t dim, int8_t dir) {
      const ChannelId c = mesh.findPort(cur, dim, dir);
      if (c != kNoChannel) out.push_back({c, 0});
    };
    const int64_t ax = xy.at(cur, 0), bx = xy.at(dst, 0);
    if (bx < ax) {
      add(0, -1);  // west first, and only west while west remains
      return CandidateStatus::kOk;
    }
    if (bx > ax) add(0, +1);
    const int64_t ay = xy.at(cur, 1), by = xy.at(dst, 1);
    if (by != ay) add(1, by > ay ? +1 : -1);
    return CandidateStatus::kOk;
  };
  return f;
}

RouteFunctions singleChannel(std::function<ChannelId(NodeId, NodeId, RouteState&)> route,
                             bool translationInvariant) {
  RouteFunctions f = plain(1, translationInvariant);
  f.candidates = [route = std::move(route)](NodeId cur, NodeId dst, Hop, uint32_t,
                                            RouteState& st, std::vector<Hop>& out) {
    const ChannelId c = route(cur, dst, st);
    if (c != kNoChannel) out.push_back({c, 0});
    return CandidateStatus::kOk;
  };
  return f;
}

}  // namespace ndl::elab::testing
