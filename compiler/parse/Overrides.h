// `--set Name=Value` on ndlc's command line: a parameter form given outside
// the program. Each override is parsed as the form `(Name Value)` from a
// buffer of its own (diagnostics point into it as `<--set>:1:col`) and
// takes the place of the program's form of that name, wherever the program
// sets it (the main file or an import); a form the program does not set is
// added to the main file. The checker then sees one program, so an override
// obeys exactly the rules, units and conversions of a form written in the
// file (docs/language.md, "Overrides").
#pragma once

#include <string>
#include <vector>

#include "compiler/ast/Ast.h"
#include "compiler/support/Diagnostics.h"
#include "compiler/support/SourceManager.h"

namespace ndl::parse {

// Applies the overrides in order (a later one of the same name wins).
// Malformed overrides are reported; the others are still applied.
void applyOverrides(ast::Program& program, const std::vector<std::string>& overrides,
                    SourceManager& sources, DiagnosticEngine& diags);

}  // namespace ndl::parse
