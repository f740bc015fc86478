// Builds the typed expression IR (Expr.h) from definition forms and checks
// it: names, arity, types. One mistake gives one message: a subexpression
// that failed has Type::Error and its users stay silent.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "compiler/sema/Definitions.h"
#include "compiler/sema/FormTable.h"
#include "compiler/sema/Units.h"
#include "compiler/support/EditDistance.h"

namespace ndl::sema {

using ast::Node;
using ast::NodeKind;

std::string_view typeName(Type t) {
  switch (t) {
    case Type::Int: return "Int";
    case Type::Bool: return "Bool";
    case Type::Real: return "Real";
    case Type::Node: return "Node";
    case Type::Endpoint: return "Endpoint";
    case Type::Port: return "Port";
    case Type::Coord: return "Coord";
    case Type::Route: return "Route";
    case Type::Size: return "Size";
    case Type::Time: return "Time";
    case Type::Frequency: return "Frequency";
    case Type::Unit: return "a statement";
    case Type::Error: return "<error>";
  }
  return "?";
}

bool isDefinitionForm(const Node& form) {
  std::string_view h = form.head();
  return h == "define" || h == "define-topology" || h == "define-routing" ||
         h == "define-selection" || h == "define-port-state" || h == "define-router-state" ||
         h == "define-predictor" || h == "define-pattern";
}

namespace {

// Nodes (routers) and endpoints are numbers an Int converts to and from; one is never the
// other (the conversions name which router or which endpoint).
bool integral(Type t) { return t == Type::Int || t == Type::Node || t == Type::Endpoint; }
bool routerAndEndpoint(Type a, Type b) {
  return (a == Type::Node && b == Type::Endpoint) || (a == Type::Endpoint && b == Type::Node);
}
// The hint for a router given where an endpoint is wanted, or the other way round.
const char* endpointHint(Type want) {
  return want == Type::Node
             ? "an endpoint is not a router: (endpoint-router e) is the router endpoint e is at"
             : "a router is not an endpoint: (router-endpoint r i) is the i-th endpoint at "
               "router r";
}
bool numeric(Type t) { return integral(t) || t == Type::Real; }

std::optional<Type> parseType(std::string_view name) {
  if (name == "Int") return Type::Int;
  if (name == "Bool") return Type::Bool;
  if (name == "Real") return Type::Real;
  if (name == "Node") return Type::Node;
  if (name == "Endpoint") return Type::Endpoint;
  if (name == "Port") return Type::Port;
  if (name == "Coord") return Type::Coord;
  if (name == "Route") return Type::Route;
  if (name == "Size") return Type::Size;
  if (name == "Time") return Type::Time;
  if (name == "Frequency") return Type::Frequency;
  return std::nullopt;
}

// Operators and builtins: name -> (op, arity; -1 for variadic >= 2).
struct Builtin {
  Op op;
  int arity;
};
const std::unordered_map<std::string_view, Builtin>& builtins() {
  static const std::unordered_map<std::string_view, Builtin> table = {
      {"+", {Op::Add, -1}},        {"-", {Op::Sub, -1}},        {"*", {Op::Mul, -1}},
      {"/", {Op::Div, 2}},         {"div", {Op::IntDiv, 2}},    {"mod", {Op::Mod, 2}},
      {"min", {Op::Min, -1}},      {"max", {Op::Max, -1}},      {"abs", {Op::Abs, 1}},
      {"<", {Op::Lt, 2}},          {"<=", {Op::Le, 2}},         {">", {Op::Gt, 2}},
      {">=", {Op::Ge, 2}},         {"=", {Op::Eq, 2}},          {"!=", {Op::Ne, 2}},
      {"not", {Op::Not, 1}},       {"bitand", {Op::BitAnd, 2}}, {"bitor", {Op::BitOr, 2}},
      {"bitxor", {Op::BitXor, 2}}, {"bitnot", {Op::BitNot, 1}}, {"shl", {Op::Shl, 2}},
      {"shr", {Op::Shr, 2}},       {"bit", {Op::Bit, 2}},       {"popcount", {Op::Popcount, 1}},
      {"length", {Op::Length, 1}}, {"nth", {Op::Nth, 2}},       {"product", {Op::Product, 1}},
      {"nodes", {Op::NodeCount, 0}}, {"dims", {Op::DimCount, 0}}, {"radix", {Op::Radix, 1}},
      {"coord", {Op::CoordOf, 2}}, {"neighbor", {Op::Neighbor, 3}}, {"port", {Op::MakePort, 2}},
      {"port-dim", {Op::PortDim, 1}}, {"port-dir", {Op::PortDir, 1}}, {"real", {Op::ToReal, 1}},
      {"node", {Op::ToNode, 1}},   {"int", {Op::ToInt, 1}},     {"linked", {Op::Linked, 2}},
      {"list", {Op::MakeCoord, -1}},  {"repeat", {Op::Repeat, 2}},
      {"lowest-set-bit", {Op::LowestSetBit, 1}}, {"wraps", {Op::Wraps, 1}},
      {"has-dim", {Op::HasDim, 1}},    {"has-port", {Op::HasPort, 3}},
      {"peer", {Op::Peer, 2}},         {"graph-distance", {Op::Distance, 2}},
      {"port-dims", {Op::PortDims, 0}},
      {"vcs", {Op::Vcs, 0}},           {"injection-vcs", {Op::InjectionVcs, 0}},
      {"avoiding", {Op::Avoiding, 0}}, {"recovery-timeout", {Op::RecoveryTimeout, 0}},
      {"via", {Op::RouteTo, -1}},
      {"union", {Op::RouteUnion, -1}}, {"prefer", {Op::RoutePrefer, -1}},
      {"no-route", {Op::RouteNone, 0}}, {"random-node", {Op::RandomNode, 0}},
      {"random", {Op::RandomBelow, 1}},  {"random-endpoint", {Op::RandomEndpoint, 0}},
      {"endpoints", {Op::EndpointCount, 0}}, {"endpoint-router", {Op::EndpointRouter, 1}},
      {"endpoint-index", {Op::EndpointIndex, 1}},
      {"router-endpoints", {Op::RouterEndpoints, 1}},
      {"router-endpoint", {Op::RouterEndpoint, 2}}, {"endpoint", {Op::ToEndpoint, 1}},
      {"port-queue", {Op::PortQueue, 1}}, {"port-credits", {Op::PortCreditsAt, 1}},
      {"port-free-vcs", {Op::PortFreeVcsAt, 1}}, {"port-queue-at", {Op::PortQueueAt, 2}},
  };
  return table;
}

// Names the checker reads itself, which no definition may take.
constexpr std::string_view kSpecialForms[] = {"let", "if",   "cond",  "and",   "or",  "sum",
                                              "for", "when", "true",  "false", "else"};
constexpr std::string_view kStateOps[] = {"ring-length", "ring-ref",      "ring-count",
                                          "push",        "ejection-port", "no-port"};

// Statement forms of topology bodies: name -> op.
const std::unordered_map<std::string_view, Op>& statements() {
  static const std::unordered_map<std::string_view, Op> table = {
      {"Nodes", Op::StmtNodes},
      {"Radices", Op::StmtRadices},
      {"DimensionNames", Op::StmtDimNames},
      {"Link", Op::StmtLink},
      {"UnidirectionalLink", Op::StmtUniLink},
      {"Representatives", Op::StmtRepresentatives},
      {"Diameter", Op::StmtDiameter},
      {"AverageDistance", Op::StmtAverage},
      {"Bisection", Op::StmtBisection},
      {"DefaultRouting", Op::StmtDefaultRouting},
      {"Require", Op::StmtRequire},
      {"NodeAttribute", Op::StmtAttribute},
      {"Endpoints", Op::StmtEndpoints},
      {"Concentration", Op::StmtConcentration},
      {"Groups", Op::StmtGroups},
  };
  return table;
}

class Checker {
 public:
  Checker(DefinitionTable& table, DiagnosticEngine& diags) : table_(table), diags_(diags) {}

  void collect(const ast::Program& program) {
    for (const ast::Module& m : program.modules)
      for (const Node& form : m.forms)
        if (isDefinitionForm(form)) header(form);
  }

  void checkBodies() {
    for (uint32_t i = 0; i < table_.defs.size(); ++i) body(i);
  }

  void checkStatePurity() { statePurity(0); }

  // (Topology (Nodes 16) (Link 0 1 0) ...): the Topology form's elements
  // are the body of an anonymous topology.
  std::optional<uint32_t> inlineTopology(const Node& form) {
    Definition d;
    d.kind = DefKind::Topology;
    d.name = "custom";
    d.range = form.range;
    d.nameRange = form.children[0].range;
    d.form = &form;
    table_.defs.push_back(std::move(d));
    uint32_t index = static_cast<uint32_t>(table_.defs.size() - 1);
    uint32_t before = diags_.errorCount();
    body(index, 1);
    statePurity(index);
    if (diags_.errorCount() != before) return std::nullopt;
    return index;
  }

  // The arguments of a call written in a parameter form, checked against
  // the definition's parameters; they may use constants and functions.
  std::optional<std::vector<Expr>> arguments(const Node& callNode, uint32_t index) {
    scope_.clear();
    nextSlot_ = maxSlot_ = 0;
    std::vector<const Node*> args;
    for (size_t i = 1; i < callNode.children.size(); ++i) args.push_back(&callNode.children[i]);
    uint32_t before = diags_.errorCount();
    current_ = DefKind::Function;
    Expr e = callArgs(callNode, index, args);
    if (diags_.errorCount() != before || e.type == Type::Error) return std::nullopt;
    return std::move(e.kids);
  }

 private:
  struct Var {
    std::string name;
    uint32_t slot;
    Type type;
  };

  Diagnostic& error(DiagKind kind, SourceRange r, std::string msg) {
    return diags_.report(kind, r, std::move(msg));
  }

  Expr errorExpr(const Node& n) {
    Expr e{Op::ConstInt};
    e.type = Type::Error;
    e.range = n.range;
    return e;
  }

  // ---- headers

  bool param(const Node& p, Param& out) {
    if (!p.isList() || p.children.size() != 2 || !p.children[0].isSymbol() ||
        !p.children[1].isSymbol()) {
      error(DiagKind::BadDefinition, p.range,
            fmt::format("a parameter is written (name Type), got '{}'", ast::quote(p)))
          .withHint("for example (k Int), (dest Node), or (k Int...) for the rest of the values");
      return false;
    }
    out.name = p.children[0].text;
    std::string type = p.children[1].text;
    if (type.ends_with("...")) {
      out.variadic = true;
      type.resize(type.size() - 3);
    }
    std::optional<Type> t = parseType(type);
    if (!t) {
      typeNotFound(p.children[1], type);
      return false;
    }
    if (out.variadic && *t != Type::Int) {
      error(DiagKind::BadDefinition, p.children[1].range,
            "only Int... collects the rest of the arguments")
          .withHint("write (k Int...) and use (length k), (nth k i)");
      return false;
    }
    out.type = out.variadic ? Type::Coord : *t;
    return true;
  }

  void typeNotFound(const Node& at, std::string_view name) {
    std::string best = closestMatch(
        name, {"Int", "Bool", "Real", "Node", "Endpoint", "Port", "Coord", "Route", "Size",
               "Time", "Frequency"});
    error(DiagKind::UnknownName, at.range, fmt::format("unknown type '{}'", name))
        .withHint(best.empty() ? "the types are Int, Bool, Real, Node, Endpoint, Port, Coord, "
                                 "Route, Size, Time and Frequency"
                               : fmt::format("did you mean '{}'?", best));
  }

