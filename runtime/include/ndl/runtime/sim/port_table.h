// The port table a generated simulator carries (generated_abi.h), stored compactly: the
// nodes in order as runs of nodes that share a signature, a signature being a node's port
// rows with the peer node written as an offset from the node. A torus or mesh of any size
// has a few signatures and three runs per row of nodes. A network whose nodes differ in the
// order or the signs of their ports (a hypercube's ports follow its node's bits) or that is
// irregular has about a signature per node and costs what a plain table would. The
// compiler's encoder is compiler/codegen/PortTable.cpp.
#pragma once

#include <cstdint>

#include "ndl/runtime/sim/generated_abi.h"

namespace ndl::rt {

// A row's field 0: the peer as an offset from the node, modulo 2^32.
inline int32_t peerFromCode(int32_t node, int32_t code) {
  return static_cast<int32_t>(static_cast<uint32_t>(node) + static_cast<uint32_t>(code));
}
inline int32_t peerToCode(int32_t node, int32_t peer) {
  return static_cast<int32_t>(static_cast<uint32_t>(peer) - static_cast<uint32_t>(node));
}

struct PortTableView {
  const int32_t* signature_start;  // signatures + 1: each one's first row
  const int32_t* signature_rows;   // NDL_PORT_FIELDS per row, field 0 coded
  const int32_t* node_runs;        // runs * 2: signature, node count
  int64_t runs = 0;
};

// Calls row(node, local port, fields) for every port of every node in order, with
// fields[0] the absolute peer node. Nodes without ports are visited by no call.
template <class F>
void forEachPort(const PortTableView& t, F&& row) {
  int32_t node = 0;
  int32_t fields[NDL_PORT_FIELDS];
  for (int64_t r = 0; r < t.runs; ++r) {
    const int32_t sig = t.node_runs[2 * r];
    const int32_t count = t.node_runs[2 * r + 1];
    const int32_t first = t.signature_start[sig], last = t.signature_start[sig + 1];
    for (int32_t k = 0; k < count; ++k, ++node) {
      for (int32_t p = first; p < last; ++p) {
        const int32_t* f = &t.signature_rows[static_cast<int64_t>(p) * NDL_PORT_FIELDS];
        for (int i = 0; i < NDL_PORT_FIELDS; ++i) fields[i] = f[i];
        fields[0] = peerFromCode(node, f[0]);
        row(node, p - first, static_cast<const int32_t*>(fields));
      }
    }
  }
}

}  // namespace ndl::rt
