#include "compiler/ast/Ast.h"

namespace ndl::ast {

std::string_view kindName(NodeKind k) {
  switch (k) {
    case NodeKind::List: return "list";
    case NodeKind::Symbol: return "symbol";
    case NodeKind::Integer: return "integer";
    case NodeKind::Real: return "real number";
    case NodeKind::String: return "string";
    case NodeKind::Quantity: return "quantity";
    case NodeKind::Range: return "range";
    case NodeKind::Error: return "invalid value";
  }
  return "invalid value";
}

namespace {
void printTo(const Node& n, std::string& out) {
  switch (n.kind) {
    case NodeKind::List:
      out += '(';
      for (size_t i = 0; i < n.children.size(); ++i) {
        if (i) out += ' ';
        printTo(n.children[i], out);
      }
      out += ')';
      break;
    case NodeKind::Range:
      printTo(n.children[0], out);
      out += " to ";
      printTo(n.children[1], out);
      break;
    case NodeKind::Error: out += "<error>"; break;
    default: out += n.text; break;
  }
}
}  // namespace

std::string print(const Node& node) {
  std::string out;
  printTo(node, out);
  return out;
}

std::string quote(const Node& node) {
  std::string s = print(node);
  constexpr size_t kMax = 60;
  if (s.size() <= kMax) return s;
  if (node.isList() && !node.head().empty()) return "(" + std::string(node.head()) + " ...)";
  return s.substr(0, kMax - 3) + "...";
}

}  // namespace ndl::ast
