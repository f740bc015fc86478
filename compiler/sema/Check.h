// The checker: from a loaded program to its Parameters.
#pragma once

#include <optional>

#include "compiler/ast/Ast.h"
#include "compiler/sema/Definitions.h"
#include "compiler/sema/Parameters.h"
#include "compiler/sema/Rules.h"
#include "compiler/support/Diagnostics.h"

namespace ndl::sema {

// The checked program: its definitions and its parameters, which refer to
// each other by index.
struct CheckedProgram {
  DefinitionTable defs;
  Parameters params;
  // A library (Requirement::SimulationOrLibrary, definitions and imports only): its
  // definitions are checked; it describes no network, so `params` holds the defaults.
  bool library = false;
};

// Checks every form (readForms), the definitions (checkDefinitions), the
// rules between forms (resolve) and binds the network to its definitions
// (bindNetwork). Needs: a Program from parse::Loader. Returns nullopt if any
// error was reported; warnings do not stop it. The result points into
// `program`.
// `need`: Requirement::Network checks a program that only describes a network;
// Requirement::SimulationOrLibrary also accepts a library (CheckedProgram::library)
// (Rules.h).
std::optional<CheckedProgram> check(const ast::Program& program, DiagnosticEngine& diags,
                                    Requirement need = Requirement::Simulation);

}  // namespace ndl::sema
