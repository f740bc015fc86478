// All-pairs hop distances for (graph-distance a b) in routing functions: one BFS
// per node, built the first time a routing asks, kept as one byte per
// ordered pair with the rows by destination (a router looks up its
// neighbours' distances to one destination: one row). The simulator builds
// the same table from its port table (runtime/entry/generated_entry.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/elaborate/Graph.h"

namespace ndl::elab {

class DistanceTable {
 public:
  // A table of every pair: 16,384 nodes make 256 MiB.
  static constexpr NodeId kMaxNodes = 16384;
  // Distances are bytes; 255 marks "unreachable".
  static constexpr uint32_t kMaxDiameter = 254;

  // Why the network cannot have a table (too many nodes, too long paths);
  // empty when it can.
  static std::string limitProblem(const Graph& g);

  explicit DistanceTable(const Graph& g);
  // Hops of a shortest path from `from` to `to`; the node count when `to`
  // cannot be reached.
  int64_t at(NodeId from, NodeId to) const {
    const uint8_t d = rows_[static_cast<size_t>(to) * n_ + from];
    return d == kUnreached ? static_cast<int64_t>(n_) : d;
  }
  bool ok() const { return problem_.empty(); }
  const std::string& problem() const { return problem_; }

 private:
  static constexpr uint8_t kUnreached = 255;
  size_t n_ = 0;
  std::vector<uint8_t> rows_;  // [to * n + from]
  std::string problem_;
};

}  // namespace ndl::elab
