// Elaboration: runs the program's topology definition to build its Graph,
// validates the graph (missing nodes, self-links, isolated nodes, a
// disconnected network, too many ports) and resolves the routing. Also
// adapts the routing definition to the analyses' RouteFunctions.
#pragma once

#include <optional>

#include "compiler/elaborate/Evaluator.h"
#include "compiler/elaborate/Graph.h"
#include "compiler/elaborate/Routing.h"
#include "compiler/sema/Check.h"

namespace ndl::elab {

// The VC classes of one port kind: class k holds VCs [start[k], start[k] +
// count[k]). A routing that declares none has one class "all".
struct VcClasses {
  std::vector<std::string> names;
  std::vector<int32_t> start;
  std::vector<int32_t> count;
  int32_t total() const { return start.empty() ? 0 : start.back() + count.back(); }
};

struct Network {
  Graph graph;
  // (Loopback External): a node's message to itself enters the network and its routing takes
  // it by a link back to its own router; the analyses trace those routes too.
  bool externalLoop = false;
  std::optional<uint32_t> routingDef;  // the chosen routing, explicit or the topology's own
  VcClasses networkClasses;            // at every network input port
  VcClasses injectionClasses;          // at the PE's injection port
  std::vector<bool> escapeClasses;     // per network class: named by (EscapeClasses ...)
  bool atomicVcAllocation = false;     // (VcAllocation ...), else the routing's default
  uint64_t tokenClasses = 0;           // bit k: network class k is named by (TokenClasses ...)
  int64_t recoveryField = -1;          // the header field of (RecoveryField name), or -1
  std::vector<HeaderFieldLayout> header;  // the routing's header fields, packed in 64 bits
  // (Selection ...), else the routing's (DefaultSelection ...), else First.
  sema::EnumId selection = sema::EnumId::Selection_First;
  // A selection written in NDL (define-selection), given by (Selection Name) or the routing's
  // (DefaultSelection Name); `selection` is then unused.
  std::optional<uint32_t> selectionDef;
  // (Predictor Name): the define-predictor, and then every define-port-state and
  // define-router-state of the program in order (the simulator allocates their rings only with
  // a predictor; docs/prediction.md).
  std::optional<uint32_t> predictorDef;
  std::vector<uint32_t> portStates;
  // The values of (blocked-for) at which the routing's answer for a waiting header may change,
  // sorted: where the body compares (blocked-for) with a constant (waitBreaks). The simulator
  // routes a blocked header again at these, or when one of its candidates may have become free,
  // instead of every router clock. nullopt: the body reads (blocked-for) some other way.
  std::optional<std::vector<int64_t>> waitBreaks;
  bool waitBreaksTooMany = false;  // waitBreaks is nullopt for more than kMaxWaitBreaks values
  bool readsCongestion = false;    // the routing reads congestion: waitBreaks is nullopt
  bool selectionReadsCongestion = false;  // so does the selection written in NDL
  bool readsGlobalCongestion = false;  // either reads another router's queues (port-queue-at)
  std::optional<int64_t> closedDiameter;      // declared by the topology
  std::optional<Rational> closedAverage;      // declared by the topology
  std::optional<int64_t> closedBisection;     // declared by the topology: links
};

// Needs: a CheckedProgram. Reports every problem at the Topology form (or
// the statement that caused it) and returns nullopt after an error. Once
// the result has its final address, point evaluator.network().graph at its
// graph so that routing functions can ask has-port.
std::optional<Network> elaborate(const sema::CheckedProgram& program, Evaluator& evaluator,
                                 DiagnosticEngine& diags);

// A port-state ring as the simulator keeps it: its capacity and symbol range. A Port ring
// holds the ejection (sema::kEjectionPortCode) up to the largest port code of the graph's
// dimensions.
struct RingShape {
  int64_t capacity = 0, lo = 0, hi = 0;
  bool perRouter = false;  // (define-router-state ...): one ring per router
};
std::vector<RingShape> portStateShapes(const Network& net, const sema::DefinitionTable& defs);

// The clocks of waiting at which a routing body that compares (blocked-for)
// only with constants (literals, (recovery-timeout), (vcs), (injection-vcs),
// joined by + - * min max) may answer differently: for (< w T) and (>= w T),
// T; for (<= w T) and (> w T), T + 1; for = and !=, both. Breakpoints below 1
// are never crossed by a header that waited at least one clock, and those
// above 2^31 - 1 never before the simulator routes every clock (it does past
// such a wait): both are left out. nullopt when (blocked-for) is read any other way (passed to a
// function, bound by let, compared with a variable), or at more than
// kMaxWaitBreaks distinct values.
inline constexpr size_t kMaxWaitBreaks = 16;
// `tooMany`, when given, says whether nullopt means more than kMaxWaitBreaks values.
std::optional<std::vector<int64_t>> waitBreaks(const sema::Expr& body,
                                               const NetworkContext& config,
                                               bool* tooMany = nullptr);

// The routing definition as a candidate function over the graph. An
// evaluation error is reported once; later calls then fail.
RouteFunctions routeFunctions(const Network& network, const sema::DefinitionTable& defs,
                              Evaluator& evaluator, bool& failed);

}  // namespace ndl::elab
