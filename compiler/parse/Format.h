// The canonical layout of NDL source (`ndlc fmt`, docs/fmt.md): the line
// breaks stay where the author put them; indentation, spaces between tokens,
// closing parentheses, blank lines and trailing whitespace are decided here.
// Comments are kept, and the result lexes to the same tokens as the input.
#pragma once

#include <optional>
#include <string>

#include "compiler/support/Diagnostics.h"
#include "compiler/support/SourceManager.h"

namespace ndl::parse {

// Formats the (already sanitized) text of `file`. A file that does not parse
// (its errors are reported) has no layout and gives nullopt.
std::optional<std::string> formatFile(const SourceManager& sources, FileId file,
                                      DiagnosticEngine& diags);

}  // namespace ndl::parse
