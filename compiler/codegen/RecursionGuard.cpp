#include "compiler/codegen/RecursionGuard.h"

#include <fmt/format.h>
#include <llvm/ADT/SCCIterator.h>
#include <llvm/Analysis/CallGraph.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <vector>

#include "compiler/codegen/EvalFailure.h"

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

namespace {

// Whether `v` is what its function returns, unchanged: returned right after it is computed, or
// carried there through the PHI nodes of the blocks an `if` or `cond` joins in. A call in that
// place is a tail call, which the optimizer turns into a jump: it takes no stack.
bool returnedAsIs(llvm::Value* v, llvm::Instruction* next) {
  if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(next))
    return ret->getReturnValue() == v || (!ret->getReturnValue() && v->getType()->isVoidTy());
  auto* br = llvm::dyn_cast<llvm::BranchInst>(next);
  if (!br || br->isConditional()) return false;
  llvm::BasicBlock* to = br->getSuccessor(0);
  for (llvm::PHINode& phi : to->phis())
    if (phi.getIncomingValueForBlock(br->getParent()) == v)
      return returnedAsIs(&phi, to->getFirstNonPHI());
  return false;
}

}  // namespace

void guardRecursion(llvm::Module& m, uint32_t maxDepth, uint64_t maxSteps,
                    bool selfTailCallsFree) {
  std::set<llvm::Function*> recursive = recursiveFunctions(m);
  if (recursive.empty()) return;
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  // The nesting of recursive calls now under way (one thread runs the simulator). A function's
  // tail call of itself does not nest when the optimizer turns it into a jump
  // (`selfTailCallsFree`): a search over the dimensions keeps its loop (unrolled over a few
  // known dimensions), and only the step budget bounds it.
  auto* depth = new llvm::GlobalVariable(m, i64, false, llvm::GlobalValue::InternalLinkage,
                                         llvm::ConstantInt::get(i64, 0), "ndl.depth");
  for (llvm::Function* f : recursive) {
    if (f->isDeclaration()) continue;
    // Calls into the cycle that are not tail calls count one level each.
    std::vector<llvm::CallInst*> nesting;
    for (llvm::BasicBlock& bb : *f)
      for (llvm::Instruction& i : bb)
        if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i))
          if (recursive.count(call->getCalledFunction()) &&
              !(selfTailCallsFree && call->getCalledFunction() == f &&
                returnedAsIs(call, call->getNextNode())))
            nesting.push_back(call);
    for (llvm::CallInst* call : nesting) {
      llvm::IRBuilder<> cb(call);
      llvm::Value* level = cb.CreateLoad(i64, depth);
      cb.CreateStore(cb.CreateAdd(level, cb.getInt64(1)), depth);
      cb.SetInsertPoint(call->getNextNode());
      cb.CreateStore(level, depth);
    }
    // The body after the entry block's allocas becomes the guarded part.
    llvm::BasicBlock& entry = f->getEntryBlock();
    auto first = entry.begin();
    while (llvm::isa<llvm::AllocaInst>(*first)) ++first;
    llvm::BasicBlock* body = entry.splitBasicBlock(first, "guarded");
    entry.getTerminator()->eraseFromParent();
    llvm::IRBuilder<> b(&entry);
    llvm::Value* deep = b.CreateICmpUGE(b.CreateLoad(i64, depth), b.getInt64(maxDepth));
    llvm::Value* long_ = countStep(b, m, maxSteps);
    auto* stop = llvm::BasicBlock::Create(ctx, "stop", f);
    b.CreateCondBr(b.CreateOr(b.CreateOr(deep, long_), failed(b, m)), stop, body,
                   llvm::MDBuilder(ctx).createBranchWeights(1, 1 << 20));

    b.SetInsertPoint(stop);
    const std::string name = f->getName().drop_front(4).str();  // "ndl."
    llvm::Constant* tooDeep = b.CreateGlobalStringPtr(
        fmt::format("calls nest deeper than {} levels in '{}'; is the recursion missing its base "
                    "case?",
                    maxDepth, name),
        "ndl.eval.failure");
    llvm::Constant* tooLong = b.CreateGlobalStringPtr(
        fmt::format("evaluation takes more than {} steps (iterations of sum, calls of recursive "
                    "functions) in '{}'; is a recursion or a loop bound wrong?",
                    maxSteps, name),
        "ndl.eval.failure");
    recordFailure(b, m, b.CreateSelect(deep, tooDeep, tooLong));
    b.CreateRet(llvm::Constant::getNullValue(f->getReturnType()));
  }
}

}  // namespace ndl::codegen
