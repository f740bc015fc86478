#include "compiler/support/Diagnostics.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <ostream>

namespace ndl {
namespace {

struct KindInfo {
  std::string_view name;
  Severity severity;
};

constexpr KindInfo kKinds[] = {
#define NDL_DIAG(Id, Name, Sev) {Name, Severity::Sev},
#include "compiler/support/DiagnosticKinds.def"
#undef NDL_DIAG
};

std::string_view severityName(Severity s) {
  switch (s) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}

// Number of bytes of the UTF-8 sequence starting with byte c (1 for
// continuation or invalid bytes, so that walking never stalls).
size_t utf8Length(unsigned char c) {
  if (c >= 0xF0 && c < 0xF8) return 4;
  if (c >= 0xE0) return 3;
  if (c >= 0xC0) return 2;
  return 1;
}

// Splits a line into code points (as byte strings) so that columns, which
// count code points, map onto the text.
std::vector<std::string_view> codePoints(std::string_view line) {
  std::vector<std::string_view> cps;
  for (size_t i = 0; i < line.size();) {
    size_t n = std::min(utf8Length(static_cast<unsigned char>(line[i])), line.size() - i);
    cps.push_back(line.substr(i, n));
    i += n;
  }
  return cps;
}

}  // namespace

std::string_view diagKindName(DiagKind kind) { return kKinds[static_cast<size_t>(kind)].name; }
Severity diagKindSeverity(DiagKind kind) { return kKinds[static_cast<size_t>(kind)].severity; }

std::vector<DiagKind> allDiagKinds() {
  std::vector<DiagKind> all;
  for (size_t i = 0; i < std::size(kKinds); ++i) all.push_back(static_cast<DiagKind>(i));
  return all;
}

DiagnosticEngine::DiagnosticEngine(const SourceManager& sources, DiagOptions options)
    : sources_(sources), options_(options) {}

Diagnostic& DiagnosticEngine::report(DiagKind kind, SourceRange range, std::string message) {
  return add(kind, range, "", std::move(message));
}

Diagnostic& DiagnosticEngine::reportFile(DiagKind kind, std::string fileName,
                                         std::string message) {
  return add(kind, SourceRange{}, std::move(fileName), std::move(message));
}

Diagnostic& DiagnosticEngine::add(DiagKind kind, SourceRange range, std::string file,
                                  std::string message) {
  Severity sev = diagKindSeverity(kind);
  if (sev == Severity::Warning && options_.warningsAsErrors) sev = Severity::Error;
  if (capped_) {
    scratch_ = Diagnostic{};
    return scratch_;
  }
  if (sev == Severity::Error && options_.maxErrors != 0 && errors_ >= options_.maxErrors) {
    capped_ = true;
    diags_.push_back(Diagnostic{DiagKind::TooManyErrors, Severity::Error, range, file,
                                fmt::format("too many errors ({}); stopping here", errors_),
                                "raise the limit with --max-errors N (0 for none)",
                                {}});
    ++errors_;
    scratch_ = Diagnostic{};
    return scratch_;
  }
  if (sev == Severity::Error) ++errors_;
  if (sev == Severity::Warning) ++warnings_;
  diags_.push_back(Diagnostic{kind, sev, range, std::move(file), std::move(message), "", {}});
  return diags_.back();
}

void DiagnosticEngine::printOne(std::ostream& out, Severity sev, const SourceRange& r,
                                const std::string& file, const std::string& message,
                                std::string_view kind) const {
  std::string where = r.valid() ? fmt::format("{}:{}:{}", sources_.name(r.file), r.line, r.col)
                                : (file.empty() ? std::string("ndlc") : file);
  out << where << ": " << severityName(sev) << ": " << message;
  if (!kind.empty()) out << " [" << kind << "]";
  out << "\n";
  if (!r.valid()) return;
  std::vector<std::string_view> cps = codePoints(sources_.line(r.file, r.line));
  // Long lines (a generated file) are shown as a window around the column.
  constexpr size_t kWindow = 100;
  size_t begin = 0;
  size_t end = cps.size();
  size_t col0 = r.col > 0 ? r.col - 1 : 0;
  if (cps.size() > kWindow) {
    begin = col0 > kWindow / 2 ? col0 - kWindow / 2 : 0;
    end = std::min(cps.size(), begin + kWindow);
  }
  std::string text;
  std::string caret;
  if (begin > 0) {
    text += "...";
    caret += "   ";
  }
  // One past the last underlined character; a range over several lines is
  // underlined to the end of its first line.
  size_t last = r.endLine == r.line ? std::max<size_t>(r.endCol, 1) - 1 : end;
  for (size_t i = begin; i < end; ++i) {
    text += cps[i];
    bool tab = cps[i] == "\t";
    if (i < col0)
      caret += tab ? '\t' : ' ';
    else if (i == col0)
      caret += '^';
    else if (i < last)
      caret += '~';
  }
  if (col0 >= end) caret += '^';  // error at end of line (a missing ')')
  if (end < cps.size()) text += "...";
  out << text << "\n" << caret << "\n";
}

void DiagnosticEngine::printText(std::ostream& out) const {
  for (const Diagnostic& d : diags_) {
    printOne(out, d.severity, d.range, d.file, d.message, diagKindName(d.kind));
    if (!d.hint.empty()) out << "hint: " << d.hint << "\n";
    for (const DiagNote& n : d.notes) printOne(out, Severity::Note, n.range, "", n.message, "");
  }
  if (errors_ || warnings_) {
    out << fmt::format("{} error{}, {} warning{}\n", errors_, errors_ == 1 ? "" : "s", warnings_,
                       warnings_ == 1 ? "" : "s");
  }
}

void DiagnosticEngine::printJson(std::ostream& out) const {
  using nlohmann::json;
  auto location = [&](const SourceRange& r, const std::string& file) {
    json j;
    j["file"] = r.valid() ? sources_.name(r.file) : file;
    if (r.valid()) {
      j["line"] = r.line;
      j["column"] = r.col;
      j["end_line"] = r.endLine;
      j["end_column"] = r.endCol;
    }
    return j;
  };
  json list = json::array();
  for (const Diagnostic& d : diags_) {
    json j = location(d.range, d.file);
    j["severity"] = severityName(d.severity);
    j["kind"] = diagKindName(d.kind);
    j["message"] = d.message;
    if (!d.hint.empty()) j["hint"] = d.hint;
    json notes = json::array();
    for (const DiagNote& n : d.notes) {
      json jn = location(n.range, "");
      jn["message"] = n.message;
      notes.push_back(std::move(jn));
    }
    j["notes"] = std::move(notes);
    list.push_back(std::move(j));
  }
  json doc{{"diagnostics", std::move(list)}, {"errors", errors_}, {"warnings", warnings_}};
  // Replace invalid UTF-8 (quoted from a broken file) instead of throwing.
  out << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace ndl
