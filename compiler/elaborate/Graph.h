// The elaborated network: a compact directed multigraph of channels that
// `ndlc info`, the deadlock check and the simulator consume. Every link is
// one channel (unidirectional) or two (bidirectional), numbered so that the
// channels leaving node n are [outStart[n], outStart[n+1]).
//
// Ports: a channel leaves its source through an output port and enters its
// destination through an input port. A bidirectional link uses one port
// name at each end for both directions ("x+" at a, "x-" at b). Each port
// carries a dimension and a direction so that routing functions can name it
// as (port dim dir); its printed name comes from the dimension names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ndl::elab {

using NodeId = uint32_t;
using ChannelId = uint32_t;
inline constexpr ChannelId kNoChannel = UINT32_MAX;

enum ChannelFlags : uint8_t {
  kWrap = 1,  // crosses the dateline of its dimension (torus/ring wrap-around)
};

struct Channel {
  NodeId src = 0;
  NodeId dst = 0;
  uint16_t dim = 0;    // index into Graph::dimNames
  int8_t dir = +1;     // +1 or -1 along dim
  uint8_t flags = 0;   // ChannelFlags
  ChannelId reverse = kNoChannel;  // the other direction of a bidirectional link
};

// A per-node value where nodes differ (heterogeneous networks):
// (NodeAttribute n "buffer-flits" 16).
struct NodeAttribute {
  NodeId node;
  std::string name;
  int64_t value;
};

struct Graph {
  NodeId nodeCount = 0;
  std::vector<ChannelId> outStart;  // size nodeCount + 1
  std::vector<Channel> channels;    // sorted by src
  // Per channel, its own wire delay in link clocks from (Link ... (Delay t)), 0 for the
  // program's LinkDelay; empty when no link has its own.
  std::vector<uint16_t> channelDelay;
  std::vector<std::string> dimNames;  // "x", "y", "r1.u", ...

  // Nodes known to represent every orbit of the automorphism group: one BFS
  // (or one routing trace) per representative covers all sources. Empty
  // when the topology declares no symmetry.
  std::vector<NodeId> representatives;

  // Radices when nodes have mixed-radix coordinates (dimension 0 fastest);
  // empty for custom networks.
  std::vector<int64_t> radices;

  std::vector<NodeAttribute> attributes;

  // Endpoints (terminals) per node, from (Endpoints r p) and (Concentration p); empty when the
  // topology says nothing, every node then having one (docs/topologies.md, "Endpoints").
  std::vector<uint8_t> endpoints;
  // (Groups n): endpoints in groups of n consecutive ids; 0 when the topology declares none.
  int64_t groupEndpoints = 0;
  uint32_t endpointsAt(NodeId n) const { return endpoints.empty() ? 1 : endpoints[n]; }
  // A router terminals attach to: the analyses trace routes between these only.
  bool terminal(NodeId n) const { return endpoints.empty() || endpoints[n] != 0; }
  bool hasSwitches() const {
    for (uint8_t p : endpoints)
      if (p == 0) return true;
    return false;
  }
  uint64_t endpointCount() const {
    if (endpoints.empty()) return nodeCount;
    uint64_t e = 0;
    for (uint8_t p : endpoints) e += p;
    return e;
  }

  std::string name;  // "Torus 64 64"

  ChannelId outBegin(NodeId n) const { return outStart[n]; }
  ChannelId outEnd(NodeId n) const { return outStart[n + 1]; }
  uint32_t outDegree(NodeId n) const { return outStart[n + 1] - outStart[n]; }

  // The output channel of node n along (dim, dir), or kNoChannel.
  ChannelId findPort(NodeId n, uint16_t dim, int8_t dir) const {
    for (ChannelId c = outStart[n]; c < outStart[n + 1]; ++c)
      if (channels[c].dim == dim && channels[c].dir == dir) return c;
    return kNoChannel;
  }

  // Whether a channel leaves node n and comes back into it (an interface's external loop).
  bool selfLinked(NodeId n) const {
    for (ChannelId c = outStart[n]; c < outStart[n + 1]; ++c)
      if (channels[c].dst == n) return true;
    return false;
  }

  // "x+", "r1.u-": the name of a channel's output port.
  std::string portName(ChannelId c) const {
    const Channel& ch = channels[c];
    return dimNames[ch.dim] + (ch.dir > 0 ? "+" : "-");
  }

  // Number of links: bidirectional links count once.
  uint64_t linkCount() const {
    uint64_t n = 0;
    for (const Channel& c : channels) n += (c.reverse == kNoChannel || c.reverse > &c - channels.data()) ? 1 : 0;
    return n;
  }
};

}  // namespace ndl::elab