  void header(const Node& form) {
    std::string_view head = form.head();
    Definition d;
    d.range = form.range;
    d.form = &form;
    d.kind = head == "define-topology" ? DefKind::Topology
             : head == "define-routing"   ? DefKind::Routing
             : head == "define-selection" ? DefKind::Selection
             : head == "define-predictor" ? DefKind::Predictor
             : head == "define-pattern"   ? DefKind::Pattern
                                          : DefKind::Function;
    if (head == "define-port-state" || head == "define-router-state") {
      portState(form);
      return;
    }
    if (form.children.size() < 3) {
      error(DiagKind::BadDefinition, form.range,
            fmt::format("{} needs a name and a body", head))
          .withHint(head == "define" ? "write (define (name (x Int)) Int body) or (define name value)"
                                     : fmt::format("write ({} (Name (k Int)) ...)", head));
      return;
    }
    const Node& sig = form.children[1];
    if (sig.isSymbol() && d.kind == DefKind::Function) {
      d.kind = DefKind::Constant;
      d.name = sig.text;
      d.nameRange = sig.range;
    } else if (sig.isList() && !sig.children.empty() && sig.children[0].isSymbol()) {
      d.name = sig.children[0].text;
      d.nameRange = sig.children[0].range;
      for (size_t i = 1; i < sig.children.size(); ++i) {
        Param p;
        if (!param(sig.children[i], p)) return;
        if (p.variadic && i + 1 != sig.children.size()) {
          error(DiagKind::BadDefinition, sig.children[i].range,
                "a variadic parameter must come last");
          return;
        }
        d.params.push_back(std::move(p));
      }
    } else {
      error(DiagKind::BadDefinition, sig.range,
            fmt::format("{} expects (name parameters...), got '{}'", head, ast::quote(sig)))
          .withHint("write (define (f (x Int)) Int (+ x 1))");
      return;
    }
    if (d.kind == DefKind::Function) {
      if (form.children.size() < 4 || !form.children[2].isSymbol() ||
          !parseType(form.children[2].text)) {
        const Node& at = form.children.size() >= 4 ? form.children[2] : form;
        error(DiagKind::BadDefinition, at.range,
              fmt::format("function '{}' needs its result type before the body", d.name))
            .withHint(fmt::format("write (define ({} ...) Int body)", d.name));
        return;
      }
      d.result = *parseType(form.children[2].text);
    }
    if (d.kind == DefKind::Routing) {
      if (!d.params.empty()) {
        error(DiagKind::BadDefinition, sig.range,
              "a routing takes no parameters; its body sees current, dest and source")
            .withHint(fmt::format("write (define-routing ({}) body)", d.name));
        return;
      }
      d.result = Type::Route;
      // Implicit parameters, in this order, for every routing function; the
      // hidden ones (names no program can write) hold what (arrived-along),
      // (injected), (in-class) and (blocked-for) read.
      d.params = {{"current", Type::Node},     {"dest", Type::Node},
                  {"source", Type::Node},      {"%arrived", Type::Port},
                  {"%injected", Type::Bool},   {"%in-class", Type::Int},
                  {"%blocked-for", Type::Int}};
    }
    if (d.kind == DefKind::Selection) {
      if (!d.params.empty()) {
        error(DiagKind::BadDefinition, sig.range,
              "a selection takes no parameters; its body scores the candidate (out-port)")
            .withHint(fmt::format("write (define-selection ({}) score)", d.name));
        return;
      }
      // (Selection Random) names the built-in: a definition of that name
      // could never be chosen.
      for (const EnumInfo* e : enumValues("Selection")) {
        if (e->name != d.name) continue;
        error(DiagKind::DuplicateDefinition, d.nameRange,
              fmt::format("'{}' is a built-in selection; (Selection {}) would never choose this "
                          "definition",
                          d.name, d.name))
            .withHint(fmt::format("name it differently, e.g. My{}", d.name));
        return;
      }
      // The routing's parameters, then the candidate being scored.
      d.result = Type::Int;
      d.params = {{"current", Type::Node},        {"dest", Type::Node},
                  {"source", Type::Node},         {"%arrived", Type::Port},
                  {"%injected", Type::Bool},      {"%in-class", Type::Int},
                  {"%blocked-for", Type::Int},    {"%out-port", Type::Port},
                  {"%out-class", Type::Int},      {"%credits", Type::Int},
                  {"%port-free-vcs", Type::Int},  {"%port-credits", Type::Int}};
    }
    if (d.kind == DefKind::Pattern) {
      // (define-pattern (Name) ...) numbers nodes (source is a Node, as in a topology body);
      // (define-pattern (Name (s Endpoint)) ...) numbers endpoints, on any network.
      if (d.params.size() > 1 ||
          (d.params.size() == 1 && d.params[0].type != Type::Node &&
           d.params[0].type != Type::Endpoint)) {
        error(DiagKind::BadDefinition, sig.range,
              "a pattern takes at most one parameter, its source, a Node or an Endpoint; its "
              "body gives the destination")
            .withHint(fmt::format("write (define-pattern ({}) destination) over nodes, or "
                                  "(define-pattern ({} (source Endpoint)) destination) over "
                                  "endpoints",
                                  d.name, d.name));
        return;
      }
      // (TrafficPattern Uniform) names the built-in: a definition of that name could never be
      // chosen.
      if (findEnum("Traffic", d.name)) {
        error(DiagKind::DuplicateDefinition, d.nameRange,
              fmt::format("'{}' is a built-in traffic pattern; (TrafficPattern {}) would never "
                          "choose this definition",
                          d.name, d.name))
            .withHint(fmt::format("name it differently, e.g. My{}", d.name));
        return;
      }
      if (d.params.empty()) d.params = {{"source", Type::Node}};
      d.result = d.params[0].type;
    }
    if (d.kind == DefKind::Predictor) {
      if (!d.params.empty()) {
        error(DiagKind::BadDefinition, sig.range,
              "a predictor takes no parameters; its body sees current, dest and the port state")
            .withHint(fmt::format("write (define-predictor ({}) (OnForward ...) prediction)",
                                  d.name));
        return;
      }
      // The routing's parameters, then the port a header left by (read in OnForward).
      d.result = Type::Port;
      d.params = {{"current", Type::Node},     {"dest", Type::Node},
                  {"source", Type::Node},      {"%arrived", Type::Port},
                  {"%injected", Type::Bool},   {"%in-class", Type::Int},
                  {"%blocked-for", Type::Int}, {"%out-port", Type::Port}};
    }
    add(std::move(d));
  }

  void add(Definition d) {
    if (std::optional<uint32_t> prev = table_.find(d.name)) {
      error(DiagKind::DuplicateDefinition, d.nameRange, fmt::format("'{}' is defined twice", d.name))
          .withHint("rename one of them")
          .note(table_.defs[*prev].nameRange, "first defined here");
      return;
    }
    if (builtins().count(d.name) || statements().count(d.name) || isSpecial(d.name)) {
      error(DiagKind::DuplicateDefinition, d.nameRange,
            fmt::format("'{}' is a built-in name and cannot be redefined", d.name))
          .withHint("choose another name");
      return;
    }
    table_.defs.push_back(std::move(d));
  }

  static bool isSpecial(std::string_view n) {
    return std::find(std::begin(kSpecialForms), std::end(kSpecialForms), n) !=
               std::end(kSpecialForms) ||
           isStateOp(n);
  }
  static bool isStateOp(std::string_view n) {
    return std::find(std::begin(kStateOps), std::end(kStateOps), n) != std::end(kStateOps);
  }

  // (define-port-state name (Ring capacity Port)) or (... (Ring capacity (Int lo hi))); and
  // (define-router-state ...) alike, one ring per router.
  void portState(const Node& form) {
    Definition d;
    d.kind = DefKind::PortState;
    d.perRouter = form.head() == "define-router-state";
    d.range = form.range;
    d.form = &form;
    d.checked = true;
    d.body = Expr{Op::Seq};
    d.body.type = Type::Unit;
    const std::string head(form.head());
    const std::string usage = fmt::format("write ({} history (Ring 170 Port)) or ({} name (Ring "
                                          "capacity (Int lo hi)))",
                                          head, head);
    if (form.children.size() != 3 || !form.children[1].isSymbol()) {
      error(DiagKind::BadDefinition, form.range,
            fmt::format("{} is written ({} name (Ring capacity Symbol))", head, head))
          .withHint(usage);
      return;
    }
    d.name = form.children[1].text;
    d.nameRange = form.children[1].range;
    const Node& ring = form.children[2];
    if (ring.head() != "Ring" || ring.children.size() != 3) {
      error(DiagKind::BadDefinition, ring.range,
            fmt::format("{} state '{}' is a (Ring capacity Symbol), got '{}'",
                        d.perRouter ? "router" : "port", d.name, ast::quote(ring)))
          .withHint(usage);
      return;
    }
    const Node& cap = ring.children[1];
    if (cap.kind != NodeKind::Integer || !cap.number.isInteger() || cap.number.num() < 1 ||
        cap.number.num() > kMaxRingCapacity) {
      error(DiagKind::BadDefinition, cap.range,
            fmt::format("a ring's capacity is a whole number of symbols from 1 to {}, got '{}'",
                        kMaxRingCapacity, ast::quote(cap)))
          .withHint("seed 001's 512-bit history of 3-bit port symbols holds 170: (Ring 170 Port)");
      return;
    }
    d.ringCapacity = cap.number.num();
    const Node& sym = ring.children[2];
    if (sym.isSymbol() && sym.text == "Port") {
      d.symbolType = Type::Port;
    } else if (sym.head() == "Int" && sym.children.size() == 3 &&
               sym.children[1].kind == NodeKind::Integer && sym.children[2].kind == NodeKind::Integer &&
               sym.children[1].number.isInteger() && sym.children[2].number.isInteger() &&
               sym.children[1].number.num() <= sym.children[2].number.num()) {
      d.symbolType = Type::Int;
      d.symbolLo = sym.children[1].number.num();
      d.symbolHi = sym.children[2].number.num();
    } else {
      error(DiagKind::BadDefinition, sym.range,
            fmt::format("a ring's symbols are Port or (Int lo hi) with whole lo <= hi, got '{}'",
                        ast::quote(sym)))
          .withHint("the width of a symbol follows from its range, as a header field's does");
      return;
    }
    add(std::move(d));
  }

  // ---- bodies

