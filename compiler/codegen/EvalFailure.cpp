#include "compiler/codegen/EvalFailure.h"

#include <llvm/IR/Module.h>

namespace ndl::codegen {
namespace {

llvm::GlobalVariable* external(llvm::Module& m, llvm::Type* type, const char* name) {
  if (llvm::GlobalVariable* g = m.getGlobalVariable(name)) return g;
  return new llvm::GlobalVariable(m, type, false, llvm::GlobalValue::ExternalLinkage, nullptr,
                                  name);
}

}  // namespace

llvm::GlobalVariable* evalFailureSlot(llvm::Module& m) {
  return external(m, llvm::PointerType::get(m.getContext(), 0), "ndl_eval_failure");
}

llvm::GlobalVariable* evalStepCounter(llvm::Module& m) {
  return external(m, llvm::Type::getInt64Ty(m.getContext()), "ndl_eval_steps");
}

void recordFailure(llvm::IRBuilder<>& b, llvm::Module& m, llvm::Value* message) {
  llvm::GlobalVariable* slot = evalFailureSlot(m);
  llvm::Value* before = b.CreateLoad(slot->getValueType(), slot);
  b.CreateStore(b.CreateSelect(b.CreateIsNull(before), message, before), slot);
}

llvm::Value* failed(llvm::IRBuilder<>& b, llvm::Module& m) {
  llvm::GlobalVariable* slot = evalFailureSlot(m);
  return b.CreateIsNotNull(b.CreateLoad(slot->getValueType(), slot));
}

llvm::Value* countStep(llvm::IRBuilder<>& b, llvm::Module& m, uint64_t budget) {
  llvm::GlobalVariable* steps = evalStepCounter(m);
  llvm::Value* n = b.CreateAdd(b.CreateLoad(b.getInt64Ty(), steps), b.getInt64(1));
  b.CreateStore(n, steps);
  return b.CreateICmpUGT(n, b.getInt64(budget));
}

}  // namespace ndl::codegen
