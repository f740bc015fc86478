// The definitions of a program: functions, constants, topologies and
// routings, from the stdlib prelude and the user's files alike. Built by
// checkDefinitions (ExprChecker.cpp); looked up by name by the checker of
// the Topology and RoutingAlgorithm forms.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/ast/Ast.h"
#include "compiler/sema/Expr.h"
#include "compiler/sema/FormTable.h"
#include "compiler/support/Diagnostics.h"

namespace ndl::sema {

enum class DefKind : uint8_t { Function, Constant, Topology, Routing, Selection, PortState,
                               Predictor, Pattern };

struct Param {
  std::string name;
  Type type;
  bool variadic = false;  // (k Int...): the rest of the arguments as a Coord
};

// (VcClass name count) or (InjectionVcClass name count) in a routing: a
// class of virtual channels at every network input port, or at the PE's
// injection port. Counts are evaluated at elaboration (they may use (vcs),
// (injection-vcs) and (avoiding)); the classes of a kind partition its VCs
// in the order declared.
struct VcClassDecl {
  std::string name;
  SourceRange range;
  Expr count;
  bool injection = false;
};

// (HeaderField name Type [init]) in a routing: state a packet carries in its
// header (docs/routing.md). Type is Bool, Node or (Int lo hi); lo and hi are
// evaluated with the configuration, like class counts. The initial value is
// computed at injection (it may draw (random-node) and (random n)); the
// routing reads the field by name and writes it with (set name value route).
// Fields are extra parameters of the routing after the hidden ones, in the
// order declared.
struct HeaderFieldDecl {
  std::string name;
  SourceRange range;  // the name
  SourceRange form;   // the whole form
  Type type = Type::Bool;
  Expr lo, hi;        // (Int lo hi)
  std::optional<Expr> init;
};
// A routing declares at most this many header fields (the simulator keeps
// one pending write per field for each candidate route).
inline constexpr size_t kMaxHeaderFields = 8;
// VirtualChannels and InjectionVirtualChannels: a simulator's router keeps a port's VCs in
// bit masks (runtime/net/router_limits.h, kMaxVcsPerPort; the driver checks the two agree).
inline constexpr int64_t kMaxVirtualChannels = 32;
// InternalSpeedup: a router's allocation and switch passes per clock
// (runtime/net/router_limits.h, kMaxInternalSpeedup; the driver checks the two agree).
inline constexpr int64_t kMaxInternalSpeedup = 4;
// A packet's flits under (NetworkPacketSize Message), checked with the message lengths
// (runtime/net/router_limits.h, kMaxPacketFlits; the driver checks the two agree and reports the
// other limits of runtime/sim/param_rules.h).
inline constexpr int64_t kMaxPacketFlits = 65535;
// A link's own (Delay t), in link clocks (runtime/net/router_limits.h, kMaxLinkDelayClocks: the
// simulator keeps link delays in 8 bits; the driver checks the two agree).
inline constexpr int64_t kMaxLinkDelayClocks = 255;

// The hidden parameters of every routing after current, dest and source,
// read by (arrived-along), (injected), (in-class) and (blocked-for).
inline constexpr uint32_t kRoutingArrivedSlot = 3;
inline constexpr uint32_t kRoutingInjectedSlot = 4;
inline constexpr uint32_t kRoutingInClassSlot = 5;
inline constexpr uint32_t kRoutingBlockedSlot = 6;
inline constexpr uint32_t kRoutingParams = 7;
// A (define-selection ...) has the routing's parameters, then the candidate
// it scores: read by (out-port), (out-class), (credits), (port-free-vcs) and
// (port-credits).
inline constexpr uint32_t kSelectOutPortSlot = 7;
inline constexpr uint32_t kSelectOutClassSlot = 8;
inline constexpr uint32_t kSelectCreditsSlot = 9;
inline constexpr uint32_t kSelectPortFreeSlot = 10;
inline constexpr uint32_t kSelectPortCreditsSlot = 11;
inline constexpr uint32_t kSelectParams = 12;
// A (define-predictor ...) has the routing's parameters, then the output port a header left by,
// read by (out-port) in its OnForward block (docs/prediction.md).
inline constexpr uint32_t kPredictOutPortSlot = 7;
inline constexpr uint32_t kPredictParams = 8;
// The port code (ejection-port) names: a header leaving the network at this router. Codes of
// network ports are dim * 2 + (dir > 0); -1 is "no port" ((arrived-along) of an injected header).
inline constexpr int64_t kEjectionPortCode = -2;
// A (define-pattern ...) sees the source endpoint: the destination is a function of it and of
// the message's random draws (docs/language.md, "Traffic patterns").
inline constexpr uint32_t kPatternParams = 1;
// A ring holds at most this many symbols (the simulator keeps its length and head in 16 bits).
inline constexpr int64_t kMaxRingCapacity = 65535;

struct Definition {
  DefKind kind;
  std::string name;
  SourceRange range;      // the whole form
  SourceRange nameRange;  // the name, for "defined here" notes
  std::vector<Param> params;
  Type result = Type::Unit;
  uint32_t frameSize = 0;  // slots for parameters and locals
  Expr body;
  // Routing: (Hops e) gives the hop count of a pair directly; hasRoute is
  // false when the routing gives only that, no port-by-port choice.
  std::optional<Expr> hops;
  // (NominalHops e): a figure other than the route's length (RDT's sum of per-rank hops),
  // which the trace then does not compare with the routes; hopsRange: the form.
  bool hopsNominal = false;
  SourceRange hopsRange;
  bool hasRoute = true;
  // Routing: its VC classes, (Require c "message") checks evaluated with the
  // configuration, and (DefaultSelection Name).
  std::vector<VcClassDecl> vcClasses;
  std::vector<Expr> checks;
  std::string defaultSelection;
  SourceRange defaultSelectionRange;
  // (DefaultVcAllocation Atomic|NonAtomic): what the routing needs, unless (VcAllocation ...)
  // says otherwise.
  std::optional<EnumId> defaultVcAllocation;
  // (EscapeClasses name...): the network classes of a deadlock-free escape
  // sub-function, for the static check by Duato's condition.
  std::vector<std::pair<std::string, SourceRange>> escapeClasses;
  // (TokenClasses name...): network classes that only the holder of the
  // network's one recovery token may take (DISHA's deadlock-buffer lane).
  std::vector<std::pair<std::string, SourceRange>> tokenClasses;
  // (RecoveryField name): a Bool header field set while a packet recovers
  // from a deadlock; the simulator counts its setting per router.
  std::string recoveryField;
  SourceRange recoveryFieldRange;
  // Its header fields: parameter kRoutingParams + i is field i.
  std::vector<HeaderFieldDecl> headerFields;
  // PortState, (define-port-state name (Ring capacity Symbol)): a ring per input and injection
  // port of every router; its symbols are Port or (Int lo hi) (docs/prediction.md).
  int64_t ringCapacity = 0;
  Type symbolType = Type::Int;
  int64_t symbolLo = 0, symbolHi = 0;  // Port: kEjectionPortCode .. the largest port code
  // (define-router-state ...): one ring per router in place of one per port.
  bool perRouter = false;
  // Predictor: its (OnForward (push ...) ...) block, run when a header leaves by (out-port).
  std::optional<Expr> onForward;
  // Where the body reads or writes port state, and the definitions it calls with the place of
  // the first call: a routing, selection, topology or constant must not reach a state read.
  std::optional<SourceRange> stateUse;
  std::vector<std::pair<uint32_t, SourceRange>> calls;
  bool checked = false;    // the body has been type-checked
  const ast::Node* form = nullptr;
};

struct DefinitionTable {
  std::vector<Definition> defs;
  std::optional<uint32_t> find(std::string_view name) const {
    for (uint32_t i = 0; i < defs.size(); ++i)
      if (defs[i].name == name) return i;
    return std::nullopt;
  }
  std::vector<std::string_view> namesOf(DefKind kind) const {
    std::vector<std::string_view> names;
    for (const Definition& d : defs)
      if (d.kind == kind) names.push_back(d.name);
    return names;
  }
};

// The names an expression may call without defining them: operators, builtins, special forms
// (let, if, ...) and the statements of topology bodies (Link, Nodes, ...), for completion.
std::vector<std::string_view> builtinNames();

// True for the heads of definition forms.
bool isDefinitionForm(const ast::Node& form);

// Collects and type-checks every definition form of the program.
// Needs: a loaded Program. Reports malformed definitions, unknown names,
// type errors and duplicate definitions.
DefinitionTable checkDefinitions(const ast::Program& program, DiagnosticEngine& diags);

// Adds the anonymous topology of (Topology (Nodes ...) (Link ...) ...),
// whose elements from the second on are its body. Returns its index.
std::optional<uint32_t> addInlineTopology(DefinitionTable& table, const ast::Node& form,
                                          DiagnosticEngine& diags);

// Checks the arguments of `callNode` = (Name arg ...) against definition
// `def`: arity and types. The result is one expression per parameter (a
// variadic tail is one Coord expression).
std::optional<std::vector<Expr>> checkArguments(DefinitionTable& table, const ast::Node& callNode,
                                                uint32_t def, DiagnosticEngine& diags);

}  // namespace ndl::sema
