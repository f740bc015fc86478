// Read-only lookup tables that routing and traffic functions need about the topology:
// coordinates of regular topologies and the port that moves along (dimension, sign).
// Built once from a NetworkDesc; the hot loop only indexes arrays.
#pragma once

#include <cstdint>
#include <vector>

#include "ndl/runtime/net/network_desc.h"

namespace ndl::rt {

class TopologyIndex {
 public:
  TopologyIndex() = default;
  explicit TopologyIndex(const NetworkDesc& desc);

  int32_t nodes() const { return nodes_; }
  int32_t numDims() const { return static_cast<int32_t>(dims_.size()); }
  int32_t radix(int32_t d) const { return dims_[d]; }
  bool wraps() const { return wrap_; }

  // Coordinates come from a table: routing asks for them at every hop of every header.
  int32_t coord(int32_t node, int32_t d) const {
    return coords_[static_cast<size_t>(node) * dims_.size() + d];
  }
  int32_t nodeAt(const int32_t* coords) const {
    int32_t id = 0;
    for (int32_t d = numDims() - 1; d >= 0; --d) id = id * dims_[d] + coords[d];
    return id;
  }
  // Port of `node` that moves along dimension d in direction sign (+1 / -1); -1 if none.
  int32_t dirPort(int32_t node, int32_t d, int32_t sign) const {
    return dir_port_[(static_cast<size_t>(node) * dims_.size() + d) * 2 + (sign < 0)];
  }
  // Dimension of a port (-1 for the PE port and unlabelled ports).
  int32_t portDim(int32_t node, int32_t port) const {
    return port < port_begin_[node + 1] - port_begin_[node] ? port_dim_[port_begin_[node] + port]
                                                            : -1;
  }

 private:
  int32_t nodes_ = 0;
  std::vector<int32_t> dims_;
  std::vector<int32_t> stride_;
  std::vector<int32_t> coords_;
  bool wrap_ = false;
  std::vector<int32_t> port_begin_;
  std::vector<int8_t> port_dim_;
  std::vector<int16_t> dir_port_;
};

}  // namespace ndl::rt
