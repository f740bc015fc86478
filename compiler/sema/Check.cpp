#include "compiler/sema/Check.h"

#include "compiler/sema/BindNetwork.h"
#include "compiler/sema/FormValues.h"
#include "compiler/sema/Rules.h"
#include "compiler/sema/SweepValues.h"

namespace ndl::sema {

std::optional<CheckedProgram> check(const ast::Program& program, DiagnosticEngine& diags,
                                    Requirement need) {
  uint32_t before = diags.errorCount();
  // The prelude's definitions do not make a program.
  size_t forms = 0;
  for (const ast::Module& m : program.modules)
    if (m.file == program.mainFile) forms += m.forms.size();
  if (forms == 0) {
    diags.report(DiagKind::EmptyProgram, SourceRange{program.mainFile, 1, 1, 1, 1},
                 "the program is empty: it has no forms")
        .withHint("an NDL program gives at least (Topology ...), the network's sizes and "
                  "clock, and its traffic; see examples/");
    return std::nullopt;
  }
  // A library: every form of every module a definition or an import (a module that sets
  // parameters, such as insight, makes a program).
  if (need == Requirement::SimulationOrLibrary) {
    bool library = true;
    for (const ast::Module& m : program.modules)
      for (const ast::Node& form : m.forms)
        library = library && (isDefinitionForm(form) || form.head() == "import");
    if (library) {
      CheckedProgram checked{checkDefinitions(program, diags), {}, true};
      if (diags.errorCount() != before) return std::nullopt;
      return checked;
    }
    need = Requirement::Simulation;
  }
  FormValues values = readForms(program, diags);
  CheckedProgram checked{checkDefinitions(program, diags), {}};
  std::optional<Parameters> params = resolve(values, program.mainFile, diags, need);
  if (params) {
    checked.params = std::move(*params);
    bindNetwork(checked.params, checked.defs, diags);
  }
  // Also when the program has errors of its own: those are not repeated for each value.
  checkSweepValues(values, program.mainFile, checked.defs, diags, need);
  if (!params || diags.errorCount() != before) return std::nullopt;
  return checked;
}

}  // namespace ndl::sema
