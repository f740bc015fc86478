// Checks and derived figures of a NetworkDesc.
#include "ndl/runtime/net/network_desc.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>

namespace ndl::rt {

int64_t countLinks(const NetworkDesc& desc) {
  int64_t links = 0;
  for (size_t n = 0; n < desc.nodes.size(); ++n) {
    const auto& ports = desc.nodes[n].ports;
    for (size_t p = 0; p < ports.size(); ++p) {
      const PortDesc& port = ports[p];
      if (port.peer_node < 0) continue;
      if (port.direction == LinkDirection::kOutOnly) {
        ++links;
      } else if (port.direction == LinkDirection::kBidirectional) {
        // Count each bidirectional link from its lower end only.
        const auto self = std::make_pair(static_cast<int64_t>(n), static_cast<int64_t>(p));
        const auto peer = std::make_pair(static_cast<int64_t>(port.peer_node),
                                         static_cast<int64_t>(port.peer_port));
        if (self < peer) ++links;
      }
    }
  }
  return links;
}

void completeDistances(NetworkDesc& desc) {
  if (desc.diameter >= 0 && desc.avg_distance >= 0) return;
  const int32_t n = static_cast<int32_t>(desc.nodes.size());
  std::vector<int32_t> dist(n);
  std::deque<int32_t> queue;
  int32_t diameter = 0;
  double total = 0;
  bool connected = true;
  for (int32_t s = 0; s < n; ++s) {
    std::fill(dist.begin(), dist.end(), -1);
    dist[s] = 0;
    queue.assign(1, s);
    while (!queue.empty()) {
      const int32_t u = queue.front();
      queue.pop_front();
      for (const PortDesc& port : desc.nodes[u].ports) {
        if (port.peer_node < 0 || port.direction == LinkDirection::kInOnly) continue;
        if (dist[port.peer_node] < 0) {
          dist[port.peer_node] = dist[u] + 1;
          queue.push_back(port.peer_node);
        }
      }
    }
    for (int32_t t = 0; t < n; ++t) {
      if (dist[t] < 0) {
        connected = false;
        continue;
      }
      diameter = std::max(diameter, dist[t]);
      total += dist[t];
    }
  }
  if (desc.diameter < 0) desc.diameter = connected ? diameter : -1;
  if (desc.avg_distance < 0) {
    desc.avg_distance = n > 1 ? total / (static_cast<double>(n) * (n - 1)) : 0.0;
  }
}

std::string validate(const NetworkDesc& desc) {
  const int64_t n = static_cast<int64_t>(desc.nodes.size());
  if (n == 0) return "the network has no nodes";
  if (!desc.dims.empty()) {
    int64_t product = 1;
    for (int32_t k : desc.dims) {
      if (k < 1) return "a dimension has radix < 1";
      product *= k;
    }
    if (product != n) {
      return fmt::format("dims give {} nodes but the network has {}", product, n);
    }
  }
  for (int64_t u = 0; u < n; ++u) {
    const auto& ports = desc.nodes[u].ports;
    for (size_t p = 0; p < ports.size(); ++p) {
      const PortDesc& port = ports[p];
      if (port.peer_node < 0) continue;
      if (port.peer_node >= n) {
        return fmt::format("node {} port {} links to node {}, out of range", u, p, port.peer_node);
      }
      const auto& peer_ports = desc.nodes[port.peer_node].ports;
      if (port.peer_port < 0 || port.peer_port >= static_cast<int32_t>(peer_ports.size())) {
        return fmt::format("node {} port {} links to a missing port {} of node {}", u, p,
                           port.peer_port, port.peer_node);
      }
      const PortDesc& back = peer_ports[port.peer_port];
      if (back.peer_node != u || back.peer_port != static_cast<int32_t>(p)) {
        return fmt::format("node {} port {} and node {} port {} do not link back", u, p,
                           port.peer_node, port.peer_port);
      }
      const bool ok =
          (port.direction == LinkDirection::kBidirectional &&
           back.direction == LinkDirection::kBidirectional) ||
          (port.direction == LinkDirection::kOutOnly && back.direction == LinkDirection::kInOnly) ||
          (port.direction == LinkDirection::kInOnly && back.direction == LinkDirection::kOutOnly);
      if (!ok) return fmt::format("node {} port {}: link directions disagree", u, p);
      if (port.delay_clocks < 0) return fmt::format("node {} port {}: negative delay", u, p);
    }
  }
  return {};
}

}  // namespace ndl::rt
