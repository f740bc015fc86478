// Builds the coordinate and port lookup tables used by routing and traffic functions.
#include "ndl/runtime/net/topology_index.h"

namespace ndl::rt {

TopologyIndex::TopologyIndex(const NetworkDesc& desc)
    : nodes_(static_cast<int32_t>(desc.nodes.size())), dims_(desc.dims), wrap_(desc.wrap) {
  stride_.resize(dims_.size());
  int32_t stride = 1;
  for (size_t d = 0; d < dims_.size(); ++d) {
    stride_[d] = stride;
    stride *= dims_[d];
  }
  coords_.resize(static_cast<size_t>(nodes_) * dims_.size());
  for (int32_t n = 0; n < nodes_; ++n) {
    for (size_t d = 0; d < dims_.size(); ++d) {
      coords_[n * dims_.size() + d] = (n / stride_[d]) % dims_[d];
    }
  }
  port_begin_.resize(nodes_ + 1);
  int32_t total = 0;
  for (int32_t n = 0; n < nodes_; ++n) {
    port_begin_[n] = total;
    total += static_cast<int32_t>(desc.nodes[n].ports.size());
  }
  port_begin_[nodes_] = total;
  port_dim_.resize(total);
  dir_port_.assign(static_cast<size_t>(nodes_) * dims_.size() * 2, -1);
  for (int32_t n = 0; n < nodes_; ++n) {
    for (int32_t p = 0; p < port_begin_[n + 1] - port_begin_[n]; ++p) {
      const PortDesc& port = desc.nodes[n].ports[p];
      port_dim_[port_begin_[n] + p] = port.dim;
      if (port.dim >= 0 && port.dim < static_cast<int32_t>(dims_.size()) && port.sign != 0 &&
          port.direction != LinkDirection::kInOnly) {
        int16_t& slot =
            dir_port_[(static_cast<size_t>(n) * dims_.size() + port.dim) * 2 + (port.sign < 0)];
        if (slot < 0) slot = static_cast<int16_t>(p);
      }
    }
  }
}

}  // namespace ndl::rt