  void body(uint32_t index, size_t inlineFirst = 0) {
    Definition& d = table_.defs[index];
    if (d.checked) return;
    d.checked = true;
    scope_.clear();
    nextSlot_ = 0;
    maxSlot_ = 0;
    current_ = d.kind;
    currentDef_ = index;
    for (const Param& p : d.params) bind(p.name, p.type);
    const Node& form = *d.form;
    declaredFields_.clear();
    // One entry per HeaderField form, in order, so that the k-th form checked is entry k
    // (fieldsSeen_ counts forms); a malformed one (reported where it is checked) has no name.
    if (d.kind == DefKind::Routing)
      for (const Node& c : form.children)
        if (c.head() == "HeaderField") {
          const bool named = c.children.size() >= 2 && c.children[1].isSymbol();
          declaredFields_.emplace_back(named ? c.children[1].text : std::string(),
                                       named ? c.children[1].range : c.range);
        }
    size_t first = inlineFirst ? inlineFirst : d.kind == DefKind::Function ? 3 : 2;
    Expr b;
    if (d.kind == DefKind::Topology) {
      b = sequence(form, first);
    } else if (d.kind == DefKind::Routing) {
      // A route expression, a (Hops e), or both; VC classes, requirements
      // and a default selection.
      routingDef_ = index;
      fieldsSeen_ = 0;
      const Node* route = nullptr;
      size_t fieldsBeforeRoute = 0;  // the HeaderField forms written before the route
      for (size_t i = first; i < form.children.size(); ++i) {
        const Node& c = form.children[i];
        if (c.head() == "HeaderField") {
          headerField(d, c);
        } else if ((c.head() == "Hops" || c.head() == "NominalHops") && c.children.size() == 2) {
          d.hopsNominal = c.head() == "NominalHops";
          d.hopsRange = c.range;
          // A hop formula is evaluated per pair of nodes, not per packet:
          // it sees current, dest and source only.
          auto savedScope = scope_;
          scope_.resize(std::min<size_t>(scope_.size(), kRoutingArrivedSlot));
          inHops_ = true;
          Expr h = expr(c.children[1]);
          inHops_ = false;
          scope_ = std::move(savedScope);
          expect(h, Type::Int, c.children[1]);
          d.hops = std::move(h);
        } else if (c.head() == "VcClass" || c.head() == "InjectionVcClass") {
          vcClass(d, c);
        } else if (c.head() == "Require") {
          configurationExpr([&] {
            Expr r = topologyStatement(c, Op::StmtRequire);
            if (r.type != Type::Error) d.checks.push_back(std::move(r));
          });
        } else if (c.head() == "RecoveryField") {
          recoveryField(d, c);
        } else if (c.head() == "EscapeClasses" || c.head() == "TokenClasses") {
          auto& out = c.head() == "EscapeClasses" ? d.escapeClasses : d.tokenClasses;
          if (c.children.size() < 2) {
            error(DiagKind::BadDefinition, c.range,
                  fmt::format("{} names at least one network VC class", c.head()))
                .withHint(fmt::format("write ({} name ...), or leave the form out", c.head()));
          }
          for (size_t k = 1; k < c.children.size(); ++k) {
            const Node& name = c.children[k];
            std::optional<Expr> cls = name.isSymbol() ? className(name) : std::nullopt;
            if (!cls || cls->text != "network-class") {
              error(DiagKind::UnknownName, name.range,
                    fmt::format("{} names network VC classes; '{}' is not one", c.head(),
                                ast::quote(name)))
                  .withHint("declare it first with (VcClass name count)");
              continue;
            }
            out.emplace_back(name.text, name.range);
          }
        } else if (c.head() == "DefaultVcAllocation") {
          std::optional<EnumId> e;
          if (c.children.size() == 2 && c.children[1].isSymbol())
            e = findEnum("VcAllocation", c.children[1].text);
          if (!e) {
            error(DiagKind::BadDefinition, c.range,
                  "DefaultVcAllocation is written (DefaultVcAllocation Atomic) or "
                  "(DefaultVcAllocation NonAtomic)")
                .withHint("Atomic gives an output VC to a packet only when its buffer is empty");
          } else {
            d.defaultVcAllocation = e;
          }
        } else if (c.head() == "DefaultSelection") {
          if (c.children.size() != 2 || !c.children[1].isSymbol()) {
            error(DiagKind::BadDefinition, c.range,
                  "DefaultSelection is written (DefaultSelection Name)")
                .withHint("First, Random, MostCredits or StraightFirst");
          } else {
            d.defaultSelection = c.children[1].text;
            d.defaultSelectionRange = c.children[1].range;
          }
        } else if (!route) {
          route = &c;
          fieldsBeforeRoute = fieldsSeen_;
        } else {
          error(DiagKind::BadDefinition, c.range,
                fmt::format("routing '{}' has more than one route expression", d.name))
              .withHint("combine the cases with cond, or the candidates with union");
        }
      }
      if (route) {
        // Checked after every form (its classes may come later), but it sees only the
        // fields declared before it, as everything else does.
        const size_t allFields = fieldsSeen_;
        fieldsSeen_ = fieldsBeforeRoute;
        auto savedScope = scope_;
        std::erase_if(scope_, [&](const Var& v) { return declaredLater(v.name); });
        b = expr(*route);
        scope_ = std::move(savedScope);
        fieldsSeen_ = allFields;
        // A port alone is the candidate of every VC of that port.
        if (b.type == Type::Port) b = wrapPort(std::move(b));
        expect(b, Type::Route, *route);
      } else if (!d.hops) {
        error(DiagKind::BadDefinition, form.range,
              fmt::format("routing '{}' gives neither a port nor (Hops ...)", d.name))
            .withHint("its body computes (port dim dir) from current and dest");
      } else {
        d.hasRoute = false;
        b = Expr{Op::Seq};
        b.type = Type::Unit;
      }
      routingDef_.reset();
      declaredFields_.clear();
    } else if (d.kind == DefKind::Predictor) {
      b = predictorBody(d, form, first);
    } else {
      if (form.children.size() != first + 1) {
        error(DiagKind::BadDefinition, form.range,
              fmt::format("'{}' has {} body expressions; a function has exactly one", d.name,
                          form.children.size() - first))
            .withHint("combine them with let, if or cond");
        return;
      }
      b = expr(form.children[first]);
      if (d.kind == DefKind::Constant) d.result = b.type;
      else expect(b, d.result, form.children[first]);
    }
    d.body = std::move(b);
    d.frameSize = maxSlot_;
  }

  // (OnForward (push h x) ...) forms and one prediction: a Port, (ejection-port), or (no-port)
  // for none.
  Expr predictorBody(Definition& d, const Node& form, size_t first) {
    const Node* prediction = nullptr;
    for (size_t i = first; i < form.children.size(); ++i) {
      const Node& c = form.children[i];
      if (c.head() == "OnForward") {
        if (d.onForward) {
          error(DiagKind::BadDefinition, c.range,
                fmt::format("predictor '{}' has two OnForward blocks", d.name))
              .withHint("put every (push ...) in one (OnForward ...)");
          continue;
        }
        Expr seq{Op::Seq};
        seq.type = Type::Unit;
        seq.range = c.range;
        inOnForward_ = true;
        for (size_t k = 1; k < c.children.size(); ++k) {
          const Node& st = c.children[k];
          if (st.head() != "push") {
            error(DiagKind::BadDefinition, st.range,
                  fmt::format("OnForward holds (push state value) statements, got '{}'",
                              ast::quote(st)))
                .withHint("write (OnForward (push history (out-port)))");
            continue;
          }
          seq.kids.push_back(expr(st));
        }
        inOnForward_ = false;
        d.onForward = std::move(seq);
      } else if (!prediction) {
        prediction = &c;
      } else {
        error(DiagKind::BadDefinition, c.range,
              fmt::format("predictor '{}' has more than one prediction expression", d.name))
            .withHint("combine the cases with cond");
      }
    }
    if (!prediction) {
      error(DiagKind::BadDefinition, form.range,
            fmt::format("predictor '{}' gives no prediction", d.name))
          .withHint("its body computes the predicted (port dim dir), or (no-port) for none");
      return errorExpr(form);
    }
    Expr b = expr(*prediction);
    expect(b, Type::Port, *prediction);
    return b;
  }

  // (ring-length h), (ring-ref h k), (ring-count h x), (push h x), (ejection-port).
  Expr stateOp(const Node& n) {
    std::string_view h = n.head();
    if (h == "ejection-port" || h == "no-port") {
      if (n.children.size() != 1) {
        error(DiagKind::WrongArity, n.range, fmt::format("'{}' takes no arguments", h));
        return errorExpr(n);
      }
      // Constant port codes: the ejection at this router, and no port (no prediction).
      Expr e{Op::ConstInt};
      e.type = Type::Port;
      e.range = n.range;
      e.i = h == "no-port" ? -1 : kEjectionPortCode;
      return e;
    }
    const size_t arity = h == "ring-length" ? 1 : 2;
    if (n.children.size() != arity + 1) {
      error(DiagKind::WrongArity, n.range,
            fmt::format("'{}' takes {} argument{}", h, arity, arity == 1 ? "" : "s"))
          .withHint(h == "ring-length" ? "write (ring-length history)"
                    : h == "ring-ref"  ? "write (ring-ref history k): k = 0 is the newest"
                    : h == "ring-count" ? "write (ring-count history x)"
                                        : "write (push history (out-port))");
      return errorExpr(n);
    }
    const Node& name = n.children[1];
    std::optional<uint32_t> def = name.isSymbol() ? table_.find(name.text) : std::nullopt;
    if (!def || table_.defs[*def].kind != DefKind::PortState) {
      std::vector<std::string_view> names = table_.namesOf(DefKind::PortState);
      std::string best = name.isSymbol() ? closestMatch(name.text, names) : std::string();
      error(DiagKind::UnknownName, name.range,
            fmt::format("'{}' is not a port state", ast::quote(name)))
          .withHint(!best.empty() ? fmt::format("did you mean '{}'?", best)
                                  : "declare it first with (define-port-state name (Ring 170 Port))");
      return errorExpr(n);
    }
    const Definition& st = table_.defs[*def];
    const bool later = st.range.file == n.range.file &&
                       (st.range.line > n.range.line ||
                        (st.range.line == n.range.line && st.range.col > n.range.col));
    if (later) {
      error(DiagKind::UnknownName, name.range,
            fmt::format("{} state '{}' is read before it is declared",
                        st.perRouter ? "router" : "port", st.name))
          .withHint(fmt::format("move its define-{}-state above this use",
                                st.perRouter ? "router" : "port"))
          .note(st.nameRange, "declared here");
      return errorExpr(n);
    }
    if (h == "push" && !inOnForward_) {
      error(DiagKind::StateOutsidePredictor, n.range,
            "(push ...) changes port state: it is a statement of a predictor's OnForward block")
          .withHint("write (OnForward (push history (out-port))) in the define-predictor");
      return errorExpr(n);
    }
    if (!currentDef_) {
      error(DiagKind::StateOutsidePredictor, n.range,
            fmt::format("({} ...) reads {} state, which exists only while a predictor runs", h,
                        st.perRouter ? "router" : "port"))
          .withHint("read predictor state in a define-predictor or a function it calls");
      return errorExpr(n);
    }
    table_.defs[*currentDef_].stateUse = n.range;
    Expr e{h == "ring-length" ? Op::RingLength
           : h == "ring-ref"  ? Op::RingRef
           : h == "ring-count" ? Op::RingCount
                               : Op::RingPush};
    e.range = n.range;
    e.i = *def;
    e.type = h == "push" ? Type::Unit : h == "ring-ref" ? st.symbolType : Type::Int;
    if (arity == 2) {
      Expr x = expr(n.children[2]);
      const Type want = h == "ring-ref" ? Type::Int : st.symbolType;
      if (!expect(x, want, n.children[2])) e.type = Type::Error;
      e.kids.push_back(std::move(x));
    }
    return e;
  }

  // After every body: a routing, selection, topology or constant that reaches a port-state
  // read through its calls is refused, at the call (route traces, the wait memo and the static
  // deadlock check assume a route depends on the header only).
  void statePurity(size_t from) {
    const size_t n = table_.defs.size();
    // reaches[i]: the state use some call chain from i ends at, if any (a fixed point: call
    // graphs may be recursive).
    std::vector<std::optional<SourceRange>> reaches(n);
    for (size_t i = 0; i < n; ++i) reaches[i] = table_.defs[i].stateUse;
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < n; ++i) {
        if (reaches[i]) continue;
        for (const auto& [callee, at] : table_.defs[i].calls) {
          if (callee < n && reaches[callee]) {
            reaches[i] = reaches[callee];
            changed = true;
            break;
          }
        }
      }
    }
    for (size_t i = from; i < n; ++i) {
      const Definition& d = table_.defs[i];
      if (d.kind == DefKind::Predictor || d.kind == DefKind::Function ||
          d.kind == DefKind::PortState)
        continue;
      const char* what = d.kind == DefKind::Routing     ? "routing"
                         : d.kind == DefKind::Selection ? "selection"
                         : d.kind == DefKind::Pattern   ? "pattern"
                         : d.kind == DefKind::Topology  ? "topology"
                                                        : "constant";
      SourceRange at;
      if (d.stateUse) {
        at = *d.stateUse;
      } else {
        for (const auto& [callee, where] : d.calls)
          if (callee < n && reaches[callee]) {
            at = where;
            break;
          }
        if (!at.valid()) continue;
      }
      Diagnostic& diag =
          error(DiagKind::StateOutsidePredictor, at,
                fmt::format("{} '{}' reads predictor state; only a predictor may", what, d.name))
              .withHint("routings and selections are functions of the header and the network: "
                        "move the state read into a define-predictor");
      if (!d.stateUse) diag.note(*reaches[i], "the state is read here");
    }
  }

