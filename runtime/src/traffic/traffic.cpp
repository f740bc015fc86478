// The reference traffic patterns of spec 1.3. Bit patterns work on the low log2(N) bits of
// node ids (N a power of two); coordinate patterns use the topology's dimensions and fall
// back to a ring of N nodes when there are none.
#include "ndl/runtime/traffic/traffic.h"

#include <algorithm>
#include <array>
#include <utility>

namespace ndl::rt {
namespace {

int32_t addressBits(int32_t nodes) {
  int32_t bits = 0;
  while ((1 << bits) < nodes) ++bits;
  return bits;
}

int32_t selfIsNone(const TrafficContext& ctx, int32_t dest) {
  return dest == ctx.node || dest < 0 || dest >= ctx.nodes ? kNoMessage : dest;
}

}  // namespace

int32_t uniformDest(TrafficContext& ctx) {
  if (ctx.nodes < 2) return kNoMessage;
  // Every other node equally likely: draw among N-1 and skip over the source.
  const int32_t d = static_cast<int32_t>(ctx.rng->below(static_cast<uint64_t>(ctx.nodes - 1)));
  return d >= ctx.node ? d + 1 : d;
}

int32_t bitReversalDest(TrafficContext& ctx) {
  const int32_t b = addressBits(ctx.nodes);
  int32_t d = 0;
  for (int32_t i = 0; i < b; ++i) d |= ((ctx.node >> i) & 1) << (b - 1 - i);
  return selfIsNone(ctx, d);
}

int32_t bitComplementDest(TrafficContext& ctx) {
  const int32_t b = addressBits(ctx.nodes);
  return selfIsNone(ctx, ~ctx.node & ((1 << b) - 1));
}

int32_t transposeDest(TrafficContext& ctx) {
  const TopologyIndex& t = *ctx.topo;
  if (t.numDims() == 2 && t.radix(0) == t.radix(1)) {
    const int32_t c[2] = {t.coord(ctx.node, 1), t.coord(ctx.node, 0)};
    return selfIsNone(ctx, t.nodeAt(c));
  }
  // Swap the upper and lower halves of the address bits.
  const int32_t b = addressBits(ctx.nodes);
  const int32_t h = b / 2;
  const int32_t low = ctx.node & ((1 << h) - 1);
  const int32_t high = ctx.node >> h;
  return selfIsNone(ctx, (low << (b - h)) | high);
}

int32_t shuffleDest(TrafficContext& ctx) {
  const int32_t b = addressBits(ctx.nodes);
  if (b == 0) return kNoMessage;
  const int32_t mask = (1 << b) - 1;
  return selfIsNone(ctx, ((ctx.node << 1) | (ctx.node >> (b - 1))) & mask);
}

int32_t tornadoDest(TrafficContext& ctx) {
  const TopologyIndex& t = *ctx.topo;
  if (t.numDims() == 0) return selfIsNone(ctx, (ctx.node + (ctx.nodes + 1) / 2 - 1) % ctx.nodes);
  std::array<int32_t, 32> c{};
  for (int32_t d = 0; d < t.numDims(); ++d) {
    const int32_t k = t.radix(d);
    c[d] = (t.coord(ctx.node, d) + (k + 1) / 2 - 1) % k;
  }
  return selfIsNone(ctx, t.nodeAt(c.data()));
}

int32_t neighborDest(TrafficContext& ctx) {
  const TopologyIndex& t = *ctx.topo;
  if (t.numDims() == 0) return selfIsNone(ctx, (ctx.node + 1) % ctx.nodes);
  std::array<int32_t, 32> c{};
  for (int32_t d = 0; d < t.numDims(); ++d) c[d] = (t.coord(ctx.node, d) + 1) % t.radix(d);
  return selfIsNone(ctx, t.nodeAt(c.data()));
}

int32_t hotSpotDest(TrafficContext& ctx) {
  const auto& hot = ctx.params->hotspot_nodes;
  if (!hot.empty() && ctx.rng->uniform01() < ctx.params->hotspot_ratio) {
    const int32_t d = hot[ctx.rng->below(hot.size())];
    if (d != ctx.node) return d;
  }
  return uniformDest(ctx);
}

int32_t allToAllDest(TrafficContext& ctx) {
  if (ctx.nodes < 2) return kNoMessage;
  // n sends to n+1, n+2, ..., n+N-1 and starts over.
  const int32_t step = static_cast<int32_t>(*ctx.state % static_cast<uint64_t>(ctx.nodes - 1));
  ++*ctx.state;
  return (ctx.node + 1 + step) % ctx.nodes;
}

int32_t diagonalDest(TrafficContext& ctx) {
  // BookSim2: RandomInt(2) == 0 (one of three) goes to node + 1, the rest to the node itself,
  // which creates nothing here.
  if (ctx.rng->below(3) != 0) return kNoMessage;
  return selfIsNone(ctx, (ctx.node + 1) % ctx.nodes);
}

int32_t badDragonDest(TrafficContext& ctx) {
  // BookSim2: RandomInt(G - 1) + (src / G + 1) G, mod N, with G the group's endpoints (its
  // RandomInt(m) draws 0..m): every message leaves its group for the next one.
  const int32_t g = ctx.params->group_endpoints;
  const int32_t at = static_cast<int32_t>(ctx.rng->below(static_cast<uint64_t>(g)));
  return (at + (ctx.node / g + 1) * g) % ctx.nodes;
}

int32_t asymmetricDest(TrafficContext& ctx) {
  const int32_t half = ctx.nodes / 2;
  if (half == 0) return kNoMessage;
  return selfIsNone(ctx, ctx.node % half + (ctx.rng->below(2) != 0 ? half : 0));
}

int32_t randomPermutationDest(TrafficContext& ctx) {
  return selfIsNone(ctx, static_cast<int32_t>(*ctx.state));
}

std::vector<int32_t> randomPermutation(int32_t nodes, uint64_t seed) {
  std::vector<int32_t> perm(static_cast<size_t>(std::max(nodes, 0)));
  for (int32_t i = 0; i < nodes; ++i) perm[i] = i;
  Rng rng(seed, 0x7065726d7574ULL);  // "permut": no source's stream (those are 0..N-1)
  for (int32_t i = nodes - 1; i > 0; --i) {
    const auto j = static_cast<int32_t>(rng.below(static_cast<uint64_t>(i) + 1));
    std::swap(perm[i], perm[j]);
  }
  return perm;
}

DestFn destFnFor(TrafficPattern pattern) {
  switch (pattern) {
    case TrafficPattern::kUniform:
      return uniformDest;
    case TrafficPattern::kBitReversal:
      return bitReversalDest;
    case TrafficPattern::kBitComplement:
      return bitComplementDest;
    case TrafficPattern::kTranspose:
      return transposeDest;
    case TrafficPattern::kShuffle:
      return shuffleDest;
    case TrafficPattern::kTornado:
      return tornadoDest;
    case TrafficPattern::kNeighbor:
      return neighborDest;
    case TrafficPattern::kHotSpot:
      return hotSpotDest;
    case TrafficPattern::kAllToAll:
      return allToAllDest;
    case TrafficPattern::kDiagonal:
      return diagonalDest;
    case TrafficPattern::kBadDragon:
      return badDragonDest;
    case TrafficPattern::kAsymmetric:
      return asymmetricDest;
    case TrafficPattern::kRandomPermutation:
      return randomPermutationDest;
    case TrafficPattern::kCustom:
      return nullptr;
  }
  return nullptr;
}

namespace {
constexpr std::array<std::pair<TrafficPattern, std::string_view>, 14> kNames = {{
    {TrafficPattern::kUniform, "Uniform"},
    {TrafficPattern::kBitReversal, "BitReversal"},
    {TrafficPattern::kBitComplement, "BitComplement"},
    {TrafficPattern::kTranspose, "Transpose"},
    {TrafficPattern::kShuffle, "Shuffle"},
    {TrafficPattern::kTornado, "Tornado"},
    {TrafficPattern::kNeighbor, "Neighbor"},
    {TrafficPattern::kHotSpot, "HotSpot"},
    {TrafficPattern::kAllToAll, "AllToAll"},
    {TrafficPattern::kDiagonal, "Diagonal"},
    {TrafficPattern::kBadDragon, "BadDragon"},
    {TrafficPattern::kAsymmetric, "Asymmetric"},
    {TrafficPattern::kRandomPermutation, "RandomPermutation"},
    {TrafficPattern::kCustom, "Custom"},
}};
}  // namespace

std::string_view patternName(TrafficPattern pattern) {
  for (const auto& [p, name] : kNames) {
    if (p == pattern) return name;
  }
  return "?";
}

bool parsePattern(std::string_view name, TrafficPattern* out) {
  for (const auto& [p, n] : kNames) {
    if (n == name && p != TrafficPattern::kCustom) {
      *out = p;
      return true;
    }
  }
  return false;
}

}  // namespace ndl::rt
