#include "compiler/elaborate/Patterns.h"

#include <algorithm>

#include <fmt/format.h>

namespace ndl::elab {

std::vector<uint32_t> userPatterns(const sema::Parameters& p) {
  std::vector<uint32_t> out;
  auto add = [&](const sema::TrafficSpec& t) {
    if (t.patternDef && std::find(out.begin(), out.end(), *t.patternDef) == out.end())
      out.push_back(*t.patternDef);
  };
  // Only the patterns that choose destinations: not the program's beside a trace or a pattern
  // file alone (TrafficPattern is then warned no-effect), nor a class sent only in reply.
  const bool synthetic =
      p.traceFile.empty() && (!p.creationRate.isZero() || p.creationIntervalClocks.has_value());
  if (p.classes.empty() && synthetic) add(p.traffic);
  for (const sema::TrafficClassSpec& c : p.classes)
    if (!c.creationRate.isZero()) add(c.traffic);
  return out;
}

std::optional<int32_t> userPatternIndex(const sema::Parameters& p,
                                        const std::optional<uint32_t>& def) {
  if (!def) return std::nullopt;
  const std::vector<uint32_t> all = userPatterns(p);
  const auto it = std::find(all.begin(), all.end(), *def);
  if (it == all.end()) return std::nullopt;
  return static_cast<int32_t>(it - all.begin());
}

namespace {

// Where the program names pattern `def`: the top-level form, or the first class that does.
SourceRange namedAt(const sema::Parameters& p, uint32_t def) {
  const SourceRange top = p.where[static_cast<size_t>(sema::FormId::TrafficPattern)];
  for (const sema::TrafficClassSpec& c : p.classes)
    if (c.traffic.patternDef == def && c.patternRange.valid()) return c.patternRange;
  return top;
}

}  // namespace

bool checkUserPatterns(const sema::CheckedProgram& program, const Network& net,
                       Evaluator& evaluator, DiagnosticEngine& diags) {
  const sema::Parameters& p = program.params;
  const std::vector<uint32_t> patterns = userPatterns(p);
  if (patterns.empty()) return true;
  const Graph& g = net.graph;
  const int64_t n = static_cast<int64_t>(g.endpointCount());
  const size_t perSource = static_cast<size_t>(std::clamp<uint64_t>(
      kMaxPatternCalls / static_cast<uint64_t>(std::max<int64_t>(n, 1)), 1, kMaxPatternOutcomes));
  for (uint32_t def : patterns) {
    const sema::Definition& d = program.defs.defs[def];
    const SourceRange site = namedAt(p, def);
    // A pattern over nodes numbers routers ((coord source d) and the other builtins describe
    // them); the traffic's sources and destinations are endpoints, the same numbers only with
    // one endpoint per router. A pattern over endpoints works on every network.
    const bool overEndpoints = d.params.at(0).type == sema::Type::Endpoint;
    if (!overEndpoints && !g.endpoints.empty()) {
      diags.report(DiagKind::OutOfRange, site,
                   fmt::format("pattern '{}' is written over nodes, but {} has {} endpoints on "
                               "{} routers",
                               d.name, g.name, n, g.nodeCount))
          .withHint(fmt::format("declare its source an endpoint, (define-pattern ({} (source "
                                "Endpoint)) ...), and reach routers with (endpoint-router e) "
                                "and (router-endpoint r i)",
                                d.name))
          .note(d.nameRange, "defined here");
      return false;
    }
    const char* what = overEndpoints ? "endpoint" : "node";
    Draws& draws = evaluator.draws();
    for (int64_t src = 0; src < n; ++src) {
      draws.prescribed.clear();
      for (size_t outcome = 0; outcome < perSource; ++outcome) {
        draws.ranges.clear();
        const Value arg = Value::integer(src);
        std::optional<Value> dest = evaluator.call(def, std::span<const Value>(&arg, 1), {});
        std::string drawn;
        for (size_t k = 0; k < draws.ranges.size(); ++k)
          drawn += fmt::format("{}{}", k == 0 ? " (draws " : ", ",
                               k < draws.prescribed.size() ? draws.prescribed[k] : 0);
        if (!drawn.empty()) drawn += ")";
        if (!dest) {
          // The evaluator reported where; the source and draws that lead there are said here.
          if (Diagnostic* last = diags.last())
            last->note(site, fmt::format("while evaluating '{}' for source {}{}", d.name, src,
                                         drawn));
          draws.prescribed.clear();
          draws.ranges.clear();
          return false;
        }
        if (dest->a < 0 || dest->a >= n) {
          diags.report(DiagKind::EvaluationError, d.body.range,
                       fmt::format("pattern '{}' sends {} {} to {}{}, outside the network's "
                                   "{}s 0 to {}",
                                   d.name, what, src, dest->a, drawn, what, n - 1))
              .withHint(fmt::format("a destination is {} {} of the network; one equal to the "
                                    "source creates no message",
                                    overEndpoints ? "an" : "a", what))
              .note(site, "the traffic's pattern");
          draws.prescribed.clear();
          draws.ranges.clear();
          return false;
        }
        if (!nextOutcome(draws)) break;
      }
    }
    draws.prescribed.clear();
    draws.ranges.clear();
  }
  return true;
}

}  // namespace ndl::elab
