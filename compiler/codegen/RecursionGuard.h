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

// Bounds the recursive functions as the evaluator bounds `ndlc check`: a call nested deeper
// than `maxDepth`, or past `maxSteps` steps of the call under way (ndl_eval_steps), records a
// failure (ndl_eval_failure, generated_abi.h) naming the function, and any call once a failure
// is recorded returns at once with 0 or the empty route. A recursion missing its base case, or
// one that branches without end, then stops the run instead of exhausting the simulator's
// stack or running on.
// A function's call of itself whose result it returns unchanged (a tail call) counts as a step
// but not as a level when `selfTailCallsFree` (the optimizer then makes it a jump: no stack).
void guardRecursion(llvm::Module& m, uint32_t maxDepth, uint64_t maxSteps,
                    bool selfTailCallsFree);

}  // namespace ndl::codegen
