// Metrics of an elaborated network for `ndlc info` (spec 3.2): degree,
// diameter and average distance, by BFS (one per representative when the
// topology declares its symmetry, else bit-parallel all-pairs), and the
// closed forms of the regular topologies that tests and `ndlc info` use to
// cross-check the BFS.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compiler/elaborate/Analysis.h"
#include "compiler/elaborate/Graph.h"

namespace ndl::elab {

struct DegreeStats {
  uint32_t min = 0;  // out-degree in channels
  uint32_t max = 0;
};
DegreeStats degreeStats(const Graph& graph);

// Breadth-first search from one node with buffers allocated once, so that
// repeated searches (one per representative, one per traced source) do not
// allocate per node.
class Bfs {
 public:
  static constexpr uint32_t kUnreached = UINT32_MAX;

  struct Result {
    uint32_t eccentricity = 0;  // largest distance to a reached node
    uint64_t distanceSum = 0;   // over reached nodes
    NodeId reached = 0;         // nodes reached, the source included
  };

  explicit Bfs(const Graph& graph);
  Result run(NodeId source);
  // Distances of the last run; kUnreached where no path exists.
  const std::vector<uint32_t>& dist() const { return dist_; }

 private:
  const Graph& graph_;
  std::vector<uint32_t> dist_;
  std::vector<NodeId> queue_;
};

struct DistanceStats {
  AnalysisStatus status = AnalysisStatus::kOk;
  uint32_t diameter = 0;
  Ratio avgDistance;           // over ordered pairs of distinct nodes
  std::string method;          // "symmetry: 1 BFS", "all-pairs BFS (2 passes of 64 sources)"
  std::string message;         // why status is not kOk
  uint64_t estimatedWork = 0;  // channel visits the method needed (or would need)
  NodeId from = 0, to = 0;     // kDisconnected: a pair with no path
};

// Diameter and average distance d(s,t) over ordered pairs s != t.
// With graph.representatives (each standing for an orbit of equal size):
// one BFS per representative; avg = mean over representatives of
// (sum of distances from it) / (N-1). Otherwise exact all-pairs by
// bit-parallel BFS (64 sources per pass) when the node count and estimated
// work fit `limits`, else kTooLarge without computing anything.
DistanceStats graphDistances(const Graph& graph, const Limits& limits = {});

// Closed forms, exact. nullopt when a term overflows 64 bits or the network
// has fewer than 2 nodes.
struct ClosedForm {
  uint64_t diameter = 0;
  Ratio avgDistance;  // over ordered pairs of distinct nodes
};
// Torus (and ring) with radices k_i: diameter sum floor(k_i/2); the distances
// from one node sum to sum_i (N/k_i) floor(k_i^2/4).
std::optional<ClosedForm> torusClosedForm(std::span<const int64_t> radices);
// Mesh: diameter sum (k_i - 1); all ordered pairs sum to
// sum_i (N/k_i)^2 (k_i^3 - k_i)/3.
std::optional<ClosedForm> meshClosedForm(std::span<const int64_t> radices);
// Hypercube of dimension n: diameter n, average n 2^(n-1) / (2^n - 1).
std::optional<ClosedForm> hypercubeClosedForm(unsigned n);

}  // namespace ndl::elab
