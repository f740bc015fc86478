// Compile-time evaluation of the typed expression IR (sema/Expr.h): runs
// topology bodies to build the network and routing functions to trace
// routes for `ndlc info` and the deadlock check. Errors (division by zero,
// overflow, recursion too deep, a link to a missing node) become
// diagnostics at the expression that caused them.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compiler/elaborate/Value.h"
#include "compiler/sema/Definitions.h"
#include "compiler/support/Diagnostics.h"

namespace ndl::elab {

class TopologyBuilder;

// A candidate of a route value: an output port (Value::port's code) and a
// VC class, or every VC of the port (kAnyClass); taking it writes the header
// bits `clear` with `value` (set by (set field v route)).
struct RouteCandidate {
  int64_t port;
  int64_t vcClass;
  uint64_t clear = 0;
  uint64_t value = 0;
  static constexpr int64_t kAnyClass = -1;
};

// Where a header field lives in the packet's 64-bit header: bits [offset,
// offset + bits) hold value - lo (a node's number, a Bool's 0 or 1).
struct HeaderFieldLayout {
  std::string name;
  sema::Type type = sema::Type::Bool;
  uint32_t offset = 0;
  uint32_t bits = 1;
  int64_t lo = 0;
  int64_t hi = 1;
  uint64_t mask() const { return (bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1) << offset; }
  // Unsigned arithmetic: v - lo of a wide range must not overflow.
  uint64_t pack(int64_t v) const {
    return ((static_cast<uint64_t>(v) - static_cast<uint64_t>(lo)) << offset) & mask();
  }
  int64_t unpack(uint64_t header) const {
    return static_cast<int64_t>(((header & mask()) >> offset) + static_cast<uint64_t>(lo));
  }
};
// Calls of NDL functions nest at most this deep (a recursion missing its base case); the
// generated simulator bounds its recursive functions the same way (codegen/RecursionGuard.h).
inline constexpr uint32_t kMaxCallDepth = 400;
// Loop iterations and calls of one evaluation in the checker (2^28; less in fuzzing builds),
// and of one routing, selection or initial header in a simulator, which counts the
// iterations of `sum` and the calls of recursive functions (codegen/RecursionGuard.h).
inline constexpr uint64_t kMaxSimulatorSteps = uint64_t{1} << 28;
// At most this many priority tiers (the simulator keeps one mask per tier).
inline constexpr size_t kMaxRouteTiers = 4;
using RouteTiers = std::vector<std::vector<RouteCandidate>>;

// What the network builtins (nodes, dims, radix, coord, neighbor) see.
struct NetworkContext {
  int64_t nodeCount = 0;
  std::vector<int64_t> radices;  // mixed radix, dimension 0 fastest
  std::vector<int64_t> strides;  // product of the radices below each dimension
  std::vector<uint8_t> wraps;    // per port dimension: has wrap-around links
  std::vector<uint8_t> dimUsed;  // per port dimension: some port uses it
  const struct Graph* graph = nullptr;  // the elaborated network, for has-port and peer
  // (graph-distance a b): built from `graph` the first time a routing asks, shared by the copies of
  // this context.
  std::shared_ptr<const class DistanceTable> distances;
  // The first endpoint of each router and, last, the endpoint count (docs/language.md,
  // "Patterns written in NDL"): built from `graph` the first time an endpoint is asked for.
  std::shared_ptr<const std::vector<int64_t>> endpointBegin;
  // The configuration a routing may read: (vcs), (injection-vcs), (avoiding).
  int64_t vcs = 1;
  int64_t injectionVcs = 1;
  bool avoiding = false;
  int64_t recoveryTimeout = 32;  // (recovery-timeout), router clocks
  int64_t bufferFlits = 1;       // slots per VC: what (port-credits P) reads on an idle network
  int64_t networkClasses = 64;  // known once the routing's classes are laid out
  std::vector<HeaderFieldLayout> header;  // the routing's header fields
  void setRadices(std::vector<int64_t> r) {
    radices = std::move(r);
    strides.assign(radices.size(), 1);
    for (size_t d = 1; d < radices.size(); ++d) strides[d] = strides[d - 1] * radices[d - 1];
  }
};

// Draws of (random-node) / (random n) while a header field's initial value
// is evaluated: each draw takes the next of `prescribed` (0 when there are none
// left) and records its range in `ranges`, so that the analyses can
// enumerate every outcome.
struct Draws {
  std::vector<int64_t> prescribed;
  std::vector<int64_t> ranges;
};
// Moves `d.prescribed` to the next outcome of the draws the last evaluation made (d.ranges):
// the last draw with values left advances, the later ones start again from 0. False once every
// outcome has been taken. (A header's random fields and a pattern's draws are enumerated so.)
inline bool nextOutcome(Draws& d) {
  d.prescribed.resize(d.ranges.size(), 0);
  size_t j = d.ranges.size();
  while (j > 0 && d.prescribed[j - 1] + 1 >= d.ranges[j - 1]) --j;
  if (j == 0) return false;
  d.prescribed.resize(j);
  ++d.prescribed[j - 1];
  return true;
}

// What a congestion read ((port-queue P), (port-credits P), (port-free-vcs P)) gives the
// analyses (docs/routing.md, "Congestion"): kIdle, its value on an idle network (the routes
// traced for hop counts); kEvery, an unknown Int that arithmetic keeps unknown and whose
// every comparison is a choice, enumerated like a draw (the candidates the deadlock check
// follows). Choice k takes prescribed[k] (0: false, 1: true; 0 past the end); `made` counts
// the choices of the call under way.
enum class Congestion : uint8_t { kIdle, kEvery };
struct Choices {
  std::vector<int64_t> prescribed;
  size_t made = 0;
};
// The outcomes of one routing call's congestion comparisons the analyses enumerate, at most.
inline constexpr size_t kMaxCongestionOutcomes = 1024;

class Evaluator {
 public:
  Evaluator(const sema::DefinitionTable& defs, DiagnosticEngine& diags);
  ~Evaluator();

