// What the code a network runs can read: a definition reads a builtin when its own
// expressions hold it or a definition it calls (directly or through others) reads it. The
// checker warns about a parameter that only a builtin reads when nothing reads it.
#pragma once

#include <cstdint>
#include <span>

#include "compiler/sema/Definitions.h"

namespace ndl::elab {

// Does any expression of the definitions `roots`, or of a definition they call, hold `op`?
// Every expression of a definition counts: its body, (Hops ...), (Require ...) checks, VC
// class counts and header fields (ranges and initial values).
bool reaches(const sema::DefinitionTable& defs, std::span<const uint32_t> roots, sema::Op op);

}  // namespace ndl::elab
