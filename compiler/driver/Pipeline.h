// The compiler's passes in order, in one readable place:
//   load (read files, check encoding, lex, parse, follow imports, prelude)
//   -> check (forms, definitions, units, rules between forms) -> CheckedProgram
//   -> elaborate (run the topology, validate the graph, resolve the routing)
//   -> analyse the deadlock freedom of the routing (a warning when it can deadlock)
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
  bool deadlockCheck = true;       // off: skip the channel-dependency analysis
  std::vector<std::string> overrides;  // --set Name=Value (parse/Overrides.h)
  // Network: the program need only describe a network (ndlc info); Simulation: a whole run.
  sema::Requirement requirement = sema::Requirement::Simulation;
};

struct FrontEndResult {
  std::optional<ast::Program> program;
  std::optional<sema::CheckedProgram> checked;
  std::unique_ptr<elab::Evaluator> evaluator;  // routing functions run on it
  std::optional<elab::Network> network;
  std::optional<elab::DeadlockResult> deadlock;
};

// Runs the passes on one file ("-" for standard input), through
// elaboration and the deadlock analysis.
FrontEndResult runFrontEnd(const std::string& path, const PipelineOptions& options,
                           SourceManager& sources, DiagnosticEngine& diags);

// The memory a simulator of the elaborated network would take
// (runtime/memory_estimate.h): ports counted by channel; 0 for a program that only
// describes a network (no buffer size).
double simulatorMemoryBytes(const FrontEndResult& result);

// The deadlock analysis of the elaborated network's routing: an error when
// the routing fails, a warning when its channel dependencies have a cycle.
void checkDeadlock(FrontEndResult& result, DiagnosticEngine& diags);

// The stdlib directory: $NDL_STDLIB, else share/ndl/stdlib beside the
// installed binary, else the source tree's stdlib/.
std::filesystem::path defaultStdlibDir(const char* argv0);

}  // namespace ndl::driver
