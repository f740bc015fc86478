// The elaborated network's ports as the compact table of generated simulators
// (runtime/include/ndl/runtime/sim/port_table.h): runs of nodes that share a signature.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/elaborate/Graph.h"

namespace ndl::codegen {

struct PortTable {
  std::vector<int32_t> signatureStart;  // signatures + 1
  std::vector<int32_t> signatureRows;   // NDL_PORT_FIELDS per row, the peer coded
  std::vector<int32_t> nodeRuns;        // signature, node count
  int64_t portCount = 0;
  bool wrap = false;  // some channel crosses a dateline
};

// Ports of a node: its output channels in order, then an input-only port for each
// unidirectional channel that ends at it (in the order of the channels).
PortTable encodePortTable(const elab::Graph& g);

}  // namespace ndl::codegen
