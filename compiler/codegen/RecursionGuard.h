// The functions of a generated routing that call themselves, and the bound on their nesting
// that the compile-time evaluator applies too. Private to compiler/codegen.
#pragma once

#include <cstdint>
#include <set>

namespace llvm {
class Function;
class Module;
}  // namespace llvm

namespace ndl::codegen {

// Functions of the generated routing (internal, named ndl.*) in a call cycle.
std::set<llvm::Function*> recursiveFunctions(llvm::Module& m);

// Bounds the nesting of the recursive functions at `maxDepth` calls: one deeper records a
// failure (ndl_eval_failure, generated_abi.h) naming the function and returns 0 or the empty
// route, so that a recursion missing its base case stops the run as the evaluator stops
// `ndlc check`, instead of exhausting the simulator's stack.
void guardRecursion(llvm::Module& m, uint32_t maxDepth);

}  // namespace ndl::codegen
