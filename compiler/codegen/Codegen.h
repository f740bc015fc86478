// Code generation: from a checked, elaborated program to a specialized
// native simulator. The generated LLVM module holds the network's tables,
// every parameter as a constant, and the NDL routing function lowered from
// the typed expression IR; it is linked with the runtime's simulator core
// (bitcode), optimized as one module, emitted as an object for the host and
// linked into an executable. No LLVM type appears in this header.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "compiler/elaborate/Elaborate.h"
#include "compiler/sema/Check.h"
#include "compiler/support/Diagnostics.h"

namespace ndl::codegen {

struct CodegenOptions {
  int optLevel = 2;          // 0, 1, 2 or 3
  bool optimize = true;      // emit-llvm --no-opt: the module as generated
  bool linkRuntime = true;   // link the simulator core bitcode (off for emit-llvm --module-only)
  // The unspecialized path that tests and benchmarks compare the generated
  // simulator with: the NDL routing compiled to read the network as data;
  // the core compiled from the same bitcode by the same passes, but as its
  // own object, so nothing of the network reaches it as a constant
  // (docs/codegen.md).
  bool unspecialized = false;
  // emit-llvm --core-bitcode: the simulator core to link instead of the built simcore.bc
  // (the build's profile training links an instrumented core; docs/codegen.md).
  std::string coreBitcode;
};

// Writes the module as LLVM IR text. Returns false after reporting.
bool emitLLVM(const sema::CheckedProgram& program, const elab::Network& network,
              const CodegenOptions& options, std::ostream& out, DiagnosticEngine& diags);

// Builds the simulator executable at `outPath`. Returns false after
// reporting (no linker, unwritable output, a verifier failure as an
// internal error naming the function).
bool buildSimulator(const sema::CheckedProgram& program, const elab::Network& network,
                    const CodegenOptions& options, const std::string& outPath,
                    DiagnosticEngine& diags);

// The runtime files every simulator is built from (for cache keys).
std::vector<std::string> runtimeFiles();

// A stable 64-bit hash (FNV-1a) for the build cache.
uint64_t contentHash(std::string_view data, uint64_t seed = 0xcbf29ce484222325ULL);

}  // namespace ndl::codegen