  static Expr wrapPort(Expr port) {
    Expr to{Op::RouteTo};
    to.type = Type::Route;
    to.range = port.range;
    to.kids.push_back(std::move(port));
    return to;
  }

  // Checks f's expressions in an empty scope: class counts and requirements
  // see the configuration, not the packet.
  template <class F>
  void configurationExpr(F&& f) {
    auto saved = scope_;
    scope_.clear();
    f();
    scope_ = std::move(saved);
  }

  // (VcClass name count) / (InjectionVcClass name count)
  void vcClass(Definition& d, const Node& c) {
    bool injection = c.head() == "InjectionVcClass";
    if (c.children.size() != 3 || !c.children[1].isSymbol()) {
      error(DiagKind::BadDefinition, c.range,
            fmt::format("{} is written ({} name count)", c.head(), c.head()))
          .withHint("for example (VcClass escape 1) or (VcClass adaptive (- (vcs) 1))");
      return;
    }
    const std::string& name = c.children[1].text;
    for (const VcClassDecl& k : d.vcClasses) {
      if (k.name == name) {
        error(DiagKind::DuplicateDefinition, c.children[1].range,
              fmt::format("VC class '{}' is declared twice", name))
            .withHint("network and injection classes share one set of names")
            .note(k.range, "first declared here");
        return;
      }
    }
    VcClassDecl k;
    k.name = name;
    k.range = c.children[1].range;
    k.injection = injection;
    configurationExpr([&] {
      k.count = expr(c.children[2]);
      expect(k.count, Type::Int, c.children[2]);
    });
    d.vcClasses.push_back(std::move(k));
  }

  // (HeaderField name Bool|Node|(Int lo hi) [init]): a field of the packet
  // header, bound as the routing's next parameter from here on.
  void headerField(Definition& d, const Node& c) {
    ++fieldsSeen_;
    if (c.children.size() < 3 || c.children.size() > 4 || !c.children[1].isSymbol()) {
      error(DiagKind::BadDefinition, c.range, "HeaderField is written (HeaderField name Type [initial])")
          .withHint("for example (HeaderField escaped Bool) or (HeaderField middle Node (random-node))");
      return;
    }
    const Node& nameNode = c.children[1];
    const std::string& name = nameNode.text;
    for (const HeaderFieldDecl& f : d.headerFields) {
      if (f.name == name) {
        error(DiagKind::DuplicateDefinition, nameNode.range,
              fmt::format("header field '{}' is declared twice", name))
            .withHint("rename one of them")
            .note(f.range, "first declared here");
        return;
      }
    }
    bool hides = builtins().count(name) || isSpecial(name) || name == "set";
    for (const Var& v : scope_) hides |= v.name == name;
    for (const VcClassDecl& k : d.vcClasses) hides |= k.name == name;
    {
      if (hides) {
        error(DiagKind::DuplicateDefinition, nameNode.range,
              fmt::format("header field '{}' would hide a name the routing already sees", name))
            .withHint("choose another name");
        return;
      }
    }
    if (d.headerFields.size() >= kMaxHeaderFields) {
      error(DiagKind::BadDefinition, c.range,
            fmt::format("routing '{}' declares more than {} header fields", d.name,
                        kMaxHeaderFields))
          .withHint("pack related values into one (Int lo hi) field");
      return;
    }
    HeaderFieldDecl f;
    f.name = name;
    f.range = nameNode.range;
    f.form = c.range;
    const Node& t = c.children[2];
    if (t.isSymbol() && (t.text == "Bool" || t.text == "Node")) {
      f.type = t.text == "Bool" ? Type::Bool : Type::Node;
    } else if (t.head() == "Int" && t.children.size() == 3) {
      f.type = Type::Int;
      configurationExpr([&] {
        f.lo = expr(t.children[1]);
        expect(f.lo, Type::Int, t.children[1]);
        f.hi = expr(t.children[2]);
        expect(f.hi, Type::Int, t.children[2]);
      });
    } else {
      error(DiagKind::TypeError, t.range,
            fmt::format("'{}' is not a header field type", ast::quote(t)))
          .withHint(t.isSymbol() && t.text == "Int"
                        ? "give an integer field its range, e.g. (Int 0 15), so that its bits "
                          "can be counted"
                        : "a header field is Bool, Node or (Int lo hi)");
      return;
    }
    if (c.children.size() == 4) {
      inInit_ = true;
      Expr init = expr(c.children[3]);
      inInit_ = false;
      expect(init, f.type, c.children[3]);
      f.init = std::move(init);
    }
    // Its parameter slot follows the hidden ones and the fields before it.
    bind(f.name, f.type);
    d.params.push_back({f.name, f.type});
    d.headerFields.push_back(std::move(f));
  }

  // (RecoveryField name): a Bool header field that is true while the packet
  // recovers from a deadlock; the simulator counts, router by router, the
  // grants that set it (recoveries) and those made while it is set.
  void recoveryField(Definition& d, const Node& c) {
    if (c.children.size() != 2 || !c.children[1].isSymbol()) {
      error(DiagKind::BadDefinition, c.range, "RecoveryField is written (RecoveryField name)")
          .withHint("name a Bool header field, e.g. (RecoveryField escaped)");
      return;
    }
    const Node& name = c.children[1];
    if (!d.recoveryField.empty()) {
      error(DiagKind::DuplicateDefinition, c.range,
            fmt::format("routing '{}' names its recovery field twice", d.name))
          .note(d.recoveryFieldRange, "first named here")
          .withHint("one Bool header field marks a packet in recovery");
      return;
    }
    for (const HeaderFieldDecl& f : d.headerFields) {
      if (f.name != name.text) continue;
      if (f.type != Type::Bool) {
        error(DiagKind::TypeError, name.range,
              fmt::format("RecoveryField names a Bool header field; '{}' is {}", name.text,
                          typeName(f.type)))
            .note(f.range, "declared here")
            .withHint("the field is true while the packet recovers: declare it Bool");
        return;
      }
      d.recoveryField = name.text;
      d.recoveryFieldRange = c.range;
      return;
    }
    std::vector<std::string_view> names;
    for (const HeaderFieldDecl& f : d.headerFields) names.push_back(f.name);
    std::string best = closestMatch(name.text, names);
    error(DiagKind::UnknownName, name.range,
          fmt::format("'{}' is not a header field declared before this RecoveryField", name.text))
        .withHint(best.empty() ? "declare it first with (HeaderField name Bool)"
                               : fmt::format("did you mean '{}'?", best));
  }

  // (set field value route): route's candidates; the one the packet takes
  // writes value into the field.
  Expr setField(const Node& n) {
    if (n.children.size() != 4 || !n.children[1].isSymbol()) {
      error(DiagKind::WrongArity, n.range, "set is written (set field value route)")
          .withHint("for example (set escaped true (via (port 0 1) escape))");
      return errorExpr(n);
    }
    if (!inRoutingBody() || inInit_) {
      error(DiagKind::TypeError, n.range,
            "(set ...) writes a header field of the packet being routed: it is available in a "
            "define-routing body only")
          .withHint("return the route from the helper and wrap it in set in the routing body");
      return errorExpr(n);
    }
    const Definition& d = table_.defs[*routingDef_];
    const Node& nameNode = n.children[1];
    std::optional<size_t> field;
    for (size_t k = 0; k < d.headerFields.size(); ++k)
      if (d.headerFields[k].name == nameNode.text && !declaredLater(nameNode.text)) field = k;
    if (!field) {
      if (!fieldUsedEarly(nameNode, nameNode.text)) {
        std::vector<std::string_view> names;
        for (const HeaderFieldDecl& f : d.headerFields) names.push_back(f.name);
        std::string best = closestMatch(nameNode.text, names);
        error(DiagKind::UnknownName, nameNode.range,
              fmt::format("'{}' is not a header field of routing '{}'", nameNode.text, d.name))
            .withHint(best.empty() ? "declare it with (HeaderField name Type)"
                                   : fmt::format("did you mean '{}'?", best));
      }
      return errorExpr(n);
    }
    Expr v = expr(n.children[2]);
    Expr r = expr(n.children[3]);
    if (r.type == Type::Port) r = wrapPort(std::move(r));
    bool ok = expect(v, d.headerFields[*field].type, n.children[2]);
    ok &= expect(r, Type::Route, n.children[3]);
    if (!ok) return errorExpr(n);
    Expr e{Op::RouteSet};
    e.type = Type::Route;
    e.range = n.range;
    e.i = static_cast<int64_t>(*field);
    e.kids.push_back(std::move(v));
    e.kids.push_back(std::move(r));
    return e;
  }

  // In the routing's own body (not a helper it calls, not a class count).
  bool inRoutingBody() const {
    return routingDef_ && scope_.size() >= kRoutingParams && scope_[kRoutingArrivedSlot].name.starts_with("%");
  }

  // Whether `name` is a header field whose form comes after the point being checked.
  bool declaredLater(std::string_view name) const {
    for (size_t k = fieldsSeen_; k < declaredFields_.size(); ++k)
      if (declaredFields_[k].first == name) return true;
    return false;
  }

  // A header field of the routing named where it is not yet (or not) in
  // scope: reports it and returns true.
  bool fieldUsedEarly(const Node& at, std::string_view name) {
    if (!routingDef_) return false;
    const Definition& d = table_.defs[*routingDef_];
    for (size_t k = 0; k < declaredFields_.size(); ++k) {
      if (declaredFields_[k].first != name) continue;
      if (k >= fieldsSeen_) {
        error(DiagKind::UnknownName, at.range,
              fmt::format("header field '{}' is used before it is declared", name))
            .withHint("move its (HeaderField ...) form before this use")
            .note(declaredFields_[k].second, "declared here");
      } else if (inHops_) {
        error(DiagKind::UnknownName, at.range,
              fmt::format("header field '{}' has no value in (Hops ...): the hop formula is "
                          "evaluated per pair of nodes, not per packet",
                          name))
            .withHint("compute the hop count from current, dest and source");
      } else if (inInit_ && k + 1 == fieldsSeen_) {
        error(DiagKind::UnknownName, at.range,
              fmt::format("header field '{}' is used in its own initial value", name))
            .withHint("an initial value sees source, dest and the fields declared before it");
      } else if (!inRoutingBody()) {
        error(DiagKind::UnknownName, at.range,
              fmt::format("header field '{}' describes the packet; {} sees only the configuration",
                          name, "a class count, range or requirement"))
            .withHint(fmt::format("read it in the body of routing '{}'", d.name));
      }
      // Else its declaration was malformed and has been reported.
      return true;
    }
    return false;
  }

  // An injection class's name stands for a class of the PE port's VCs, numbered apart from
  // the network classes: it is only compared with (in-class) (= or !=). Passed on, to a
  // route's candidates or a function, it would be read as the network class of its number.
  bool injectionClassArg(const Expr& k, const Node& at) {
    if (k.op != Op::ConstInt || k.text != "injection-class") return false;
    error(DiagKind::TypeError, at.range,
          fmt::format("'{}' is an injection VC class: a route's candidates, and the functions "
                      "that make them, take network classes",
                      ast::quote(at)))
        .withHint("compare it with (in-class) to ask which injection VC a packet is in; name a "
                  "(VcClass ...) for the network VCs a route takes");
    return true;
  }

  // A declared class name in the routing being checked: its index among
  // the classes of its kind.
  std::optional<Expr> className(const Node& n) {
    if (!routingDef_) return std::nullopt;
    const Definition& d = table_.defs[*routingDef_];
    int64_t index[2] = {0, 0};
    for (const VcClassDecl& k : d.vcClasses) {
      if (k.name == n.text) {
        Expr e{Op::ConstInt};
        e.type = Type::Int;
        e.range = n.range;
        e.i = index[k.injection];
        e.text = k.injection ? "injection-class" : "network-class";
        return e;
      }
      ++index[k.injection];
    }
    return std::nullopt;
  }

