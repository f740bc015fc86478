// Turns ANTLR's parse tree into our AST. Private to compiler/parse: the
// only header outside grammar/ that names ANTLR types.
#pragma once

#include "NDLParser.h"
#include "compiler/ast/Ast.h"
#include "compiler/support/Diagnostics.h"

namespace ndl::parse {

// Builds the module; reports stray `to`, numbers that do not fit, and
// unknown string escapes. Tokens already reported by the token check
// (unterminated strings, bad characters) become silent Error nodes.
ast::Module buildModule(ndlgen::NDLParser::ProgramContext* program, FileId file,
                        DiagnosticEngine& diags);

// The source range of a token (columns in code points, end exclusive).
SourceRange tokenRange(const antlr4::Token* token, FileId file);

}  // namespace ndl::parse
