#include "compiler/sema/SweepValues.h"

#include <fmt/format.h>

#include "compiler/sema/BindNetwork.h"

namespace ndl::sema {
namespace {

bool sameRange(const SourceRange& a, const SourceRange& b) {
  return a.file == b.file && a.line == b.line && a.col == b.col && a.endLine == b.endLine &&
         a.endCol == b.endCol;
}

bool inside(const SourceRange& r, const SourceRange& outer) {
  auto before = [](uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) {
    return l1 < l2 || (l1 == l2 && c1 <= c2);
  };
  return r.file == outer.file && before(outer.line, outer.col, r.line, r.col) &&
         before(r.endLine, r.endCol, outer.endLine, outer.endCol);
}

// The program as written got this diagnostic too: it is not the swept value's.
bool reportedAlready(const DiagnosticEngine& diags, const Diagnostic& d) {
  for (const Diagnostic& seen : diags.diagnostics())
    if (seen.kind == d.kind && seen.message == d.message && sameRange(seen.range, d.range))
      return true;
  return false;
}

// Only these forms name definitions that bindNetwork looks up.
bool bindsNames(FormId id) {
  return id == FormId::Topology || id == FormId::RoutingAlgorithm || id == FormId::Selection;
}

void checkOne(const FormValues& values, FormId param, const ast::Node& value, FileId mainFile,
              const DefinitionTable& defs, DiagnosticEngine& diags, Requirement need) {
  // (Name value) where the value stands: the rules blame the value's text and position.
  ast::Node form;
  form.kind = ast::NodeKind::List;
  form.range = value.range;
  ast::Node head;
  head.kind = ast::NodeKind::Symbol;
  head.text = std::string(formInfo(param).name);
  head.range = value.range;
  form.children = {std::move(head), value};

  // The form's own checks passed when readForms read the Sweep; nothing here is new.
  DiagnosticEngine reread(diags.sources(), DiagOptions{false, 0});
  FormValues program = values;
  program.sweeps.clear();
  FormValue& slot = program[param];
  slot = FormValue{};
  slot.form = &form;
  slot.ok = readValue(param, {&form.children[1]}, form, slot, reread);
  if (!slot.ok) return;

  DiagnosticEngine trial(diags.sources(), DiagOptions{false, 0});

  resolve(program, mainFile, trial, need);
  if (bindsNames(param)) {
    // The name alone, whatever else the program's forms say.
    Parameters names;
    names.where[static_cast<size_t>(param)] = value.range;
    if (param == FormId::Topology) names.topology = slot.topology;
    if (param == FormId::RoutingAlgorithm) names.routingName = slot.text;
    if (param == FormId::Selection) names.selectionName = slot.text;  // "": a built-in
    DefinitionTable scratch = defs;      // an inline topology would be added to it
    bindNetwork(names, scratch, trial);  // without a topology call, only the other names
  }
  for (const Diagnostic& d : trial.diagnostics()) {
    if (reportedAlready(diags, d)) continue;
    Diagnostic& out = diags.report(d.kind, d.range, d.message);
    out.hint = d.hint;
    out.notes = d.notes;
    bool atValue = inside(d.range, value.range);
    for (const DiagNote& n : d.notes) atValue = atValue || inside(n.range, value.range);
    if (!atValue)
      out.note(value.range, fmt::format("with ({} {}) from this Sweep", formInfo(param).name,
                                        ast::quote(value)));
  }
}

}  // namespace

void checkSweepValues(const FormValues& values, FileId mainFile, const DefinitionTable& defs,
                      DiagnosticEngine& diags, Requirement need) {
  for (const SweepSpec& sweep : values.sweeps) {
    for (const ast::Node* value : sweep.values) {
      if (diags.capped()) return;
      checkOne(values, sweep.param, *value, mainFile, defs, diags, need);
    }
  }
}

}  // namespace ndl::sema
