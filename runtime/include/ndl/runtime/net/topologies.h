// Builders of NetworkDescs for the regular topologies (ring, mesh, torus, hypercube) with
// exact diameter and average distance. Used by the runtime's tests and benchmarks; the
// compiler's elaboration produces the same port layout: port 2d moves + along dimension d,
// port 2d+1 moves -.
#pragma once

#include <cstdint>
#include <vector>

#include "ndl/runtime/net/network_desc.h"

namespace ndl::rt {

NetworkDesc makeMesh(const std::vector<int32_t>& radix);
NetworkDesc makeTorus(const std::vector<int32_t>& radix);
NetworkDesc makeRing(int32_t k);
NetworkDesc makeHypercube(int32_t dimensions);

// Mean distance along one dimension of radix k over all ordered pairs of coordinates
// (equal ones included): k/4 (k even) or (k^2-1)/(4k) (k odd) with wrap-around,
// (k^2-1)/(3k) without.
double meanDimensionDistance(int32_t k, bool wrap);

}  // namespace ndl::rt
