// The generated module of a simulator: tables, parameters and the lowered
// routing function. Private to compiler/codegen.
#pragma once

#include <memory>

#include "compiler/codegen/Codegen.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace ndl::codegen {

// Builds the module in `context`; nullptr after reporting.
std::unique_ptr<llvm::Module> buildSimulatorModule(llvm::LLVMContext& context,
                                                   const sema::CheckedProgram& program,
                                                   const elab::Network& network,
                                                   const CodegenOptions& options,
                                                   DiagnosticEngine& diags);

}  // namespace ndl::codegen
