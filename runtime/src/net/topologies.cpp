// Regular topology builders with closed-form distance figures.
#include "ndl/runtime/net/topologies.h"

#include <fmt/format.h>

namespace ndl::rt {
namespace {

NetworkDesc makeGrid(const std::vector<int32_t>& radix, bool wrap, const char* kind) {
  NetworkDesc desc;
  desc.topology_kind = kind;
  desc.dims = radix;
  desc.wrap = wrap;
  int32_t nodes = 1;
  for (int32_t k : radix) nodes *= k;
  desc.nodes.resize(nodes);
  const int32_t n = static_cast<int32_t>(radix.size());
  for (int32_t id = 0; id < nodes; ++id) {
    auto& ports = desc.nodes[id].ports;
    ports.resize(2 * n);
    int32_t stride = 1;
    for (int32_t d = 0; d < n; ++d) {
      const int32_t k = radix[d];
      const int32_t x = (id / stride) % k;
      for (int32_t s = 0; s < 2; ++s) {
        PortDesc& port = ports[2 * d + s];
        port.dim = static_cast<int8_t>(d);
        port.sign = static_cast<int8_t>(s == 0 ? 1 : -1);
        const int32_t y = s == 0 ? x + 1 : x - 1;
        if (!wrap && (y < 0 || y >= k)) continue;  // mesh edge: unconnected port
        if (k == 1) continue;
        const int32_t yy = (y + k) % k;
        port.peer_node = id + (yy - x) * stride;
        port.peer_port = 2 * d + (1 - s);  // the peer's port in the opposite direction
      }
      stride *= k;
    }
  }
  double mean = 0;
  int32_t diameter = 0;
  for (int32_t k : radix) {
    mean += meanDimensionDistance(k, wrap);
    diameter += wrap ? k / 2 : k - 1;
  }
  desc.diameter = diameter;
  desc.avg_distance = nodes > 1 ? mean * nodes / (nodes - 1.0) : 0.0;
  std::string dims;
  for (size_t i = 0; i < radix.size(); ++i) dims += fmt::format("{}{}", i ? "x" : "", radix[i]);
  desc.topology_name = fmt::format("{} {}", wrap ? "Torus" : "Mesh", dims);
  return desc;
}

}  // namespace

double meanDimensionDistance(int32_t k, bool wrap) {
  const double kk = k;
  if (!wrap) return (kk * kk - 1) / (3 * kk);
  return k % 2 == 0 ? kk / 4 : (kk * kk - 1) / (4 * kk);
}

NetworkDesc makeMesh(const std::vector<int32_t>& radix) { return makeGrid(radix, false, "mesh"); }

NetworkDesc makeTorus(const std::vector<int32_t>& radix) { return makeGrid(radix, true, "torus"); }

NetworkDesc makeRing(int32_t k) {
  NetworkDesc desc = makeGrid({k}, true, "ring");
  desc.topology_name = fmt::format("Ring {}", k);
  return desc;
}

NetworkDesc makeHypercube(int32_t dimensions) {
  // A hypercube is the 2-ary n-mesh: one link per dimension, port d flips bit d.
  NetworkDesc desc;
  desc.topology_kind = "hypercube";
  desc.topology_name = fmt::format("Hypercube {}", dimensions);
  const int32_t nodes = 1 << dimensions;
  desc.dims.assign(dimensions, 2);
  desc.nodes.resize(nodes);
  for (int32_t id = 0; id < nodes; ++id) {
    auto& ports = desc.nodes[id].ports;
    ports.resize(dimensions);
    for (int32_t d = 0; d < dimensions; ++d) {
      PortDesc& port = ports[d];
      port.peer_node = id ^ (1 << d);
      port.peer_port = d;
      port.dim = static_cast<int8_t>(d);
      port.sign = static_cast<int8_t>((id >> d) & 1 ? -1 : 1);
    }
  }
  desc.diameter = dimensions;
  desc.avg_distance = nodes > 1 ? dimensions / 2.0 * nodes / (nodes - 1.0) : 0.0;
  return desc;
}

}  // namespace ndl::rt
