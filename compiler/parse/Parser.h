// Parses one buffer of NDL text into an ast::Module.
#pragma once

#include <optional>

#include "compiler/ast/Ast.h"
#include "compiler/support/Diagnostics.h"
#include "compiler/support/SourceManager.h"

namespace ndl::parse {

// Deepest list nesting accepted. S-expression parameter files nest a few
// levels; the cap keeps the recursive parser far from the stack limit.
inline constexpr size_t kMaxNesting = 256;

// Lexes and parses the (already sanitized) text of `file`. Lexical errors
// are reported and become Error nodes; unbalanced parentheses or nesting
// beyond kMaxNesting are reported and give no module at all.
std::optional<ast::Module> parseFile(const SourceManager& sources, FileId file,
                                     DiagnosticEngine& diags);

}  // namespace ndl::parse
