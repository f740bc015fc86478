#include "compiler/codegen/CoreSplit.h"

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalAlias.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <string>
#include <vector>

namespace ndl::codegen {
namespace {

using llvm::GlobalValue;

// A symbol the generated module defines: declared by the core, named ndl_* (generated_abi.h).
bool isGenerated(const GlobalValue& g) {
  return g.isDeclaration() && g.getName().startswith("ndl_");
}

void collect(const llvm::Constant* c, std::vector<const GlobalValue*>& out,
             llvm::DenseSet<const llvm::Constant*>& seen) {
  if (!seen.insert(c).second) return;
  if (const auto* g = llvm::dyn_cast<GlobalValue>(c)) {
    out.push_back(g);
    return;
  }
  for (const llvm::Value* op : c->operands())
    if (const auto* k = llvm::dyn_cast<llvm::Constant>(op)) collect(k, out, seen);
}

// The global values a definition refers to, through constant expressions too.
std::vector<const GlobalValue*> referencedBy(const GlobalValue& g) {
  std::vector<const GlobalValue*> out;
  llvm::DenseSet<const llvm::Constant*> seen;
  if (const auto* f = llvm::dyn_cast<llvm::Function>(&g)) {
    for (const llvm::BasicBlock& b : *f)
      for (const llvm::Instruction& i : b)
        for (const llvm::Value* op : i.operands())
          if (const auto* k = llvm::dyn_cast<llvm::Constant>(op)) collect(k, out, seen);
  } else if (const auto* v = llvm::dyn_cast<llvm::GlobalVariable>(&g)) {
    if (v->hasInitializer()) collect(v->getInitializer(), out, seen);
  } else if (const auto* a = llvm::dyn_cast<llvm::GlobalAlias>(&g)) {
    collect(a->getAliasee(), out, seen);
  }
  return out;
}

bool isAppending(const GlobalValue& g) { return g.hasAppendingLinkage(); }

// The per-build half: definitions that use the generated module. A function or alias joins
// when it refers to a generated symbol or to a function or alias that joined (so nothing in
// the rest calls into the per-build half); a variable joins when its initializer does (a
// table of such functions), which does not pull in the functions that read it.
llvm::DenseSet<const GlobalValue*> perBuildSet(const llvm::Module& m) {
  std::vector<std::pair<const GlobalValue*, std::vector<const GlobalValue*>>> defs;
  for (const llvm::Function& f : m)
    if (!f.isDeclaration()) defs.emplace_back(&f, referencedBy(f));
  for (const llvm::GlobalVariable& v : m.globals())
    if (v.hasInitializer() && !isAppending(v)) defs.emplace_back(&v, referencedBy(v));
  for (const llvm::GlobalAlias& a : m.aliases()) defs.emplace_back(&a, referencedBy(a));
  llvm::DenseSet<const GlobalValue*> in;
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [g, refs] : defs) {
      if (in.contains(g)) continue;
      for (const GlobalValue* r : refs) {
        const bool code = llvm::isa<llvm::Function>(r) || llvm::isa<llvm::GlobalAlias>(r);
        if (isGenerated(*r) || (code && in.contains(r))) {
          in.insert(g);
          changed = true;
          break;
        }
      }
    }
  }
  return in;
}

// An alias replaced by a declaration of its name (a definition must stay in one half).
void declareAlias(llvm::GlobalAlias& a) {
  llvm::Module& m = *a.getParent();
  GlobalValue* decl = nullptr;
  if (auto* fty = llvm::dyn_cast<llvm::FunctionType>(a.getValueType())) {
    decl = llvm::Function::Create(fty, GlobalValue::ExternalLinkage, "", m);
  } else {
    decl = new llvm::GlobalVariable(m, a.getValueType(), false, GlobalValue::ExternalLinkage,
                                    nullptr, "");
  }
  decl->takeName(&a);
  decl->setVisibility(a.getVisibility());
  a.replaceAllUsesWith(decl);
  a.eraseFromParent();
}

void declare(llvm::GlobalVariable& v) {
  v.setInitializer(nullptr);
  v.setComdat(nullptr);
  v.setLinkage(GlobalValue::ExternalLinkage);
}

// Keeps the entries of llvm.global_ctors / llvm.global_dtors whose function `keep` accepts:
// each static initializer runs in one half only.
void filterStructors(llvm::Module& m, const char* name,
                     const std::function<bool(const llvm::Function&)>& keep) {
  llvm::GlobalVariable* list = m.getGlobalVariable(name);
  if (!list || !list->hasInitializer()) return;
  auto* array = llvm::dyn_cast<llvm::ConstantArray>(list->getInitializer());
  if (!array) return;
  llvm::SmallVector<llvm::Constant*, 8> kept;
  for (llvm::Value* op : array->operands()) {
    auto* entry = llvm::cast<llvm::ConstantStruct>(op);
    auto* fn = llvm::dyn_cast<llvm::Function>(entry->getOperand(1)->stripPointerCasts());
    if (!fn || keep(*fn)) kept.push_back(entry);
  }
  if (kept.size() == array->getNumOperands()) return;
  auto* type = llvm::ArrayType::get(array->getType()->getElementType(), kept.size());
  auto* fresh = new llvm::GlobalVariable(m, type, false, GlobalValue::AppendingLinkage,
                                         llvm::ConstantArray::get(type, kept), "");
  fresh->takeName(list);
  list->eraseFromParent();
}

