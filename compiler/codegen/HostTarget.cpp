#include "compiler/codegen/HostTarget.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/TargetParser/Host.h>

namespace ndl::codegen {

HostTarget hostTarget() {
  return HostTarget{LLVM_VERSION_STRING, llvm::sys::getProcessTriple(),
                    llvm::sys::getHostCPUName().str()};
}

}  // namespace ndl::codegen
