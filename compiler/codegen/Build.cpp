// The build of a simulator: generated module + simulator core bitcode ->
// one optimized module -> host object -> executable (system linker).
#include <fmt/format.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Host.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "SimulatorPaths.h"
#include "compiler/codegen/Codegen.h"
#include "compiler/codegen/SimulatorModule.h"
#include "compiler/support/InternalError.h"

namespace ndl::codegen {
namespace {

namespace fs = std::filesystem;

Diagnostic& buildError(DiagnosticEngine& diags, const std::string& what, std::string message) {
  return diags.reportFile(DiagKind::BuildFailed, what, std::move(message));
}

std::unique_ptr<llvm::TargetMachine> hostMachine(int optLevel, DiagnosticEngine& diags) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::string triple = llvm::sys::getProcessTriple();
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    buildError(diags, "ndlc", fmt::format("LLVM has no target for {}: {}", triple, error));
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

// The simulator core: simcore.bc runs only the generated routing (the
// specialized build), simcore-plain.bc every routing (--unspecialized);
// `chosen` instead when given (emit-llvm --core-bitcode).
std::unique_ptr<llvm::Module> readCore(llvm::LLVMContext& context, bool plain,
                                       DiagnosticEngine& diags, const std::string& chosen = {}) {
  std::string path = !chosen.empty() ? chosen
                                     : std::string(NDL_SIM_DIR) +
                                           (plain ? "/simcore-plain.bc" : "/simcore.bc");
  llvm::SMDiagnostic err;
  std::unique_ptr<llvm::Module> core = llvm::parseIRFile(path, err, context);
  if (!core) {
    buildError(diags, path, fmt::format("cannot read the simulator core bitcode: {}",
                                        err.getMessage().str()))
        .withHint(
            "build the ndlc target, which builds the core with the driver (cmake --build build "
            "--target ndlc)");
  }
  return core;
}

// The core was compiled for baseline x86-64 (it is built once, with NDL); the simulator
// runs where it is built, so the core's functions take this CPU's features from the target
// machine like the generated code (BMI's shifts and bit scans in the router step).
void forHostCpu(llvm::Module& core) {
  for (llvm::Function& f : core) {
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("target-features");
    f.removeFnAttr("tune-cpu");
  }
}

// Links the simulator core (bitcode built with ndlc) into the module so
// that one optimization sees the cycle loop and the routing function.
bool linkCore(llvm::Module& module, const std::string& path, DiagnosticEngine& diags) {
  std::unique_ptr<llvm::Module> core = readCore(module.getContext(), false, diags, path);
  if (!core) return false;
  core->setTargetTriple(module.getTargetTriple());
  forHostCpu(*core);
  if (llvm::Linker::linkModules(module, std::move(core))) {
    internalError("linking the simulator core bitcode with the generated module failed");
  }
  return true;
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

// The generated module optimized alone first, its NDL helpers (local functions: a
// routing's `define`s, memo lookups) inlined where LLVM's default threshold says so; those
// left are then kept out of line. Linked with the core, the route's entry is inlined into
// the router step; without this, the core's training profile marks the calls inside it hot
// and the inliner takes every helper into each of the route's three copies at a threshold of
// 3,000 (bench/RESULTS.md, "Code generation": the INSIGHT example's IR grew by 40% and its
// build by about a second for it).
void keepHelpersOutOfLine(llvm::Module& module, llvm::TargetMachine* tm, int optLevel) {
  optimize(module, tm, optLevel);
  for (llvm::Function& f : module) {
    if (f.isDeclaration() || !f.hasLocalLinkage() ||
        f.hasFnAttribute(llvm::Attribute::AlwaysInline)) {
      continue;
    }
    f.addFnAttr(llvm::Attribute::NoInline);
  }
}

std::unique_ptr<llvm::Module> prepare(llvm::LLVMContext& context,
                                      const sema::CheckedProgram& program,
                                      const elab::Network& network, const CodegenOptions& options,
                                      llvm::TargetMachine* tm, DiagnosticEngine& diags) {
  if (!network.routingDef) {
    buildError(diags, program.params.topology.text,
               "the network has no routing: give (RoutingAlgorithm Name)")
        .withHint("define one with (define-routing (Name) ...)");
    return nullptr;
  }
  std::unique_ptr<llvm::Module> m = buildSimulatorModule(context, program, network, options, diags);
  if (!m) return nullptr;
  if (tm) m->setDataLayout(tm->createDataLayout());
  if (options.linkRuntime && !options.unspecialized) {
    if (options.optimize) keepHelpersOutOfLine(*m, tm, options.optLevel);
    if (!linkCore(*m, options.coreBitcode, diags)) return nullptr;
    // Nothing outside the module calls the routing glue: internal, it
    // inlines into the router step (external, the inliner keeps a copy and
    // weighs it as shared).
    for (const char* name :
         {"ndl_generated_route", "ndl_user_route", "ndl_has_port", "ndl_peer", "ndl_distance"})
      if (llvm::Function* f = m->getFunction(name); f && !f->isDeclaration()) {
        f->setLinkage(llvm::GlobalValue::InternalLinkage);
        f->addFnAttr(llvm::Attribute::AlwaysInline);
      }
  }
  if (options.optimize) optimize(*m, tm, options.optLevel);
  return m;
}

bool emitObject(llvm::Module& m, llvm::TargetMachine& tm, const std::string& path,
                DiagnosticEngine& diags) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    buildError(diags, path, fmt::format("cannot write '{}': {}", path, ec.message()));
    return false;
  }
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, llvm::CGFT_ObjectFile))
    internalError("the host target cannot emit object files");
  pm.run(m);
  return true;
}

}  // namespace