  // (arrived-along), (injected), (in-class), (blocked-for): the hidden
  // parameters of a routing body.
  std::optional<Expr> routingContext(const Node& n) {
    std::string_view h = n.head();
    uint32_t slot = h == "arrived-along"   ? kRoutingArrivedSlot
                    : h == "injected"      ? kRoutingInjectedSlot
                    : h == "in-class"      ? kRoutingInClassSlot
                    : h == "blocked-for"   ? kRoutingBlockedSlot
                    : h == "out-port"      ? kSelectOutPortSlot
                    : h == "out-class"     ? kSelectOutClassSlot
                    : h == "credits"       ? kSelectCreditsSlot
                    : h == "port-free-vcs" ? kSelectPortFreeSlot
                    : h == "port-credits"  ? kSelectPortCreditsSlot
                                           : 0;
    if (slot == 0) return std::nullopt;
    // (port-credits P) and (port-free-vcs P) read a port's congestion (the builtins).
    if ((slot == kSelectPortFreeSlot || slot == kSelectPortCreditsSlot) && n.children.size() == 2)
      return std::nullopt;
    if (slot >= kRoutingParams) {
      // What a selection scores: only in a define-selection body.
      if (n.children.size() != 1) {
        error(DiagKind::WrongArity, n.range, fmt::format("'{}' takes no arguments", h));
        return errorExpr(n);
      }
      if (current_ == DefKind::Predictor && slot == kSelectOutPortSlot) {
        // The port a header left by: known in the predictor's OnForward block only.
        if (!inOnForward_ || scope_.size() < kPredictParams) {
          error(DiagKind::TypeError, n.range,
                "(out-port) is the port a header left by: it is known in the predictor's "
                "OnForward block only")
              .withHint("the prediction itself is made before the header is routed");
          return errorExpr(n);
        }
        Expr e{Op::Var};
        e.type = Type::Port;
        e.range = n.range;
        e.i = kPredictOutPortSlot;
        return e;
      }
      if (current_ != DefKind::Selection || scope_.size() < kSelectParams ||
          !scope_[slot].name.starts_with("%")) {
        error(DiagKind::TypeError, n.range,
              fmt::format("({}) describes the candidate a selection scores: it is available in "
                          "a define-selection body only",
                          h))
            .withHint(routingDef_
                          ? "a routing reads the congestion of a port it names: (port-credits "
                            "P), (port-free-vcs P) or (port-queue P), e.g. (port-queue (port 0 "
                            "1))"
                          : "read it in the define-selection body and pass the value to this "
                            "function as a parameter");
        return errorExpr(n);
      }
      Expr e{Op::Var};
      e.type = slot == kSelectOutPortSlot ? Type::Port : Type::Int;
      e.range = n.range;
      e.i = slot;
      return e;
    }
    if (n.children.size() != 1) {
      error(DiagKind::WrongArity, n.range, fmt::format("'{}' takes no arguments", h));
      return errorExpr(n);
    }
    if (inInit_) {
      error(DiagKind::TypeError, n.range,
            fmt::format("({}) describes a packet being routed; a header field's initial value "
                        "is computed at injection, before any routing",
                        h))
          .withHint("the initial value sees source, dest and (random-node)");
      return errorExpr(n);
    }
    if (inHops_) {
      error(DiagKind::TypeError, n.range,
            fmt::format("({}) describes a packet being routed; (Hops ...) is evaluated per pair "
                        "of nodes, not per packet",
                        h))
          .withHint("compute the hop count from current, dest and source");
      return errorExpr(n);
    }
    bool inBody = (routingDef_ || current_ == DefKind::Selection ||
                   current_ == DefKind::Predictor) &&
                  !scope_.empty() && scope_.size() >= kRoutingParams &&
                  scope_[slot].name.starts_with("%");
    if (!inBody) {
      error(DiagKind::TypeError, n.range,
            fmt::format("({}) describes the packet being routed: it is available in a "
                        "define-routing body only",
                        h))
          .withHint("pass its value to the function as a parameter");
      return errorExpr(n);
    }
    Expr e{Op::Var};
    e.type = slot == kRoutingArrivedSlot    ? Type::Port
             : slot == kRoutingInjectedSlot ? Type::Bool
                                            : Type::Int;
    e.range = n.range;
    e.i = slot;
    return e;
  }

  uint32_t bind(const std::string& name, Type t) {
    uint32_t slot = nextSlot_++;
    maxSlot_ = std::max(maxSlot_, nextSlot_);
    scope_.push_back({name, slot, t});
    return slot;
  }
  void unbind(size_t scopeSize, uint32_t slotMark) {
    scope_.resize(scopeSize);
    nextSlot_ = slotMark;
  }

  // Checks that e can be used where `want` is expected, converting Int to
  // Real; reports a type error otherwise.
  bool expect(Expr& e, Type want, const Node& at) {
    if (e.type == Type::Error || want == Type::Error) return false;
    if (e.type == want) return true;
    if (routerAndEndpoint(e.type, want)) {
      error(DiagKind::TypeError, at.range,
            fmt::format("expected {}, but '{}' is {}", typeName(want), ast::quote(at),
                        typeName(e.type)))
          .withHint(endpointHint(want));
      return false;
    }
    if (integral(e.type) && integral(want)) return true;
    if (integral(e.type) && want == Type::Real) {
      Expr conv{Op::ToReal};
      conv.type = Type::Real;
      conv.range = e.range;
      conv.kids.push_back(std::move(e));
      e = std::move(conv);
      return true;
    }
    error(DiagKind::TypeError, at.range,
          fmt::format("expected {}, but '{}' is {}", typeName(want), ast::quote(at),
                      typeName(e.type)))
        .withHint(want == Type::Int && e.type == Type::Real
                      ? "round with (int x) or use div for integer division"
                      : "check the operator or the argument order");
    return false;
  }

  Expr sequence(const Node& form, size_t first) {
    Expr seq{Op::Seq};
    seq.type = Type::Unit;
    seq.range = form.range;
    for (size_t i = first; i < form.children.size(); ++i) {
      Expr s = statement(form.children[i]);
      seq.kids.push_back(std::move(s));
    }
    return seq;
  }

  Expr statement(const Node& n) {
    if (n.isError()) return errorExpr(n);
    std::string_view h = n.head();
    if (current_ == DefKind::Topology) {
      if (h == "for") return forLoop(n, true);
      if (h == "when") return when(n);
      if (h == "let") return let(n, true);
      auto it = statements().find(h);
      if (it != statements().end()) return topologyStatement(n, it->second);
    }
    Expr e = expr(n);
    if (e.type != Type::Error && e.type != Type::Unit) {
      error(DiagKind::TypeError, n.range,
            fmt::format("'{}' computes a value that is not used", ast::quote(n)))
          .withHint("a topology body is made of (Nodes ...), (Link ...), (for ...) and (when ...)");
      e.type = Type::Error;
    }
    return e;
  }

  Expr topologyStatement(const Node& n, Op op) {
    Expr s{op};
    s.type = Type::Unit;
    s.range = n.range;
    auto args = [&](size_t lo, size_t hi) {
      size_t got = n.children.size() - 1;
      if (got >= lo && got <= hi) return true;
      error(DiagKind::WrongArity, n.range,
            fmt::format("{} takes {} argument{}, got {}", n.head(),
                        lo == hi ? std::to_string(lo) : fmt::format("{} to {}", lo, hi),
                        hi == 1 ? "" : "s", got));
      return false;
    };
    auto typed = [&](size_t i, Type t) {
      Expr e = expr(n.children[i]);
      expect(e, t, n.children[i]);
      s.kids.push_back(std::move(e));
    };
    switch (op) {
      case Op::StmtNodes:
      case Op::StmtDiameter:
      case Op::StmtBisection:
        if (args(1, 1)) typed(1, Type::Int);
        break;
      case Op::StmtAverage:
        if (args(1, 1)) typed(1, Type::Real);
        break;
      case Op::StmtEndpoints:  // (Endpoints router p)
        if (!args(2, 2)) break;
        typed(1, Type::Node);
        typed(2, Type::Int);
        break;
      case Op::StmtConcentration:  // (Concentration p)
      case Op::StmtGroups:         // (Groups n)
        if (args(1, 1)) typed(1, Type::Int);
        break;
      case Op::StmtRequire:  // (Require condition "message")
        if (!args(2, 2)) break;
        typed(1, Type::Bool);
        if (n.children[2].kind != NodeKind::String) {
          error(DiagKind::TypeError, n.children[2].range, "Require expects a message string");
          s.type = Type::Error;
        } else {
          s.text = n.children[2].value;
        }
        break;
      case Op::StmtRadices:
        if (args(1, 1)) typed(1, Type::Coord);
        break;
      case Op::StmtRepresentatives:
        if (args(1, 64))
          for (size_t i = 1; i < n.children.size(); ++i) typed(i, Type::Node);
        break;
      case Op::StmtDimNames:
      case Op::StmtDefaultRouting:
        if (!args(1, op == Op::StmtDefaultRouting ? 1 : 256)) break;
        for (size_t i = 1; i < n.children.size(); ++i) {
          const Node& a = n.children[i];
          bool ok = op == Op::StmtDimNames ? a.kind == NodeKind::String : a.isSymbol();
          if (!ok) {
            error(DiagKind::TypeError, a.range,
                  fmt::format("{} expects {}, got '{}'", n.head(),
                              op == Op::StmtDimNames ? "strings such as \"x\"" : "a routing name",
                              ast::quote(a)));
            s.type = Type::Error;
            continue;
          }
          if (!s.text.empty()) s.text += '\0';
          s.text += op == Op::StmtDimNames ? a.value : a.text;
        }
        break;
      case Op::StmtLink:
      case Op::StmtUniLink: {
        // (Link a b), (Link a b d), (Link a b d wrap): endpoints, the port
        // dimension (default: the lowest one free at both ends), wrap flag; then
        // optionally (Delay t), the link's own wire delay (s.i = 1, the last kid).
        const Node* delay = nullptr;
        size_t positional = n.children.size();
        if (positional >= 4 && n.children.back().isList() &&
            n.children.back().head() == "Delay") {
          delay = &n.children.back();
          --positional;
        }
        for (size_t k = 1; k < positional; ++k) {
          const Node& c = n.children[k];
          if (c.isList() && c.head() == "Delay") {
            error(DiagKind::BadDefinition, c.range,
                  fmt::format("(Delay t) is the last argument of {}", n.head()))
                .withHint(fmt::format("({} a b [dimension [wrap]] [(Delay t)])", n.head()));
            s.type = Type::Error;
          }
        }
        if (s.type == Type::Error) break;
        if (positional - 1 < 2 || positional - 1 > 4) {
          error(DiagKind::WrongArity, n.range,
                fmt::format("{} takes 2 to 4 arguments and an optional (Delay t), got {}",
                            n.head(), positional - 1))
              .withHint(fmt::format("({} a b [dimension [wrap]] [(Delay t)])", n.head()));
          s.type = Type::Error;
          break;
        }
        typed(1, Type::Node);
        typed(2, Type::Node);
        if (positional >= 4) typed(3, Type::Int);
        if (positional == 5) typed(4, Type::Bool);
        if (delay) {
          if (delay->children.size() != 2) {
            error(DiagKind::WrongArity, delay->range,
                  fmt::format("Delay takes 1 argument, got {}", delay->children.size() - 1))
                .withHint("(Delay 10), ten link clocks, or (Delay 20nsec)");
            s.type = Type::Error;
            break;
          }
          const Node& t = delay->children[1];
          const Unit* unit = t.kind == NodeKind::Quantity ? findUnit(t.value) : nullptr;
          Expr d;
          if (unit && unit->base == UnitBase::Clocks) {
            // (Delay 10clock): link clocks, written as the LinkDelay form writes them.
            d = Expr{Op::ConstInt};
            d.range = t.range;
            d.type = Type::Int;
            if (!t.number.isInteger()) {
              error(DiagKind::OutOfRange, t.range,
                    fmt::format("a link's delay is a whole number of link clocks, not '{}'",
                                t.text))
                  .withHint("round it up to the next clock");
              d.type = Type::Error;
            } else {
              d.i = t.number.num();
            }
          } else {
            d = expr(t);
          }
          if (d.type != Type::Int && d.type != Type::Time && d.type != Type::Error) {
            error(DiagKind::TypeError, delay->children[1].range,
                  fmt::format("Delay takes link clocks as an Int or a time, but '{}' is {}",
                              ast::quote(delay->children[1]), typeName(d.type)))
                .withHint("(Delay 10), ten link clocks, or (Delay 20nsec)");
            s.type = Type::Error;
          }
          s.kids.push_back(std::move(d));
          s.i = 1;
        }
        break;
      }
      case Op::StmtAttribute:  // (NodeAttribute n "name" value)
        if (!args(3, 3)) break;
        typed(1, Type::Node);
        if (n.children[2].kind != NodeKind::String) {
          error(DiagKind::TypeError, n.children[2].range,
                "NodeAttribute expects the attribute's name as a string");
          s.type = Type::Error;
        } else {
          s.text = n.children[2].value;
        }
        typed(3, Type::Int);
        // Accepted for `ndlc info`, which lists it; the simulator reads no node attribute.
        error(DiagKind::NoEffectYet, n.children[0].range,
              "NodeAttribute has no effect on the simulation yet: the simulator reads no node "
              "attribute")
            .withHint("ndlc info lists the attributes; every node is simulated with the "
                      "program's own parameters");
        break;
      default: break;
    }
    return s;
  }

