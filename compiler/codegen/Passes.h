// The LLVM steps every build takes, shared by `ndlc build` and the core's split at NDL's
// build (CoreSplit.h): the host's target machine, the optimization pipeline, object files.
#pragma once

#include <memory>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace ndl::codegen {

// A target machine for this CPU with all its features: a simulator runs where it is built.
// Null, with `error` set, when LLVM has no target for this machine.
std::unique_ptr<llvm::TargetMachine> hostMachine(int optLevel, std::string& error);

// The core was compiled for baseline x86-64 (it is built once, with NDL); the simulator
// runs where it is built, so the core's functions take this CPU's features from the target
// machine like the generated code (BMI's shifts and bit scans in the router step).
void forHostCpu(llvm::Module& core);

// LLVM's default pipeline at -O0 to -O3.
void optimize(llvm::Module& module, llvm::TargetMachine* tm, int optLevel);

// Writes the module as an object file. False, with `error` set, when it cannot be written.
bool emitObject(llvm::Module& m, llvm::TargetMachine& tm, const std::string& path,
                std::string& error);

}  // namespace ndl::codegen
