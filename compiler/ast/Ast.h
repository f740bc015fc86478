// NDL's syntax tree: S-expressions with a source range on every node.
// The parser builds it from ANTLR's parse tree (ANTLR types stop there);
// the checker gives forms their meaning.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/support/Rational.h"
#include "compiler/support/SourceRange.h"

namespace ndl::ast {

enum class NodeKind : uint8_t {
  List,      // ( ... )
  Symbol,    // FlowControlMethod, x+, hot-spot
  Integer,   // 10000, -3, 0x1F
  Real,      // 1.5, 2e-3
  String,    // "cpf/pde.cpf"
  Quantity,  // 50MHz, 8byte, 1.0%
  Range,     // 8byte to 32byte, 0 to (- k 1): children = {low, high}
  Error,     // something already reported; later stages stay silent on it
};

std::string_view kindName(NodeKind k);

struct Node {
  NodeKind kind = NodeKind::Error;
  SourceRange range;
  // Atoms: the spelling as written. Strings: with quotes and escapes.
  std::string text;
  // String: the decoded value. Quantity: the unit ("MHz").
  std::string value;
  // Integer, Real, Quantity: the exact number.
  Rational number;
  // Quantity: where the unit is, for unit diagnostics.
  SourceRange unitRange;
  // List: the elements. Range: {low, high}.
  std::vector<Node> children;

  bool isList() const { return kind == NodeKind::List; }
  bool isSymbol() const { return kind == NodeKind::Symbol; }
  bool isSymbol(std::string_view name) const { return kind == NodeKind::Symbol && text == name; }
  bool isError() const { return kind == NodeKind::Error; }
  bool isNumber() const { return kind == NodeKind::Integer || kind == NodeKind::Real; }

  // A list's head symbol, or "" when the list is empty or starts otherwise.
  std::string_view head() const {
    return kind == NodeKind::List && !children.empty() && children[0].isSymbol()
               ? std::string_view(children[0].text)
               : std::string_view();
  }
};

// One parsed file: its top-level expressions in order.
struct Module {
  FileId file = kNoFile;
  std::vector<Node> forms;
};

// Every module of a program, imported ones before the files importing them,
// each once. The main file is last.
struct Program {
  std::vector<Module> modules;
  FileId mainFile = kNoFile;
};

// Prints a node back as S-expression text: the spelling of atoms, lists
// with single spaces. Used by `--dump-after=parse` and to quote input.
std::string print(const Node& node);
// Short quotation for messages: long lists are elided ("(Topology ...)").
std::string quote(const Node& node);

}  // namespace ndl::ast