  Expr forLoop(const Node& n, bool asStatement) {
    // (for (i a to b) body...) and (sum (i a to b) e)
    std::string_view h = n.head();
    if (n.children.size() < 3 || !n.children[1].isList() || n.children[1].children.size() != 2 ||
        !n.children[1].children[0].isSymbol() ||
        n.children[1].children[1].kind != NodeKind::Range) {
      error(DiagKind::BadDefinition, n.range,
            fmt::format("{} is written ({} (i 0 to (- k 1)) ...)", h, h))
          .withHint("the loop variable and an inclusive range, then the body");
      return errorExpr(n);
    }
    const Node& header = n.children[1];
    const Node& range = header.children[1];
    Expr from = expr(range.children[0]);
    expect(from, Type::Int, range.children[0]);
    Expr to = expr(range.children[1]);
    expect(to, Type::Int, range.children[1]);
    size_t mark = scope_.size();
    uint32_t slotMark = nextSlot_;
    Expr loop{asStatement ? Op::For : Op::Sum};
    loop.range = n.range;
    loop.i = bind(header.children[0].text, Type::Int);
    loop.kids.push_back(std::move(from));
    loop.kids.push_back(std::move(to));
    if (asStatement) {
      loop.kids.push_back(sequence(n, 2));
      loop.type = Type::Unit;
    } else {
      if (n.children.size() != 3) {
        error(DiagKind::WrongArity, n.range, "sum takes a range and one expression");
        unbind(mark, slotMark);
        return errorExpr(n);
      }
      Expr body = expr(n.children[2]);
      loop.type = body.type == Type::Real ? Type::Real : Type::Int;
      expect(body, loop.type, n.children[2]);
      loop.kids.push_back(std::move(body));
    }
    unbind(mark, slotMark);
    return loop;
  }

  Expr when(const Node& n) {
    if (n.children.size() < 3) {
      error(DiagKind::WrongArity, n.range, "when takes a condition and statements");
      return errorExpr(n);
    }
    Expr cond = expr(n.children[1]);
    expect(cond, Type::Bool, n.children[1]);
    Expr w{Op::When};
    w.type = Type::Unit;
    w.range = n.range;
    w.kids.push_back(std::move(cond));
    w.kids.push_back(sequence(n, 2));
    return w;
  }

  Expr let(const Node& n, bool asStatement) {
    if (n.children.size() < 3 || !n.children[1].isList()) {
      error(DiagKind::BadDefinition, n.range, "let is written (let ((x e) (y e)) body)");
      return errorExpr(n);
    }
    size_t mark = scope_.size();
    uint32_t slotMark = nextSlot_;
    // Nested Lets, one per binding: each sees the previous ones.
    std::vector<Expr> inits;
    std::vector<uint32_t> slots;
    for (const Node& b : n.children[1].children) {
      if (!b.isList() || b.children.size() != 2 || !b.children[0].isSymbol()) {
        error(DiagKind::BadDefinition, b.range,
              fmt::format("a let binding is written (name value), got '{}'", ast::quote(b)));
        unbind(mark, slotMark);
        return errorExpr(n);
      }
      Expr init = expr(b.children[1]);
      Type t = init.type;
      slots.push_back(bind(b.children[0].text, t));
      inits.push_back(std::move(init));
    }
    Expr body;
    if (asStatement) {
      body = sequence(n, 2);
    } else if (n.children.size() != 3) {
      error(DiagKind::WrongArity, n.range, "let in an expression has exactly one body expression");
      unbind(mark, slotMark);
      return errorExpr(n);
    } else {
      body = expr(n.children[2]);
    }
    for (size_t k = inits.size(); k-- > 0;) {
      Expr l{Op::Let};
      l.range = n.range;
      l.i = slots[k];
      l.type = body.type;
      l.kids.push_back(std::move(inits[k]));
      l.kids.push_back(std::move(body));
      body = std::move(l);
    }
    unbind(mark, slotMark);
    return body;
  }

  Expr expr(const Node& n) {
    switch (n.kind) {
      case NodeKind::Error: return errorExpr(n);
      case NodeKind::Integer: {
        Expr e{Op::ConstInt};
        e.type = Type::Int;
        e.range = n.range;
        e.i = n.number.num();
        return e;
      }
      case NodeKind::Real: {
        Expr e{Op::ConstReal};
        e.type = Type::Real;
        e.range = n.range;
        e.real = n.number;
        return e;
      }
      case NodeKind::Symbol: return symbol(n);
      case NodeKind::Quantity: return quantityLiteral(n);
      case NodeKind::List: return list(n);
      default:
        error(DiagKind::TypeError, n.range,
              fmt::format("{} '{}' cannot be used in an expression", ast::kindName(n.kind),
                          ast::quote(n)))
            .withHint(n.kind == NodeKind::Quantity
                          ? "expressions compute with Int, Real, Bool, Node, Port and Coord; "
                            "give quantities as parameters"
                          : "expressions compute with Int, Real, Bool, Node, Port and Coord");
        return errorExpr(n);
    }
  }

  // 32bit, 60nsec, 50MHz: exact values in bits, seconds and Hz. Units that
  // depend on the network (flit, clock) and ratios are parameters only.
  Expr quantityLiteral(const Node& n) {
    const Unit* u = findUnit(n.value);
    Type t = !u || u->base != UnitBase::Absolute ? Type::Error
             : u->dimension == Dimension::Size   ? Type::Size
             : u->dimension == Dimension::Time   ? Type::Time
             : u->dimension == Dimension::Frequency ? Type::Frequency
                                                    : Type::Error;
    std::optional<Rational> v = u ? n.number.mul(u->scale) : std::nullopt;
    if (t == Type::Error || !v) {
      error(DiagKind::TypeError, n.range,
            fmt::format("'{}' cannot be used in an expression", n.text))
          .withHint(u ? "expressions take sizes in bits or bytes, times in seconds and "
                        "frequencies in Hz; flits, clocks and ratios depend on the parameters"
                      : "unknown unit");
      return errorExpr(n);
    }
    Expr e{Op::ConstReal};
    e.type = t;
    e.range = n.range;
    e.real = *v;
    return e;
  }

  // Arithmetic with quantities: like dimensions add and compare; a
  // quantity scales by a number; a ratio of like quantities, and a time
  // times a frequency, is a Real; a number over a time is a frequency.
  std::optional<Type> quantityArithmetic(Op op, std::vector<Expr>& kids,
                                         const std::vector<const Node*>& args, const Node& n) {
    bool any = false;
    for (const Expr& k : kids) any |= isQuantity(k.type);
    if (!any) return std::nullopt;
    auto fail = [&]() -> std::optional<Type> {
      std::string types;
      for (const Expr& k : kids) types += (types.empty() ? "" : " and ") + std::string(typeName(k.type));
      error(DiagKind::TypeError, n.range,
            fmt::format("'{}' cannot combine {}", n.head(), types))
          .withHint("add and compare like quantities; scale a quantity by a number");
      return Type::Error;
    };
    auto toReal = [&](size_t i) { return expect(kids[i], Type::Real, *args[i]); };
    switch (op) {
      case Op::Add: case Op::Sub: case Op::Min: case Op::Max: case Op::Neg: case Op::Abs:
      case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne:
        for (const Expr& k : kids)
          if (k.type != kids[0].type) return fail();
        return kids[0].type;
      case Op::Mul: {
        if (kids.size() == 2 && ((kids[0].type == Type::Time && kids[1].type == Type::Frequency) ||
                                 (kids[0].type == Type::Frequency && kids[1].type == Type::Time)))
          return Type::Real;
        std::optional<Type> q;
        for (size_t i = 0; i < kids.size(); ++i) {
          if (isQuantity(kids[i].type)) {
            if (q) return fail();
            q = kids[i].type;
          } else if (!numeric(kids[i].type) || !toReal(i)) {
            return fail();
          }
        }
        return q;
      }
      case Op::Div: {
        Type a = kids[0].type, b = kids[1].type;
        if (isQuantity(a) && a == b) return Type::Real;
        if (isQuantity(a) && numeric(b) && toReal(1)) return a;
        if (numeric(a) && toReal(0) && b == Type::Time) return Type::Frequency;
        if (numeric(a) && toReal(0) && b == Type::Frequency) return Type::Time;
        return fail();
      }
      default: return fail();
    }
  }

  Expr symbol(const Node& n) {
    if (n.text == "true" || n.text == "false") {
      Expr e{Op::ConstBool};
      e.type = Type::Bool;
      e.range = n.range;
      e.i = n.text == "true";
      return e;
    }
    for (size_t k = scope_.size(); k-- > 0;) {
      if (scope_[k].name == n.text) {
        Expr e{Op::Var};
        e.type = scope_[k].type;
        e.range = n.range;
        e.i = scope_[k].slot;
        return e;
      }
    }
    if (std::optional<uint32_t> def = table_.find(n.text)) {
      const Definition& d = table_.defs[*def];
      if (d.kind == DefKind::Constant) return call(n, *def, {});
    }
    if (std::optional<Expr> k = className(n)) return std::move(*k);
    if (fieldUsedEarly(n, n.text)) return errorExpr(n);
    unknownName(n, n.text);
    return errorExpr(n);
  }

  void unknownName(const Node& at, std::string_view name) {
    std::vector<std::string_view> names;
    for (const Var& v : scope_) names.push_back(v.name);
    if (routingDef_)
      for (const VcClassDecl& k : table_.defs[*routingDef_].vcClasses) names.push_back(k.name);
    for (const Definition& d : table_.defs)
      if (d.kind == DefKind::Function || d.kind == DefKind::Constant) names.push_back(d.name);
    for (const auto& [k, v] : builtins()) names.push_back(k);
    std::string best = closestMatch(name, names);
    error(DiagKind::UnknownName, at.range, fmt::format("unknown name '{}'", name))
        .withHint(best.empty() ? "define it with (define ...) or bind it with let"
                               : fmt::format("did you mean '{}'?", best));
  }

