#include "compiler/parse/Parser.h"

#include <fmt/format.h>

#include "compiler/support/InternalError.h"

#include "NDLLexer.h"
#include "NDLParser.h"
#include "antlr4-runtime.h"
#include "compiler/parse/AstBuilder.h"

namespace ndl::parse {
namespace {

using ndlgen::NDLLexer;

// The grammar accepts every balanced token sequence, so a syntax error
// from ANTLR is a bug in the grammar, never the user's fault.
class GrammarBugListener : public antlr4::BaseErrorListener {
 public:
  void syntaxError(antlr4::Recognizer*, antlr4::Token*, size_t line, size_t col,
                   const std::string& msg, std::exception_ptr) override {
    throw InternalError(fmt::format("NDL grammar rejected balanced input at {}:{}: {}", line,
                                       col + 1, msg));
  }
};

std::string describeChar(const std::string& text) {
  unsigned char c = text.empty() ? 0 : static_cast<unsigned char>(text[0]);
  if (c < 0x20 || c == 0x7F) return fmt::format("U+{:04X}", c);
  return fmt::format("'{}'", text);
}

std::string badCharHint(const std::string& text) {
  if (text == "[" || text == "]" || text == "{" || text == "}")
    return "NDL writes every list with ( and )";
  if (text == "'" || text == "`") return "strings are written in double quotes: \"...\"";
  if (text == "#") return "comments start with ';' or are written #| ... |#";
  return "remove it; NDL text is made of ( ), atoms, strings and comments";
}

// Reports lexical errors and checks that parentheses balance and do not
// nest too deeply. Returns false when the token stream cannot be parsed.
bool checkTokens(const std::vector<antlr4::Token*>& tokens, FileId file,
                 DiagnosticEngine& diags) {
  std::vector<const antlr4::Token*> open;
  bool balanced = true;
  bool tooDeep = false;
  bool unterminated = false;  // a string or comment that swallowed a ')'

  for (const antlr4::Token* t : tokens) {
    SourceRange r = tokenRange(t, file);
    switch (t->getType()) {
      case NDLLexer::LPAREN:
        open.push_back(t);
        if (open.size() > kMaxNesting && !tooDeep) {
          diags.report(DiagKind::NestingTooDeep, r,
                       fmt::format("lists nest more than {} levels deep", kMaxNesting))
              .withHint("an NDL program needs only a few levels; is a ')' missing?");
          tooDeep = true;
        }
        break;
      case NDLLexer::RPAREN:
        if (open.empty()) {
          diags.report(DiagKind::UnmatchedParen, r, "unexpected ')' with no matching '('")
              .withHint("remove it, or add the '(' it was meant to close");
          balanced = false;
        } else {
          open.pop_back();
        }
        break;
      case NDLLexer::UNTERMINATED_STRING:
        r.endCol = r.col + 1;
        unterminated = true;
        diags.report(DiagKind::UnterminatedString, r, "string is never closed")
            .withHint("end it with '\"' on the same line; strings cannot span lines");
        break;
      case NDLLexer::UNTERMINATED_BLOCK_COMMENT:
        r.endLine = r.line;
        r.endCol = r.col + 2;
        unterminated = true;
        diags.report(DiagKind::UnterminatedComment, r, "block comment '#|' is never closed")
            .withHint("end it with '|#'");
        break;
      case NDLLexer::BAD_CHAR:
        diags.report(DiagKind::UnexpectedCharacter, r,
                     fmt::format("unexpected character {}", describeChar(t->getText())))
            .withHint(badCharHint(t->getText()));
        break;
      default: break;
    }
  }
  // One mistake, one message: an unterminated string or comment swallows
  // the ')' after it, and too deep a nesting is usually missing ')'s.
  if (!open.empty() && (unterminated || tooDeep)) return false;
  if (!open.empty()) {
    // The outermost unclosed list is where the missing ')' belongs.
    SourceRange r = tokenRange(open.front(), file);
    std::string what = "'('";
    diags.report(DiagKind::UnclosedParen, r, fmt::format("{} is never closed", what))
        .withHint(fmt::format("add ')' to close it ({} list{} still open at the end of the file)",
                              open.size(), open.size() == 1 ? "" : "s"));
    balanced = false;
  }
  return balanced && !tooDeep;
}

}  // namespace

std::optional<ast::Module> parseFile(const SourceManager& sources, FileId file,
                                     DiagnosticEngine& diags) {
  antlr4::ANTLRInputStream input(sources.text(file));
  NDLLexer lexer(&input);
  lexer.removeErrorListeners();  // BAD_CHAR catches everything
  antlr4::CommonTokenStream tokens(&lexer);
  tokens.fill();

  std::vector<antlr4::Token*> all = tokens.getTokens();
  if (!checkTokens(all, file, diags)) return std::nullopt;

  ndlgen::NDLParser parser(&tokens);
  parser.removeErrorListeners();
  GrammarBugListener bugs;
  parser.addErrorListener(&bugs);
  // SLL suffices for this LL(2) grammar and is much faster than full LL.
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
      antlr4::atn::PredictionMode::SLL);
  ndlgen::NDLParser::ProgramContext* program = parser.program();
  return buildModule(program, file, diags);
}

}  // namespace ndl::parse
