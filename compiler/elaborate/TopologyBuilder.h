// Collects what a topology body declares (nodes, links, radices, names,
// symmetry, closed forms) and turns it into a Graph.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/elaborate/Graph.h"
#include "compiler/support/Rational.h"

namespace ndl::elab {

// Largest networks NDL elaborates; beyond, the estimate is reported.
inline constexpr int64_t kMaxNodes = int64_t{1} << 24;
inline constexpr int64_t kMaxChannels = int64_t{1} << 28;
inline constexpr uint32_t kMaxPortsPerNode = 64;
// Endpoints at one router; the simulator's own limit on ports and VCs is checked at build.
inline constexpr int64_t kMaxEndpointsPerRouter = 64;

class TopologyBuilder {
 public:
  bool nodesDeclared() const { return nodeCount_ > 0; }
  int64_t nodeCount() const { return nodeCount_; }
  void setNodes(int64_t n);

  // Returns "" on success, else what was wrong (for an evaluation error).
  std::string addChannel(NodeId a, NodeId b, uint16_t dim, int8_t dir, bool wrap,
                         ChannelId reverse, uint16_t delay = 0);
  // delay: the link's own wire delay in link clocks (both ways), 0 for LinkDelay.
  std::string addLink(int64_t a, int64_t b, int64_t dim, bool wrap, bool bidirectional,
                      uint16_t delay = 0);
  bool linked(NodeId a, NodeId b) const;
  // The lowest dimension whose + port is free at a and, for a bidirectional
  // link, whose - port is free at b: the ports of (Link a b).
  int64_t freeDimension(NodeId a, NodeId b, bool bidirectional) const;

  std::vector<int64_t> radices;
  std::vector<std::string> dimNames;
  std::vector<NodeId> representatives;
  std::vector<NodeAttribute> attributes;
  // (Endpoints r p) per router (-1: not stated) and (Concentration p), the count of the
  // routers not stated; both unset: one endpoint at every router (Graph::endpoints empty).
  std::vector<int16_t> endpoints;
  std::optional<int64_t> concentration;
  // (Groups n): the endpoints in groups of n consecutive ids (a dragonfly's a p), which
  // BadDragon traffic reads.
  std::optional<int64_t> groupEndpoints;
  std::optional<int64_t> diameter;
  std::optional<Rational> averageDistance;
  // (Bisection e): links crossing a minimum bisection of the endpoints, where the topology
  // knows it.
  std::optional<int64_t> bisection;
  std::string defaultRouting;
  Rational linkHz;  // the network (link) clock, for (Delay t) given as a time
  bool selfLinks = false;  // an Interface is declared: a link may loop back (its external loop)

  // Sorts the channels by source into the Graph's compact form.
  Graph finish(std::string name);

 private:
  int64_t nodeCount_ = 0;
  std::vector<Channel> channels_;
  std::vector<uint16_t> delays_;  // per channel once a link has its own delay, else empty
  std::vector<uint32_t> head_;  // per node: last channel added, for linked()
  std::vector<uint32_t> next_;  // per channel: previous channel of its source
  std::vector<uint8_t> degree_;
};

}  // namespace ndl::elab
