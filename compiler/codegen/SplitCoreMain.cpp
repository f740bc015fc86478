// ndl_split_core WHOLE.bc PER_BUILD.bc REST.o: the simulator core split in two when NDL is
// built (CoreSplit.h). The per-build half is the bitcode every `ndlc build` links; the rest
// is optimized and compiled here, once, for this machine's CPU as the builds are.
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <cstdio>
#include <memory>
#include <string>

#include "compiler/codegen/CoreSplit.h"
#include "compiler/codegen/Passes.h"

namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "ndl_split_core: %s\n", message.c_str());
  return 1;
}

// Both halves come from the same file through the same deterministic steps, so the names
// the promotion gives agree.
std::unique_ptr<llvm::Module> half(llvm::LLVMContext& context, const char* path,
                                   ndl::codegen::CoreHalf which, std::string& error) {
  llvm::SMDiagnostic err;
  std::unique_ptr<llvm::Module> m = llvm::parseIRFile(path, err, context);
  if (!m) {
    error = err.getMessage().str();
    return nullptr;
  }
  ndl::codegen::promoteSharedLocals(*m);
  ndl::codegen::keepHalf(*m, which);
  llvm::raw_string_ostream os(error);
  if (llvm::verifyModule(*m, &os)) return nullptr;
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return fail("usage: ndl_split_core WHOLE.bc PER_BUILD.bc REST.o");
  llvm::LLVMContext context;
  std::string error;
  std::unique_ptr<llvm::Module> perBuild =
      half(context, argv[1], ndl::codegen::CoreHalf::kPerBuild, error);
  if (!perBuild) return fail(std::string(argv[1]) + ": per-build half: " + error);
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(argv[2], ec, llvm::sys::fs::OF_None);
    if (ec) return fail(std::string("cannot write ") + argv[2] + ": " + ec.message());
    llvm::WriteBitcodeToFile(*perBuild, os);
  }
  std::unique_ptr<llvm::Module> rest = half(context, argv[1], ndl::codegen::CoreHalf::kRest, error);
  if (!rest) return fail(std::string(argv[1]) + ": rest: " + error);
  std::unique_ptr<llvm::TargetMachine> tm = ndl::codegen::hostMachine(2, error);
  if (!tm) return fail(error);
  rest->setDataLayout(tm->createDataLayout());
  ndl::codegen::forHostCpu(*rest);
  ndl::codegen::optimize(*rest, tm.get(), 2);
  if (!ndl::codegen::emitObject(*rest, *tm, argv[3], error)) return fail(error);
  return 0;
}
