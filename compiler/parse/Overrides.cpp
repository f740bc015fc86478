#include "compiler/parse/Overrides.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "compiler/parse/Loader.h"
#include "compiler/parse/Parser.h"
#include "compiler/parse/TextCheck.h"

namespace ndl::parse {
namespace {

// The form of an (override (Form ...)), or null.
const ast::Node* overridden(const ast::Node& form) {
  return form.head() == "override" && form.children.size() == 2 ? &form.children[1] : nullptr;
}

// Where the program sets the form `name` at top level, or null: an (override (name ...))
// first, since its value is the one that counts.
ast::Node* findForm(ast::Program& program, std::string_view name) {
  for (ast::Module& m : program.modules)
    for (ast::Node& form : m.forms)
      if (const ast::Node* inner = overridden(form); inner && inner->head() == name)
        return &form.children[1];
  for (ast::Module& m : program.modules)
    for (ast::Node& form : m.forms)
      if (form.head() == name) return &form;
  return nullptr;
}

bool isParameterName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return false;
  return std::isalpha(static_cast<unsigned char>(name[0]));
}

}  // namespace

void applyOverrides(ast::Program& program, const std::vector<std::string>& overrides,
                    SourceManager& sources, DiagnosticEngine& diags) {
  ast::Module* main = nullptr;
  for (ast::Module& m : program.modules)
    if (m.file == program.mainFile) main = &m;
  for (const std::string& text : overrides) {
    const size_t eq = text.find('=');
    const std::string name = text.substr(0, eq);
    if (eq == std::string::npos || !isParameterName(name) || eq + 1 == text.size()) {
      diags.reportFile(DiagKind::BadOverride, "<--set>",
                       fmt::format("--set expects Name=Value, got '{}'", text))
          .withHint("for example --set MessageCreationRate=2% or --set VirtualChannels=4");
      continue;
    }
    if (name == "import" || name == "override" || name.starts_with("define")) {
      diags.reportFile(DiagKind::BadOverride, "<--set>",
                       fmt::format("--set changes a parameter form, not '{}'", name))
          .withHint("edit the program (or a file it imports) to change imports and definitions");
      continue;
    }
    if (name == "TrafficClass") {
      // A program may declare several: which one a --set would replace is not clear.
      diags.reportFile(DiagKind::BadOverride, "<--set>",
                       "--set cannot change a TrafficClass: a program may declare several")
          .withHint("edit the class in the program; its forms are those of the top level");
      continue;
    }
    if (name == "ClockDomain") {
      diags.reportFile(DiagKind::BadOverride, "<--set>",
                       "--set cannot change a ClockDomain: a program may declare several")
          .withHint("edit the domain in the program, or give its stages' latencies there");
      continue;
    }
    const std::string source = fmt::format("({} {})", name, text.substr(eq + 1));
    FileId file = sources.addBuffer("<--set>", "", source);
    sources.setText(file, sanitizeText(source, file, diags));
    std::optional<ast::Module> parsed = parseFile(sources, file, diags);
    if (!parsed) continue;  // unbalanced parentheses: reported
    if (parsed->forms.size() != 1 || parsed->forms[0].head() != name) {
      diags.reportFile(DiagKind::BadOverride, "<--set>",
                       fmt::format("--set {}: the value must be one value of the form, got '{}'",
                                   name, text.substr(eq + 1)))
          .withHint("one form per --set, its whole value quoted for the shell: "
                    "--set 'MessageLength=8byte to 32byte'");
      continue;
    }
    // The load has three spellings: a value of one takes the place of the others.
    static constexpr std::string_view kLoadForms[] = {"MessageCreationRate",
                                                      "MessageCreationInterval", "OfferedLoad"};
    if (std::find(std::begin(kLoadForms), std::end(kLoadForms), name) != std::end(kLoadForms)) {
      for (std::string_view other : kLoadForms) {
        if (other == name) continue;
        for (ast::Module& m : program.modules)
          std::erase_if(m.forms, [&](const ast::Node& f) {
            const ast::Node* inner = overridden(f);
            return f.head() == other || (inner && inner->head() == other);
          });
      }
    }
    if (ast::Node* existing = findForm(program, name)) {
      *existing = std::move(parsed->forms[0]);
    } else if (main) {
      main->forms.push_back(std::move(parsed->forms[0]));
    }
  }
}

}  // namespace ndl::parse
