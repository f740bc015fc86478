#include "compiler/driver/lsp/Analysis.h"

#include <algorithm>

#include "compiler/parse/Parser.h"

namespace ndl::lsp {

namespace {

bool before(uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) {
  return l1 < l2 || (l1 == l2 && c1 < c2);
}

// Holds (line, col) when the position is inside the node or just after its last character
// (an editor's cursor at the end of a name still means the name).
bool holds(const ast::Node& n, uint32_t line, uint32_t col) {
  const SourceRange& r = n.range;
  if (!r.valid() || before(line, col, r.line, r.col)) return false;
  return before(line, col, r.endLine, r.endCol) ||
         (!n.isList() && line == r.endLine && col == r.endCol);
}

// The length of the text's longest prefix made of whole top-level forms: up to the end of the
// last form that closes before a ')' with nothing to close or a '(' that never closes.
size_t balancedPrefix(const std::string& text) {
  size_t depth = 0, end = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ';') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '#' && i + 1 < text.size() && text[i + 1] == '|') {
      const size_t close = text.find("|#", i + 2);
      if (close == std::string::npos) return end;
      i = close + 1;
    } else if (c == '"') {
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\') ++i;
      if (i >= text.size() || text[i] == '\n') return end;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (depth == 0) return end;
      if (--depth == 0) end = i + 1;
    }
  }
  return end;
}

}  // namespace

const std::vector<ast::Node>& Analysis::forms() const {
  static const std::vector<ast::Node> kNone;
  if (partial) return partial->forms;
  if (!result.program) return kNone;
  for (const ast::Module& m : result.program->modules)
    if (m.file == main) return m.forms;
  return kNone;
}

std::vector<const ast::Node*> Analysis::pathAt(uint32_t line, uint32_t col) const {
  std::vector<const ast::Node*> path;
  const std::vector<ast::Node>* level = &forms();
  for (bool found = true; found;) {
    found = false;
    for (const ast::Node& n : *level) {
      if (!holds(n, line, col)) continue;
      path.push_back(&n);
      level = &n.children;
      found = true;
      break;
    }
  }
  return path;
}

const sema::DefinitionTable* Analysis::defs() const {
  if (result.checked) return &result.checked->defs;
  return fallbackDefs ? &*fallbackDefs : nullptr;
}

std::unique_ptr<Analysis> analyze(const std::string& displayName, const std::filesystem::path& path,
                                  const std::string& text, const std::filesystem::path& stdlibDir) {
  auto a = std::make_unique<Analysis>();
  driver::PipelineOptions options;
  options.stdlibDir = stdlibDir;
  options.routeAnalysis = false;  // on the server's RouteWorker
  options.requirement = sema::Requirement::SimulationOrLibrary;  // as ndlc check
  options.mainText = text;
  a->result.program.reset();
  driver::runFrontEnd(path.empty() ? displayName : path.string(), options, a->sources, a->diags,
                      a->result);
  if (a->result.program) a->main = a->result.program->mainFile;
  // A program with an error in its forms has no checked result; its definitions are still
  // what hover, go to definition and completion need (their own errors are already shown).
  const bool parsed = a->result.program &&
                      std::any_of(a->result.program->modules.begin(), a->result.program->modules.end(),
                                  [&](const ast::Module& m) { return m.file == a->main; });
  if (a->result.program && !parsed) {
    // Parsed again as far as it balances, blank after that so that lines stay where they are.
    std::string prefix = text;
    for (size_t i = balancedPrefix(text); i < prefix.size(); ++i)
      if (prefix[i] != '\n') prefix[i] = ' ';
    DiagnosticEngine quiet(a->sources, DiagOptions{false, 0});
    const FileId file = a->sources.addBuffer(displayName, "", prefix);
    a->partial = parse::parseFile(a->sources, file, quiet);
  }
  if (a->result.program && !a->result.checked) {
    DiagnosticEngine quiet(a->sources, DiagOptions{false, 0});
    a->fallbackDefs = sema::checkDefinitions(*a->result.program, quiet);
  }
  return a;
}

bool needsRouteAnalysis(const Analysis& a) {
  return a.result.network && a.result.checked && a.result.evaluator && !a.diags.hasErrors();
}

}  // namespace ndl::lsp
