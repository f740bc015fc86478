// The evaluator's table of remembered search results (EvalMemo.cpp). Private
// to compiler/elaborate.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "compiler/elaborate/Evaluator.h"

namespace ndl::elab {

// Direct-mapped, keyed by the exact arguments: a collision costs a
// recomputation, never a wrong result.
struct Evaluator::MemoTable {
  static constexpr size_t kMaxArgs = 6;
  struct Slot {
    uint32_t def = UINT32_MAX;  // UINT32_MAX: empty
    uint32_t arity = 0;
    Value args[kMaxArgs];
    Value result;
    bool holds(uint32_t d, std::span<const Value> a) const {
      if (def != d || arity != a.size()) return false;
      for (size_t i = 0; i < a.size(); ++i)
        if (args[i].a != a[i].a || args[i].b != a[i].b) return false;
      return true;
    }
  };
  std::vector<Slot> slots;

  MemoTable();
  Slot& slotFor(uint32_t def, std::span<const Value> args);
  void clear();
};

}  // namespace ndl::elab
