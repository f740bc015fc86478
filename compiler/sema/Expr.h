// The typed representation of NDL's expression language: what the checker
// builds from `define`, `define-topology` and `define-routing` forms, what
// elaboration evaluates at compile time, and what code generation lowers to
// LLVM IR. Variables are resolved to frame slots; calls to definition
// indices; every node keeps the source range of the text it came from.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/support/Rational.h"
#include "compiler/support/SourceRange.h"

namespace ndl::sema {

enum class Type : uint8_t {
  Int,    // 64-bit integer
  Bool,
  Real,   // exact rational
  Node,   // a node number: a router
  Endpoint,  // an endpoint (terminal) number: numbered router by router (docs/language.md)
  Port,   // an output port: (port dim dir)
  Coord,  // a list of integers: radices, coordinates
  Route,  // candidate (output port, VC class) pairs in priority tiers (docs/routing.md)
  Size,       // quantities, exact in bits, seconds and Hz
  Time,
  Frequency,
  Unit,   // a statement: no value
  Error,  // already reported; silences follow-up errors
};

std::string_view typeName(Type t);
inline bool isQuantity(Type t) { return t == Type::Size || t == Type::Time || t == Type::Frequency; }
// Values held as exact fractions: Real and the quantities.
inline bool isRealLike(Type t) { return t == Type::Real || isQuantity(t); }

enum class Op : uint8_t {
  // values
  ConstInt, ConstBool, ConstReal, Var, Let, If, Call, ToReal, ToNode, ToInt,
  Add, Sub, Mul, Div /* exact, Real */, IntDiv, Mod, Neg, Min, Max, Abs,
  Lt, Le, Gt, Ge, Eq, Ne, And, Or, Not,
  BitAnd, BitOr, BitXor, BitNot, Shl, Shr, Bit, Popcount, LowestSetBit,
  Sum,  // (sum (i a to b) e): slot = i, kids = {a, b, e}
  // lists
  Length, Nth, Product, MakeCoord, Repeat,
  // the network being analysed (routing and traffic functions)
  NodeCount, DimCount, Radix, CoordOf, Neighbor, Wraps, HasDim, HasPort, Peer, Distance, PortDims, MakePort, PortDim, PortDir,
  // statements of topology bodies
  Seq, For /* slot, kids {from, to, body} */, When, StmtNodes, StmtRadices, StmtDimNames,
  StmtLink, StmtUniLink, StmtRepresentatives, StmtDiameter, StmtAverage,
  StmtBisection /* (Bisection links) */, StmtDefaultRouting,
  StmtRequire /* text: the message */, StmtAttribute /* text: the name */,
  StmtEndpoints /* (Endpoints router p) */, StmtConcentration /* (Concentration p) */,
  StmtGroups /* (Groups n): endpoints in groups of n consecutive ids */,
  Linked,  // (linked a b): is there already a link from a to b?
  // the network's endpoints (terminals), numbered router by router: (endpoints),
  // (endpoint-router e), (endpoint-index e), (router-endpoints r), (router-endpoint r i),
  // (endpoint i); known once the topology is built
  EndpointCount, EndpointRouter, EndpointIndex, RouterEndpoints, RouterEndpoint, ToEndpoint,
  // the configuration (VirtualChannels, InjectionVirtualChannels, Avoid)
  Vcs, InjectionVcs, Avoiding, RecoveryTimeout,
  // congestion at the router a routing runs at, of one of its output ports (kids {port}):
  // (port-queue P) flits held downstream, (port-credits P) free slots, (port-free-vcs P)
  // VCs no packet owns (docs/routing.md, "Congestion"); (port-queue-at R P) (kids {router,
  // port}) the queue of router R's port P as the clock began, the global estimate UGAL-G reads
  PortQueue, PortCreditsAt, PortFreeVcsAt, PortQueueAt,
  // candidate routes (docs/routing.md)
  RouteTo,      // (via port class): kids {port, class}; (via port): kids {port}, every VC
  RouteUnion,   // (union r...): tier by tier
  RoutePrefer,  // (prefer r...): the tiers of each, in order
  RouteNone,    // (no-route)
  RouteSet,     // (set field value route): i = header field index, kids {value, route}
  // draws at injection, in a HeaderField's initial value (docs/routing.md)
  RandomNode,   // (random-node)
  RandomBelow,  // (random n): kids {n}
  RandomEndpoint,  // (random-endpoint): in a define-pattern body
  // per-port state in predictors (docs/prediction.md): i = the port state's definition index
  RingLength,   // (ring-length h)
  RingRef,      // (ring-ref h k): kids {k}, newest first
  RingCount,    // (ring-count h x): kids {x}
  RingPush,     // (push h x): kids {x}; a statement of OnForward
};

struct Expr {
  Op op;
  Type type = Type::Error;
  SourceRange range;
  int64_t i = 0;         // ConstInt, ConstBool; Call: definition index; Var/Let/For/Sum: slot
  Rational real;         // ConstReal
  std::string text;      // StmtDimNames: names joined by '\0'; StmtDefaultRouting: name
  std::vector<Expr> kids;
};

}  // namespace ndl::sema
