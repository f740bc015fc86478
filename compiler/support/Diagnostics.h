// The one diagnostics engine: every user-facing error and warning of the
// compiler goes through it, with a kind from DiagnosticKinds.def, a source
// range, optional notes ("first given here") and an optional hint ("did
// you mean ...?"). Compiler bugs do not come here; see InternalError.h.
#pragma once

#include <cstdint>
#include <deque>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/support/SourceManager.h"
#include "compiler/support/SourceRange.h"

namespace ndl {

enum class Severity : uint8_t { Note, Warning, Error };

enum class DiagKind : uint16_t {
#define NDL_DIAG(Id, Name, Sev) Id,
#include "compiler/support/DiagnosticKinds.def"
#undef NDL_DIAG
};

// The printed name of a kind ("unknown-form") and its default severity.
std::string_view diagKindName(DiagKind kind);
Severity diagKindSeverity(DiagKind kind);
// All kinds, for `ndlc check --list-diagnostics` and the coverage test.
std::vector<DiagKind> allDiagKinds();

struct DiagNote {
  SourceRange range;
  std::string message;
};

struct Diagnostic {
  DiagKind kind;
  Severity severity;
  SourceRange range;
  std::string file;  // display name when range has no file (unreadable input)
  std::string message;
  std::string hint;
  std::vector<DiagNote> notes;

  Diagnostic& note(SourceRange r, std::string msg) {
    notes.push_back({r, std::move(msg)});
    return *this;
  }
  Diagnostic& withHint(std::string h) {
    hint = std::move(h);
    return *this;
  }
};

struct DiagOptions {
  bool warningsAsErrors = false;
  uint32_t maxErrors = 20;  // 0: no cap
};

class DiagnosticEngine {
 public:
  DiagnosticEngine(const SourceManager& sources, DiagOptions options = {});

  // Records a diagnostic and returns it so notes and a hint can be added.
  // Past the error cap the result is a scratch object that is never shown.
  Diagnostic& report(DiagKind kind, SourceRange range, std::string message);
  // For a file that could not be read: there is no range, only a name.
  Diagnostic& reportFile(DiagKind kind, std::string fileName, std::string message);

  uint32_t errorCount() const { return errors_; }
  uint32_t warningCount() const { return warnings_; }
  bool hasErrors() const { return errors_ > 0; }
  // True once the cap is reached: callers may stop early.
  bool capped() const { return capped_; }

  const std::deque<Diagnostic>& diagnostics() const { return diags_; }
  // The diagnostic reported last, to add a note its reporter could not know; null if none
  // (or past the cap).
  Diagnostic* last() { return diags_.empty() || capped_ ? nullptr : &diags_.back(); }
  const SourceManager& sources() const { return sources_; }

  // clang-style text: location, severity, message [kind], source line,
  // caret, hint, then the notes.
  void printText(std::ostream& out) const;
  // Machine-readable form for tools (`ndlc check --json`).
  void printJson(std::ostream& out) const;

 private:
  Diagnostic& add(DiagKind kind, SourceRange range, std::string file, std::string message);
  void printOne(std::ostream& out, Severity sev, const SourceRange& r, const std::string& file,
                const std::string& message, std::string_view kind) const;

  const SourceManager& sources_;
  DiagOptions options_;
  std::deque<Diagnostic> diags_;  // deque: references stay valid
  Diagnostic scratch_{};
  uint32_t errors_ = 0;
  uint32_t warnings_ = 0;
  bool capped_ = false;
};

}  // namespace ndl
