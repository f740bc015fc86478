#include "compiler/sema/SweepValues.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "compiler/sema/BindNetwork.h"

namespace ndl::sema {
namespace {

// Above this many points of the grid, each value is checked alone with the program's other
// forms (a grid that large is not run in one sweep anyway).
constexpr size_t kMaxGridPoints = 4096;

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

bool sameDiagnostic(const Diagnostic& a, const Diagnostic& b) {
  return a.kind == b.kind && a.message == b.message && sameRange(a.range, b.range);
}

// Reported already: by the program as written, or for another value or point.
bool reportedAlready(const DiagnosticEngine& diags, const Diagnostic& d) {
  const auto& seen = diags.diagnostics();
  return std::any_of(seen.begin(), seen.end(),
                     [&](const Diagnostic& s) { return sameDiagnostic(s, d); });
}

// Only these forms name definitions that bindNetwork looks up.
bool bindsNames(FormId id) {
  return id == FormId::Topology || id == FormId::RoutingAlgorithm || id == FormId::Selection ||
         id == FormId::Predictor || id == FormId::TrafficPattern;
}

// One swept value as the form (Name value) where the value stands, so that the rules blame
// the value's text and position; `read` points into `form`.
struct Swept {
  FormId param;
  const ast::Node* value;
  ast::Node form;
  FormValue read;
};

std::unique_ptr<Swept> makeSwept(FormId param, const ast::Node& value, DiagnosticEngine& diags) {
  auto s = std::make_unique<Swept>();
  s->param = param;
  s->value = &value;
  s->form.kind = ast::NodeKind::List;
  s->form.range = value.range;
  ast::Node head;
  head.kind = ast::NodeKind::Symbol;
  head.text = std::string(formInfo(param).name);
  head.range = value.range;
  s->form.children = {std::move(head), value};
  // The form's own checks passed when readForms read the Sweep: nothing here is new.
  DiagnosticEngine reread(diags.sources(), DiagOptions{false, 0});
  s->read.form = &s->form;
  s->read.ok = readValue(param, {&s->form.children[1]}, s->form, s->read, reread);
  return s;
}

// The program with the point's values in place of their forms, through the rules.
std::unique_ptr<DiagnosticEngine> resolvePoint(const FormValues& values,
                                               const std::vector<const Swept*>& point,
                                               FileId mainFile, const DiagnosticEngine& diags,
                                               Requirement need) {
  FormValues program = values;
  program.sweeps.clear();
  for (const Swept* s : point) {
    program[s->param] = s->read;
    // The load's three spellings: a swept one takes the place of the others (as with --set).
    constexpr FormId kLoad[] = {FormId::MessageCreationRate, FormId::MessageCreationInterval,
                                FormId::OfferedLoad};
    if (std::find(std::begin(kLoad), std::end(kLoad), s->param) != std::end(kLoad)) {
      for (FormId other : kLoad)
        if (other != s->param) program[other] = FormValue{};
    }
  }
  auto trial = std::make_unique<DiagnosticEngine>(diags.sources(), DiagOptions{false, 0});
  resolve(program, mainFile, *trial, need);
  return trial;
}

// Reports what the point gets and `diags` has not. A diagnostic that points at none of the
// point's values gets a note at each value it needs: those without which it goes away.
void checkPoint(const FormValues& values, const std::vector<const Swept*>& point, FileId mainFile,
                DiagnosticEngine& diags, Requirement need) {
  std::unique_ptr<DiagnosticEngine> trial = resolvePoint(values, point, mainFile, diags, need);
  std::vector<std::unique_ptr<DiagnosticEngine>> without(point.size());
  for (const Diagnostic& d : trial->diagnostics()) {
    if (reportedAlready(diags, d)) continue;
    Diagnostic& out = diags.report(d.kind, d.range, d.message);
    out.hint = d.hint;
    out.notes = d.notes;
    bool atValue = false;
    for (const Swept* s : point) {
      atValue = atValue || inside(d.range, s->value->range);
      for (const DiagNote& n : d.notes) atValue = atValue || inside(n.range, s->value->range);
    }
    if (atValue) continue;
    std::vector<const Swept*> needed;
    for (size_t k = 0; k < point.size(); ++k) {
      if (point.size() > 1) {
        if (!without[k]) {
          std::vector<const Swept*> rest = point;
          rest.erase(rest.begin() + static_cast<ptrdiff_t>(k));
          without[k] = resolvePoint(values, rest, mainFile, diags, need);
        }
        const auto& others = without[k]->diagnostics();
        if (std::any_of(others.begin(), others.end(),
                        [&](const Diagnostic& o) { return sameDiagnostic(o, d); }))
          continue;
      }
      needed.push_back(point[k]);
    }
    if (needed.empty()) needed = point;
    for (const Swept* s : needed)
      out.note(s->value->range, fmt::format("with ({} {}) from this Sweep", formInfo(s->param).name,
                                            ast::quote(*s->value)));
  }
}

}  // namespace

void checkSweepValues(const FormValues& values, FileId mainFile, const DefinitionTable& defs,
                      DiagnosticEngine& diags, Requirement need) {
  if (values.sweeps.empty()) return;
  std::vector<std::vector<std::unique_ptr<Swept>>> axes;
  size_t points = 1;
  for (const SweepSpec& sweep : values.sweeps) {
    std::vector<std::unique_ptr<Swept>>& axis = axes.emplace_back();
    for (const ast::Node* value : sweep.values) {
      std::unique_ptr<Swept> s = makeSwept(sweep.param, *value, diags);
      if (s->read.ok) axis.push_back(std::move(s));
    }
    if (axis.empty()) {
      axes.pop_back();
      continue;
    }
    points = points > kMaxGridPoints ? points : points * axis.size();
  }

  // The names a value binds, whatever the program's other forms say.
  for (const auto& axis : axes) {
    for (const auto& s : axis) {
      if (!bindsNames(s->param)) continue;
      Parameters names;
      names.where[static_cast<size_t>(s->param)] = s->value->range;
      if (s->param == FormId::Topology) names.topology = s->read.topology;
      if (s->param == FormId::RoutingAlgorithm) names.routingName = s->read.text;
      if (s->param == FormId::Selection) names.selectionName = s->read.text;  // "": a built-in
      if (s->param == FormId::Predictor) names.predictorName = s->read.text;
      if (s->param == FormId::TrafficPattern) names.traffic = s->read.traffic;  // no classes
      DefinitionTable scratch = defs;  // an inline topology would be added to it
      DiagnosticEngine trial(diags.sources(), DiagOptions{false, 0});
      bindNetwork(names, scratch, trial);  // without a topology call, the other names only
      for (const Diagnostic& d : trial.diagnostics()) {
        if (reportedAlready(diags, d)) continue;
        diags.report(d.kind, d.range, d.message).withHint(d.hint).notes = d.notes;
      }
    }
  }

  // The rules between forms, for every point `ndlc sweep` runs: each combination of one
  // value per Sweep, in place of their forms.
  if (points > kMaxGridPoints) {
    for (const auto& axis : axes)
      for (const auto& s : axis) checkPoint(values, {s.get()}, mainFile, diags, need);
    return;
  }
  std::vector<size_t> at(axes.size(), 0);
  std::vector<const Swept*> point(axes.size());
  for (;;) {
    if (diags.capped()) return;
    for (size_t k = 0; k < axes.size(); ++k) point[k] = axes[k][at[k]].get();
    checkPoint(values, point, mainFile, diags, need);
    size_t k = axes.size();
    while (k > 0 && ++at[k - 1] == axes[k - 1].size()) at[--k] = 0;
    if (k == 0) return;
  }
}

}  // namespace ndl::sema
