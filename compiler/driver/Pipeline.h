// The compiler's passes in order, in one readable place:
//   load (read files, check encoding, lex, parse, follow imports, prelude)
//   -> check (forms, definitions, units, rules between forms) -> CheckedProgram
//   -> elaborate (run the topology, validate the graph, resolve the routing)
//   -> trace the routing's routes (an error when one fails) and analyse its deadlock freedom
//      (a warning when it can deadlock)
// Each stage stops the pipeline when it reported errors.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ast/Ast.h"
#include "compiler/elaborate/Deadlock.h"
#include "compiler/elaborate/Elaborate.h"
#include "compiler/sema/Check.h"
#include "compiler/support/Diagnostics.h"
#include "compiler/support/SourceManager.h"

namespace ndl::driver {

enum class Stage { Parse, Sema, Elaborate };

struct PipelineOptions {
  std::filesystem::path stdlibDir;
  std::optional<Stage> dumpAfter;  // print the intermediate form to stdout
  // The routing's analysis (checkDeadlock): its routes traced and its channel dependencies
  // followed, or none (`ndlc build` runs it on a thread of its own; `ndlc info --no-deadlock`).
  bool routeAnalysis = true;
  std::vector<std::string> overrides;  // --set Name=Value (parse/Overrides.h)
  // Network: the program need only describe a network (ndlc info); Simulation: a whole run.
  sema::Requirement requirement = sema::Requirement::Simulation;
  // The main file's text in place of reading it (an editor's unsaved buffer, ndlc lsp); its
  // imports are still read from disk, relative to the file's folder.
  std::optional<std::string> mainText;
};

// The evaluator refers to the checked definitions and the routings to the network, all inside
// the result: it stays where it was filled.
struct FrontEndResult {
  FrontEndResult() = default;
  FrontEndResult(const FrontEndResult&) = delete;
  FrontEndResult& operator=(const FrontEndResult&) = delete;
  std::optional<ast::Program> program;
  std::optional<sema::CheckedProgram> checked;
  std::unique_ptr<elab::Evaluator> evaluator;  // routing functions run on it
  std::optional<elab::Network> network;
  std::optional<elab::DeadlockResult> deadlock;
};

// Runs the passes on one file ("-" for standard input), through elaboration and the
// routing's analysis, into `result` (empty).
void runFrontEnd(const std::string& path, const PipelineOptions& options, SourceManager& sources,
                 DiagnosticEngine& diags, FrontEndResult& result);

// The memory a simulator of the elaborated network would take
// (runtime/net/memory_estimate.h): ports counted by channel; 0 for a program that only
// describes a network (no buffer size).
double simulatorMemoryBytes(const FrontEndResult& result);

// The analysis of the elaborated network's routing: an error when the routing fails, a note
// when its routes could not be traced (the network is too large for it), a warning when its
// channel dependencies have a cycle. `evaluator`: the routings run on this one (reporting to
// its diagnostics) instead of the result's, for an analysis on a thread of its own; `limits`:
// the analyses' budgets.
void checkDeadlock(FrontEndResult& result, DiagnosticEngine& diags,
                   elab::Evaluator* evaluator = nullptr, const elab::Limits& limits = {});

// The stdlib directory: $NDL_STDLIB, else share/ndl/stdlib beside the
// installed binary, else the source tree's stdlib/.
std::filesystem::path defaultStdlibDir(const char* argv0);

// The folder holding the `ndl` Python package (ndlc sweep runs its engine, ndl.engine, from
// it): share/ndl/python beside the binary (the build tree) or beside its bin/ folder (an
// installed prefix); empty when neither has it.
std::filesystem::path defaultPythonDir();

}  // namespace ndl::driver
