// The front end in order, in one readable place:
//   load (read files, check encoding, lex, parse, follow imports)
//   -> check (forms, units, rules between forms) -> Parameters
// Each stage stops the pipeline when it reported errors.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "compiler/ast/Ast.h"
#include "compiler/sema/Parameters.h"
#include "compiler/support/Diagnostics.h"
#include "compiler/support/SourceManager.h"

namespace ndl::driver {

enum class Stage { Parse, Sema };

struct PipelineOptions {
  std::filesystem::path stdlibDir;
  std::optional<Stage> dumpAfter;  // print the intermediate form to stdout
};

struct FrontEndResult {
  std::optional<ast::Program> program;
  std::optional<sema::Parameters> parameters;
};

// Runs the front end on one file ("-" for standard input).
FrontEndResult runFrontEnd(const std::string& path, const PipelineOptions& options,
                           SourceManager& sources, DiagnosticEngine& diags);

// The stdlib directory: $NDL_STDLIB, else share/ndl/stdlib beside the
// installed binary, else the source tree's stdlib/.
std::filesystem::path defaultStdlibDir(const char* argv0);

}  // namespace ndl::driver
