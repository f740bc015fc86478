#include "compiler/elaborate/GraphCheck.h"

#include <fmt/format.h>

#include <array>

namespace ndl::elab {
namespace {

// Collects problems, keeping at most `maxPerKind` of each kind and counting
// the rest.
class ProblemList {
 public:
  explicit ProblemList(uint32_t maxPerKind) : max_(maxPerKind) {}

  void add(GraphProblemKind kind, NodeId node, std::string message) {
    const auto k = static_cast<size_t>(kind);
    if (counts_[k]++ < max_) problems_.push_back({kind, node, std::move(message)});
  }

  std::vector<GraphProblem> take() {
    for (size_t k = 0; k < counts_.size(); ++k) {
      if (counts_[k] <= max_ || max_ == 0) continue;
      const auto kind = static_cast<GraphProblemKind>(k);
      for (auto& p : problems_) {
        // Attach the summary to the last kept problem of this kind.
        if (p.kind != kind) continue;
        last_ = &p;
      }
      if (last_) last_->message += fmt::format(" (and {} more like it)", counts_[k] - max_);
      last_ = nullptr;
    }
    return std::move(problems_);
  }

 private:
  uint32_t max_;
  std::array<uint64_t, 5> counts_{};
  std::vector<GraphProblem> problems_;
  GraphProblem* last_ = nullptr;
};

// Structural consistency that every other check relies on. Returns a
// message, or an empty string when the arrays agree.
std::string malformation(const Graph& g) {
  if (g.outStart.size() != static_cast<size_t>(g.nodeCount) + 1)
    return fmt::format("outStart has {} entries for {} nodes", g.outStart.size(), g.nodeCount);
  if (g.outStart.front() != 0 || g.outStart.back() != g.channels.size())
    return "outStart does not span the channel array";
  for (NodeId n = 0; n < g.nodeCount; ++n) {
    if (g.outStart[n] > g.outStart[n + 1]) return fmt::format("outStart decreases at node {}", n);
    for (ChannelId c = g.outStart[n]; c < g.outStart[n + 1]; ++c) {
      const Channel& ch = g.channels[c];
      if (ch.src != n)
        return fmt::format("channel {} is listed under node {} but leaves {}", c, n, ch.src);
      if (ch.dst >= g.nodeCount)
        return fmt::format("channel {} enters node {} of {}", c, ch.dst, g.nodeCount);
      if (ch.dim >= g.dimNames.size()) return fmt::format("channel {} has dimension {}", c, ch.dim);
      if (ch.reverse != kNoChannel &&
          (ch.reverse >= g.channels.size() || g.channels[ch.reverse].reverse != c ||
           g.channels[ch.reverse].src != ch.dst || g.channels[ch.reverse].dst != ch.src))
        return fmt::format("channel {} has an inconsistent reverse", c);
    }
  }
  return {};
}

// Marks every node reachable from `root`, forward along channels or
// backward against them (adjacency in CSR form).
std::vector<uint8_t> reach(NodeId n, NodeId root, const std::vector<uint32_t>& start,
                           const std::vector<NodeId>& next) {
  std::vector<uint8_t> seen(n, 0);
  std::vector<NodeId> queue;
  queue.reserve(n);
  seen[root] = 1;
  queue.push_back(root);
  for (size_t head = 0; head < queue.size(); ++head) {
    const NodeId u = queue[head];
    for (uint32_t i = start[u]; i < start[u + 1]; ++i) {
      if (!seen[next[i]]) {
        seen[next[i]] = 1;
        queue.push_back(next[i]);
      }
    }
  }
  return seen;
}

}  // namespace

std::vector<GraphProblem> checkGraph(const Graph& g, uint32_t maxPerKind, bool selfLinks) {
  if (std::string why = malformation(g); !why.empty())
    return {{GraphProblemKind::kMalformed, 0, "malformed network graph: " + why}};
  ProblemList problems(maxPerKind);
  const NodeId n = g.nodeCount;

  std::vector<uint32_t> inDegree(n, 0);
  for (ChannelId c = 0; c < g.channels.size(); ++c) {
    const Channel& ch = g.channels[c];
    ++inDegree[ch.dst];
    // A bidirectional self-link is two channels; report it once.
    if (ch.src == ch.dst && !selfLinks && (ch.reverse == kNoChannel || ch.reverse >= c))
      problems.add(GraphProblemKind::kSelfLink, ch.src,
                   fmt::format("node {} is linked to itself (port {})", ch.src, g.portName(c)));
  }
  for (NodeId u = 0; u < n; ++u) {
    // A lone router (a switch with its endpoints) needs no link.
    if (n > 1 && g.outDegree(u) == 0 && inDegree[u] == 0)
      problems.add(GraphProblemKind::kIsolatedNode, u, fmt::format("node {} has no links", u));
    const uint32_t ports = std::max(g.outDegree(u), inDegree[u]);
    if (ports > kMaxPorts)
      problems.add(
          GraphProblemKind::kTooManyPorts, u,
          fmt::format("node {} has {} ports; at most {} are supported", u, ports, kMaxPorts));
  }

  if (n > 1) {
    std::vector<uint32_t> fwdStart(g.outStart.begin(), g.outStart.end());
    std::vector<NodeId> fwd(g.channels.size());
    for (ChannelId c = 0; c < g.channels.size(); ++c) fwd[c] = g.channels[c].dst;
    // Reverse adjacency by counting sort on the destination.
    std::vector<uint32_t> bwdStart(static_cast<size_t>(n) + 1, 0);
    for (NodeId u = 0; u < n; ++u) bwdStart[u + 1] = bwdStart[u] + inDegree[u];
    std::vector<NodeId> bwd(g.channels.size());
    std::vector<uint32_t> fill(bwdStart.begin(), bwdStart.end() - 1);
    for (const Channel& ch : g.channels) bwd[fill[ch.dst]++] = ch.src;

    // Node 0 is the root unless it is isolated (reported above); then the
    // first node with a link, so that one mistake gives one message.
    auto isolated = [&](NodeId u) { return g.outDegree(u) == 0 && inDegree[u] == 0; };
    NodeId root = 0;
    while (root + 1 < n && isolated(root)) ++root;
    const std::vector<uint8_t> fromRoot = reach(n, root, fwdStart, fwd);
    const std::vector<uint8_t> toRoot = reach(n, root, bwdStart, bwd);
    for (NodeId u = 0; u < n; ++u) {
      if (isolated(u) || (fromRoot[u] && toRoot[u])) continue;
      problems.add(GraphProblemKind::kDisconnected, u,
                   !fromRoot[u] ? fmt::format("the network is disconnected: node {} cannot be "
                                              "reached from node {}",
                                              u, root)
                                : fmt::format("the network is disconnected: node {} cannot reach "
                                              "node {} (its links are one-way)",
                                              u, root));
      break;
    }
  }
  return problems.take();
}

}  // namespace ndl::elab