// Local declarations left behind by deleted bodies: erased when unused.
void dropDeadLocals(llvm::Module& m) {
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::Function& f : llvm::make_early_inc_range(m)) {
      if (f.hasLocalLinkage() && f.use_empty() && f.getName() != "main") {
        f.eraseFromParent();
        changed = true;
      }
    }
    for (llvm::GlobalVariable& v : llvm::make_early_inc_range(m.globals())) {
      if (v.hasLocalLinkage() && v.use_empty()) {
        v.eraseFromParent();
        changed = true;
      }
    }
  }
}

}  // namespace

void promoteSharedLocals(llvm::Module& core) {
  const llvm::DenseSet<const GlobalValue*> perBuild = perBuildSet(core);
  for (llvm::GlobalVariable& v : core.globals()) {
    if (!v.hasLocalLinkage() || isAppending(v)) continue;
    // A mutable variable may be reached from both halves (a rest function inlined into the
    // per-build half reads the variable of the rest); a per-build table may be read by the
    // rest. Constants are safe to copy.
    if (v.isConstant() && !perBuild.contains(&v)) continue;
    v.setName("__ndl_core." + v.getName().str());
    v.setLinkage(GlobalValue::ExternalLinkage);
    v.setVisibility(GlobalValue::HiddenVisibility);
  }
}

void keepHalf(llvm::Module& core, CoreHalf half) {
  const llvm::DenseSet<const GlobalValue*> perBuild = perBuildSet(core);
  const bool mine_is_per_build = half == CoreHalf::kPerBuild;
  auto mine = [&](const GlobalValue& g) { return perBuild.contains(&g) == mine_is_per_build; };

  filterStructors(core, "llvm.global_ctors", mine);
  filterStructors(core, "llvm.global_dtors", mine);

  std::vector<llvm::GlobalAlias*> aliases;
  for (llvm::GlobalAlias& a : core.aliases())
    if (!mine(a)) aliases.push_back(&a);
  for (llvm::GlobalAlias* a : aliases) declareAlias(*a);

  for (llvm::Function& f : core) {
    if (f.isDeclaration()) continue;
    if (mine(f)) {
      // The rest is compiled into an object the per-build half calls: nothing of it may be
      // dropped as unused there.
      if (!mine_is_per_build && f.hasLinkOnceLinkage())
        f.setLinkage(f.hasLinkOnceODRLinkage() ? GlobalValue::WeakODRLinkage
                                               : GlobalValue::WeakAnyLinkage);
      continue;
    }
    if (mine_is_per_build) {
      // A body for the inliner only; the definition is the rest's. Local functions are
      // copied: they hold no state.
      if (f.hasLocalLinkage()) continue;
      f.setLinkage(GlobalValue::AvailableExternallyLinkage);
      f.setComdat(nullptr);
    } else {
      f.deleteBody();
      f.setComdat(nullptr);
    }
  }

  for (llvm::GlobalVariable& v : core.globals()) {
    if (!v.hasInitializer() || isAppending(v)) continue;
    if (mine(v)) {
      if (!mine_is_per_build && v.hasLinkOnceLinkage())
        v.setLinkage(v.hasLinkOnceODRLinkage() ? GlobalValue::WeakODRLinkage
                                               : GlobalValue::WeakAnyLinkage);
      continue;
    }
    if (v.hasLocalLinkage()) continue;  // a constant, copied
    if (mine_is_per_build && v.isConstant()) {
      // Its value stays visible to the optimizer (vtables, tables); its definition is the
      // rest's.
      v.setLinkage(GlobalValue::AvailableExternallyLinkage);
      v.setComdat(nullptr);
    } else {
      declare(v);
    }
  }

  dropDeadLocals(core);
  llvm::removeFromUsedLists(core, [](llvm::Constant* c) {
    const auto* g = llvm::dyn_cast<GlobalValue>(c->stripPointerCasts());
    return g && (g->isDeclaration() || g->hasAvailableExternallyLinkage());
  });
  // Comdats no longer used by any definition.
  std::vector<std::string> unused;
  llvm::DenseSet<const llvm::Comdat*> used;
  for (const llvm::GlobalObject& o : core.global_objects())
    if (const llvm::Comdat* c = o.getComdat()) used.insert(c);
  for (auto& entry : core.getComdatSymbolTable())
    if (!used.contains(&entry.second)) unused.push_back(entry.first().str());
  for (const std::string& name : unused) core.getComdatSymbolTable().erase(name);
  if (mine_is_per_build) core.addModuleFlag(llvm::Module::Warning, kCoreSplitFlag, 1);
}

}  // namespace ndl::codegen
