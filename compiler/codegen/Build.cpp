// The build of a simulator: generated module + simulator core bitcode ->
// one optimized module -> host object -> executable (system linker).
#include <fmt/format.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <vector>

#include "SimulatorPaths.h"
#include "compiler/codegen/Codegen.h"
#include "compiler/codegen/CoreSplit.h"
#include "compiler/codegen/Passes.h"
#include "compiler/codegen/SimulatorModule.h"
#include "compiler/support/InternalError.h"

namespace ndl::codegen {
namespace {

namespace fs = std::filesystem;

Diagnostic& buildError(DiagnosticEngine& diags, const std::string& what, std::string message) {
  return diags.reportFile(DiagKind::BuildFailed, what, std::move(message));
}

std::unique_ptr<llvm::TargetMachine> hostMachine(int optLevel, DiagnosticEngine& diags) {
  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm = codegen::hostMachine(optLevel, error);
  if (!tm) buildError(diags, "ndlc", error);
  return tm;
}

bool emitObject(llvm::Module& m, llvm::TargetMachine& tm, const std::string& path,
                DiagnosticEngine& diags) {
  std::string error;
  if (codegen::emitObject(m, tm, path, error)) return true;
  buildError(diags, path, error);
  return false;
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

// The generated module optimized alone first, its NDL helpers (local functions: a
// routing's `define`s, memo lookups) inlined where LLVM's default threshold says so; those
// left are then kept out of line. Linked with the core, the route's entry is inlined into
// the router step; without this, the core's training profile marks the calls inside it hot
// and the inliner takes every helper into each of the route's three copies at a threshold of
// 3,000 (bench/RESULTS.md, "Code generation": the INSIGHT example's IR grew by 40% and its
// build by about a second for it).
// The call-graph profile an optimization adds as a module flag is computed again by the
// last one; an earlier one (the core's, the generated module's own) left beside it makes
// two flags of one name, which the verifier refuses (emit-llvm's output).
void dropCallGraphProfile(llvm::Module& module) {
  llvm::NamedMDNode* flags = module.getModuleFlagsMetadata();
  if (!flags) return;
  std::vector<llvm::MDNode*> keep;
  for (llvm::MDNode* flag : flags->operands())
    if (llvm::cast<llvm::MDString>(flag->getOperand(1))->getString() != "CG Profile")
      keep.push_back(flag);
  flags->clearOperands();
  for (llvm::MDNode* flag : keep) flags->addOperand(flag);
}

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
         {"ndl_generated_route", "ndl_user_route", "ndl_has_port", "ndl_peer", "ndl_distance",
          "ndl_endpoint_router", "ndl_router_first_endpoint", "ndl_router_endpoints"})
      if (llvm::Function* f = m->getFunction(name); f && !f->isDeclaration()) {
        f->setLinkage(llvm::GlobalValue::InternalLinkage);
        f->addFnAttr(llvm::Attribute::AlwaysInline);
      }
  }
  if (options.optimize) {
    dropCallGraphProfile(*m);
    optimize(*m, tm, options.optLevel);
  }
  return m;
}

}  // namespace

std::vector<std::string> runtimeFiles() {
  std::string dir = NDL_SIM_DIR;
  return {dir + "/simcore.bc", dir + "/simcore-rest.o", dir + "/simcore-plain.bc",
          dir + "/libndl_simrt.a"};
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
  // A split core (CoreSplit.h): the half that does not depend on this program, compiled once.
  if (m->getModuleFlag(kCoreSplitFlag)) args.push_back(dir + "/simcore-rest.o");
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
