#include "compiler/sema/BindNetwork.h"

#include <fmt/format.h>

#include "compiler/support/EditDistance.h"

namespace ndl::sema {

std::string_view canonicalRouting(std::string_view name) {
  if (name == "XFirstYNext") return "DimensionOrder";
  if (name == "StarChannel") return "MinimalAdaptive";  // *-channel (seed 000) is Duato's scheme
  return name;
}

namespace {

std::string joined(const std::vector<std::string_view>& names) {
  std::string s;
  for (std::string_view n : names) s += (s.empty() ? "" : ", ") + std::string(n);
  return s;
}

bool bindTopology(Parameters& p, DefinitionTable& defs, DiagnosticEngine& diags) {
  TopologySpec& t = p.topology;
  if (!t.call) return false;
  if (t.inlineBody) {
    std::optional<uint32_t> def = addInlineTopology(defs, *t.call, diags);
    if (!def) return false;
    t.def = *def;
    return true;
  }
  const ast::Node& head = t.call->children[0];
  std::optional<uint32_t> def = defs.find(head.text);
  if (!def || defs.defs[*def].kind != DefKind::Topology) {
    std::vector<std::string_view> names = defs.namesOf(DefKind::Topology);
    std::string best = closestMatch(head.text, names);
    diags.report(DiagKind::UnknownEnum, head.range, fmt::format("unknown topology '{}'", head.text))
        .withHint(best.empty()
                      ? fmt::format("the topologies are {}, or a custom network from (Nodes n) and "
                                    "(Link a b dim)",
                                    joined(names))
                      : fmt::format("did you mean '{}'?", best));
    return false;
  }
  std::optional<std::vector<Expr>> args = checkArguments(defs, *t.call, *def, diags);
  if (!args) return false;
  t.def = *def;
  t.args = std::move(*args);
  return true;
}

bool bindRouting(Parameters& p, DefinitionTable& defs, DiagnosticEngine& diags) {
  if (p.routingName.empty()) return true;
  std::string_view name = canonicalRouting(p.routingName);
  std::optional<uint32_t> def = defs.find(name);
  if (def && defs.defs[*def].kind == DefKind::Routing) {
    p.routingDef = *def;
    return true;
  }
  std::vector<std::string_view> names = defs.namesOf(DefKind::Routing);
  names.push_back("XFirstYNext");
  names.push_back("StarChannel");
  std::string best = closestMatch(p.routingName, names);
  SourceRange at = p.where[static_cast<size_t>(FormId::RoutingAlgorithm)];
  diags.report(DiagKind::UnknownEnum, at, fmt::format("unknown routing '{}'", p.routingName))
      .withHint(best.empty() ? fmt::format("the routings are {}, or one defined with "
                                           "(define-routing (Name) ...)",
                                           joined(names))
                             : fmt::format("did you mean '{}'?", best));
  return false;
}

bool bindSelection(Parameters& p, DefinitionTable& defs, DiagnosticEngine& diags) {
  if (p.selectionName.empty()) return true;
  std::optional<uint32_t> def = defs.find(p.selectionName);
  if (def && defs.defs[*def].kind == DefKind::Selection) {
    p.selectionDef = *def;
    return true;
  }
  std::vector<std::string_view> names = defs.namesOf(DefKind::Selection);
  for (const EnumInfo* e : enumValues("Selection")) names.push_back(e->name);
  std::string best = closestMatch(p.selectionName, names);
  SourceRange at = p.where[static_cast<size_t>(FormId::Selection)];
  diags.report(DiagKind::UnknownEnum, at, fmt::format("unknown selection '{}'", p.selectionName))
      .withHint(best.empty() ? fmt::format("the selections are {}, or one defined with "
                                           "(define-selection (Name) score)",
                                           joined(names))
                             : fmt::format("did you mean '{}'?", best));
  return false;
}

bool bindPredictor(Parameters& p, DefinitionTable& defs, DiagnosticEngine& diags) {
  if (p.predictorName.empty()) return true;
  std::optional<uint32_t> def = defs.find(p.predictorName);
  if (def && defs.defs[*def].kind == DefKind::Predictor) {
    p.predictorDef = *def;
    return true;
  }
  std::vector<std::string_view> names = defs.namesOf(DefKind::Predictor);
  std::string best = closestMatch(p.predictorName, names);
  SourceRange at = p.where[static_cast<size_t>(FormId::Predictor)];
  diags.report(DiagKind::UnknownEnum, at, fmt::format("unknown predictor '{}'", p.predictorName))
      .withHint(!best.empty() ? fmt::format("did you mean '{}'?", best)
                : names.empty()
                    ? std::string("define one with (define-predictor (Name) (OnForward ...) "
                                  "prediction), or (import \"predictors\")")
                    : fmt::format("the predictors are {}, or one defined with "
                                  "(define-predictor (Name) ...)",
                                  joined(names)));
  return false;
}

// (TrafficPattern Name) of a (define-pattern ...), reported at its name (else at `at`).
bool bindPattern(TrafficSpec& t, SourceRange at, DefinitionTable& defs, DiagnosticEngine& diags) {
  if (t.userPattern.empty()) return true;
  std::optional<uint32_t> def = defs.find(t.userPattern);
  if (def && defs.defs[*def].kind == DefKind::Pattern) {
    t.patternDef = *def;
    return true;
  }
  std::vector<std::string_view> names;
  for (const EnumInfo* e : enumValues("Traffic")) names.push_back(e->name);
  for (std::string_view n : defs.namesOf(DefKind::Pattern)) names.push_back(n);
  std::string best = closestMatch(t.userPattern, names);
  diags.report(DiagKind::UnknownEnum, t.userPatternRange.valid() ? t.userPatternRange : at,
               fmt::format("unknown Traffic '{}' for TrafficPattern", t.userPattern))
      .withHint(best.empty() ? fmt::format("the patterns are {}, or one defined with "
                                           "(define-pattern (Name) destination)",
                                           joined(names))
                             : fmt::format("did you mean '{}'?", best));
  return false;
}

bool bindPatterns(Parameters& p, DefinitionTable& defs, DiagnosticEngine& diags) {
  const SourceRange top = p.where[static_cast<size_t>(FormId::TrafficPattern)];
  if (p.classes.empty()) return bindPattern(p.traffic, top, defs, diags);
  // The top-level pattern, the classes' default, even where every class gives its own; a class
  // that takes it takes its definition. Class 0's is also the program's (p.traffic, its copy).
  bool ok = bindPattern(p.givenTraffic, top, defs, diags);
  for (TrafficClassSpec& c : p.classes) {
    if (!c.patternRange.valid()) {
      c.traffic.patternDef = p.givenTraffic.patternDef;
      continue;
    }
    ok = bindPattern(c.traffic, c.patternRange, defs, diags) && ok;
  }
  p.traffic.patternDef = p.classes[0].traffic.patternDef;
  return ok;
}

}  // namespace

bool bindNetwork(Parameters& params, DefinitionTable& defs, DiagnosticEngine& diags) {
  bool ok = bindTopology(params, defs, diags);
  ok = bindSelection(params, defs, diags) && ok;
  ok = bindPredictor(params, defs, diags) && ok;
  ok = bindPatterns(params, defs, diags) && ok;
  return bindRouting(params, defs, diags) && ok;
}

}  // namespace ndl::sema
