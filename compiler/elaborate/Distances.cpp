#include "compiler/elaborate/Distances.h"

#include <fmt/format.h>

#include "compiler/elaborate/Metrics.h"

namespace ndl::elab {

std::string DistanceTable::limitProblem(const Graph& g) {
  if (g.nodeCount > kMaxNodes)
    return fmt::format("(graph-distance a b) keeps the distance of every pair of nodes: at most {} "
                       "nodes, this network has {}",
                       kMaxNodes, g.nodeCount);
  return {};
}

DistanceTable::DistanceTable(const Graph& g) : n_(g.nodeCount) {
  problem_ = limitProblem(g);
  if (!problem_.empty()) return;
  rows_.assign(n_ * n_, kUnreached);
  Bfs bfs(g);
  for (NodeId from = 0; from < g.nodeCount; ++from) {
    const Bfs::Result r = bfs.run(from);
    if (r.eccentricity > kMaxDiameter) {
      problem_ = fmt::format("(graph-distance a b) counts up to {} hops; node {} is {} hops from "
                             "another",
                             kMaxDiameter, from, r.eccentricity);
      rows_.clear();
      return;
    }
    const std::vector<uint32_t>& d = bfs.dist();
    for (NodeId to = 0; to < g.nodeCount; ++to)
      if (d[to] != Bfs::kUnreached)
        rows_[static_cast<size_t>(to) * n_ + from] = static_cast<uint8_t>(d[to]);
  }
}

}  // namespace ndl::elab
