// What the code generator targets: the host machine, as LLVM sees it.
#pragma once

#include <string>

namespace ndl::codegen {

struct HostTarget {
  std::string llvmVersion;  // "16.0.6"
  std::string triple;       // "x86_64-pc-linux-gnu"
  std::string cpu;          // "znver3"
};

// Asks LLVM for the host's target triple and CPU.
HostTarget hostTarget();

}  // namespace ndl::codegen
