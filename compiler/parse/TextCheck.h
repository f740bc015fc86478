// Checks raw file bytes before lexing: NUL bytes and invalid UTF-8 are
// reported with their position and replaced, so that the lexer only ever
// sees valid text and every later column is right.
#pragma once

#include <string>

#include "compiler/support/Diagnostics.h"

namespace ndl::parse {

// Reports the first NUL byte and the first invalid UTF-8 sequence of the
// file (one mistake, one message) and returns the text with every such byte
// replaced by a space or '?'. A UTF-8 byte-order mark becomes a space.
std::string sanitizeText(const std::string& bytes, FileId file, DiagnosticEngine& diags);

}  // namespace ndl::parse
