#include "compiler/elaborate/Metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace ndl::elab {

DegreeStats degreeStats(const Graph& g) {
  if (g.nodeCount == 0) return {};
  DegreeStats s{UINT32_MAX, 0};
  for (NodeId n = 0; n < g.nodeCount; ++n) {
    s.min = std::min(s.min, g.outDegree(n));
    s.max = std::max(s.max, g.outDegree(n));
  }
  return s;
}

Bfs::Bfs(const Graph& graph) : graph_(graph), dist_(graph.nodeCount), queue_(graph.nodeCount) {}

Bfs::Result Bfs::run(NodeId source) {
  std::fill(dist_.begin(), dist_.end(), kUnreached);
  Result r;
  size_t head = 0, tail = 0;
  dist_[source] = 0;
  queue_[tail++] = source;
  const Channel* channels = graph_.channels.data();
  const ChannelId* start = graph_.outStart.data();
  while (head < tail) {
    const NodeId u = queue_[head++];
    const uint32_t du = dist_[u];
    r.distanceSum += du;
    r.eccentricity = du;  // BFS order: the last node dequeued is the farthest
    for (ChannelId c = start[u], e = start[u + 1]; c < e; ++c) {
      const NodeId v = channels[c].dst;
      if (dist_[v] == kUnreached) {
        dist_[v] = du + 1;
        queue_[tail++] = v;
      }
    }
  }
  r.reached = static_cast<NodeId>(tail);
  return r;
}

namespace {

// A pair with no path, found after a BFS from `source` reached too few nodes.
DistanceStats disconnected(const Bfs& bfs, NodeId source, std::string method) {
  DistanceStats s;
  s.status = AnalysisStatus::kDisconnected;
  s.method = std::move(method);
  s.from = source;
  const auto& d = bfs.dist();
  s.to = static_cast<NodeId>(std::find(d.begin(), d.end(), Bfs::kUnreached) - d.begin());
  s.message = fmt::format("node {} cannot reach node {}", s.from, s.to);
  return s;
}

DistanceStats bySymmetry(const Graph& g) {
  const NodeId n = g.nodeCount;
  Bfs bfs(g);
  uint64_t sum = 0;
  uint32_t diameter = 0;
  const std::string method = fmt::format("symmetry: {} BFS", g.representatives.size());
  for (NodeId r : g.representatives) {
    const Bfs::Result res = bfs.run(r);
    if (res.reached != n) return disconnected(bfs, r, method);
    sum += res.distanceSum;
    diameter = std::max(diameter, res.eccentricity);
  }
  DistanceStats s;
  s.diameter = diameter;
  s.avgDistance = *Ratio::make128(sum, static_cast<UInt128>(g.representatives.size()) * (n - 1));
  s.method = method;
  s.estimatedWork = g.representatives.size() * (g.channels.size() + n);
  return s;
}

// Exact all-pairs distances, 64 sources at a time: bit i of a node's masks
// stands for source base+i, so one sweep over the channels advances 64
// BFS frontiers by one level.
DistanceStats allPairs(const Graph& g, const Limits& limits) {
  const NodeId n = g.nodeCount;
  const uint64_t passes = (n + 63) / 64;
  // One BFS bounds the number of levels a pass needs; it also finds the
  // common failure (a node unreachable from 0) before the expensive part.
  Bfs bfs(g);
  const Bfs::Result first = bfs.run(0);
  if (first.reached != n) return disconnected(bfs, 0, "all-pairs BFS");
  const uint64_t work = passes * (first.eccentricity + 2ULL) * (g.channels.size() + n);

  DistanceStats s;
  s.estimatedWork = work;
  if (n > limits.maxAllPairsNodes || work > limits.maxBfsWork) {
    s.status = AnalysisStatus::kTooLarge;
    s.method = "none";
    s.message = fmt::format(
        "network of {} nodes is too large for exact all-pairs distances without declared "
        "symmetry; estimated {} operations (limit {} nodes, {} operations)",
        n, work, limits.maxAllPairsNodes, limits.maxBfsWork);
    return s;
  }
  s.method =
      fmt::format("all-pairs BFS ({} pass{} of 64 sources)", passes, passes == 1 ? "" : "es");

  std::vector<uint64_t> frontier(n), visited(n), next(n);
  const Channel* channels = g.channels.data();
  const ChannelId* start = g.outStart.data();
  UInt128 sum = 0;
  uint32_t diameter = 0;
  for (uint64_t pass = 0; pass < passes; ++pass) {
    const NodeId base = static_cast<NodeId>(pass * 64);
    const uint32_t count = std::min<uint32_t>(64, n - base);
    std::fill(frontier.begin(), frontier.end(), 0);
    std::fill(visited.begin(), visited.end(), 0);
    for (uint32_t i = 0; i < count; ++i) frontier[base + i] = visited[base + i] = 1ULL << i;
    for (uint32_t level = 1;; ++level) {
      std::fill(next.begin(), next.end(), 0);
      for (NodeId u = 0; u < n; ++u) {
        const uint64_t f = frontier[u];
        if (f == 0) continue;
        for (ChannelId c = start[u], e = start[u + 1]; c < e; ++c) next[channels[c].dst] |= f;
      }
      uint64_t fresh = 0;
      for (NodeId v = 0; v < n; ++v) {
        const uint64_t nw = next[v] & ~visited[v];
        frontier[v] = nw;
        visited[v] |= nw;
        fresh += std::popcount(nw);
      }
      if (fresh == 0) break;
      sum += static_cast<UInt128>(level) * fresh;
      diameter = std::max(diameter, level);
    }
    const uint64_t all = count == 64 ? ~0ULL : (1ULL << count) - 1;
    for (NodeId v = 0; v < n; ++v) {
      if (visited[v] == all) continue;
      s.status = AnalysisStatus::kDisconnected;
      s.from = base + std::countr_zero(~visited[v] & all);
      s.to = v;
      s.message = fmt::format("node {} cannot reach node {}", s.from, s.to);
      return s;
    }
  }
  s.diameter = diameter;
  s.avgDistance = *Ratio::make128(sum, static_cast<UInt128>(n) * (n - 1));
  return s;
}

// With switches: distances between the routers terminals attach to, one BFS from each.
DistanceStats betweenTerminals(const Graph& g, const Limits& limits) {
  const NodeId n = g.nodeCount;
  std::vector<NodeId> terminals;
  for (NodeId v = 0; v < n; ++v)
    if (g.terminal(v)) terminals.push_back(v);
  DistanceStats s;
  s.method = fmt::format("BFS from each of {} routers with endpoints", terminals.size());
  s.estimatedWork = terminals.size() * (g.channels.size() + n);
  if (terminals.size() > limits.maxAllPairsNodes || s.estimatedWork > limits.maxBfsWork) {
    s.status = AnalysisStatus::kTooLarge;
    s.message = fmt::format(
        "network of {} routers with endpoints is too large for exact distances between them; "
        "estimated {} operations (limit {})",
        terminals.size(), s.estimatedWork, limits.maxBfsWork);
    return s;
  }
  Bfs bfs(g);
  UInt128 sum = 0;
  uint32_t diameter = 0;
  for (NodeId from : terminals) {
    const Bfs::Result res = bfs.run(from);
    if (res.reached != n) return disconnected(bfs, from, s.method);
    for (NodeId to : terminals) {
      sum += bfs.dist()[to];
      diameter = std::max(diameter, bfs.dist()[to]);
    }
  }
  s.diameter = diameter;
  const uint64_t t = terminals.size();
  if (t > 1) s.avgDistance = *Ratio::make128(sum, static_cast<UInt128>(t) * (t - 1));
  return s;
}

bool validRadices(std::span<const int64_t> radices, UInt128& nodes) {
  nodes = 1;
  for (int64_t k : radices) {
    if (k < 1) return false;
    nodes *= static_cast<UInt128>(k);
    if (nodes > UINT32_MAX) return false;
  }
  return !radices.empty() && nodes >= 2;
}

}  // namespace

