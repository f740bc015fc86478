// How generated code reports a value the NDL evaluator refuses (generated_abi.h,
// ndl_eval_failure): the first failure of a call is kept, and the entry stops the run with it
// once the call returns. Private to compiler/codegen.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <string_view>

namespace ndl::codegen {

// The module's declaration of ndl_eval_failure (a pointer to the message, null before a
// failure) and of ndl_eval_steps (the steps of the call under way).
llvm::GlobalVariable* evalFailureSlot(llvm::Module& m);
llvm::GlobalVariable* evalStepCounter(llvm::Module& m);

// At b's insert point: keeps `message` unless a failure is recorded already.
void recordFailure(llvm::IRBuilder<>& b, llvm::Module& m, llvm::Value* message);

// At b's insert point: whether a failure is recorded.
llvm::Value* failed(llvm::IRBuilder<>& b, llvm::Module& m);

// At b's insert point: counts a step; true once the call has taken more than `budget`.
llvm::Value* countStep(llvm::IRBuilder<>& b, llvm::Module& m, uint64_t budget);

}  // namespace ndl::codegen
