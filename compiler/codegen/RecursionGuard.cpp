#include "compiler/codegen/RecursionGuard.h"

#include <fmt/format.h>
#include <llvm/ADT/SCCIterator.h>
#include <llvm/Analysis/CallGraph.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace ndl::codegen {

std::set<llvm::Function*> recursiveFunctions(llvm::Module& m) {
  std::set<llvm::Function*> out;
  llvm::CallGraph graph(m);
  for (auto it = llvm::scc_begin(&graph); !it.isAtEnd(); ++it) {
    const std::vector<llvm::CallGraphNode*>& scc = *it;
    bool cyclic = scc.size() > 1 || it.hasCycle();
    if (!cyclic) continue;
    for (llvm::CallGraphNode* node : scc)
      if (llvm::Function* f = node->getFunction(); f && f->getName().startswith("ndl."))
        out.insert(f);
  }
  return out;
}

void guardRecursion(llvm::Module& m, uint32_t maxDepth) {
  std::set<llvm::Function*> recursive = recursiveFunctions(m);
  if (recursive.empty()) return;
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  auto* ptr = llvm::PointerType::get(ctx, 0);
  // The nesting of recursive calls now under way (one thread runs the simulator).
  auto* depth = new llvm::GlobalVariable(m, i64, false, llvm::GlobalValue::InternalLinkage,
                                         llvm::ConstantInt::get(i64, 0), "ndl.depth");
  llvm::GlobalVariable* failure = m.getGlobalVariable("ndl_eval_failure");
  if (!failure)
    failure = new llvm::GlobalVariable(m, ptr, false, llvm::GlobalValue::ExternalLinkage, nullptr,
                                       "ndl_eval_failure");
  for (llvm::Function* f : recursive) {
    if (f->isDeclaration()) continue;
    // The body after the entry block's allocas becomes the guarded part.
    llvm::BasicBlock& entry = f->getEntryBlock();
    auto first = entry.begin();
    while (llvm::isa<llvm::AllocaInst>(*first)) ++first;
    llvm::BasicBlock* body = entry.splitBasicBlock(first, "guarded");
    entry.getTerminator()->eraseFromParent();
    auto* deep = llvm::BasicBlock::Create(ctx, "too.deep", f);
    llvm::IRBuilder<> b(&entry);
    llvm::Value* level = b.CreateLoad(i64, depth);
    b.CreateCondBr(b.CreateICmpUGE(level, b.getInt64(maxDepth)), deep, body,
                   llvm::MDBuilder(ctx).createBranchWeights(1, 1 << 20));
    // Restored at every return of the body.
    for (llvm::BasicBlock& bb : *f)
      if (auto* ret = llvm::dyn_cast_or_null<llvm::ReturnInst>(bb.getTerminator())) {
        llvm::IRBuilder<> rb(ret);
        rb.CreateStore(level, depth);
      }
    b.SetInsertPoint(body, body->begin());
    b.CreateStore(b.CreateAdd(level, b.getInt64(1)), depth);

    b.SetInsertPoint(deep);
    const std::string name = f->getName().drop_front(4).str();  // "ndl."
    llvm::Constant* text = b.CreateGlobalStringPtr(
        fmt::format("calls nest deeper than {} levels in '{}'; is the recursion missing its base "
                    "case?",
                    maxDepth, name),
        "ndl.eval.failure");
    llvm::Value* before = b.CreateLoad(ptr, failure);
    b.CreateStore(b.CreateSelect(b.CreateIsNull(before), text, before), failure);
    b.CreateRet(llvm::Constant::getNullValue(f->getReturnType()));
  }
}

}  // namespace ndl::codegen
