// Structural validation of an elaborated Graph before any analysis runs:
// self-links, nodes without links, a network that is not strongly
// connected, and nodes with more ports than a router can have. Problems
// come back as plain records; the caller (elaboration) turns them into
// diagnostics with the source range of the topology.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/elaborate/Graph.h"

namespace ndl::elab {

// More ports than this per node (in or out) is an error: routers address
// ports with 64-bit masks (the deadlock check among others).
inline constexpr uint32_t kMaxPorts = 64;

enum class GraphProblemKind : uint8_t {
  kMalformed,     // the arrays contradict each other (an elaboration bug)
  kSelfLink,      // a channel from a node to itself
  kIsolatedNode,  // a node with no channel in or out
  kDisconnected,  // a node not reachable from node 0, or that cannot reach it
  kTooManyPorts,  // more than kMaxPorts output or input ports
};

struct GraphProblem {
  GraphProblemKind kind;
  NodeId node;
  std::string message;
};

// Checks `graph` and returns its problems, at most `maxPerKind` of each kind
// (a 1M-node network with one mistake in its loop would otherwise list 1M
// problems); the last one of a truncated kind says how many were left out.
// Connectivity is strong connectivity, since channels are directed, and
// is reported once, for the first node that fails, ignoring isolated nodes
// (already reported). A malformed graph is reported alone: nothing else can
// be checked on it. `selfLinks`: a channel from a node to itself is allowed (a network
// interface's external loop).
std::vector<GraphProblem> checkGraph(const Graph& graph, uint32_t maxPerKind = 16,
                                     bool selfLinks = false);

}  // namespace ndl::elab
