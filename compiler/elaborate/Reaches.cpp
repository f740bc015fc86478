#include "compiler/elaborate/Reaches.h"

#include <vector>

namespace ndl::elab {
namespace {

// True when e holds `op`; the definitions it calls go to `calls`.
bool holds(const sema::Expr& e, sema::Op op, std::vector<uint32_t>& calls) {
  if (e.op == op) return true;
  if (e.op == sema::Op::Call) calls.push_back(static_cast<uint32_t>(e.i));
  for (const sema::Expr& k : e.kids)
    if (holds(k, op, calls)) return true;
  return false;
}

bool definitionHolds(const sema::Definition& d, sema::Op op, std::vector<uint32_t>& calls) {
  if (holds(d.body, op, calls)) return true;
  if (d.hops && holds(*d.hops, op, calls)) return true;
  for (const sema::Expr& c : d.checks)
    if (holds(c, op, calls)) return true;
  for (const sema::VcClassDecl& c : d.vcClasses)
    if (holds(c.count, op, calls)) return true;
  for (const sema::HeaderFieldDecl& f : d.headerFields) {
    if (holds(f.lo, op, calls) || holds(f.hi, op, calls)) return true;
    if (f.init && holds(*f.init, op, calls)) return true;
  }
  return false;
}

}  // namespace

bool reaches(const sema::DefinitionTable& defs, std::span<const uint32_t> roots, sema::Op op) {
  std::vector<uint8_t> seen(defs.defs.size(), 0);
  std::vector<uint32_t> todo(roots.begin(), roots.end());
  while (!todo.empty()) {
    const uint32_t d = todo.back();
    todo.pop_back();
    if (d >= defs.defs.size() || seen[d]) continue;
    seen[d] = 1;
    if (definitionHolds(defs.defs[d], op, todo)) return true;
  }
  return false;
}

}  // namespace ndl::elab
