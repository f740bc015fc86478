// The checker: from a loaded program to its Parameters.
#pragma once

#include <optional>

#include "compiler/ast/Ast.h"
#include "compiler/sema/Parameters.h"
#include "compiler/support/Diagnostics.h"

namespace ndl::sema {

// Checks every form (readForms), then the rules between them (resolve).
// Needs: a Program from parse::Loader. Returns nullopt if any error was
// reported; warnings do not stop it. The result points into `program`.
std::optional<Parameters> check(const ast::Program& program, DiagnosticEngine& diags);

}  // namespace ndl::sema
