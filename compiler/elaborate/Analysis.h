// Vocabulary shared by the graph analyses (Metrics, Routing, Deadlock): the
// work limits that keep `ndlc info` from running for minutes, the status an
// analysis ends with, and exact ratios so that averages can be compared
// with closed forms without rounding.
#pragma once

#include <cstdint>
#include <numeric>
#include <optional>

namespace ndl::elab {

// 128-bit intermediates keep closed forms and distance sums exact.
__extension__ typedef unsigned __int128 UInt128;

// Bounds on the work an analysis may do. Exact all-pairs methods cost
// O(N^2); the analyses estimate their work first and refuse (kTooLarge)
// rather than hang.
struct Limits {
  // All-pairs BFS is attempted only up to this many nodes (spec 3.2: at
  // least 65,536).
  uint32_t maxAllPairsNodes = 65536;
  // All-pairs BFS budget in channel visits (64 sources share one visit),
  // about 1 ns each: a few seconds at most.
  uint64_t maxBfsWork = 4'000'000'000ULL;
  // Route-tracing budget in routing-function calls.
  uint64_t maxRouteSteps = 300'000'000ULL;
  // The same for a routing whose header fields draw at random: every draw
  // is traced, and its calls cost more (Valiant on an 8x8 torus is about
  // 6.5M calls, 2.4 s; on 16x16 it would take minutes and is refused).
  uint64_t maxDrawSteps = 15'000'000ULL;
  // Evaluation steps (loop iterations and calls of NDL code) one analysis
  // may spend on routing calls, projected from what the first sources or
  // destinations cost: about 30 s at the evaluator's 10M steps/s.
  // VectorRoutingUpDown's route trace on a 16x16 RDT takes 128M.
  uint64_t maxEvalSteps = 300'000'000ULL;
  // A route longer than this is a livelock. 0: 4 * nodeCount + 64, more
  // than any route that does not circle forever needs.
  uint32_t maxRouteHops = 0;
  // Tracing stops after this many routing errors; one broken routing
  // function would otherwise report N^2 of them.
  uint32_t maxErrors = 8;
  // Use representatives / translations when the graph declares them. Off
  // only to cross-check the symmetric methods against the exact ones.
  bool useSymmetry = true;
};

enum class AnalysisStatus : uint8_t {
  kOk,
  kDisconnected,  // some pair has no path; distances are undefined
  kTooLarge,      // the estimated work exceeds Limits; nothing was computed
  kRouteErrors,   // the routing function failed on some pairs (see errors)
  kInvalid,       // the inputs contradict each other (e.g. Dateline with 1 VC)
};

// A non-negative exact ratio in lowest terms.
struct Ratio {
  uint64_t num = 0;
  uint64_t den = 1;

  static Ratio make(uint64_t n, uint64_t d) {
    if (d == 0) return {0, 1};
    const uint64_t g = std::gcd(n, d);
    return {n / (g ? g : 1), d / (g ? g : 1)};
  }
  // Exact n/d reduced; nullopt when d is 0 or the reduced terms do not fit
  // in 64 bits.
  static std::optional<Ratio> make128(UInt128 n, UInt128 d) {
    if (d == 0) return std::nullopt;
    UInt128 a = n, b = d;
    while (b != 0) {
      const UInt128 r = a % b;
      a = b;
      b = r;
    }
    n /= a;
    d /= a;
    if (n > UINT64_MAX || d > UINT64_MAX) return std::nullopt;
    return Ratio{static_cast<uint64_t>(n), static_cast<uint64_t>(d)};
  }
  // x to nine decimals, for a mean whose exact terms do not fit.
  static Ratio approximate(double x) {
    constexpr uint64_t kScale = 1'000'000'000;
    return make(static_cast<uint64_t>(x * static_cast<double>(kScale) + 0.5), kScale);
  }
  double value() const { return static_cast<double>(num) / static_cast<double>(den); }
  friend bool operator==(const Ratio&, const Ratio&) = default;
};

}  // namespace ndl::elab
