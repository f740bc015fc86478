#include "compiler/parse/Format.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "NDLLexer.h"
#include "antlr4-runtime.h"
#include "compiler/parse/Parser.h"
#include "compiler/support/InternalError.h"

namespace ndl::parse {
namespace {

using ndlgen::NDLLexer;

// Forms that end in a body (definitions and binding forms): their
// continuation lines are indented two columns past the '(', as in Lisp,
// wherever their first argument stands.
bool isBodyForm(std::string_view head) {
  return head == "define" || head == "define-topology" || head == "define-routing" ||
         head == "define-selection" || head == "define-pattern" || head == "let" ||
         head == "for" || head == "when";
}

struct Token {
  size_t type = 0;
  std::string text;  // comments: each line without trailing whitespace, '\n' between lines
  size_t line = 0;   // 1-based, of the first character
  size_t endLine = 0;
  size_t col = 0;    // 0-based, in characters
};

bool isComment(const Token& t) {
  return t.type == NDLLexer::LINE_COMMENT || t.type == NDLLexer::BLOCK_COMMENT;
}

// Characters, not bytes: columns are what an editor shows.
size_t width(std::string_view s) {
  return static_cast<size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string trimLines(std::string_view raw) {
  std::string out;
  size_t at = 0;
  while (true) {
    size_t nl = raw.find('\n', at);
    std::string_view line = raw.substr(at, nl == std::string_view::npos ? raw.npos : nl - at);
    size_t end = line.find_last_not_of(" \t\r\f");
    out += line.substr(0, end == std::string_view::npos ? 0 : end + 1);
    if (nl == std::string_view::npos) break;
    out += '\n';
    at = nl + 1;
  }
  return out;
}

// Every token but whitespace, comments included (they are on the hidden
// channel, which the parser never sees).
std::vector<Token> lex(const std::string& text) {
  antlr4::ANTLRInputStream input(text);
  NDLLexer lexer(&input);
  lexer.removeErrorListeners();
  antlr4::CommonTokenStream stream(&lexer);
  stream.fill();
  std::vector<Token> tokens;
  for (antlr4::Token* t : stream.getTokens()) {
    if (t->getType() == antlr4::Token::EOF) break;
    Token tok;
    tok.type = t->getType();
    std::string raw = t->getText();
    tok.line = t->getLine();
    tok.endLine = tok.line + static_cast<size_t>(std::count(raw.begin(), raw.end(), '\n'));
    tok.col = t->getCharPositionInLine();
    tok.text = isComment(tok) ? trimLines(raw) : std::move(raw);
    tokens.push_back(std::move(tok));
  }
  return tokens;
}

class Layout {
 public:
  std::string run(const std::vector<Token>& tokens) {
    for (size_t i = 0; i < tokens.size(); ++i) {
      const Token& t = tokens[i];
      const Token* prev = i ? &tokens[i - 1] : nullptr;
      bool afterLineComment = prev && prev->type == NDLLexer::LINE_COMMENT;
      bool lineStart = !prev || t.line > prev->endLine || afterLineComment;
      // Closing parentheses gather at the end of the line they close, as in
      // Lisp; only a comment before them keeps them on a line of their own.
      if (t.type == NDLLexer::RPAREN && !afterLineComment) lineStart = prev == nullptr;

      if (prev && lineStart) newline(t.line - prev->endLine >= 2);
      if (lineStart) {
        put(std::string(indent(), ' '));
      } else if (isComment(t)) {
        // A comment after code keeps its distance (authors align them).
        size_t gap = t.line == prev->endLine && t.col > prev->col + width(prev->text)
                         ? t.col - prev->col - width(prev->text)
                         : 1;
        put(std::string(prev->endLine == prev->line ? gap : 1, ' '));
      } else if (prev->type != NDLLexer::LPAREN && t.type != NDLLexer::RPAREN) {
        put(" ");
      }

      if (!isComment(t) && t.type != NDLLexer::RPAREN && !open_.empty()) {
        Frame& f = open_.back();
        if (f.elems == 0) {
          f.headIsName = t.type == NDLLexer::IDENT;
          f.body = f.headIsName && isBodyForm(t.text);
          f.cond = f.headIsName && t.text == "cond";
          f.headLine = line_;
        } else if (f.elems == 1 && line_ == f.headLine) {
          f.firstArgCol = col_;  // on the head's line: later arguments align with it
        }
        ++f.elems;
      }
      if (t.type == NDLLexer::RPAREN) {
        if (open_.empty()) throw InternalError("fmt: unbalanced input reached the layout");
        open_.pop_back();
      }
      size_t at = col_;
      put(t.text);
      if (t.type == NDLLexer::LPAREN) {
        bool clause = !open_.empty() && open_.back().cond && open_.back().elems > 1;
        open_.push_back(Frame{at});
        open_.back().clause = clause;
      }
    }
    if (!tokens.empty()) out_ += '\n';
    return std::move(out_);
  }

 private:
  struct Frame {
    size_t openCol;
    size_t elems = 0;
    bool headIsName = false;
    bool body = false;
    bool cond = false;    // its lists after the head are clauses
    bool clause = false;  // a clause of a cond: a test and values, not a call
    size_t headLine = 0;  // output line of the head
    std::optional<size_t> firstArgCol;
  };

  // The column of a line that starts inside the innermost open list: the
  // head's column for a list that does not start with a name (data, let
  // bindings) or a cond clause whose values start on a later line; two past
  // the '(' for a body form or a name whose first argument is on a later
  // line; else the first argument's.
  size_t indent() const {
    if (open_.empty()) return 0;
    const Frame& f = open_.back();
    if (f.elems == 0 || !f.headIsName) return f.openCol + 1;
    if (f.body) return f.openCol + 2;
    if (f.firstArgCol) return *f.firstArgCol;
    return f.clause ? f.openCol + 1 : f.openCol + 2;
  }

  void newline(bool blank) {
    out_ += blank ? "\n\n" : "\n";
    line_ += blank ? 2 : 1;
    col_ = 0;
  }

  void put(std::string_view s) {
    out_ += s;
    line_ += static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
    size_t nl = s.rfind('\n');
    col_ = nl == std::string_view::npos ? col_ + width(s) : width(s.substr(nl + 1));
  }

  std::string out_;
  size_t col_ = 0;
  size_t line_ = 0;
  std::vector<Frame> open_;
};

}  // namespace

std::optional<std::string> formatFile(const SourceManager& sources, FileId file,
                                      DiagnosticEngine& diags) {
  uint32_t errorsBefore = diags.errorCount();
  if (!parseFile(sources, file, diags) || diags.errorCount() != errorsBefore) return std::nullopt;
  std::vector<Token> tokens = lex(sources.text(file));
  std::string out = Layout().run(tokens);
  // The layout changes only whitespace: a different token sequence is a bug,
  // and no file is written from it.
  std::vector<Token> again = lex(out);
  bool same = again.size() == tokens.size();
  for (size_t i = 0; same && i < tokens.size(); ++i)
    same = again[i].type == tokens[i].type && again[i].text == tokens[i].text;
  if (!same)
    throw InternalError(fmt::format("fmt changed the tokens of {}", sources.name(file)));
  return out;
}

}  // namespace ndl::parse
