// Memo tables for the expensive helpers of a routing function.
//
// NDL functions are pure: a result depends on the arguments alone (the
// network they read is fixed for the run). A routing that searches (RDT's
// vector routing minimizes over candidate offsets of the top-rank torus)
// repeats that search at every hop, although the arguments it searches on
// (offsets between nodes) take far fewer values than (node, destination)
// pairs. A direct-mapped table keyed by the exact arguments turns the
// repeats into a lookup; a collision only costs a recomputation, so results
// never change.
//
// Which functions: those that are not recursive themselves but call a
// recursive one, the entry points of the searches. Recursive functions are
// not memoized (a lookup at every level would cost more than it saves),
// nor is the routing entry (its arguments are node pairs, which rarely
// repeat).
#include "compiler/codegen/Memoize.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <set>
#include <vector>

#include "compiler/codegen/RecursionGuard.h"

namespace ndl::codegen {
namespace {

std::vector<llvm::Function*> directCallees(llvm::Function& f) {
  std::vector<llvm::Function*> out;
  for (llvm::BasicBlock& bb : f)
    for (llvm::Instruction& i : bb)
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i))
        if (llvm::Function* callee = call->getCalledFunction()) out.push_back(callee);
  return out;
}

// Replaces every call of `f` with a call of a wrapper that looks the
// arguments up in a table of `entries` slots (a power of two) before
// calling `f`.
void memoize(llvm::Module& m, llvm::Function& f, uint64_t entries, int shift) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  const unsigned arity = f.arg_size();
  // A slot: the arguments, the result and a filled flag (1).
  auto* slot = llvm::ArrayType::get(i64, arity + 2);
  auto* tableType = llvm::ArrayType::get(slot, entries);
  auto* table = new llvm::GlobalVariable(m, tableType, false, llvm::GlobalValue::InternalLinkage,
                                         llvm::ConstantAggregateZero::get(tableType),
                                         f.getName() + ".memo");

  auto* wrapper = llvm::Function::Create(f.getFunctionType(), llvm::GlobalValue::InternalLinkage,
                                         f.getName() + ".memoized", m);
  f.replaceUsesWithIf(wrapper, [&](llvm::Use& u) {
    auto* call = llvm::dyn_cast<llvm::CallInst>(u.getUser());
    return call && call->getFunction() != wrapper;
  });

  auto* entry = llvm::BasicBlock::Create(ctx, "entry", wrapper);
  auto* hit = llvm::BasicBlock::Create(ctx, "hit", wrapper);
  auto* miss = llvm::BasicBlock::Create(ctx, "miss", wrapper);
  llvm::IRBuilder<> b(entry);
  auto index = [&](llvm::Value* s, unsigned field) {
    return b.CreateInBoundsGEP(tableType, table,
                               {b.getInt64(0), s, b.getInt64(field)});
  };
  // Multiplicative hashing of the arguments; the top bits pick the slot.
  llvm::Value* h = b.getInt64(0);
  for (llvm::Argument& a : wrapper->args())
    h = b.CreateMul(b.CreateXor(b.CreateAdd(h, b.CreateShl(h, 7)), &a),
                    b.getInt64(0x9E3779B97F4A7C15ULL));
  llvm::Value* s = b.CreateLShr(h, b.getInt64(shift));
  llvm::Value* same = b.CreateICmpEQ(b.CreateLoad(i64, index(s, arity + 1)), b.getInt64(1));
  for (unsigned k = 0; k < arity; ++k)
    same = b.CreateAnd(same, b.CreateICmpEQ(b.CreateLoad(i64, index(s, k)), wrapper->getArg(k)));
  b.CreateCondBr(same, hit, miss);

  b.SetInsertPoint(hit);
  b.CreateRet(b.CreateLoad(i64, index(s, arity)));

  b.SetInsertPoint(miss);
  std::vector<llvm::Value*> args;
  for (llvm::Argument& a : wrapper->args()) args.push_back(&a);
  llvm::Value* result = b.CreateCall(&f, args);
  for (unsigned k = 0; k < arity; ++k) b.CreateStore(wrapper->getArg(k), index(s, k));
  b.CreateStore(result, index(s, arity));
  b.CreateStore(b.getInt64(1), index(s, arity + 1));
  b.CreateRet(result);
}

}  // namespace

void memoizeSearches(llvm::Module& m, llvm::Function& routing, int64_t nodes) {
  // Sized by the network: twice the node count (the number of distinct
  // offsets), from 1,024 to 65,536 slots.
  uint64_t entries = 1024;
  int bits = 10;
  while (entries < 2 * static_cast<uint64_t>(nodes) && bits < 16) {
    entries *= 2;
    ++bits;
  }
  std::set<llvm::Function*> recursive = recursiveFunctions(m);
  std::vector<llvm::Function*> chosen;
  for (llvm::Function& f : m) {
    if (f.isDeclaration() || &f == &routing || !f.getName().startswith("ndl.")) continue;
    if (recursive.count(&f)) continue;
    // Tables hold integers: functions of routes (vectors of masks) are left alone.
    bool integers = f.getReturnType()->isIntegerTy();
    for (const llvm::Argument& a : f.args()) integers = integers && a.getType()->isIntegerTy();
    if (!integers) continue;
    for (llvm::Function* callee : directCallees(f))
      if (recursive.count(callee) && callee->getName().startswith("ndl.")) {
        chosen.push_back(&f);
        break;
      }
  }
  for (llvm::Function* f : chosen) memoize(m, *f, entries, 64 - bits);
}

}  // namespace ndl::codegen
