// Translations of a network whose node numbers are mixed-radix coordinates
// (tori, rings, hypercubes, RDTs), and the check that lets the analyses trace
// a routing from the graph's representatives only: its candidates at every
// node must be the translates of those at the node's representative.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/elaborate/Analysis.h"
#include "compiler/elaborate/Graph.h"
#include "compiler/elaborate/Routing.h"

namespace ndl::elab {

// Node ids as mixed-radix coordinates, dimension 0 fastest; translations add
// coordinates modulo the radices.
class MixedRadix {
 public:
  explicit MixedRadix(const std::vector<int64_t>& radices);
  NodeId neg(NodeId a) const;
  NodeId add(NodeId a, NodeId b) const;
  NodeId sub(NodeId a, NodeId b) const { return add(a, neg(b)); }

 private:
  std::vector<uint32_t> radices_;
};

// The translations t (node ids added as coordinates) that map the graph onto
// itself, every channel onto one of the same dimension and direction: every t
// when all nodes have the same channels (tori, hypercubes), else those found
// by comparing every node with its translates (RDTs), or nullopt when that
// would take more than 4e8 comparisons.
std::optional<std::vector<NodeId>> graphTranslations(const Graph& g, const MixedRadix& mr);
// Channel c moved by translation t (to the channel of the same dimension and
// direction between the translated ends), or kNoChannel.
ChannelId moveChannel(const Graph& g, const MixedRadix& mr, ChannelId c, NodeId t);

// Whether routes from graph.representatives may stand for all routes.
struct SymmetryVerdict {
  bool use = false;
  // Why not, when the routing's form allowed it (RouteFunctions::
  // translationInvariant) but the check refused: for the analyses' method.
  std::string why;
};

// The form must allow it (one VC class in use, no `source`, no header
// fields: Elaborate.cpp) and the candidates must move with the translations:
// at every node, toward every destination when that costs at most about 4M
// routing calls, else toward a spread of destination offsets (as many as fit
// in that), for every way in (injected, or by each channel and class) and
// both waits, the candidates are those of the node's representative toward
// the translated destination, translated. A routing that tests absolute node
// numbers (`(= dest 13)`, `(= current 7)`) fails it. Deterministic: the
// offsets depend on the network only.
SymmetryVerdict symmetryVerdict(const Graph& g, const RouteFunctions& fns, const Limits& limits);

}  // namespace ndl::elab
