#include "compiler/parse/AstBuilder.h"

#include <fmt/format.h>

namespace ndl::parse {

using ndlgen::NDLParser;

SourceRange tokenRange(const antlr4::Token* t, FileId file) {
  auto line = static_cast<uint32_t>(t->getLine());
  auto col = static_cast<uint32_t>(t->getCharPositionInLine()) + 1;
  size_t len = t->getStopIndex() >= t->getStartIndex() ? t->getStopIndex() - t->getStartIndex() + 1 : 0;
  return SourceRange{file, line, col, line, col + static_cast<uint32_t>(len)};
}

namespace {

// Bytes of a string literal after its escapes.
constexpr size_t kMaxStringBytes = 4096;

class Builder {
 public:
  Builder(FileId file, DiagnosticEngine& diags) : file_(file), diags_(diags) {}

  ast::Node expr(NDLParser::ExprContext* ctx) {
    if (auto* list = dynamic_cast<NDLParser::ListExprContext*>(ctx)) return listExpr(list);
    if (auto* atom = dynamic_cast<NDLParser::AtomExprContext*>(ctx)) return this->atom(atom->atom());
    if (auto* to = dynamic_cast<NDLParser::ToExprContext*>(ctx)) {
      ast::Node n = errorNode(to->TO()->getSymbol());
      n.value = "to";  // a marker for groupRanges
      return n;
    }
    auto* bad = dynamic_cast<NDLParser::BadExprContext*>(ctx);
    return errorNode(bad->bad()->getStart());
  }

  // Turns `x to y` in a sequence of elements into one Range node; a `to`
  // without a value on each side is reported.
  std::vector<ast::Node> groupRanges(std::vector<ast::Node> items) {
    auto isTo = [](const ast::Node& n) { return n.isError() && n.value == "to"; };
    std::vector<ast::Node> out;
    out.reserve(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
      if (!isTo(items[i])) {
        out.push_back(std::move(items[i]));
        continue;
      }
      bool hasLow = !out.empty() && !isTo(out.back()) && out.back().kind != ast::NodeKind::Range;
      bool hasHigh = i + 1 < items.size() && !isTo(items[i + 1]);
      if (!hasLow || !hasHigh) {
        diags_.report(DiagKind::StrayTo, items[i].range, "'to' must stand between two values")
            .withHint("write a range as (MessageLength 8byte to 32byte)");
        items[i].value.clear();
        out.push_back(std::move(items[i]));
        continue;
      }
      ast::Node range;
      range.kind = ast::NodeKind::Range;
      range.children.push_back(std::move(out.back()));
      range.children.push_back(std::move(items[++i]));
      range.range = SourceRange::cover(range.children[0].range, range.children[1].range);
      range.text = range.children[0].text + " to " + range.children[1].text;
      if (range.children[0].isError() || range.children[1].isError())
        range.kind = ast::NodeKind::Error;
      out.back() = std::move(range);
    }
    return out;
  }

 private:
  ast::Node errorNode(const antlr4::Token* t) {
    ast::Node n;
    n.kind = ast::NodeKind::Error;
    n.range = tokenRange(t, file_);
    n.text = t->getText();
    return n;
  }

  ast::Node listExpr(NDLParser::ListExprContext* ctx) {
    ast::Node n;
    n.kind = ast::NodeKind::List;
    SourceRange open = tokenRange(ctx->LPAREN()->getSymbol(), file_);
    SourceRange close = tokenRange(ctx->RPAREN()->getSymbol(), file_);
    n.range = SourceRange::cover(open, close);
    // ctx->children, not ctx->expr(): the latter filters with a
    // dynamic_cast on every call.
    std::vector<ast::Node> items;
    items.reserve(ctx->children.size() - 2);
    for (antlr4::tree::ParseTree* child : ctx->children)
      if (auto* e = dynamic_cast<NDLParser::ExprContext*>(child)) items.push_back(expr(e));
    n.children = groupRanges(std::move(items));
    return n;
  }