  Expr call(const Node& n, uint32_t index, const std::vector<const Node*>& argNodes) {
    // Check the callee first so that its result type is known (recursion
    // sees the declared result type).
    const Definition& d = table_.defs[index];
    Expr e{Op::Call};
    e.range = n.range;
    e.i = index;
    e.type = d.result;
    if (d.kind == DefKind::Constant && !d.checked) {
      // Constants are typed by their value: check it now, as at top level
      // (a constant seen first from a routing's header field must not see
      // that routing, its fields or its random draws).
      auto saved = std::make_tuple(scope_, nextSlot_, maxSlot_, current_, routingDef_,
                                   declaredFields_, fieldsSeen_, inInit_, inHops_, currentDef_,
                                   inOnForward_);
      routingDef_.reset();
      inInit_ = inHops_ = inOnForward_ = false;
      body(index);
      std::tie(scope_, nextSlot_, maxSlot_, current_, routingDef_, declaredFields_, fieldsSeen_,
               inInit_, inHops_, currentDef_, inOnForward_) = saved;
      e.type = table_.defs[index].result;
    }
    if (d.kind == DefKind::Topology || d.kind == DefKind::Routing ||
        d.kind == DefKind::Selection || d.kind == DefKind::Predictor ||
        d.kind == DefKind::PortState || d.kind == DefKind::Pattern) {
      error(DiagKind::TypeError, n.range,
            fmt::format("'{}' is a {} and cannot be called in an expression", d.name,
                        d.kind == DefKind::Topology    ? "topology"
                        : d.kind == DefKind::Routing   ? "routing"
                        : d.kind == DefKind::Predictor ? "predictor"
                        : d.kind == DefKind::PortState ? "predictor state, read with (ring-ref ...)"
                        : d.kind == DefKind::Pattern   ? "traffic pattern"
                                                       : "selection"));
      return errorExpr(n);
    }
    if (currentDef_) table_.defs[*currentDef_].calls.emplace_back(index, n.range);
    return callArgs(n, index, argNodes);
  }

  Expr callArgs(const Node& n, uint32_t index, const std::vector<const Node*>& argNodes) {
    const Definition& d = table_.defs[index];
    Expr e{Op::Call};
    e.range = n.range;
    e.i = index;
    e.type = d.result;
    bool variadic = !d.params.empty() && d.params.back().variadic;
    size_t fixed = variadic ? d.params.size() - 1 : d.params.size();
    if (argNodes.size() < fixed || (!variadic && argNodes.size() != fixed)) {
      error(DiagKind::WrongArity, n.range,
            fmt::format("'{}' takes {}{} argument{}, got {}", d.name, variadic ? "at least " : "",
                        fixed, fixed == 1 ? "" : "s", argNodes.size()))
          .note(d.nameRange, "defined here");
      return errorExpr(n);
    }
    bool ok = true;
    for (size_t i = 0; i < fixed; ++i) {
      Expr a = expr(*argNodes[i]);
      ok &= !injectionClassArg(a, *argNodes[i]) && expect(a, d.params[i].type, *argNodes[i]);
      e.kids.push_back(std::move(a));
    }
    if (variadic) {
      Expr rest{Op::MakeCoord};
      rest.type = Type::Coord;
      rest.range = n.range;
      for (size_t i = fixed; i < argNodes.size(); ++i) {
        Expr a = expr(*argNodes[i]);
        ok &= expect(a, Type::Int, *argNodes[i]);
        rest.kids.push_back(std::move(a));
      }
      e.kids.push_back(std::move(rest));
    }
    if (!ok) e.type = Type::Error;
    return e;
  }

  Expr list(const Node& n) {
    if (n.children.empty() || !n.children[0].isSymbol()) {
      error(DiagKind::TypeError, n.range,
            fmt::format("'{}' is not an expression: a call starts with a name", ast::quote(n)))
          .withHint("write (f x y), (+ a b), (if c a b)");
      return errorExpr(n);
    }
    std::string_view h = n.head();
    std::vector<const Node*> args;
    for (size_t i = 1; i < n.children.size(); ++i) args.push_back(&n.children[i]);
    if (h == "let") return let(n, false);
    if (h == "if") return ifExpr(n);
    if (h == "cond") return cond(n);
    if (h == "and" || h == "or") return logic(n, h == "and" ? Op::And : Op::Or);
    if (h == "sum") return forLoop(n, false);
    if (h == "set") return setField(n);
    if (isStateOp(h)) return stateOp(n);
    if (std::optional<uint32_t> def = table_.find(h)) return call(n, *def, args);
    if (std::optional<Expr> c = routingContext(n)) return std::move(*c);
    auto it = builtins().find(h);
    if (it != builtins().end()) return builtin(n, it->second, args);
    if (statements().count(h) || h == "for" || h == "when") {
      error(DiagKind::TypeError, n.range,
            fmt::format("'{}' is a statement of topology bodies, not an expression", h))
          .withHint("use it inside (define-topology ...)");
      return errorExpr(n);
    }
    unknownName(n.children[0], h);
    return errorExpr(n);
  }

  Expr ifExpr(const Node& n) {
    if (n.children.size() != 4) {
      error(DiagKind::WrongArity, n.range, "if takes a condition, a then and an else expression")
          .withHint("write (if c a b); for several cases use cond");
      return errorExpr(n);
    }
    Expr c = expr(n.children[1]);
    expect(c, Type::Bool, n.children[1]);
    Expr a = expr(n.children[2]);
    Expr b = expr(n.children[3]);
    Expr e{Op::If};
    e.range = n.range;
    e.type = unify(a, b, n.children[2], n.children[3]);
    if (c.type == Type::Error) e.type = Type::Error;
    e.kids.push_back(std::move(c));
    e.kids.push_back(std::move(a));
    e.kids.push_back(std::move(b));
    return e;
  }

  Type unify(Expr& a, Expr& b, const Node& an, const Node& bn) {
    if (a.type == Type::Error || b.type == Type::Error) return Type::Error;
    if (a.type == b.type) return a.type;
    if (integral(a.type) && integral(b.type)) return Type::Int;
    // A port beside a route is every VC of that port.
    if ((a.type == Type::Port && b.type == Type::Route) ||
        (a.type == Type::Route && b.type == Type::Port)) {
      if (a.type == Type::Port) a = wrapPort(std::move(a));
      if (b.type == Type::Port) b = wrapPort(std::move(b));
      return Type::Route;
    }
    if (numeric(a.type) && numeric(b.type)) {
      expect(a, Type::Real, an);
      expect(b, Type::Real, bn);
      return Type::Real;
    }
    error(DiagKind::TypeError, bn.range,
          fmt::format("the branches differ: '{}' is {} but '{}' is {}", ast::quote(an),
                      typeName(a.type), ast::quote(bn), typeName(b.type)))
        .withHint("both branches must have the same type");
    return Type::Error;
  }

  // cond becomes nested Ifs; the last clause must be (else e).
  Expr cond(const Node& n) {
    if (n.children.size() < 2 || n.children.back().head() != "else" ||
        n.children.back().children.size() != 2) {
      error(DiagKind::BadDefinition, n.range, "cond needs clauses (c e) and a final (else e)")
          .withHint("write (cond ((< x 0) -1) ((> x 0) 1) (else 0))");
      return errorExpr(n);
    }
    Expr result = expr(n.children.back().children[1]);
    const Node* resultNode = &n.children.back().children[1];
    for (size_t i = n.children.size() - 1; i-- > 1;) {
      const Node& clause = n.children[i];
      if (!clause.isList() || clause.children.size() != 2) {
        error(DiagKind::BadDefinition, clause.range,
              fmt::format("a cond clause is (condition value), got '{}'", ast::quote(clause)));
        return errorExpr(n);
      }
      Expr c = expr(clause.children[0]);
      expect(c, Type::Bool, clause.children[0]);
      Expr v = expr(clause.children[1]);
      Expr e{Op::If};
      e.range = clause.range;
      e.type = unify(v, result, clause.children[1], *resultNode);
      if (c.type == Type::Error) e.type = Type::Error;
      e.kids.push_back(std::move(c));
      e.kids.push_back(std::move(v));
      e.kids.push_back(std::move(result));
      result = std::move(e);
      resultNode = &clause;
    }
    return result;
  }

  Expr logic(const Node& n, Op op) {
    if (n.children.size() < 3) {
      error(DiagKind::WrongArity, n.range, fmt::format("{} takes at least two conditions", n.head()));
      return errorExpr(n);
    }
    Expr e{op};
    e.range = n.range;
    e.type = Type::Bool;
    for (size_t i = 1; i < n.children.size(); ++i) {
      Expr k = expr(n.children[i]);
      if (!expect(k, Type::Bool, n.children[i])) e.type = Type::Error;
      e.kids.push_back(std::move(k));
    }
    return e;
  }

