#include "compiler/elaborate/TopologyBuilder.h"

#include <fmt/format.h>

#include <algorithm>

namespace ndl::elab {

void TopologyBuilder::setNodes(int64_t n) {
  nodeCount_ = n;
  head_.assign(static_cast<size_t>(n), UINT32_MAX);
  degree_.assign(static_cast<size_t>(n), 0);
  // Room for 8 channels a node: address space only until used, and no copy of a growing
  // array on the way to a million nodes' channels (a third of elaborating a 1M-node torus).
  const size_t room = static_cast<size_t>(std::min<int64_t>(n * 8, kMaxChannels));
  channels_.reserve(room);
  next_.reserve(room);
}

bool TopologyBuilder::linked(NodeId a, NodeId b) const {
  for (uint32_t c = head_[a]; c != UINT32_MAX; c = next_[c])
    if (channels_[c].dst == b) return true;
  return false;
}

int64_t TopologyBuilder::freeDimension(NodeId a, NodeId b, bool bidirectional) const {
  auto used = [&](NodeId n, uint16_t d, int8_t dir) {
    for (uint32_t c = head_[n]; c != UINT32_MAX; c = next_[c])
      if (channels_[c].dim == d && channels_[c].dir == dir) return true;
    return false;
  };
  for (uint16_t d = 0;; ++d)
    if (!used(a, d, +1) && (!bidirectional || !used(b, d, -1))) return d;
}

std::string TopologyBuilder::addChannel(NodeId a, NodeId b, uint16_t dim, int8_t dir, bool wrap,
                                        ChannelId reverse, uint16_t delay) {
  if (degree_[a] >= kMaxPortsPerNode)
    return fmt::format("node {} would have more than {} ports", a, kMaxPortsPerNode);
  if (static_cast<int64_t>(channels_.size()) >= kMaxChannels)
    return fmt::format("the network would have more than {} channels", kMaxChannels);
  Channel c;
  c.src = a;
  c.dst = b;
  c.dim = dim;
  c.dir = dir;
  c.flags = wrap ? kWrap : 0;
  c.reverse = reverse;
  next_.push_back(head_[a]);
  head_[a] = static_cast<uint32_t>(channels_.size());
  if (delay != 0 || !delays_.empty()) {
    delays_.resize(channels_.size(), 0);  // the channels before the first delay: LinkDelay
    delays_.push_back(delay);
  }
  channels_.push_back(c);
  ++degree_[a];
  return "";
}

std::string TopologyBuilder::addLink(int64_t a, int64_t b, int64_t dim, bool wrap,
                                     bool bidirectional, uint16_t delay) {
  if (dim < 0 || dim > 0xFFFF) return fmt::format("dimension {} is out of range", dim);
  auto forward = static_cast<ChannelId>(channels_.size());
  std::string err = addChannel(static_cast<NodeId>(a), static_cast<NodeId>(b),
                               static_cast<uint16_t>(dim), +1, wrap,
                               bidirectional ? forward + 1 : kNoChannel, delay);
  if (!err.empty() || !bidirectional) return err;
  err = addChannel(static_cast<NodeId>(b), static_cast<NodeId>(a), static_cast<uint16_t>(dim), -1,
                   wrap, forward, delay);
  if (!err.empty()) channels_[forward].reverse = kNoChannel;
  return err;
}

Graph TopologyBuilder::finish(std::string name) {
  Graph g;
  g.name = std::move(name);
  g.nodeCount = static_cast<NodeId>(nodeCount_);
  // By source, each node's channels in the order they were declared (its list from head_
  // runs backwards): placed in order, no array is zeroed first.
  g.outStart.reserve(g.nodeCount + 1);
  g.outStart.push_back(0);
  g.channels.reserve(channels_.size());
  std::vector<ChannelId> position(channels_.size());
  std::vector<uint32_t> mine;
  for (NodeId n = 0; n < g.nodeCount; ++n) {
    mine.clear();
    for (uint32_t c = head_[n]; c != UINT32_MAX; c = next_[c]) mine.push_back(c);
    for (auto it = mine.rbegin(); it != mine.rend(); ++it) {
      position[*it] = static_cast<ChannelId>(g.channels.size());
      g.channels.push_back(channels_[*it]);
    }
    g.outStart.push_back(static_cast<ChannelId>(g.channels.size()));
  }
  for (Channel& c : g.channels)
    if (c.reverse != kNoChannel) c.reverse = position[c.reverse];
  if (!delays_.empty()) {
    g.channelDelay.resize(delays_.size());
    for (size_t c = 0; c < delays_.size(); ++c) g.channelDelay[position[c]] = delays_[c];
    delays_.clear();
    delays_.shrink_to_fit();
  }
  g.radices = radices;
  g.groupEndpoints = groupEndpoints.value_or(0);
  g.representatives = representatives;
  g.attributes = std::move(attributes);
  if (concentration || !endpoints.empty()) {
    g.endpoints.assign(g.nodeCount, static_cast<uint8_t>(concentration.value_or(1)));
    for (size_t n = 0; n < endpoints.size(); ++n)
      if (endpoints[n] >= 0) g.endpoints[n] = static_cast<uint8_t>(endpoints[n]);
    // The layout of every network before endpoints existed: kept as "not stated", so that
    // such programs build exactly as before.
    if (std::all_of(g.endpoints.begin(), g.endpoints.end(), [](uint8_t p) { return p == 1; }))
      g.endpoints.clear();
  }
  // Dimensions without a declared name get x, y, z, d3, d4, ...
  uint32_t dims = 0;
  for (const Channel& c : g.channels) dims = std::max<uint32_t>(dims, c.dim + 1u);
  g.dimNames = dimNames;
  static const char* kDefault[] = {"x", "y", "z"};
  for (uint32_t d = static_cast<uint32_t>(g.dimNames.size()); d < dims; ++d)
    g.dimNames.push_back(d < 3 ? kDefault[d] : fmt::format("d{}", d));
  channels_.clear();
  channels_.shrink_to_fit();
  next_.clear();
  next_.shrink_to_fit();
  head_.clear();
  head_.shrink_to_fit();
  return g;
}

}  // namespace ndl::elab
