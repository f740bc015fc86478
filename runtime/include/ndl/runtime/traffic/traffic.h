// Destination choice: the interface of a traffic-pattern function and the reference
// patterns of spec 1.3 (Uniform, BitReversal, BitComplement, Transpose, Shuffle, Tornado,
// Neighbor, HotSpot, AllToAll) and BookSim2's Diagonal, Asymmetric and RandomPermutation. A
// pattern returns kNoMessage for a node it maps onto itself.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "ndl/runtime/net/topology_index.h"
#include "ndl/runtime/traffic/rng.h"

namespace ndl::rt {

enum class TrafficPattern : uint8_t {
  kUniform,
  kBitReversal,
  kBitComplement,
  kTranspose,
  kShuffle,
  kTornado,
  kNeighbor,
  kHotSpot,
  kAllToAll,
  kDiagonal,           // BookSim2's diagonal: node + 1 with probability 1/3, else itself
  kAsymmetric,         // BookSim2's asymmetric: n mod N/2, plus N/2 with probability 1/2
  kRandomPermutation,  // BookSim2's randperm: a permutation drawn from the seed
  kBadDragon,          // BookSim2's bad_dragon: uniform over the next group of endpoints
  kCustom,             // a pattern written in NDL (define-pattern): generated code
};

struct PatternParams {
  double hotspot_ratio = 0.0;          // share of messages sent to a hot spot
  std::vector<int32_t> hotspot_nodes;  // the hot spots, chosen uniformly
  int32_t group_endpoints = 0;         // (Groups n) of the topology; 0: none
};

struct TrafficContext {
  const TopologyIndex* topo;
  const PatternParams* params;
  int32_t node;     // the source
  int32_t nodes;    // node count
  Rng* rng;         // the source's own stream
  uint64_t* state;  // per-source pattern state (AllToAll's cursor); starts 0
  int32_t user_pattern = -1;  // kCustom: which of the program's patterns written in NDL
};

inline constexpr int32_t kNoMessage = -1;
using DestFn = int32_t (*)(TrafficContext&);

int32_t uniformDest(TrafficContext& ctx);
int32_t bitReversalDest(TrafficContext& ctx);
int32_t bitComplementDest(TrafficContext& ctx);
int32_t transposeDest(TrafficContext& ctx);
int32_t shuffleDest(TrafficContext& ctx);
int32_t tornadoDest(TrafficContext& ctx);
int32_t neighborDest(TrafficContext& ctx);
int32_t hotSpotDest(TrafficContext& ctx);
int32_t allToAllDest(TrafficContext& ctx);
int32_t diagonalDest(TrafficContext& ctx);
int32_t badDragonDest(TrafficContext& ctx);
int32_t asymmetricDest(TrafficContext& ctx);
// The source's destination is its pattern state, set by randomPermutation().
int32_t randomPermutationDest(TrafficContext& ctx);
// The permutation of `nodes` endpoints RandomPermutation uses under `seed` (Fisher-Yates on a
// stream of its own, apart from the sources' streams).
std::vector<int32_t> randomPermutation(int32_t nodes, uint64_t seed);

// The reference function of a pattern; nullptr for kCustom.
DestFn destFnFor(TrafficPattern pattern);
std::string_view patternName(TrafficPattern pattern);
// Parses a pattern name as written in NDL; returns false if unknown.
bool parsePattern(std::string_view name, TrafficPattern* out);

}  // namespace ndl::rt