  Expr builtin(const Node& n, Builtin b, const std::vector<const Node*>& args) {
    int got = static_cast<int>(args.size());
    bool unaryMinus = b.op == Op::Sub && got == 1;
    bool routeOp = b.op == Op::RouteTo || b.op == Op::RouteUnion || b.op == Op::RoutePrefer;
    if (b.op == Op::RouteTo && (got < 1 || got > 2)) {
      error(DiagKind::WrongArity, n.range,
            fmt::format("'via' takes a port and a VC class, got {} argument{}", got,
                        got == 1 ? "" : "s"))
          .withHint("write (via (port 0 1) escape), or (via (port 0 1)) for any VC of the port");
      return errorExpr(n);
    }
    if (routeOp && got < 1) {
      error(DiagKind::WrongArity, n.range, fmt::format("'{}' takes at least one route", n.head()));
      return errorExpr(n);
    }
    if ((b.arity >= 0 && got != b.arity) || (b.arity < 0 && got < 2 && !unaryMinus &&
                                              b.op != Op::MakeCoord && !routeOp)) {
      error(DiagKind::WrongArity, n.range,
            fmt::format("'{}' takes {} argument{}, got {}", n.head(),
                        b.arity < 0 ? std::string("at least 2") : std::to_string(b.arity),
                        b.arity == 1 ? "" : "s", got));
      return errorExpr(n);
    }
    Expr e{unaryMinus ? Op::Neg : b.op};
    e.range = n.range;
    std::vector<Expr> kids;
    for (const Node* a : args) kids.push_back(expr(*a));
    for (const Expr& k : kids)
      if (k.type == Type::Error) return errorExpr(n);
    // (via ...) says so in its own words below.
    if (e.op != Op::Eq && e.op != Op::Ne && e.op != Op::RouteTo)
      for (size_t i = 0; i < kids.size(); ++i)
        if (injectionClassArg(kids[i], *args[i])) return errorExpr(n);
    auto need = [&](size_t i, Type t) { return expect(kids[i], t, *args[i]); };
    if (std::optional<Type> q = quantityArithmetic(e.op, kids, args, n)) {
      if (*q == Type::Error) return errorExpr(n);
      bool compare = e.op == Op::Lt || e.op == Op::Le || e.op == Op::Gt || e.op == Op::Ge ||
                     e.op == Op::Eq || e.op == Op::Ne;
      e.type = compare ? Type::Bool : *q;
      e.kids = std::move(kids);
      return e;
    }
    const bool endpointRead = e.op == Op::EndpointCount || e.op == Op::EndpointRouter ||
                              e.op == Op::EndpointIndex || e.op == Op::RouterEndpoints ||
                              e.op == Op::RouterEndpoint;
    if (endpointRead && (current_ == DefKind::Topology || current_ == DefKind::Constant)) {
      error(DiagKind::TypeError, n.range,
            fmt::format("({}) reads the network's endpoints, which are known once its topology "
                        "is built; a {} is evaluated before",
                        n.head(), current_ == DefKind::Topology ? "topology body" : "constant"))
          .withHint(current_ == DefKind::Topology
                        ? "a topology states its endpoints with (Endpoints r p) or "
                          "(Concentration p); read them in a pattern, routing or selection"
                        : "make it a function of the values it needs, or read it in a pattern, "
                          "routing or selection");
      return errorExpr(n);
    }
    bool ok = true;
    switch (e.op) {
      case Op::Add: case Op::Sub: case Op::Mul: case Op::Min: case Op::Max: case Op::Neg:
      case Op::Abs: {
        bool real = false;
        for (size_t i = 0; i < kids.size(); ++i) {
          if (!numeric(kids[i].type)) ok = need(i, Type::Int);
          real |= kids[i].type == Type::Real;
        }
        if (real)
          for (size_t i = 0; i < kids.size(); ++i) ok &= need(i, Type::Real);
        e.type = real ? Type::Real : Type::Int;
        break;
      }
      case Op::Div:
        ok = need(0, Type::Real) && need(1, Type::Real);
        e.type = Type::Real;
        break;
      case Op::IntDiv: case Op::Mod: case Op::BitAnd: case Op::BitOr: case Op::BitXor:
      case Op::Shl: case Op::Shr:
        ok = need(0, Type::Int) && need(1, Type::Int);
        e.type = Type::Int;
        break;
      case Op::BitNot: case Op::Popcount: case Op::LowestSetBit:
        ok = need(0, Type::Int);
        e.type = Type::Int;
        break;
      case Op::Bit:
        ok = need(0, Type::Int) && need(1, Type::Int);
        e.type = Type::Bool;
        break;
      case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: {
        bool real = kids[0].type == Type::Real || kids[1].type == Type::Real;
        ok = need(0, real ? Type::Real : Type::Int) && need(1, real ? Type::Real : Type::Int);
        e.type = Type::Bool;
        break;
      }
      case Op::Eq: case Op::Ne:
        if (routerAndEndpoint(kids[0].type, kids[1].type)) {
          ok = need(1, kids[0].type);
        } else if (numeric(kids[0].type) && numeric(kids[1].type)) {
          bool real = kids[0].type == Type::Real || kids[1].type == Type::Real;
          ok = !real || (need(0, Type::Real) && need(1, Type::Real));
        } else {
          ok = need(1, kids[0].type);
        }
        e.type = Type::Bool;
        break;
      case Op::Not:
        ok = need(0, Type::Bool);
        e.type = Type::Bool;
        break;
      case Op::Length: case Op::Product:
        ok = need(0, Type::Coord);
        e.type = Type::Int;
        break;
      case Op::Nth:
        ok = need(0, Type::Coord) && need(1, Type::Int);
        e.type = Type::Int;
        break;
      case Op::MakeCoord:
        for (size_t i = 0; i < kids.size(); ++i) ok &= need(i, Type::Int);
        e.type = Type::Coord;
        break;
      case Op::Repeat:  // (repeat value count)
        ok = need(0, Type::Int) && need(1, Type::Int);
        e.type = Type::Coord;
        break;
      case Op::Wraps:  // (wraps d): does dimension d have wrap-around links?
      case Op::HasDim:  // (has-dim d): does any port use dimension d?
        ok = need(0, Type::Int);
        e.type = Type::Bool;
        break;
      case Op::NodeCount: case Op::DimCount: case Op::PortDims:
        e.type = Type::Int;
        break;
      case Op::Radix:
        ok = need(0, Type::Int);
        e.type = Type::Int;
        break;
      case Op::CoordOf:
        ok = need(0, Type::Node) && need(1, Type::Int);
        e.type = Type::Int;
        break;
      case Op::Neighbor:  // (neighbor n d delta): n moved by delta along d, wrapping
        ok = need(0, Type::Node) && need(1, Type::Int) && need(2, Type::Int);
        e.type = Type::Node;
        break;
      case Op::HasPort:  // (has-port n d dir): does node n have the output port (d, dir)?
        ok = need(0, Type::Node) && need(1, Type::Int) && need(2, Type::Int);
        e.type = Type::Bool;
        break;
      case Op::Peer:  // (peer n p): the node at the far end of n's output port p (n if none)
        ok = need(0, Type::Node) && need(1, Type::Port);
        e.type = Type::Node;
        break;
      case Op::Distance:  // (graph-distance a b): hops of a shortest path from a to b
        ok = need(0, Type::Node) && need(1, Type::Node);
        e.type = Type::Int;
        break;
      case Op::MakePort:  // (port d dir)
        ok = need(0, Type::Int) && need(1, Type::Int);
        e.type = Type::Port;
        break;
      case Op::PortDim: case Op::PortDir:
        ok = need(0, Type::Port);
        e.type = Type::Int;
        break;
      case Op::ToReal:
        ok = need(0, Type::Real);
        e.type = Type::Real;
        break;
      case Op::ToNode: case Op::ToEndpoint: {
        // (node i), (endpoint i) number an Int; a router's endpoint or an endpoint's router is
        // not a renumbering (the hint names the conversion that is meant).
        const Type to = e.op == Op::ToNode ? Type::Node : Type::Endpoint;
        if (routerAndEndpoint(kids[0].type, to)) {
          ok = need(0, to);
        } else {
          ok = need(0, Type::Int);
        }
        e.type = to;
        break;
      }
      case Op::EndpointCount:
        e.type = Type::Int;
        break;
      case Op::EndpointRouter: case Op::EndpointIndex:
        ok = need(0, Type::Endpoint);
        e.type = e.op == Op::EndpointRouter ? Type::Node : Type::Int;
        break;
      case Op::RouterEndpoints:
        ok = need(0, Type::Node);
        e.type = Type::Int;
        break;
      case Op::RouterEndpoint:
        ok = need(0, Type::Node) && need(1, Type::Int);
        e.type = Type::Endpoint;
        break;
      case Op::ToInt:
        ok = numeric(kids[0].type) || need(0, Type::Real);
        e.type = Type::Int;
        break;
      case Op::Linked:
        ok = need(0, Type::Node) && need(1, Type::Node);
        e.type = Type::Bool;
        break;
      case Op::Vcs: case Op::InjectionVcs: case Op::RecoveryTimeout:
        e.type = Type::Int;
        break;
      case Op::Avoiding:
        e.type = Type::Bool;
        break;
      case Op::RouteNone:
        e.type = Type::Route;
        break;
      case Op::PortQueue: case Op::PortCreditsAt: case Op::PortFreeVcsAt: case Op::PortQueueAt: {
        // Congestion belongs to the router a routing or selection runs at: not to a pair of
        // nodes (Hops), a packet's creation (initial values) or the configuration (class
        // counts, requirements), and a helper is given it as a parameter so that the
        // analyses see every read where the routing makes it (docs/routing.md, "Congestion").
        const bool inBody = (routingDef_ || current_ == DefKind::Selection) &&
                            scope_.size() >= kRoutingParams &&
                            scope_[kRoutingArrivedSlot].name.starts_with("%");
        if (inHops_ || inInit_ || !inBody) {
          error(DiagKind::TypeError, n.range,
                fmt::format("{} reads the congestion of a port {}; {}",
                            e.op == Op::PortQueueAt ? "(port-queue-at R P)"
                                                    : fmt::format("({} P)", n.head()),
                            e.op == Op::PortQueueAt ? "as the router clock began"
                                                    : "at the router a packet is routed at",
                            inHops_     ? "(Hops ...) is the hop count of a pair of nodes and "
                                          "must not depend on the load"
                            : inInit_   ? "a header field's initial value is computed before "
                                          "the packet reaches a router"
                            : routingDef_ ? "class counts, field ranges and requirements are "
                                            "evaluated once, with the configuration"
                                        : "it is available in a define-routing or "
                                          "define-selection body only"))
              .withHint(inHops_ ? "compute the hop count of the route taken on an idle "
                                  "network from current, dest and source"
                        : inInit_ ? "read it in the routing body and write the field with "
                                    "(set name value route)"
                        : routingDef_ ? "size the classes from (vcs) and choose among them in "
                                        "the routing body by the congestion it reads"
                                      : "read it in the body and pass the value to the "
                                        "function as a parameter");
          return errorExpr(n);
        }
        ok = e.op == Op::PortQueueAt ? need(0, Type::Node) && need(1, Type::Port)
                                     : need(0, Type::Port);
        e.type = Type::Int;
        break;
      }
      case Op::RandomNode: case Op::RandomBelow: case Op::RandomEndpoint:
        // A header field's initial value draws from the packet's stream, a pattern's body
        // from the source's (helpers called from either are given the values they need); a
        // header holds routers, so an endpoint is drawn by a pattern only.
        if (e.op == Op::RandomEndpoint && current_ != DefKind::Pattern) {
          error(DiagKind::TypeError, n.range,
                "(random-endpoint) draws from the source's seeded random stream: it is "
                "available in a define-pattern body only")
              .withHint("a helper function takes the draw as a parameter; a header field "
                        "holds a router: (random-node)");
          return errorExpr(n);
        }
        if (!inInit_ && current_ != DefKind::Pattern) {
          error(DiagKind::TypeError, n.range,
                fmt::format("({}) draws from a seeded random stream: it is available in a "
                            "HeaderField's initial value and a define-pattern body only",
                            n.head()))
              .withHint("declare (HeaderField name Node (random-node)) and read the field; a "
                        "helper function takes the draw as a parameter");
          return errorExpr(n);
        }
        if (e.op == Op::RandomBelow) ok = need(0, Type::Int);
        e.type = e.op == Op::RandomNode       ? Type::Node
                 : e.op == Op::RandomEndpoint ? Type::Endpoint
                                              : Type::Int;
        break;
      case Op::RouteTo:
        ok = need(0, Type::Port);
        if (ok && kids.size() == 2) {
          ok = need(1, Type::Int);
          if (ok && kids[1].text == "injection-class") {
            error(DiagKind::TypeError, args[1]->range,
                  fmt::format("'{}' is a class of the injection port; a route goes to a network "
                              "port",
                              ast::quote(*args[1])))
                .withHint("name a class declared with (VcClass name count)");
            return errorExpr(n);
          }
        }
        e.type = Type::Route;
        break;
      case Op::RouteUnion: case Op::RoutePrefer:
        for (size_t i = 0; i < kids.size(); ++i) {
          if (kids[i].type == Type::Port) kids[i] = wrapPort(std::move(kids[i]));
          ok &= need(i, Type::Route);
        }
        e.type = Type::Route;
        break;
      default: break;
    }
    if (!ok) return errorExpr(n);
    e.kids = std::move(kids);
    return e;
  }

  DefinitionTable& table_;
  DiagnosticEngine& diags_;
  std::vector<Var> scope_;
  uint32_t nextSlot_ = 0;
  uint32_t maxSlot_ = 0;
  DefKind current_ = DefKind::Function;
  std::optional<uint32_t> currentDef_;  // the definition whose body is being checked
  bool inOnForward_ = false;  // checking a predictor's OnForward block
  std::optional<uint32_t> routingDef_;  // the routing whose body is being checked
  // Its HeaderField names in the order written, how many of those forms
  // have been read so far, and whether a field's initial value is being
  // checked.
  std::vector<std::pair<std::string, SourceRange>> declaredFields_;
  size_t fieldsSeen_ = 0;
  bool inInit_ = false;
  bool inHops_ = false;  // checking a routing's (Hops e)
};

}  // namespace

std::vector<std::string_view> builtinNames() {
  std::vector<std::string_view> names;
  for (const auto& [name, b] : builtins()) names.push_back(name);
  for (const auto& [name, op] : statements()) names.push_back(name);
  names.insert(names.end(), std::begin(kSpecialForms), std::end(kSpecialForms));
  names.insert(names.end(), std::begin(kStateOps), std::end(kStateOps));
  names.push_back("set");  // (set field value route) in a routing
  std::sort(names.begin(), names.end());
  return names;
}

DefinitionTable checkDefinitions(const ast::Program& program, DiagnosticEngine& diags) {
  DefinitionTable table;
  Checker checker(table, diags);
  checker.collect(program);
  checker.checkBodies();
  checker.checkStatePurity();
  return table;
}

std::optional<uint32_t> addInlineTopology(DefinitionTable& table, const ast::Node& form,
                                          DiagnosticEngine& diags) {
  return Checker(table, diags).inlineTopology(form);
}

std::optional<std::vector<Expr>> checkArguments(DefinitionTable& table, const ast::Node& callNode,
                                                uint32_t def, DiagnosticEngine& diags) {
  return Checker(table, diags).arguments(callNode, def);
}

}  // namespace ndl::sema