  // The network and configuration may change through this reference: the
  // remembered results of searches (see evalCall) are dropped.
  NetworkContext& network() {
    memoStale_ = true;
    return network_;
  }
  const NetworkContext& network() const { return network_; }
  Draws& draws() { return draws_; }
  Choices& choices() { return choices_; }
  void setCongestion(Congestion c) { congestion_ = c; }
  void setBuilder(TopologyBuilder* builder) { builder_ = builder; }

  // Calls a definition with argument values. Returns nullopt after
  // reporting an evaluation error; `callSite` gets a note.
  std::optional<Value> call(uint32_t def, std::span<const Value> args, SourceRange callSite);
  // Evaluates `body`, an expression of definition `def` other than its body
  // (a routing's (Hops e)), with the definition's parameters bound to args.
  std::optional<Value> callExpr(uint32_t def, const sema::Expr& body, std::span<const Value> args,
                                SourceRange callSite = {});

  // Reports an evaluation error found outside an expression (a header
  // field's initial value out of its range) at `at`.
  void reportAt(SourceRange at, std::string message);

  // Evaluates an expression with no local variables (arguments of a
  // Topology form).
  std::optional<Value> evaluate(const sema::Expr& e);

  // Coord values live in an arena owned by the evaluator.
  Value makeList(std::vector<int64_t> items, const sema::Expr& at);
  const std::vector<int64_t>& list(Value v) const { return lists_[v.a]; }
  // Route values live in an arena the caller clears between routing calls.
  const RouteTiers& route(Value v) const { return routes_[static_cast<size_t>(v.a)]; }
  void clearRoutes() { routes_.clear(); }

  // Loop iterations and calls of every evaluation so far: the analyses
  // measure what a routing costs with it and stop before they hang.
  uint64_t work() const { return work_; }

 private:
  friend class EvalFrame;
  Value eval(const sema::Expr& e, Value* frame);
  Value evalCall(const sema::Expr& e, Value* frame);
  void exec(const sema::Expr& e, Value* frame);
  static int64_t linkDelayClocks(const sema::Expr& at, const Value& v, const TopologyBuilder& b);
  [[noreturn]] void fail(const sema::Expr& at, std::string message);
  // network_.endpointBegin, built on first use; fails at `at` before the topology is built.
  const std::vector<int64_t>& endpointBegin(const sema::Expr& at);
  [[noreturn]] void twoValues(const sema::Expr& at, const HeaderFieldLayout& f, int64_t a,
                              int64_t b);

  const sema::DefinitionTable& defs_;
  DiagnosticEngine& diags_;
  NetworkContext network_;
  TopologyBuilder* builder_ = nullptr;
  std::vector<std::vector<int64_t>> lists_;
  std::vector<RouteTiers> routes_;
  Value makeRoute(RouteTiers tiers, const sema::Expr& at);
  std::vector<Value> stack_;  // frames of active calls
  size_t stackTop_ = 0;
  uint32_t depth_ = 0;
  // Loop iterations and calls of the evaluation under way: a bound on the time one
  // evaluation may take, so that a wrong loop bound is an error, not a hang.
  uint64_t steps_ = 0;
  uint64_t work_ = 0;
  uintptr_t stackBase_ = 0;  // native stack address where the evaluation under way began
  void step(const sema::Expr& at);
  Draws draws_;
  Congestion congestion_ = Congestion::kIdle;
  Choices choices_;
  Value choose();

  // Results of the functions that start a recursive search, by their
  // arguments (EvalMemo.cpp says which functions and why).
  struct MemoTable;
  std::unique_ptr<MemoTable> memo_;
  bool memoStale_ = false;
  std::vector<uint8_t> memoPlan_;  // per definition: 0 not yet decided, 1 no, 2 yes
  bool memoizable(uint32_t def);
};

}  // namespace ndl::elab
