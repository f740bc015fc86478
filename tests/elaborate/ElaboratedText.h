// A program given as text, loaded with the stdlib, checked and elaborated: what the
// elaboration tests that call routings and functions through the evaluator start from.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "compiler/elaborate/Elaborate.h"
#include "compiler/parse/Loader.h"
#include "compiler/sema/Check.h"

namespace ndl::elab {

struct ElaboratedText {
  SourceManager sources;
  DiagnosticEngine diags{sources, DiagOptions{false, 0}};
  ast::Program program;
  std::optional<sema::CheckedProgram> checked;
  std::unique_ptr<Evaluator> evaluator;
  std::optional<Network> network;  // empty after an error
};

inline std::unique_ptr<ElaboratedText> elaborateText(const std::string& name,
                                                     const std::string& text) {
  auto e = std::make_unique<ElaboratedText>();
  parse::Loader loader(e->sources, e->diags, parse::LoadOptions{NDL_TEST_STDLIB_DIR});
  e->program = loader.loadText(name, text);
  if (e->diags.hasErrors()) return e;
  e->checked = sema::check(e->program, e->diags);
  if (!e->checked) return e;
  e->evaluator = std::make_unique<Evaluator>(e->checked->defs, e->diags);
  e->network = elaborate(*e->checked, *e->evaluator, e->diags);
  if (e->network) e->evaluator->network().graph = &e->network->graph;
  return e;
}

}  // namespace ndl::elab
