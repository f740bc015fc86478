// Where the endpoints (terminals) are: router r owns endpoints first(r) .. first(r+1)-1,
// numbered router by router. Traffic sources, statistics rows, patterns and an application's
// nodes are numbered by endpoint; routing and the router step by router (docs/runtime.md,
// "Endpoints").
#pragma once

#include <cstdint>
#include <vector>

#include "ndl/runtime/net/network_desc.h"

namespace ndl::rt {

class EndpointLayout {
 public:
  EndpointLayout() = default;
  // Throws nothing: NodeDesc::endpoints is checked by Network (a negative count is refused
  // there); here a negative count counts as none.
  explicit EndpointLayout(const NetworkDesc& desc) {
    routers_ = static_cast<int32_t>(desc.nodes.size());
    bool one_each = true;
    for (const NodeDesc& n : desc.nodes) one_each = one_each && n.endpoints == 1;
    if (one_each) {
      endpoints_ = routers_;
      return;
    }
    begin_.assign(static_cast<size_t>(routers_) + 1, 0);
    for (int32_t r = 0; r < routers_; ++r) {
      const int32_t p = desc.nodes[static_cast<size_t>(r)].endpoints;
      begin_[static_cast<size_t>(r) + 1] = begin_[static_cast<size_t>(r)] + (p > 0 ? p : 0);
    }
    endpoints_ = begin_.back();
    router_of_.resize(static_cast<size_t>(endpoints_));
    for (int32_t r = 0; r < routers_; ++r)
      for (int32_t e = begin_[static_cast<size_t>(r)]; e < begin_[static_cast<size_t>(r) + 1]; ++e)
        router_of_[static_cast<size_t>(e)] = r;
  }

  // One endpoint at every router, with the router's id: the layout of every network whose
  // topology says nothing of endpoints. Code that would look up tables then takes ids as they
  // are, so such networks run exactly as before endpoints existed.
  bool oneEach() const { return begin_.empty(); }
  int32_t routers() const { return routers_; }
  int32_t endpoints() const { return endpoints_; }
  int32_t first(int32_t r) const { return oneEach() ? r : begin_[static_cast<size_t>(r)]; }
  int32_t at(int32_t r) const {
    return oneEach() ? 1 : begin_[static_cast<size_t>(r) + 1] - begin_[static_cast<size_t>(r)];
  }
  int32_t routerOf(int32_t e) const { return oneEach() ? e : router_of_[static_cast<size_t>(e)]; }
  int32_t localOf(int32_t e) const { return oneEach() ? 0 : e - first(routerOf(e)); }

 private:
  int32_t routers_ = 0;
  int32_t endpoints_ = 0;
  std::vector<int32_t> begin_;      // routers_ + 1 entries; empty when oneEach()
  std::vector<int32_t> router_of_;  // per endpoint; empty when oneEach()
};

// 1 for each endpoint whose router has a link back to itself (an interface's external loop).
inline std::vector<uint8_t> loopEndpoints(const NetworkDesc& desc) {
  const EndpointLayout layout(desc);
  std::vector<uint8_t> out(static_cast<size_t>(layout.endpoints()), 0);
  for (int32_t r = 0; r < layout.routers(); ++r) {
    bool loop = false;
    for (const PortDesc& port : desc.nodes[static_cast<size_t>(r)].ports)
      loop = loop || (port.peer_node == r && port.direction != LinkDirection::kInOnly);
    for (int32_t k = 0; loop && k < layout.at(r); ++k)
      out[static_cast<size_t>(layout.first(r) + k)] = 1;
  }
  return out;
}

}  // namespace ndl::rt
