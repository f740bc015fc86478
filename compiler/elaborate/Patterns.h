// Destination patterns written in NDL (define-pattern): the checks a program's patterns get
// before a simulator is built, as routings get their traces.
#pragma once

#include <optional>
#include <vector>

#include "compiler/elaborate/Elaborate.h"
#include "compiler/elaborate/Evaluator.h"
#include "compiler/sema/Check.h"
#include "compiler/support/Diagnostics.h"

namespace ndl::elab {

// The (define-pattern ...) definitions a program's traffic names, each once, in the order the
// simulator numbers them: the top-level pattern's first, then the classes' in declaration order.
std::vector<uint32_t> userPatterns(const sema::Parameters& p);

// The index of `def` in userPatterns(p); nullopt for a built-in pattern.
std::optional<int32_t> userPatternIndex(const sema::Parameters& p,
                                        const std::optional<uint32_t>& def);

// Evaluates every pattern of userPatterns(p) for every source endpoint and every outcome of its
// random draws ((random n), (random-node)), as a simulator would call it: an evaluation error,
// or a destination outside the network, is reported at the definition with the source that
// meets it. Each source is checked on its first min(kMaxPatternOutcomes, kMaxPatternCalls / N)
// outcomes, at least one, in the order of its draws (the simulator checks every call again).
// Needs: evaluator.network() describing `net` with its graph set. Returns false after an error.
bool checkUserPatterns(const sema::CheckedProgram& program, const Network& net,
                       Evaluator& evaluator, DiagnosticEngine& diags);

inline constexpr size_t kMaxPatternOutcomes = size_t{1} << 16;
inline constexpr uint64_t kMaxPatternCalls = uint64_t{1} << 20;

}  // namespace ndl::elab