  ast::Node atom(NDLParser::AtomContext* ctx) {
    const antlr4::Token* t = ctx->getStart();
    ast::Node n;
    n.range = tokenRange(t, file_);
    n.text = t->getText();
    switch (t->getType()) {
      case NDLParser::IDENT: n.kind = ast::NodeKind::Symbol; break;
      case NDLParser::STRING: string(n); break;
      case NDLParser::INTEGER: number(n, n.text, ast::NodeKind::Integer); break;
      case NDLParser::REAL: number(n, n.text, ast::NodeKind::Real); break;
      case NDLParser::QUANTITY: quantity(n); break;
    }
    return n;
  }

  void number(ast::Node& n, std::string_view digits, ast::NodeKind kind) {
    std::optional<Rational> value = Rational::parse(digits);
    if (!value) {
      n.kind = ast::NodeKind::Error;
      if (kind == ast::NodeKind::Integer) {
        diags_.report(DiagKind::NumberOverflow, n.range,
                      fmt::format("integer '{}' does not fit in 64 bits", digits))
            .withHint("NDL integers lie between -9223372036854775808 and 9223372036854775807");
      } else {
        diags_.report(DiagKind::NumberOverflow, n.range,
                      fmt::format("number '{}' is too large, too small or too precise to "
                                  "represent exactly",
                                  digits))
            .withHint("NDL keeps numbers as exact fractions of 64-bit integers; use fewer "
                      "digits or a larger unit");
      }
      return;
    }
    n.kind = kind;
    n.number = *value;
  }

  // A quantity is a number glued to a unit: split at the first letter or
  // '%' that is not part of an exponent ("2.5e-3sec" -> "2.5e-3", "sec").
  void quantity(ast::Node& n) {
    const std::string& s = n.text;
    size_t i = 0;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      size_t j = i + 1;
      if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
      if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
        while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
        i = j;
      }
    }
    n.value = s.substr(i);
    n.unitRange = n.range;
    n.unitRange.col = n.range.col + static_cast<uint32_t>(i);
    number(n, std::string_view(s).substr(0, i), ast::NodeKind::Quantity);
  }

  void string(ast::Node& n) {
    n.kind = ast::NodeKind::String;
    std::string_view body = std::string_view(n.text).substr(1, n.text.size() - 2);
    uint32_t col = n.range.col + 1;  // column of body[i]; counts code points
    for (size_t i = 0; i < body.size(); ++i) {
      if (body[i] != '\\') {
        n.value += body[i];
        if ((static_cast<unsigned char>(body[i]) & 0xC0) != 0x80) ++col;
        continue;
      }
      char e = body[++i];
      switch (e) {
        case 'n': n.value += '\n'; break;
        case 't': n.value += '\t'; break;
        case 'r': n.value += '\r'; break;
        case '\\': n.value += '\\'; break;
        case '"': n.value += '"'; break;
        default:
          diags_.report(DiagKind::UnknownEscape, {file_, n.range.line, col, n.range.line, col + 2},
                        fmt::format("unknown escape sequence '\\{}' in string", e))
              .withHint("the escapes are \\\" \\\\ \\n \\t \\r; write '\\\\' for a backslash");
          n.kind = ast::NodeKind::Error;
      }
      col += 2;
    }
    // Strings name files, imports and node attributes; a longer one is a mistake (an
    // unclosed quote that swallowed the file, say), refused before it travels further.
    if (n.value.size() > kMaxStringBytes) {
      diags_.report(DiagKind::StringTooLong, n.range,
                    fmt::format("a string of {} bytes; NDL strings hold at most {}",
                                n.value.size(), kMaxStringBytes))
          .withHint("strings name files, imports and node attributes: keep them short");
      n.kind = ast::NodeKind::Error;
    }
  }

  FileId file_;
  DiagnosticEngine& diags_;
};

}  // namespace

ast::Module buildModule(NDLParser::ProgramContext* program, FileId file, DiagnosticEngine& diags) {
  Builder b(file, diags);
  ast::Module m;
  m.file = file;
  std::vector<ast::Node> items;
  for (antlr4::tree::ParseTree* child : program->children)
    if (auto* e = dynamic_cast<NDLParser::ExprContext*>(child)) items.push_back(b.expr(e));
  m.forms = b.groupRanges(std::move(items));
  return m;
}

}  // namespace ndl::parse
