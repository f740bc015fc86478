// One editor document checked by the compiler's own front end (driver/Pipeline.h), exactly as
// `ndlc check` checks the file, and what the server looks up in the result: the syntax node
// under the cursor and the definition a name refers to.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/driver/Pipeline.h"
#include "compiler/elaborate/Metrics.h"

namespace ndl::lsp {

struct Analysis {
  SourceManager sources;
  DiagnosticEngine diags{sources, DiagOptions{false, 200}};
  driver::FrontEndResult result;
  FileId main = kNoFile;
  // The routing's analysis (RouteWorker), when it has ended: its diagnostics, reported
  // against `sources`; null before, and for a program that did not reach it.
  std::unique_ptr<DiagnosticEngine> routeDiags;
  // The definitions of a program the checker refused (checked alone, their errors unshown:
  // the checker's own are in diags).
  std::optional<sema::DefinitionTable> fallbackDefs;
  // A main file whose parentheses do not balance has no module; its top-level forms before
  // the first that does not close stand in for it (document symbols, hover, definitions).
  std::optional<ast::Module> partial;
  // The network's distances, computed by the first hover on its Topology (all-pairs BFS:
  // too slow to redo per hover on a large network, not needed by most analyses). Read and
  // written only under the server's lock.
  mutable std::optional<elab::DistanceStats> distances;

  // The main file's top-level forms (empty when it could not be read).
  const std::vector<ast::Node>& forms() const;
  // The nodes from a top-level form down to the innermost one holding (line, col), 1-based in
  // code points; empty when no form holds it.
  std::vector<const ast::Node*> pathAt(uint32_t line, uint32_t col) const;
  // The definitions, when the checker got as far as building them.
  const sema::DefinitionTable* defs() const;
};

// Checks `text` as the file `path` ("" for a buffer that is no file: its imports resolve
// against the current directory), as `ndlc check` does but for the routing's analysis, which
// the server runs after (RouteWorker; needsRouteAnalysis). `displayName` names the file in
// the diagnostics.
std::unique_ptr<Analysis> analyze(const std::string& displayName, const std::filesystem::path& path,
                                  const std::string& text, const std::filesystem::path& stdlibDir);

// True when the front end elaborated the network without errors: the routing's analysis
// (`ndlc check`'s last step) is still to run.
bool needsRouteAnalysis(const Analysis& a);

}  // namespace ndl::lsp
