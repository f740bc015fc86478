// Remembered results of the functions that start a recursive search.
//
// NDL functions are pure: a result depends on the arguments and on the
// network, which is fixed while routes are traced. A routing that searches
// (RDT's vector routing minimizes over candidate offsets of the top-rank
// torus at every hop, several times per hop) repeats the search for the same
// offsets at every node of every route, although the offsets take far fewer
// values than (node, destination) pairs. The route trace and the deadlock
// check of a 4,096-node RDT spent almost all their time there.
//
// Which functions: as in the generated simulator (codegen/Memoize.cpp), those
// that are not recursive themselves but call a recursive one, the entry
// points of the searches; their arguments and result must be plain numbers
// (Int, Bool, Node, Port, Real: no lists or routes, which live in arenas).
// Left out are functions that draw random numbers, ask (linked a b) of the
// network being built, or read the configuration ((vcs) and the like,
// which is set while routings are already being evaluated); and while a
// topology is being built nothing is remembered (the network is not known
// yet). A change of the network context (Evaluator::network) drops the table.
#include "compiler/elaborate/EvalMemo.h"

#include <algorithm>

namespace ndl::elab {

using sema::Expr;
using sema::Op;
using sema::Type;

namespace {

// 32K slots (about 4 MB): RDT's searches on a 64x64 network take some 16K
// distinct argument tuples.
constexpr int kSlotBits = 15;

bool plainNumber(Type t) {
  return t == Type::Int || t == Type::Bool || t == Type::Node || t == Type::Endpoint ||
         t == Type::Port || t == Type::Real;
}

bool impure(Op op) {
  switch (op) {
    case Op::RandomNode:
    case Op::RandomBelow:
    case Op::RandomEndpoint:
    case Op::Linked:
    case Op::Vcs:
    case Op::InjectionVcs:
    case Op::Avoiding:
    case Op::RecoveryTimeout: return true;
    default: return false;
  }
}

// The definitions `e` calls directly; true when it holds an impure operation.
bool scan(const Expr& e, std::vector<uint32_t>& callees) {
  bool bad = impure(e.op);
  if (e.op == Op::Call) callees.push_back(static_cast<uint32_t>(e.i));
  for (const Expr& k : e.kids) bad |= scan(k, callees);
  return bad;
}

}  // namespace

Evaluator::MemoTable::MemoTable() : slots(size_t{1} << kSlotBits) {}

Evaluator::MemoTable::Slot& Evaluator::MemoTable::slotFor(uint32_t def,
                                                           std::span<const Value> args) {
  uint64_t h = (def + 1) * 0x9E3779B97F4A7C15ULL;
  for (const Value& v : args) {
    h = (h ^ static_cast<uint64_t>(v.a)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ static_cast<uint64_t>(v.b)) * 0x94D049BB133111EBULL;
  }
  return slots[h >> (64 - kSlotBits)];
}

void Evaluator::MemoTable::clear() { std::fill(slots.begin(), slots.end(), Slot{}); }

Evaluator::~Evaluator() = default;

bool Evaluator::memoizable(uint32_t def) {
  if (memoPlan_.empty()) memoPlan_.assign(defs_.defs.size(), 0);
  if (memoPlan_[def] != 0) return memoPlan_[def] == 2;
  const size_t n = defs_.defs.size();
  // Direct callees and impurity of every definition, once.
  std::vector<std::vector<uint32_t>> callees(n);
  std::vector<uint8_t> bad(n, 0);
  for (size_t i = 0; i < n; ++i) bad[i] = scan(defs_.defs[i].body, callees[i]);
  // What each definition reaches through one or more calls.
  auto reach = [&](uint32_t from) {
    std::vector<uint8_t> seen(n, 0);
    std::vector<uint32_t> todo(callees[from].begin(), callees[from].end());
    while (!todo.empty()) {
      const uint32_t f = todo.back();
      todo.pop_back();
      if (f >= n || seen[f]) continue;
      seen[f] = 1;
      todo.insert(todo.end(), callees[f].begin(), callees[f].end());
    }
    return seen;
  };
  std::vector<int8_t> recursive(n, -1);
  auto isRecursive = [&](uint32_t f) {
    if (recursive[f] < 0) recursive[f] = reach(f)[f];
    return recursive[f] == 1;
  };
  auto decide = [&](uint32_t f) -> uint8_t {
    const sema::Definition& d = defs_.defs[f];
    if (d.kind != sema::DefKind::Function || !d.checked || !plainNumber(d.result) ||
        d.params.size() > MemoTable::kMaxArgs || bad[f])
      return 1;
    for (const sema::Param& p : d.params)
      if (p.variadic || !plainNumber(p.type)) return 1;
    const std::vector<uint8_t> seen = reach(f);
    if (seen[f]) return 1;  // recursive itself: a lookup at every level costs more than it saves
    for (size_t g = 0; g < n; ++g)
      if (seen[g] && bad[g]) return 1;
    bool search = false;
    for (uint32_t g : callees[f]) search |= g < n && isRecursive(g);
    return search ? 2 : 1;
  };
  for (uint32_t f = 0; f < n; ++f)
    if (memoPlan_[f] == 0) memoPlan_[f] = decide(f);
  return memoPlan_[def] == 2;
}

}  // namespace ndl::elab
