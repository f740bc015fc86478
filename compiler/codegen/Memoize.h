// Memo tables for the searches of a generated routing function
// (Memoize.cpp says which functions and why). Private to compiler/codegen.
#pragma once

#include <cstdint>

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace ndl::codegen {

// Memoizes the helpers of `routing` in `m` that start a recursive search,
// with tables sized for a network of `nodes` nodes.
void memoizeSearches(llvm::Module& m, llvm::Function& routing, int64_t nodes);

}  // namespace ndl::codegen