DistanceStats graphDistances(const Graph& g, const Limits& limits) {
  if (g.nodeCount == 0) {
    DistanceStats s;
    s.status = AnalysisStatus::kInvalid;
    s.message = "the network has no nodes";
    return s;
  }
  if (g.nodeCount == 1) {
    DistanceStats s;
    s.method = "single node";
    return s;
  }
  if (g.hasSwitches()) return betweenTerminals(g, limits);
  const bool repsValid =
      !g.representatives.empty() && std::all_of(g.representatives.begin(), g.representatives.end(),
                                                [&](NodeId r) { return r < g.nodeCount; });
  if (limits.useSymmetry && repsValid) return bySymmetry(g);
  return allPairs(g, limits);
}

std::optional<ClosedForm> torusClosedForm(std::span<const int64_t> radices) {
  UInt128 n;
  if (!validRadices(radices, n)) return std::nullopt;
  ClosedForm f;
  UInt128 fromOne = 0;
  for (int64_t k : radices) {
    const auto uk = static_cast<UInt128>(k);
    f.diameter += static_cast<uint64_t>(k / 2);
    fromOne += (n / uk) * (uk * uk / 4);
  }
  const auto avg = Ratio::make128(fromOne, n - 1);
  if (!avg) return std::nullopt;
  f.avgDistance = *avg;
  return f;
}

std::optional<ClosedForm> meshClosedForm(std::span<const int64_t> radices) {
  UInt128 n;
  if (!validRadices(radices, n)) return std::nullopt;
  ClosedForm f;
  UInt128 total = 0;
  for (int64_t k : radices) {
    const auto uk = static_cast<UInt128>(k);
    f.diameter += static_cast<uint64_t>(k - 1);
    // (k^3 - k)/3 is the sum of |i - j| over ordered pairs on a line of k.
    total += (n / uk) * (n / uk) * ((uk * uk * uk - uk) / 3);
  }
  const auto avg = Ratio::make128(total, n * (n - 1));
  if (!avg) return std::nullopt;
  f.avgDistance = *avg;
  return f;
}

std::optional<ClosedForm> hypercubeClosedForm(unsigned n) {
  if (n < 1 || n > 32) return std::nullopt;
  ClosedForm f;
  f.diameter = n;
  const UInt128 size = static_cast<UInt128>(1) << n;
  const auto avg = Ratio::make128(n * (size / 2), size - 1);
  if (!avg) return std::nullopt;
  f.avgDistance = *avg;
  return f;
}

}  // namespace ndl::elab