std::vector<std::string> runtimeFiles() {
  std::string dir = NDL_SIM_DIR;
  return {dir + "/simcore.bc", dir + "/simcore-plain.bc", dir + "/libndl_simrt.a"};
}

uint64_t contentHash(std::string_view data, uint64_t seed) {
  uint64_t h = seed;
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

bool emitLLVM(const sema::CheckedProgram& program, const elab::Network& network,
              const CodegenOptions& options, std::ostream& out, DiagnosticEngine& diags) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::TargetMachine> tm = hostMachine(options.optLevel, diags);
  if (!tm) return false;
  std::unique_ptr<llvm::Module> m = prepare(context, program, network, options, tm.get(), diags);
  if (!m) return false;
  std::string text;
  llvm::raw_string_ostream os(text);
  m->print(os, nullptr);
  out << os.str();
  return true;
}

bool buildSimulator(const sema::CheckedProgram& program, const elab::Network& network,
                    const CodegenOptions& options, const std::string& outPath,
                    DiagnosticEngine& diags) {
  // Fail early, before the expensive steps, on an output we cannot write.
  {
    std::error_code ec;
    fs::path parent = fs::absolute(outPath, ec).parent_path();
    if (!fs::is_directory(parent, ec)) {
      buildError(diags, outPath, fmt::format("cannot write '{}': no directory {}", outPath,
                                             parent.string()));
      return false;
    }
    if (fs::is_directory(outPath, ec)) {
      buildError(diags, outPath, fmt::format("cannot write '{}': it is a directory", outPath));
      return false;
    }
    std::ofstream probe(outPath + ".ndl-probe");
    if (!probe) {
      buildError(diags, outPath, fmt::format("cannot write '{}': permission denied", outPath))
          .withHint("choose another output path with -o");
      return false;
    }
    probe.close();
    fs::remove(outPath + ".ndl-probe", ec);
  }
  llvm::ErrorOr<std::string> linker = llvm::sys::findProgramByName("c++");
  if (!linker) linker = llvm::sys::findProgramByName("g++");
  if (!linker) linker = llvm::sys::findProgramByName("clang++");
  if (!linker) {
    buildError(diags, outPath, "no C++ linker found: looked for c++, g++ and clang++ on PATH")
        .withHint("install one (Debian: apt-get install g++)");
    return false;
  }

  llvm::LLVMContext context;
  std::unique_ptr<llvm::TargetMachine> tm = hostMachine(options.optLevel, diags);
  if (!tm) return false;
  std::unique_ptr<llvm::Module> m = prepare(context, program, network, options, tm.get(), diags);
  if (!m) return false;

  std::vector<std::string> objects = {outPath + ".o"};
  bool emitted = emitObject(*m, *tm, objects[0], diags);
  if (emitted && options.unspecialized) {
    // The same core, optimized by the same passes, but alone.
    std::unique_ptr<llvm::Module> core = readCore(context, true, diags);
    emitted = core != nullptr;
    if (emitted) {
      core->setTargetTriple(m->getTargetTriple());
      core->setDataLayout(tm->createDataLayout());
      forHostCpu(*core);
      if (options.optimize) optimize(*core, tm.get(), options.optLevel);
      objects.push_back(outPath + ".core.o");
      emitted = emitObject(*core, *tm, objects[1], diags);
    }
  }
  auto removeObjects = [&] {
    std::error_code ec;
    for (const std::string& o : objects) fs::remove(o, ec);
  };
  if (!emitted) {
    removeObjects();
    return false;
  }

  std::string dir = NDL_SIM_DIR;
  std::vector<std::string> args = {*linker};
  args.insert(args.end(), objects.begin(), objects.end());
  args.push_back(dir + "/libndl_simrt.a");
  for (const auto& lib : {"-lspdlog", "-lfmt", "-lpthread"}) args.push_back(lib);
  args.push_back("-o");
  args.push_back(outPath);
  std::vector<llvm::StringRef> refs(args.begin(), args.end());
  std::string log = outPath + ".link.log";
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log),
                                                llvm::StringRef(log)};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*linker, refs, std::nullopt, redirects, 0, 0, &message);
  removeObjects();
  std::error_code ec;
  if (rc != 0) {
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    buildError(diags, outPath,
               fmt::format("linking the simulator failed ({}): {}", message.empty() ? *linker : message,
                           text.substr(0, 2000)));
    fs::remove(log, ec);
    return false;
  }
  fs::remove(log, ec);
  return true;
}

}  // namespace ndl::codegen
