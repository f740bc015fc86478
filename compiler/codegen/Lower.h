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
  std::vector<int64_t> radices;
  std::vector<int64_t> strides;
  std::vector<int64_t> wraps;    // per port dimension, 0 or 1
  std::vector<int64_t> dimUsed;  // per port dimension, 0 or 1
  // The configuration: (vcs), (injection-vcs), (avoiding), and the number of
  // network VC classes, which lays out the bits of route masks.
  int64_t vcs = 1;
  int64_t injectionVcs = 1;
  bool avoiding = false;
  int64_t classes = 1;
};

// Lowers definition `def` and every definition it calls into `module` as
// internal functions taking and returning i64 (Bool 0/1, Port dim*2+(dir>0))
// or, for routes, {i64, i64, i64, i64}: one mask per priority tier, bit (port code *
// classes + class) per candidate, bit 63 for a port outside the network's
// dimensions.
// Returns nullptr after reporting a construct the code generator does not
// compile (reals, lists, topology statements).
llvm::Function* lowerDefinition(llvm::Module& module, const sema::DefinitionTable& defs,
                                uint32_t def, const NetworkConstants& network,
                                DiagnosticEngine& diags);

}  // namespace ndl::codegen
