// The simulator core split in two when NDL is built (docs/codegen.md, "The core in two
// halves"). Most of the core (the network's constructor, the traffic sources, statistics
// hooks, parameter handling) does not depend on the generated module; compiled again by
// every `ndlc build`, it was half of the build's time. The split keeps in the core bitcode
// only what uses the generated module (the cycle loop, the router step, the route glue,
// main); the rest is compiled once into simcore-rest.o. Its functions stay in the bitcode
// as available_externally bodies, so the build still inlines them where it did.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace ndl::codegen {

// The module flag that marks a split core: a build that links it also links the rest.
inline constexpr const char* kCoreSplitFlag = "ndl.core-split";

enum class CoreHalf { kPerBuild, kRest };

// Gives every mutable local global variable that both halves may reach a unique external
// (hidden) name, so that the two halves share one object. Run once, before the module is
// copied into its two halves.
void promoteSharedLocals(llvm::Module& core);

// Rewrites a copy of the promoted core into one half. The per-build half keeps the
// definitions that use a symbol of the generated module (declared in the core, named
// ndl_*) or, transitively, such a definition; the others become available_externally
// (functions, constants) or declarations. The rest half keeps the others, forced to be
// emitted, and declares the per-build ones.
void keepHalf(llvm::Module& core, CoreHalf half);

}  // namespace ndl::codegen
