// Lowering of the typed expression IR (sema/Expr.h) to LLVM IR. Private to
// compiler/codegen; LLVM types are only forward-declared here.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/sema/Definitions.h"
#include "compiler/support/Diagnostics.h"

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace ndl::codegen {

// What the network builtins (nodes, dims, radix, coord, neighbor, wraps,
// has-dim) compile to: constants of the elaborated network.
struct NetworkConstants {
  // The unspecialized build: the values become variables the routing reads
  // at run time, as routing written for any network of the kind would, so
  // the optimizer cannot fold them.
  bool asData = false;
  int64_t nodes = 0;
  // The endpoints (terminals): how many, and whether each router has exactly one with its own
  // number (then an endpoint's router is the endpoint itself, with no table to read).
  int64_t endpoints = 0;
  bool oneEndpointEach = true;
  std::vector<int64_t> radices;
  std::vector<int64_t> strides;
  std::vector<int64_t> wraps;    // per port dimension, 0 or 1
  std::vector<int64_t> dimUsed;  // per port dimension, 0 or 1
  // The configuration: (vcs), (injection-vcs), (avoiding), and the number of
  // network VC classes, which lays out the bits of route masks.
  int64_t vcs = 1;
  int64_t injectionVcs = 1;
  bool avoiding = false;
  int64_t recoveryTimeout = 32;  // (recovery-timeout), router clocks
  int64_t classes = 1;
  // The routing's header fields: bits [offset, offset + bits) of the packet
  // header hold value - lo.
  struct Field {
    uint32_t offset = 0;
    uint32_t bits = 1;
    int64_t lo = 0;
    int64_t hi = 1;
  };
  std::vector<Field> header;
};

// The layout of a route value in generated code, as i64 fields of one
// struct: the tiers' masks, an error word, then per header field its write
// masks (one per tier: the candidates that write it) and the value written
// (already shifted into place). Error word: 0, or kind << 8 | field with
// kind 1 = a value outside the field's range, 2 = two values for the field
// in one route.
inline constexpr unsigned kRouteError = 4;
inline constexpr unsigned routeFieldMask(unsigned field, unsigned tier) { return 5 + field * 5 + tier; }
inline constexpr unsigned routeFieldValue(unsigned field) { return 5 + field * 5 + 4; }
inline constexpr unsigned routeWords(size_t fields) { return 5 + static_cast<unsigned>(fields) * 5; }
inline constexpr int64_t kHeaderOutOfRange = 1, kHeaderTwoValues = 2;

// Lowers definition `def` and every definition it calls into `module` as
// internal functions taking and returning i64 (Bool 0/1, Port dim*2+(dir>0))
// or, for routes, a struct of routeWords(fields) i64: one mask per priority
// tier, bit (port code * classes + class) per candidate, bit 63 for a port
// outside the network's dimensions; then the error word and header writes.
// Returns nullptr after reporting a construct the code generator does not
// compile (reals, lists, topology statements).
llvm::Function* lowerDefinition(llvm::Module& module, const sema::DefinitionTable& defs,
                                uint32_t def, const NetworkConstants& network,
                                DiagnosticEngine& diags);

// Lowers the initial values of routing `def`'s header fields as
// i64 ndl_user_header_init(i64 source, i64 dest, i64 random), the packed
// header; `random` seeds the packet's draws of (random-node) and (random n).
// A value outside its field's range or an empty draw is a failure
// (ndl_eval_failure) placed in the source.
// Lowers predictor `def`'s OnForward block as void ndl_user_on_forward(the routing's
// parameters, out-port): its pushes into the port state of the port a header just left.
bool lowerOnForward(llvm::Module& module, const sema::DefinitionTable& defs, uint32_t def,
                    const NetworkConstants& network, DiagnosticEngine& diags);

bool lowerHeaderInit(llvm::Module& module, const sema::DefinitionTable& defs, uint32_t def,
                     const NetworkConstants& network, DiagnosticEngine& diags);

// Lowers pattern `def` (define-pattern) as an internal i64 (i64 source, i64 random): the
// destination, its draws of (random-node) and (random n) seeded by `random`. A failure
// (ndl_eval_failure) is placed in the source. nullptr after reporting what it cannot compile.
llvm::Function* lowerPattern(llvm::Module& module, const sema::DefinitionTable& defs,
                             uint32_t def, const NetworkConstants& network,
                             DiagnosticEngine& diags);

}  // namespace ndl::codegen
