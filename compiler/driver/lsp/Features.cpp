// What the server answers about a document: hover, go to definition, completion, document
// symbols, formatting and quick fixes. Every answer comes from the compiler's own tables
// (Forms.def, Enums.def, the units, the checked definitions and parameters), so an editor
// never says what the checker does not.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <regex>

#include "compiler/driver/lsp/Positions.h"
#include "compiler/driver/lsp/Server.h"
#include "compiler/elaborate/Metrics.h"
#include "compiler/parse/Format.h"
#include "compiler/parse/Loader.h"
#include "compiler/sema/Parameters.h"
#include "compiler/sema/Units.h"

namespace ndl::lsp {

namespace fs = std::filesystem;

namespace {

// A protocol position as the compiler counts: 1-based line and column in code points.
struct Cursor {
  uint32_t line, col;
};

Cursor cursorOf(const Document& doc, const json& position) {
  const uint32_t line = position.at("line").get<uint32_t>();
  const uint32_t units = position.at("character").get<uint32_t>();
  return {line + 1, codePoints(lineOf(doc.text, line), units) + 1};
}

json markdown(const std::string& text) { return {{"kind", "markdown"}, {"value", text}}; }

std::string_view kindWord(sema::DefKind k) {
  switch (k) {
    case sema::DefKind::Function: return "function";
    case sema::DefKind::Constant: return "constant";
    case sema::DefKind::Topology: return "topology";
    case sema::DefKind::Routing: return "routing";
    case sema::DefKind::Selection: return "selection";
    case sema::DefKind::PortState: return "port state";
    case sema::DefKind::Predictor: return "predictor";
    case sema::DefKind::Pattern: return "traffic pattern";
  }
  return "definition";
}

// The definition keywords and what each defines, for hover and completion.
struct Keyword {
  std::string_view name, summary;
};
constexpr Keyword kKeywords[] = {
    {"define", "(define (name (param Type) ...) body) a function, or (define name value) a constant"},
    {"define-topology", "(define-topology (Name (k Int) ...) statements): a network generator"},
    {"define-routing", "(define-routing (Name) ...): candidate routes, VC classes, header fields"},
    {"define-selection", "(define-selection (Name) score): chooses among a routing's candidates"},
    {"define-pattern", "(define-pattern (Name (s Endpoint)) destination): a traffic pattern"},
    {"define-port-state", "(define-port-state name (Ring capacity Symbol)): state per port"},
    {"define-router-state", "(define-router-state name (Ring capacity Symbol)): state per router"},
    {"define-predictor", "(define-predictor (Name) prediction (OnForward ...)): predicts a port"},
    {"import", "(import \"name\") a stdlib module, or (import \"file.ndl\") a file beside this one"},
    {"override", "(override (Form value)): replaces a form an imported file gives"},
};

const Keyword* findKeyword(std::string_view name) {
  for (const Keyword& k : kKeywords)
    if (k.name == name) return &k;
  return nullptr;
}

// The comment lines just above a definition: its documentation.
std::string commentAbove(const SourceManager& sources, const SourceRange& r) {
  std::vector<std::string> lines;
  for (uint32_t l = r.line; l > 1; --l) {
    std::string_view text = sources.line(r.file, l - 1);
    const size_t start = text.find_first_not_of(" \t");
    if (start == std::string_view::npos || text[start] != ';') break;
    text.remove_prefix(start);
    while (!text.empty() && text.front() == ';') text.remove_prefix(1);
    if (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    lines.emplace_back(text);
  }
  std::string out;
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) out += *it + "\n";
  return out;
}

// The name a definition form defines: (define-x (Name ...) ...) or (define name value).
const ast::Node* definedName(const ast::Node& form) {
  if (!sema::isDefinitionForm(form) || form.children.size() < 2) return nullptr;
  const ast::Node& sig = form.children[1];
  if (sig.isSymbol()) return &sig;
  if (sig.isList() && !sig.children.empty() && sig.children[0].isSymbol()) return &sig.children[0];
  return nullptr;
}

// The parameter `name` of the definition form holding the cursor: its node in the signature.
const ast::Node* parameterNamed(const std::vector<const ast::Node*>& path, std::string_view name) {
  if (path.empty() || !sema::isDefinitionForm(*path[0]) || path[0]->children.size() < 2) return nullptr;
  const ast::Node& sig = path[0]->children[1];
  if (!sig.isList()) return nullptr;
  for (size_t k = 1; k < sig.children.size(); ++k) {
    const ast::Node& p = sig.children[k];
    const ast::Node* n = p.isList() && !p.children.empty() ? &p.children[0] : &p;
    if (n->isSymbol(name)) return n;
  }
  return nullptr;
}

std::string definitionHover(const Analysis& a, const sema::Definition& d) {
  std::string sig = d.name;
  if (d.form && d.form->children.size() >= 2) sig = ast::print(d.form->children[1]);
  std::string text = fmt::format("**{}** {}\n```ndl\n({} {})\n```", kindWord(d.kind), d.name,
                                 d.form ? d.form->head() : "define", sig);
  if (d.kind == sema::DefKind::Function || d.kind == sema::DefKind::Constant)
    text += fmt::format("\nresult: `{}`", sema::typeName(d.result));
  if (std::string doc = commentAbove(a.sources, d.range); !doc.empty()) text += "\n\n" + doc;
  if (d.range.valid()) text += fmt::format("\n\n{}:{}", a.sources.name(d.range.file), d.range.line);
  return text;
}

std::string formHover(const Analysis& a, sema::FormId id) {
  const sema::FormInfo& f = sema::formInfo(id);
  std::string text = fmt::format("**{}**: {}", f.name, f.summary);
  if (!f.defaultText.empty()) text += fmt::format("\n\ndefault: {}", f.defaultText);
  if (a.result.checked && !a.result.checked->library) {
    // The value as the checker converted it, in the words of --dump-after=sema.
    const std::string all = sema::printParameters(a.result.checked->params);
    const std::string key = fmt::format("{} = ", f.name);
    for (size_t at = 0; (at = all.find(key, at)) != std::string::npos; ++at)
      if (at == 0 || all[at - 1] == '\n') {
        text += fmt::format("\n\nchecked: `{}`", all.substr(at, all.find('\n', at) - at));
        break;
      }
  }
  if (id == sema::FormId::Topology && a.result.network) {
    const elab::Graph& g = a.result.network->graph;
    text += fmt::format("\n\n{} routers, {} endpoints, {} channels", g.nodeCount,
                        g.endpointCount(), g.channels.size());
    if (!a.distances) a.distances = elab::graphDistances(g);
    const elab::DistanceStats& dist = *a.distances;
    if (dist.status == elab::AnalysisStatus::kOk)
      text += fmt::format("; diameter {}, average distance {:.4g}", dist.diameter,
                          static_cast<double>(dist.avgDistance.num) / static_cast<double>(dist.avgDistance.den));
  }
  return text;
}

std::string quantityHover(const ast::Node& n) {
  const sema::Unit* u = sema::findUnit(n.value);
  if (!u) return {};
  std::string text = fmt::format("`{}`: {}", n.text, sema::dimensionName(u->dimension));
  const std::optional<Rational> v = n.number.mul(u->scale);
  switch (u->base) {
    case sema::UnitBase::Absolute: {
      static constexpr std::string_view kBase[] = {"bit", "s", "Hz", "", "bit/s"};
      if (v) {
        text += fmt::format(", exactly {}{}", v->str(), kBase[static_cast<size_t>(u->dimension)]);
        if (u->dimension == sema::Dimension::Time)
          if (auto ns = v->mul(*Rational::make(1000000000, 1))) text += fmt::format(" = {} ns", ns->str());
      }
      break;
    }
    case sema::UnitBase::Flits: text += " in flits (channel widths)"; break;
    case sema::UnitBase::Clocks: text += " in clocks of the enclosing clock domain"; break;
    case sema::UnitBase::BitsPerClock: text += " in bits per clock"; break;
  }
  return text;
}

// What is being typed at the cursor, read from the text itself (a document being edited
// seldom parses): the open lists around it and the word before it.
struct TypingContext {
  std::vector<std::string> heads;  // the head of each open list, outermost first
  std::string word;                // the characters of the token before the cursor
  bool atHead = false;             // the word is a list's first element
};

TypingContext typingContext(const std::string& text, size_t offset) {
  TypingContext c;
  std::vector<bool> headDone;
  auto symbolChar = [](char ch) {
    return ch != '(' && ch != ')' && ch != '"' && ch != ';' && !std::isspace(static_cast<unsigned char>(ch));
  };
  size_t i = 0;
  while (i < offset) {
    const char ch = text[i];
    if (ch == ';') {
      while (i < offset && text[i] != '\n') ++i;
    } else if (ch == '"') {
      for (++i; i < offset && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      ++i;
    } else if (ch == '(') {
      c.heads.emplace_back();
      headDone.push_back(false);
      ++i;
    } else if (ch == ')') {
      if (!c.heads.empty()) {
        c.heads.pop_back();
        headDone.pop_back();
      }
      ++i;
    } else if (symbolChar(ch)) {
      const size_t start = i;
      while (i < offset && symbolChar(text[i])) ++i;
      const std::string token = text.substr(start, i - start);
      if (i == offset) {
        c.word = token;
        c.atHead = !headDone.empty() && !headDone.back();
        return c;
      }
      if (!headDone.empty() && !headDone.back()) {
        c.heads.back() = token;
        headDone.back() = true;
      }
    } else {
      ++i;
    }
  }
  c.atHead = !headDone.empty() && !headDone.back();
  return c;
}

// LSP's CompletionItemKind and SymbolKind values.
constexpr int kItemFunction = 3, kItemProperty = 10, kItemUnit = 11, kItemKeyword = 14,
              kItemEnumMember = 20, kItemConstant = 21, kItemClass = 7;
constexpr int kSymModule = 2, kSymClass = 5, kSymProperty = 7, kSymField = 8, kSymFunction = 12,
              kSymConstant = 14;

int itemKind(sema::DefKind k) {
  switch (k) {
    case sema::DefKind::Constant: return kItemConstant;
    case sema::DefKind::Topology: return kItemClass;
    default: return kItemFunction;
  }
}

int symbolKind(sema::DefKind k) {
  switch (k) {
    case sema::DefKind::Constant: return kSymConstant;
    case sema::DefKind::Topology: return kSymClass;
    case sema::DefKind::PortState: return kSymField;
    default: return kSymFunction;
  }
}

// The kind of definition a form's value may name (RoutingAlgorithm names a routing).
std::optional<sema::DefKind> definitionKindOf(sema::ValueKind k) {
  switch (k) {
    case sema::ValueKind::Topology: return sema::DefKind::Topology;
    case sema::ValueKind::Routing: return sema::DefKind::Routing;
    case sema::ValueKind::Selection: return sema::DefKind::Selection;
    case sema::ValueKind::Traffic: return sema::DefKind::Pattern;
    case sema::ValueKind::Predictor: return sema::DefKind::Predictor;
    default: return std::nullopt;
  }
}

}  // namespace

json Server::hover(Document& doc, const json& position) {
  Analysis& a = analysis(doc);
  const Cursor c = cursorOf(doc, position);
  const std::vector<const ast::Node*> path = a.pathAt(c.line, c.col);
  if (path.empty()) return nullptr;
  const ast::Node& n = *path.back();
  const ast::Node* parent = path.size() >= 2 ? path[path.size() - 2] : nullptr;
  const bool isHead = parent && !parent->children.empty() && &parent->children[0] == &n;
  const sema::DefinitionTable* defs = a.defs();
  std::string text;
  if (n.isSymbol()) {
    if (isHead && path.size() == 2) {
      if (auto id = sema::findForm(n.text)) text = formHover(a, *id);
      else if (const Keyword* k = findKeyword(n.text)) text = fmt::format("**{}**: {}", k->name, k->summary);
    }
    if (text.empty())
      if (const ast::Node* p = parameterNamed(path, n.text); p && p != &n)
        text = fmt::format("parameter **{}** of {}", n.text,
                           definedName(*path[0]) ? definedName(*path[0])->text : "this definition");
    if (text.empty() && defs)
      if (auto d = defs->find(n.text)) text = definitionHover(a, defs->defs[*d]);
    if (text.empty()) {
      // An enum value: the type of the enclosing form first (Random is a Selection and a Traffic).
      std::string_view want;
      if (auto id = sema::findForm(path[0]->head())) want = sema::enumTypeOf(sema::formInfo(*id).kind);
      const sema::EnumInfo* best = nullptr;
      for (const sema::EnumInfo* e : sema::enumsNamed(n.text))
        if (!best || e->type == want) best = e;
      if (best) text = fmt::format("**{}**: {} ({})", best->name, best->summary, best->type);
    }
    if (text.empty()) {
      const std::vector<std::string_view> names = sema::builtinNames();
      if (std::binary_search(names.begin(), names.end(), std::string_view(n.text)))
        text = fmt::format("**{}**: built in (docs/routing.md lists the builtins)", n.text);
    }
  } else if (n.kind == ast::NodeKind::Quantity) {
    text = quantityHover(n);
  } else if (n.kind == ast::NodeKind::String && parent && parent->head() == "import") {
    const fs::path base = doc.path ? doc.path->parent_path() : fs::current_path();
    text = fmt::format("imports `{}`",
                       parse::importTarget(n.value, base, options_.stdlibDir).lexically_normal().string());
  }
  if (text.empty()) return nullptr;
  return {{"contents", markdown(text)}, {"range", range(a, n.range)}};
}

json Server::definition(Document& doc, const json& position) {
  Analysis& a = analysis(doc);
  const Cursor c = cursorOf(doc, position);
  const std::vector<const ast::Node*> path = a.pathAt(c.line, c.col);
  if (path.empty()) return nullptr;
  const ast::Node& n = *path.back();
  if (n.kind == ast::NodeKind::String && path.size() >= 2 && path[path.size() - 2]->head() == "import") {
    const fs::path base = doc.path ? doc.path->parent_path() : fs::current_path();
    std::error_code ec;
    const fs::path target = fs::weakly_canonical(parse::importTarget(n.value, base, options_.stdlibDir), ec);
    if (!fs::exists(target, ec)) return nullptr;
    return {{"uri", pathToUri(target)},
            {"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}}}};
  }
  if (!n.isSymbol()) return nullptr;
  if (const ast::Node* p = parameterNamed(path, n.text)) return location(a, doc, p->range);
  const sema::DefinitionTable* defs = a.defs();
  if (!defs) return nullptr;
  auto d = defs->find(n.text);
  if (!d || !defs->defs[*d].nameRange.valid()) return nullptr;
  return location(a, doc, defs->defs[*d].nameRange);
}

json Server::completion(Document& doc, const json& position) {
  Analysis& a = analysis(doc);
  const Cursor cursor = cursorOf(doc, position);
  const TypingContext c = typingContext(doc.text, byteOffset(doc.text, cursor.line - 1, cursor.col - 1));
  json items = json::array();
  auto add = [&](std::string_view label, int kind, std::string_view detail) {
    items.push_back({{"label", label}, {"kind", kind}, {"detail", detail}});
  };
  const sema::DefinitionTable* defs = a.defs();
  auto addDefinitions = [&](std::optional<sema::DefKind> only) {
    if (!defs) return;
    for (const sema::Definition& d : defs->defs)
      if (!d.name.empty() && (!only || d.kind == *only)) add(d.name, itemKind(d.kind), kindWord(d.kind));
  };
  // A number being typed: the units, completing the whole token (a client filters on it).
  if (!c.word.empty() && (std::isdigit(static_cast<unsigned char>(c.word[0])) ||
                          (c.word.size() > 1 && (c.word[0] == '-' || c.word[0] == '.') &&
                           std::isdigit(static_cast<unsigned char>(c.word[1]))))) {
    size_t split = 0;
    while (split < c.word.size() && (std::isdigit(static_cast<unsigned char>(c.word[split])) ||
                                     c.word[split] == '.' || c.word[split] == '-'))
      ++split;
    const std::string number = c.word.substr(0, split);
    const json start = {{"line", position.at("line")},
                        {"character", position.at("character").get<uint32_t>() -
                                          utf16Units(c.word, static_cast<uint32_t>(c.word.size()))}};
    for (std::string_view unit : sema::allUnitNames()) {
      const std::string text = number + std::string(unit);
      items.push_back({{"label", unit},
                       {"kind", kItemUnit},
                       {"detail", sema::dimensionName(sema::findUnit(unit)->dimension)},
                       {"filterText", text},
                       {"textEdit", {{"range", {{"start", start}, {"end", position}}}, {"newText", text}}}});
    }
    return {{"isIncomplete", false}, {"items", items}};
  }
  if (c.atHead && c.heads.size() == 1) {  // a top-level form
    for (std::string_view name : sema::allFormNames())
      add(name, kItemProperty, sema::formInfo(*sema::findForm(name)).summary);
    for (const Keyword& k : kKeywords)
      if (!sema::findForm(k.name)) add(k.name, kItemKeyword, k.summary);
  } else if (c.atHead && c.heads.size() == 2 && c.heads[0] == "Topology") {
    for (const sema::EnumInfo* e : sema::enumValues("TopologyKind")) add(e->name, kItemEnumMember, e->summary);
    addDefinitions(sema::DefKind::Topology);
  } else if (c.atHead) {  // a call in an expression
    for (std::string_view name : sema::builtinNames()) add(name, kItemFunction, "built in");
    addDefinitions(std::nullopt);
  } else if (c.heads.size() == 1 && sema::findForm(c.heads[0])) {  // a form's value
    const sema::ValueKind kind = sema::formInfo(*sema::findForm(c.heads[0])).kind;
    if (std::string_view type = sema::enumTypeOf(kind); !type.empty() && kind != sema::ValueKind::Topology)
      for (const sema::EnumInfo* e : sema::enumValues(type)) add(e->name, kItemEnumMember, e->summary);
    if (auto k = definitionKindOf(kind); k && kind != sema::ValueKind::Topology) addDefinitions(k);
  } else if (!c.heads.empty()) {
    addDefinitions(std::nullopt);
  }
  return {{"isIncomplete", false}, {"items", items}};
}

json Server::documentSymbols(Document& doc) {
  Analysis& a = analysis(doc);
  json symbols = json::array();
  for (const ast::Node& form : a.forms()) {
    if (!form.isList() || form.head().empty()) continue;
    const ast::Node* name = definedName(form);
    std::string detail;
    int kind = kSymProperty;
    if (name) {
      kind = kSymFunction;
      if (const sema::DefinitionTable* defs = a.defs())
        if (auto d = defs->find(name->text)) {
          kind = symbolKind(defs->defs[*d].kind);
          detail = std::string(kindWord(defs->defs[*d].kind));
        }
    } else if (form.head() == "import") {
      kind = kSymModule;
    }
    if (!name && form.children.size() > 1) {
      std::string value;
      for (size_t k = 1; k < form.children.size(); ++k) value += (k > 1 ? " " : "") + ast::quote(form.children[k]);
      detail = value;
    }
    symbols.push_back({{"name", name ? name->text : std::string(form.head())},
                       {"detail", detail},
                       {"kind", kind},
                       {"range", range(a, form.range)},
                       {"selectionRange", range(a, name ? name->range : form.children[0].range)}});
  }
  return symbols;
}

json Server::formatting(Document& doc) {
  Analysis& a = analysis(doc);
  if (a.main == kNoFile) throw RequestError{kRequestFailed, "the document could not be read"};
  DiagnosticEngine diags(a.sources);
  std::optional<std::string> formatted = parse::formatFile(a.sources, a.main, diags);
  if (!formatted)
    throw RequestError{kRequestFailed, "the document does not parse: ndlc fmt formats a document "
                                       "without syntax errors"};
  if (*formatted == doc.text) return json::array();
  uint32_t lines = static_cast<uint32_t>(std::count(doc.text.begin(), doc.text.end(), '\n'));
  return json::array({{{"range", {{"start", {{"line", 0}, {"character", 0}}},
                                  {"end", {{"line", lines + 1}, {"character", 0}}}}},
                       {"newText", *formatted}}});
}

json Server::codeActions(Document& doc, const json& params) {
  Analysis& a = analysis(doc);
  const json& want = params.at("range");
  const uint32_t from = want.at("start").at("line").get<uint32_t>() + 1;
  const uint32_t to = want.at("end").at("line").get<uint32_t>() + 1;
  static const std::regex kDidYouMean("did you mean '([^']+)'\\?");
  json actions = json::array();
  for (const Diagnostic& d : a.diags.diagnostics()) {
    if (!d.range.valid() || d.range.file != a.main || d.range.endLine < from || d.range.line > to)
      continue;
    std::smatch m;
    if (!std::regex_search(d.hint, m, kDidYouMean)) continue;
    const std::string fix = m[1];
    actions.push_back(
        {{"title", fmt::format("Replace with '{}'", fix)},
         {"kind", "quickfix"},
         {"isPreferred", true},
         {"diagnostics", json::array({diagnostic(a, doc, d)})},
         {"edit", {{"changes", {{doc.uri, json::array({{{"range", range(a, d.range)}, {"newText", fix}}})}}}}}});
  }
  return actions;
}

}  // namespace ndl::lsp
