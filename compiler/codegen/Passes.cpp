#include "compiler/codegen/Passes.h"

#include <fmt/format.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Host.h>

#include "compiler/support/InternalError.h"

namespace ndl::codegen {

std::unique_ptr<llvm::TargetMachine> hostMachine(int optLevel, std::string& error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::string triple = llvm::sys::getProcessTriple();
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    error = fmt::format("LLVM has no target for {}: {}", triple, error);
    return nullptr;
  }
  llvm::TargetOptions options;
  auto level = optLevel == 0   ? llvm::CodeGenOpt::None
               : optLevel == 1 ? llvm::CodeGenOpt::Less
               : optLevel == 3 ? llvm::CodeGenOpt::Aggressive
                               : llvm::CodeGenOpt::Default;
  // The simulator runs where it is built: use every feature of this CPU.
  llvm::StringMap<bool> hostFeatures;
  std::string features;
  if (llvm::sys::getHostCPUFeatures(hostFeatures))
    for (const auto& f : hostFeatures) features += (f.second ? "+" : "-") + f.first().str() + ",";
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, llvm::sys::getHostCPUName(), features, options, llvm::Reloc::PIC_, std::nullopt,
      level));
}

void forHostCpu(llvm::Module& core) {
  for (llvm::Function& f : core) {
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("target-features");
    f.removeFnAttr("tune-cpu");
  }
}

void optimize(llvm::Module& module, llvm::TargetMachine* tm, int optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optLevel == 0   ? llvm::OptimizationLevel::O0
                                  : optLevel == 1 ? llvm::OptimizationLevel::O1
                                  : optLevel == 3 ? llvm::OptimizationLevel::O3
                                                  : llvm::OptimizationLevel::O2;
  llvm::ModulePassManager mpm = optLevel == 0 ? pb.buildO0DefaultPipeline(level)
                                              : pb.buildPerModuleDefaultPipeline(level);
  mpm.run(module, mam);
}

bool emitObject(llvm::Module& m, llvm::TargetMachine& tm, const std::string& path,
                std::string& error) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    error = fmt::format("cannot write '{}': {}", path, ec.message());
    return false;
  }
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, llvm::CGFT_ObjectFile))
    internalError("the host target cannot emit object files");
  pm.run(m);
  return true;
}

}  // namespace ndl::codegen
