// The network a simulator runs on, as elaboration hands it over: nodes, their ports and the
// links between ports. Plain data; the runtime never parses NDL.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ndl::rt {

// Which way a port's link carries flits. A bidirectional link is two channels, one each way.
enum class LinkDirection : uint8_t { kBidirectional, kOutOnly, kInOnly };

struct PortDesc {
  int32_t peer_node = -1;  // node at the other end of the link; -1: unconnected port
  int32_t peer_port = -1;  // port index on that node
  LinkDirection direction = LinkDirection::kBidirectional;
  // For regular topologies: the dimension this port moves along and the sign (+1 / -1);
  // -1 / 0 when the port has no such meaning (custom topologies, RDT upper links).
  int8_t dim = -1;
  int8_t sign = 0;
  // Wire delay of this link in link clocks; 0 = SimParams::link_delay_clocks.
  int32_t delay_clocks = 0;
};

struct NodeDesc {
  std::vector<PortDesc> ports;  // network ports only; the endpoints' ports are added by the runtime
  // Endpoints (terminals) at this router, each with its own injection and ejection port:
  // 0 for a switch; 1 in every network whose topology does not say otherwise.
  int32_t endpoints = 1;
};

struct NetworkDesc {
  std::string topology_name;  // as printed in reports, e.g. "Torus 8x8"
  std::string topology_kind;  // "ring", "mesh", "torus", "hypercube", "rdt", "custom"
  std::vector<NodeDesc> nodes;
  // Regular topologies: radix per dimension (dimension 0 varies fastest in node ids) and
  // whether dimensions wrap around. Empty when nodes have no coordinates.
  std::vector<int32_t> dims;
  bool wrap = false;
  // Names of the port dimensions (x, y, z unless the topology names them), for messages.
  std::vector<std::string> dim_names;
  // Figures from elaboration; negative means "unknown", the runtime then computes them by BFS.
  int32_t diameter = -1;
  double avg_distance = -1.0;  // over ordered pairs of distinct nodes
};

// Number of links: a bidirectional link counts once, a unidirectional one once.
int64_t countLinks(const NetworkDesc& desc);

// Fills diameter and avg_distance by breadth-first search when they are unknown.
void completeDistances(NetworkDesc& desc);

// Returns an empty string if the description is consistent, else what is wrong.
std::string validate(const NetworkDesc& desc);

}  // namespace ndl::rt
