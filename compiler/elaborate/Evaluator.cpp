#include "compiler/elaborate/Evaluator.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "compiler/elaborate/Distances.h"
#include "compiler/elaborate/EvalMemo.h"
#include "compiler/elaborate/Graph.h"
#include "compiler/elaborate/TopologyBuilder.h"

namespace ndl::elab {

using sema::Expr;
using sema::Op;
using sema::Type;

namespace {

// Thrown from deep inside an evaluation and caught at its entry point, where
// it becomes one diagnostic.
struct EvalError {
  SourceRange range;
  std::string message;
  DiagKind kind = DiagKind::EvaluationError;
  std::string hint;
};

// What a network costs at least in the compiler and the simulator: the
// channels of a node of degree 6, its router state and statistics.
constexpr int64_t kBytesPerNodeEstimate = 256;

std::string humanBytes(int64_t nodes) {
  long double bytes = static_cast<long double>(nodes) * kBytesPerNodeEstimate;
  const char* units[] = {"bytes", "KB", "MB", "GB", "TB", "PB"};
  int u = 0;
  while (bytes >= 1024 && u < 5) bytes /= 1024, ++u;
  return fmt::format("{:.1f} {}", static_cast<double>(bytes), units[u]);
}

// Calls nest at most kMaxCallDepth deep: each one costs a few native stack frames.
// Instrumented builds (AddressSanitizer) make those frames several times larger, so the
// native stack the calls take is bounded as well.
constexpr uintptr_t kMaxStackBytes = uintptr_t{4} << 20;  // half the usual 8 MiB main stack

uintptr_t stackAddress() { return reinterpret_cast<uintptr_t>(__builtin_frame_address(0)); }
constexpr size_t kStackSlots = 1 << 16;
constexpr size_t kMaxLists = 1 << 20;
// Loop iterations and calls per evaluation: a 16M-node torus is elaborated in about 50 M;
// at tens of millions a second this is a few seconds of work before the error.
#ifdef NDL_FUZZ_BUDGETS
// Fuzzing builds (instrumented, about 40x slower): the same check at a 256th of the budget,
// so an input that reaches it costs the fuzzer a fraction of a second, not a minute.
constexpr uint64_t kMaxSteps = uint64_t{1} << 20;
#else
constexpr uint64_t kMaxSteps = kMaxSimulatorSteps;
#endif

int64_t floorMod(int64_t a, int64_t b) {
  int64_t m = a % b;
  return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m;
}

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

}  // namespace

Evaluator::Evaluator(const sema::DefinitionTable& defs, DiagnosticEngine& diags)
    : defs_(defs), diags_(diags), stack_(kStackSlots) {}

const std::vector<int64_t>& Evaluator::endpointBegin(const Expr& at) {
  if (!network_.graph) fail(at, "the network's endpoints are known once its topology is built");
  if (!network_.endpointBegin) {
    const Graph& g = *network_.graph;
    std::vector<int64_t> begin(g.nodeCount + 1, 0);
    for (NodeId n = 0; n < g.nodeCount; ++n) begin[n + 1] = begin[n] + g.endpointsAt(n);
    network_.endpointBegin = std::make_shared<const std::vector<int64_t>>(std::move(begin));
  }
  return *network_.endpointBegin;
}

void Evaluator::fail(const Expr& at, std::string message) {
  throw EvalError{at.range, std::move(message)};
}

void Evaluator::twoValues(const Expr& at, const HeaderFieldLayout& f, int64_t a, int64_t b) {
  throw EvalError{at.range,
                  fmt::format("this route writes two values into header field '{}' ({} and {})",
                              f.name, a, b),
                  DiagKind::EvaluationError,
                  "a route writes at most one value per field, whatever its tiers: use a "
                  "field per value (one per direction, say)"};
}

void Evaluator::step(const Expr& at) {
  ++work_;
  if (++steps_ > kMaxSteps)
    throw EvalError{at.range,
                    fmt::format("evaluation takes more than {} steps (loop iterations and calls)",
                                kMaxSteps),
                    DiagKind::EvaluationError,
                    "is a loop bound or a recursion wrong? The network and its routing are "
                    "computed at compile time and must stay within this budget"};
}

Value Evaluator::makeList(std::vector<int64_t> items, const Expr& at) {
  if (lists_.size() >= kMaxLists)
    fail(at, fmt::format("more than {} lists created while the program is evaluated", kMaxLists));
  lists_.push_back(std::move(items));
  return Value::integer(static_cast<int64_t>(lists_.size() - 1));
}

Value Evaluator::makeRoute(RouteTiers tiers, const Expr& at) {
  if (routes_.size() >= kMaxLists)
    fail(at, "too many routes created during one routing decision");
  if (tiers.size() > kMaxRouteTiers)
    fail(at, fmt::format("a route has {} priority tiers; the simulator keeps at most {}",
                         tiers.size(), kMaxRouteTiers));
  routes_.push_back(std::move(tiers));
  return Value::integer(static_cast<int64_t>(routes_.size() - 1));
}

std::optional<Value> Evaluator::call(uint32_t def, std::span<const Value> args,
                                     SourceRange callSite) {
  return callExpr(def, defs_.defs[def].body, args, callSite);
}

std::optional<Value> Evaluator::callExpr(uint32_t def, const Expr& body,
                                         std::span<const Value> args, SourceRange callSite) {
  const sema::Definition& d = defs_.defs[def];
  size_t base = stackTop_;
  if (depth_ == 0) {  // a new evaluation gets the whole budget
    steps_ = 0;
    stackBase_ = stackAddress();
  }
  try {
    if (base + d.frameSize + 1 > stack_.size()) throw EvalError{d.range, "evaluation stack exhausted"};
    std::copy(args.begin(), args.end(), stack_.begin() + static_cast<ptrdiff_t>(base));
    stackTop_ = base + d.frameSize;
    Value result;
    if (body.type == Type::Unit)
      exec(body, &stack_[base]);
    else
      result = eval(body, &stack_[base]);
    stackTop_ = base;
    return result;
  } catch (const EvalError& e) {
    stackTop_ = base;
    depth_ = 0;
    // A failed (Require ...) is the caller's mistake: report it there.
    bool callersFault =
        (e.kind == DiagKind::OutOfRange || e.kind == DiagKind::NetworkTooLarge) && callSite.valid();
    SourceRange at = callersFault ? callSite : (e.range.valid() ? e.range : d.range);
    Diagnostic& diag = diags_.report(
        e.kind, at, callersFault ? fmt::format("{}: {}", d.name, e.message) : e.message);
    if (!e.hint.empty())
      diag.withHint(e.hint);
    else if (e.kind == DiagKind::EvaluationError)
      diag.withHint(d.kind == sema::DefKind::Pattern
                        ? "every source's destinations are evaluated before a simulator is "
                          "built; a simulator would stop here"
                        : "this expression runs while the network is elaborated");
    if (callersFault)
      diag.note(e.range, e.kind == DiagKind::OutOfRange ? "required here" : "nodes declared here");
    else if (callSite.valid())
      diag.note(callSite, fmt::format("while evaluating '{}' for this", d.name));
    return std::nullopt;
  }
}

void Evaluator::reportAt(SourceRange at, std::string message) {
  diags_.report(DiagKind::EvaluationError, at, std::move(message))
      .withHint("the initial value is computed for every packet at injection");
}

std::optional<Value> Evaluator::evaluate(const Expr& e) {
  size_t base = stackTop_;
  if (depth_ == 0) {
    steps_ = 0;
    stackBase_ = stackAddress();
  }
  try {
    return eval(e, &stack_[base]);
  } catch (const EvalError& err) {
    stackTop_ = base;
    depth_ = 0;
    Diagnostic& diag = diags_.report(err.kind, err.range, err.message);
    diag.withHint(err.hint.empty() ? "this expression runs while the network is elaborated"
                                   : err.hint);
    return std::nullopt;
  }
}

Value Evaluator::evalCall(const Expr& e, Value* frame) {
  const sema::Definition& d = defs_.defs[static_cast<size_t>(e.i)];
  step(e);
  // The stack grows down; an evaluation started from another stack (a thread) is not bounded
  // by the bytes.
  const uintptr_t here = stackAddress();
  const bool deepStack = here < stackBase_ && stackBase_ - here > kMaxStackBytes;
  if (++depth_ > kMaxCallDepth || deepStack)
    fail(e, fmt::format("calls nest deeper than {} levels in '{}'; is the recursion missing its "
                        "base case?",
                        depth_ - 1, d.name));
  size_t base = stackTop_;
  if (base + d.frameSize + 1 > stack_.size()) fail(e, "evaluation stack exhausted");
  // Arguments are evaluated in the caller's frame, then copied.
  Value* callee = &stack_[base];
  stackTop_ = base + d.frameSize;
  for (size_t i = 0; i < e.kids.size(); ++i) callee[i] = eval(e.kids[i], frame);
  // A search's result for these arguments may be known (EvalMemo.cpp). Parameters are
  // never assigned, so callee[0, arity) still holds the key when the body returns.
  const uint32_t def = static_cast<uint32_t>(e.i);
  MemoTable::Slot* slot = nullptr;
  // Under Congestion::kEvery a result may depend on the choices made: not remembered.
  if (builder_ == nullptr && congestion_ == Congestion::kIdle && memoizable(def)) {
    if (!memo_) memo_ = std::make_unique<MemoTable>();
    if (memoStale_) memo_->clear();
    memoStale_ = false;
    const std::span<const Value> key(callee, d.params.size());
    slot = &memo_->slotFor(def, key);
    if (slot->holds(def, key)) {
      stackTop_ = base;
      --depth_;
      return slot->result;
    }
  }
  Value v = eval(d.body, callee);
  if (slot) {
    slot->def = def;
    slot->arity = static_cast<uint32_t>(d.params.size());
    std::copy(callee, callee + d.params.size(), slot->args);
    slot->result = v;
  }
  stackTop_ = base;
  --depth_;
  return v;
}

// An unknown Int: a congestion read under Congestion::kEvery, or arithmetic on one. Every
// other value has b != 0 (an Int's b is 1, a Real's denominator is positive).
constexpr Value kUnknown{0, 0};
inline bool unknown(const Value& v) { return v.b == 0; }

Value Evaluator::choose() {
  const size_t k = choices_.made++;
  return Value::integer(k < choices_.prescribed.size() ? choices_.prescribed[k] : 0);
}

Value Evaluator::eval(const Expr& e, Value* frame) {
  auto num = [&](size_t k) {
    const Value v = eval(e.kids[k], frame);
    if (unknown(v)) [[unlikely]]
      throw EvalError{e.kids[k].range,
                      "a congestion read decides comparisons only: the analyses follow every "
                      "outcome of a comparison, not every value",
                      DiagKind::EvaluationError,
                      "compare it (after +, -, *, min or max if need be) and choose by the "
                      "outcome, e.g. (if (< (port-queue P) 8) low high)"};
    return v.a;
  };
  auto rat = [&](size_t k) { return eval(e.kids[k], frame).rational(); };
  auto checked = [&](bool overflow, int64_t v) {
    if (overflow) fail(e, "integer overflow");
    return Value::integer(v);
  };
  auto realOp = [&](std::optional<Rational> r) {
    if (!r) fail(e, "a real number does not fit in 64-bit numerator and denominator");
    return Value::real(*r);
  };
  switch (e.op) {
    case Op::ConstInt:
    case Op::ConstBool: return Value::integer(e.i);
    case Op::ConstReal: return Value::real(e.real);
    case Op::Var: return frame[e.i];
    case Op::Let:
      frame[e.i] = eval(e.kids[0], frame);
      return eval(e.kids[1], frame);
    case Op::If: return eval(e.kids[num(0) ? 1 : 2], frame);
    case Op::Call: return evalCall(e, frame);
    case Op::ToReal: return Value::real(Rational(num(0)));
    case Op::ToNode: return Value::integer(num(0));
    case Op::ToInt: {
      Value v = eval(e.kids[0], frame);
      return Value::integer(sema::isRealLike(e.kids[0].type) ? v.rational().floor() : v.a);
    }
    case Op::Add:
    case Op::Sub:
    case Op::Mul: {
      if (sema::isRealLike(e.type)) {
        Rational acc = rat(0);
        for (size_t k = 1; k < e.kids.size(); ++k) {
          Rational r = rat(k);
          std::optional<Rational> next = e.op == Op::Add   ? acc.add(r)
                                         : e.op == Op::Sub ? acc.sub(r)
                                                           : acc.mul(r);
          acc = realOp(next).rational();
        }
        return Value::real(acc);
      }
      // Every operand is evaluated once (a choice inside one is made once); an unknown
      // operand makes the sum unknown.
      const Value first = eval(e.kids[0], frame);
      bool any = unknown(first);
      int64_t acc = first.a;
      for (size_t k = 1; k < e.kids.size(); ++k) {
        const Value x = eval(e.kids[k], frame);
        any |= unknown(x);
        if (any) continue;
        int64_t v = x.a;
        bool over = e.op == Op::Add   ? __builtin_add_overflow(acc, v, &acc)
                    : e.op == Op::Sub ? __builtin_sub_overflow(acc, v, &acc)
                                      : __builtin_mul_overflow(acc, v, &acc);
        if (over) fail(e, "integer overflow");
      }
      return any ? kUnknown : Value::integer(acc);
    }
    case Op::Neg:
      if (sema::isRealLike(e.type)) return realOp(Rational(0).sub(rat(0)));
      {
        const Value x = eval(e.kids[0], frame);
        if (unknown(x)) return kUnknown;
        return checked(x.a == INT64_MIN, -x.a);
      }
    case Op::Abs:
      if (sema::isRealLike(e.type)) {
        Rational r = rat(0);
        return r.isNegative() ? realOp(Rational(0).sub(r)) : Value::real(r);
      } else {
        const Value x = eval(e.kids[0], frame);
        if (unknown(x)) return kUnknown;
        int64_t v = x.a;
        return checked(v == INT64_MIN, v < 0 ? -v : v);
      }
    case Op::Min:
    case Op::Max: {
      Value best = eval(e.kids[0], frame);
      for (size_t k = 1; k < e.kids.size(); ++k) {
        Value v = eval(e.kids[k], frame);
        if (unknown(v) || unknown(best)) {
          best = kUnknown;  // the later operands are still evaluated, once each
          continue;
        }
        bool less = sema::isRealLike(e.type) ? v.rational() < best.rational() : v.a < best.a;
        if (less == (e.op == Op::Min) && !(v.a == best.a && v.b == best.b)) best = v;
      }
      return best;
    }
    case Op::Div: {
      Rational d = rat(1);
      if (d.isZero()) fail(e, "division by zero");
      return realOp(rat(0).div(d));
    }
    case Op::IntDiv:
    case Op::Mod: {
      int64_t a = num(0), b = num(1);
      if (b == 0) fail(e, e.op == Op::Mod ? "mod by zero" : "division by zero");
      if (a == INT64_MIN && b == -1) fail(e, "integer overflow");
      return Value::integer(e.op == Op::Mod ? floorMod(a, b) : floorDiv(a, b));
    }
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge: {
      int cmp;
      if (sema::isRealLike(e.kids[0].type)) {
        Rational a = rat(0), b = rat(1);
        cmp = a < b ? -1 : (b < a ? 1 : 0);
      } else {
        const Value x = eval(e.kids[0], frame), y = eval(e.kids[1], frame);
        if (unknown(x) || unknown(y)) return choose();
        const int64_t a = x.a, b = y.a;
        cmp = a < b ? -1 : (b < a ? 1 : 0);
      }
      bool r = e.op == Op::Lt ? cmp < 0 : e.op == Op::Le ? cmp <= 0 : e.op == Op::Gt ? cmp > 0 : cmp >= 0;
      return Value::integer(r);
    }
    case Op::Eq:
    case Op::Ne: {
      Value a = eval(e.kids[0], frame), b = eval(e.kids[1], frame);
      if (unknown(a) || unknown(b)) return choose();
      bool eq = a.a == b.a && a.b == b.b;
      if (e.kids[0].type == Type::Coord) eq = list(a) == list(b);
      return Value::integer(eq == (e.op == Op::Eq));
    }
    case Op::And:
      for (const Expr& k : e.kids)
        if (!eval(k, frame).a) return Value::integer(0);
      return Value::integer(1);
    case Op::Or:
      for (const Expr& k : e.kids)
        if (eval(k, frame).a) return Value::integer(1);
      return Value::integer(0);
    case Op::Not: return Value::integer(!num(0));
    case Op::BitAnd: return Value::integer(num(0) & num(1));
    case Op::BitOr: return Value::integer(num(0) | num(1));
    case Op::BitXor: return Value::integer(num(0) ^ num(1));
    case Op::BitNot: return Value::integer(~num(0));
    case Op::Shl:
    case Op::Shr: {
      int64_t a = num(0), s = num(1);
      if (s < 0 || s > 63) fail(e, fmt::format("shift by {} is out of range 0 to 63", s));
      if (e.op == Op::Shr) return Value::integer(static_cast<int64_t>(static_cast<uint64_t>(a) >> s));
      return Value::integer(static_cast<int64_t>(static_cast<uint64_t>(a) << s));
    }
    case Op::Bit: {
      int64_t a = num(0), i = num(1);
      if (i < 0 || i > 63) fail(e, fmt::format("bit index {} is out of range 0 to 63", i));
      return Value::integer((a >> i) & 1);
    }
    case Op::Popcount: return Value::integer(std::popcount(static_cast<uint64_t>(num(0))));
    case Op::LowestSetBit: {
      int64_t v = num(0);
      if (v == 0) fail(e, "lowest-set-bit of 0: no bit is set");
      return Value::integer(std::countr_zero(static_cast<uint64_t>(v)));
    }
    case Op::Repeat: {
      int64_t v = num(0), count = num(1);
      if (count < 0 || count > 4096) fail(e, fmt::format("cannot repeat a value {} times", count));
      return makeList(std::vector<int64_t>(static_cast<size_t>(count), v), e);
    }
    case Op::Wraps:
    case Op::HasDim: {
      int64_t d = num(0);
      const std::vector<uint8_t>& table = e.op == Op::Wraps ? network_.wraps : network_.dimUsed;
      if (d < 0 || d >= static_cast<int64_t>(table.size())) return Value::integer(0);
      return Value::integer(table[static_cast<size_t>(d)]);
    }
    case Op::Sum: {
      int64_t from = num(0), to = num(1);
      Value acc = e.type == Type::Real ? Value::real(Rational(0)) : Value::integer(0);
      for (int64_t i = from; i <= to; ++i) {
        step(e);
        frame[e.i] = Value::integer(i);
        Value v = eval(e.kids[2], frame);
        if (e.type == Type::Real)
          acc = realOp(acc.rational().add(v.rational()));
        else if (__builtin_add_overflow(acc.a, v.a, &acc.a))
          fail(e, "integer overflow");
      }
      return acc;
    }
    case Op::Length: return Value::integer(static_cast<int64_t>(list(eval(e.kids[0], frame)).size()));
    case Op::Nth: {
      const std::vector<int64_t>& l = list(eval(e.kids[0], frame));
      int64_t i = num(1);
      if (i < 0 || i >= static_cast<int64_t>(l.size()))
        fail(e, fmt::format("index {} is outside a list of {} values", i, l.size()));
      return Value::integer(l[static_cast<size_t>(i)]);
    }
    case Op::Product: {
      int64_t p = 1;
      for (int64_t v : list(eval(e.kids[0], frame)))
        if (__builtin_mul_overflow(p, v, &p)) fail(e, "integer overflow");
      return Value::integer(p);
    }
    case Op::MakeCoord: {
      std::vector<int64_t> items;
      items.reserve(e.kids.size());
      for (size_t k = 0; k < e.kids.size(); ++k) items.push_back(num(k));
      return makeList(std::move(items), e);
    }
    case Op::NodeCount: return Value::integer(network_.nodeCount);
    case Op::DimCount: return Value::integer(static_cast<int64_t>(network_.radices.size()));
    case Op::PortDims: return Value::integer(static_cast<int64_t>(network_.dimUsed.size()));
    case Op::Radix:
    case Op::CoordOf:
    case Op::Neighbor: {
      size_t dimKid = e.op == Op::Radix ? 0 : 1;
      int64_t d = num(dimKid);
      if (d < 0 || d >= static_cast<int64_t>(network_.radices.size()))
        fail(e, fmt::format("dimension {} does not exist; the network has {} (declare them with "
                            "(Radices ...))",
                            d, network_.radices.size()));
      size_t du = static_cast<size_t>(d);
      if (e.op == Op::Radix) return Value::integer(network_.radices[du]);
      int64_t n = num(0);
      int64_t k = network_.radices[du];
      int64_t c = floorMod(floorDiv(n, network_.strides[du]), k);
      if (e.op == Op::CoordOf) return Value::integer(c);
      int64_t moved = floorMod(c + num(2), k);
      return Value::integer(n + (moved - c) * network_.strides[du]);
    }
    case Op::HasPort: {
      int64_t n = num(0), d = num(1), dir = num(2);
      if (!network_.graph) fail(e, "has-port asks about the network after it is built");
      if (n < 0 || n >= network_.nodeCount || d < 0 || d > 0xFFFF) return Value::integer(0);
      return Value::integer(network_.graph->findPort(static_cast<NodeId>(n),
                                                     static_cast<uint16_t>(d),
                                                     dir > 0 ? +1 : -1) != kNoChannel);
    }
    case Op::Peer: {
      const int64_t n = num(0);
      const Value p = eval(e.kids[1], frame);
      if (!network_.graph) fail(e, "peer asks about the network after it is built");
      if (n < 0 || n >= network_.nodeCount) fail(e, fmt::format("node {} does not exist", n));
      if (p.portDim() < 0 || p.portDim() > 0xFFFF) return Value::integer(n);
      const ChannelId c = network_.graph->findPort(static_cast<NodeId>(n),
                                                   static_cast<uint16_t>(p.portDim()), p.portDir());
      return Value::integer(c == kNoChannel ? n : network_.graph->channels[c].dst);
    }
    case Op::Distance: {
      const int64_t a = num(0), b = num(1);
      if (!network_.graph) fail(e, "graph-distance asks about the network after it is built");
      if (a < 0 || b < 0 || a >= network_.nodeCount || b >= network_.nodeCount)
        fail(e, fmt::format("node {} does not exist", a < 0 || a >= network_.nodeCount ? a : b));
      if (!network_.distances)
        network_.distances = std::make_shared<const DistanceTable>(*network_.graph);
      if (!network_.distances->ok())
        throw EvalError{e.range, network_.distances->problem(), DiagKind::EvaluationError,
                        "on a network this large use a routing that computes its ports from "
                        "coordinates (DimensionOrder, MinimalAdaptive, ...)"};
      return Value::integer(network_.distances->at(static_cast<NodeId>(a), static_cast<NodeId>(b)));
    }
    case Op::EndpointCount:
    case Op::EndpointRouter:
    case Op::EndpointIndex:
    case Op::RouterEndpoints:
    case Op::RouterEndpoint:
    case Op::RandomEndpoint: {
      const std::vector<int64_t>& begin = endpointBegin(e);
      const int64_t routers = static_cast<int64_t>(begin.size()) - 1, endpoints = begin.back();
      if (e.op == Op::EndpointCount) return Value::integer(endpoints);
      if (e.op == Op::RandomEndpoint) {
        if (endpoints <= 0) fail(e, "(random-endpoint) draws from a network with no endpoints");
        const size_t k = draws_.ranges.size();
        draws_.ranges.push_back(endpoints);
        const int64_t v = k < draws_.prescribed.size() ? draws_.prescribed[k] : 0;
        return Value::integer(std::min(v, endpoints - 1));
      }
      const int64_t x = num(0);
      if (e.op == Op::EndpointRouter || e.op == Op::EndpointIndex) {
        if (x < 0 || x >= endpoints)
          fail(e, fmt::format("endpoint {} does not exist; the network has endpoints 0 to {}", x,
                              endpoints - 1));
        const int64_t r = std::upper_bound(begin.begin(), begin.end(), x) - begin.begin() - 1;
        return Value::integer(e.op == Op::EndpointRouter ? r : x - begin[static_cast<size_t>(r)]);
      }
      if (x < 0 || x >= routers)
        fail(e, fmt::format("node {} does not exist; the network has nodes 0 to {}", x,
                            routers - 1));
      const int64_t first = begin[static_cast<size_t>(x)];
      const int64_t at = begin[static_cast<size_t>(x) + 1] - first;
      if (e.op == Op::RouterEndpoints) return Value::integer(at);
      const int64_t i = num(1);
      if (i < 0 || i >= at)
        fail(e, at == 0 ? fmt::format("node {} is a switch: it has no endpoint {}", x, i)
                        : fmt::format("node {} has endpoints 0 to {}, not {}", x, at - 1, i));
      return Value::integer(first + i);
    }
    case Op::ToEndpoint: return Value::integer(num(0));
    case Op::MakePort: {
      int64_t d = num(0), dir = num(1);
      if (d < 0 || d > 0xFFFF || (dir != 1 && dir != -1))
        fail(e, fmt::format("(port {} {}) is not a port: the dimension is 0 or more and the "
                            "direction +1 or -1",
                            d, dir));
      return Value::port(d, dir);
    }
    case Op::Vcs: return Value::integer(network_.vcs);
    case Op::InjectionVcs: return Value::integer(network_.injectionVcs);
    case Op::Avoiding: return Value::integer(network_.avoiding);
    case Op::RecoveryTimeout: return Value::integer(network_.recoveryTimeout);
    case Op::RouteNone: return makeRoute({}, e);
    case Op::RouteTo: {
      Value port = eval(e.kids[0], frame);
      int64_t cls = e.kids.size() == 2 ? num(1) : RouteCandidate::kAnyClass;
      if (e.kids.size() == 2 && (cls < 0 || cls >= network_.networkClasses))
        fail(e, fmt::format("VC class {} does not exist; the routing has {} network class{}", cls,
                            network_.networkClasses, network_.networkClasses == 1 ? "" : "es"));
      return makeRoute({{RouteCandidate{port.a, cls}}}, e);
    }
    case Op::RouteUnion:
    case Op::RoutePrefer: {
      RouteTiers out;
      for (const Expr& k : e.kids) {
        const size_t r = static_cast<size_t>(eval(k, frame).a);
        if (e.op == Op::RoutePrefer) {
          // Empty trailing tiers of what comes before take no place.
          while (!out.empty() && out.back().empty()) out.pop_back();
          for (const auto& tier : routes_[r]) out.push_back(tier);
        } else {
          if (routes_[r].size() > out.size()) out.resize(routes_[r].size());
          for (size_t t = 0; t < routes_[r].size(); ++t)
            out[t].insert(out[t].end(), routes_[r][t].begin(), routes_[r][t].end());
        }
      }
      while (!out.empty() && out.back().empty()) out.pop_back();
      // One value per field in one route, as the simulator keeps it.
      for (const HeaderFieldLayout& f : network_.header) {
        const RouteCandidate* first = nullptr;
        for (const auto& tier : out)
          for (const RouteCandidate& c : tier) {
            if (!(c.clear & f.mask())) continue;
            if (first && (first->value & f.mask()) != (c.value & f.mask()))
              twoValues(e, f, f.unpack(first->value), f.unpack(c.value));
            first = &c;
          }
      }
      return makeRoute(std::move(out), e);
    }
    case Op::RouteSet: {
      const HeaderFieldLayout& f = network_.header.at(static_cast<size_t>(e.i));
      const int64_t v = num(0);
      if (v < f.lo || v > f.hi)
        throw EvalError{e.range,
                        fmt::format("header field '{}' is set to {}, outside its range {}..{}",
                                    f.name, v, f.lo, f.hi),
                        DiagKind::EvaluationError,
                        "widen the field's (Int lo hi) or bound the value; the check traces "
                        "every route, and a simulator would stop here"};
      RouteTiers tiers = routes_[static_cast<size_t>(eval(e.kids[1], frame).a)];
      const uint64_t packed = f.pack(v);
      for (auto& tier : tiers)
        for (RouteCandidate& c : tier) {
          // One value per field in one route (the simulator keeps one).
          if ((c.clear & f.mask()) && (c.value & f.mask()) != packed)
            twoValues(e, f, f.unpack(c.value), v);
          c.clear |= f.mask();
          c.value = (c.value & ~f.mask()) | packed;
        }
      return makeRoute(std::move(tiers), e);
    }
    case Op::RandomNode:
    case Op::RandomBelow: {
      const int64_t range = e.op == Op::RandomNode ? network_.nodeCount : num(0);
      if (range <= 0) fail(e, fmt::format("(random {}) draws from an empty range", range));
      const size_t k = draws_.ranges.size();
      draws_.ranges.push_back(range);
      const int64_t v = k < draws_.prescribed.size() ? draws_.prescribed[k] : 0;
      return Value::integer(std::min(v, range - 1));
    }
    case Op::PortQueue:
    case Op::PortCreditsAt:
    case Op::PortFreeVcsAt: {
      // Read in a routing or selection body only (the checker): frame[0] is `current`.
      const Value p = eval(e.kids[0], frame);
      const int64_t n = frame[0].a;
      if (!network_.graph) fail(e, "congestion is read of a network not yet built");
      if (p.portDim() < 0 || p.portDim() > 0xFFFF ||
          network_.graph->findPort(static_cast<NodeId>(n), static_cast<uint16_t>(p.portDim()),
                                   p.portDir()) == kNoChannel)
        fail(e, fmt::format("node {} has no port (port {} {}) to read the congestion of", n,
                            p.portDim(), static_cast<int>(p.portDir())));
      if (congestion_ == Congestion::kEvery) return kUnknown;
      // An idle network: nothing held downstream, every slot and VC free.
      return Value::integer(e.op == Op::PortQueue       ? 0
                            : e.op == Op::PortCreditsAt ? network_.bufferFlits * network_.vcs
                                                        : network_.vcs);
    }
    case Op::PortQueueAt: {
      // Any router's port, as the clock began (the simulator's snapshot): unknown to the
      // deadlock check, 0 on the idle network the trace follows.
      const int64_t n = num(0);
      const Value p = eval(e.kids[1], frame);
      if (!network_.graph) fail(e, "congestion is read of a network not yet built");
      if (n < 0 || n >= network_.nodeCount)
        fail(e, fmt::format("(port-queue-at {} P): node {} does not exist", n, n));
      if (p.portDim() < 0 || p.portDim() > 0xFFFF ||
          network_.graph->findPort(static_cast<NodeId>(n), static_cast<uint16_t>(p.portDim()),
                                   p.portDir()) == kNoChannel)
        fail(e, fmt::format("node {} has no port (port {} {}) to read the congestion of", n,
                            p.portDim(), static_cast<int>(p.portDir())));
      if (congestion_ == Congestion::kEvery) return kUnknown;
      return Value::integer(0);
    }
    case Op::PortDim: return Value::integer(eval(e.kids[0], frame).portDim());
    case Op::PortDir: return Value::integer(eval(e.kids[0], frame).portDir());
    case Op::Linked: {
      if (!builder_) fail(e, "linked can only be asked while the network is being built");
      int64_t a = num(0), b = num(1);
      if (a < 0 || b < 0 || a >= builder_->nodeCount() || b >= builder_->nodeCount())
        fail(e, fmt::format("node {} does not exist", a < 0 || a >= builder_->nodeCount() ? a : b));
      return Value::integer(builder_->linked(static_cast<NodeId>(a), static_cast<NodeId>(b)));
    }
    default: exec(e, frame); return {};
  }
}

// A link's own delay in link clocks: an Int counts clocks, a time must be a whole number of
// them; from 1 to the simulator's limit (sema::kMaxLinkDelayClocks). Reported at the delay
// (bad-link), where a range error would be the topology's caller's.
int64_t Evaluator::linkDelayClocks(const Expr& at, const Value& v, const TopologyBuilder& b) {
  int64_t clocks = v.a;
  if (at.type == Type::Time) {
    const std::optional<Rational> c = v.rational().mul(b.linkHz);
    if (!c || !b.linkHz.num())
      throw EvalError{at.range, "a link's delay given as a time needs the NetworkFrequency",
                      DiagKind::BadLink, "give it in link clocks, (Delay 10)"};
    // Exact: the flit is at the far end d after it left, and the router there, on the link
    // clock's edges, takes it at the first edge at or after (docs/topologies.md).
    clocks = c->ceil();
  }
  if (clocks < 1 || clocks > sema::kMaxLinkDelayClocks)
    throw EvalError{at.range,
                    fmt::format("a link's delay of {} link clocks is out of range: from 1 to {}",
                                clocks, sema::kMaxLinkDelayClocks),
                    DiagKind::BadLink,
                    clocks < 1 ? "a link takes at least one clock"
                               : "the simulator keeps a link's delay in a byte"};
  return clocks;
}

void Evaluator::exec(const Expr& e, Value* frame) {
  auto num = [&](size_t k) { return eval(e.kids[k], frame).a; };
  auto needBuilder = [&]() -> TopologyBuilder& {
    if (!builder_) fail(e, "topology statements run only inside a topology");
    return *builder_;
  };
  switch (e.op) {
    case Op::Seq:
      for (const Expr& k : e.kids) exec(k, frame);
      return;
    case Op::Let:
      frame[e.i] = eval(e.kids[0], frame);
      exec(e.kids[1], frame);
      return;
    case Op::If: exec(e.kids[num(0) ? 1 : 2], frame); return;
    case Op::When:
      if (num(0)) exec(e.kids[1], frame);
      return;
    case Op::For: {
      int64_t from = num(0), to = num(1);
      for (int64_t i = from; i <= to; ++i) {
        step(e);
        frame[e.i] = Value::integer(i);
        exec(e.kids[2], frame);
      }
      return;
    }
    case Op::StmtNodes: {
      TopologyBuilder& b = needBuilder();
      int64_t n = num(0);
      if (b.nodesDeclared()) fail(e, "the number of nodes is declared twice");
      // One router is a network when it has two endpoints or more (a lone switch, checked
      // once the endpoints are known, Elaborate.cpp).
      if (n < 1) fail(e, fmt::format("a network needs at least 1 router, got {}", n));
      if (n > kMaxNodes)
        throw EvalError{e.range,
                        fmt::format("the network would have {} nodes, about {} of memory for the "
                                    "network alone; NDL elaborates at most {} nodes",
                                    n, humanBytes(n), kMaxNodes),
                        DiagKind::NetworkTooLarge, "simulate a smaller instance of the network"};
      b.setNodes(n);
      network_.nodeCount = n;
      return;
    }
    case Op::StmtRadices: {
      TopologyBuilder& b = needBuilder();
      std::vector<int64_t> r = list(eval(e.kids[0], frame));
      int64_t product = 1;
      for (int64_t k : r) {
        if (k < 1) fail(e, fmt::format("radix {} must be at least 1", k));
        if (__builtin_mul_overflow(product, k, &product)) product = INT64_MAX;
      }
      if (b.nodesDeclared() && product != b.nodeCount())
        fail(e, fmt::format("the radices multiply to {} but the network has {} nodes", product,
                            b.nodeCount()));
      b.radices = r;
      network_.setRadices(std::move(r));
      return;
    }
    case Op::StmtDimNames: {
      TopologyBuilder& b = needBuilder();
      b.dimNames.clear();
      size_t start = 0;
      while (start <= e.text.size()) {
        size_t end = e.text.find('\0', start);
        if (end == std::string::npos) end = e.text.size();
        b.dimNames.push_back(e.text.substr(start, end - start));
        start = end + 1;
      }
      return;
    }
    case Op::StmtLink:
    case Op::StmtUniLink: {
      TopologyBuilder& b = needBuilder();
      if (!b.nodesDeclared()) fail(e, "declare (Nodes n) before the first link");
      int64_t a = num(0), z = num(1);
      // (Delay t), when given, is the last kid (e.i = 1).
      const size_t positional = e.kids.size() - (e.i == 1 ? 1 : 0);
      bool wrap = positional > 3 && num(3);
      int64_t delay = 0;  // 0: the program's LinkDelay
      if (e.i == 1) delay = linkDelayClocks(e.kids.back(), eval(e.kids.back(), frame), b);
      int64_t n = b.nodeCount();
      if (a < 0 || a >= n || z < 0 || z >= n) {
        int64_t bad = (a < 0 || a >= n) ? a : z;
        throw EvalError{e.range,
                        fmt::format("link {} -> {} names node {}, which does not exist (the "
                                    "network has nodes 0 to {})",
                                    a, z, bad, n - 1),
                        DiagKind::BadLink, "check the arithmetic of the endpoints, e.g. a missing mod"};
      }
      if (a == z && !b.selfLinks)
        throw EvalError{e.range, fmt::format("link from node {} to itself", a), DiagKind::SelfLink,
                        "a link joins two different nodes; a node reaches its own endpoints "
                        "without one (a cable back to the same node, a network interface's "
                        "external loop, needs an (Interface ...): docs/interfaces.md)"};
      bool both = e.op == Op::StmtLink;
      int64_t d = positional > 2 ? num(2)
                                 : b.freeDimension(static_cast<NodeId>(a), static_cast<NodeId>(z), both);
      std::string err = b.addLink(a, z, d, wrap, both, static_cast<uint16_t>(delay));
      if (!err.empty())
        throw EvalError{e.range, err,
                        err.find("ports") != std::string::npos ? DiagKind::TooManyPorts
                                                                : DiagKind::NetworkTooLarge,
                        fmt::format("a router has at most {} ports", kMaxPortsPerNode)};
      return;
    }
    case Op::StmtRepresentatives: {
      TopologyBuilder& b = needBuilder();
      b.representatives.clear();
      for (size_t k = 0; k < e.kids.size(); ++k) {
        int64_t r = num(k);
        if (r < 0 || r >= b.nodeCount()) fail(e, fmt::format("node {} does not exist", r));
        b.representatives.push_back(static_cast<NodeId>(r));
      }
      return;
    }
    case Op::StmtDiameter: needBuilder().diameter = num(0); return;
    case Op::StmtAverage: needBuilder().averageDistance = eval(e.kids[0], frame).rational(); return;
    case Op::StmtBisection: {
      const int64_t links = num(0);
      if (links < 0)
        throw EvalError{e.kids[0].range,
                        fmt::format("a bisection of {} links: it counts links, 0 or more", links),
                        DiagKind::EvaluationError,
                        "give the links a minimum bisection of the endpoints cuts, or leave the "
                        "statement out where it is not known"};
      needBuilder().bisection = links;
      return;
    }
    case Op::StmtDefaultRouting: needBuilder().defaultRouting = e.text; return;
    case Op::StmtAttribute: {
      TopologyBuilder& b = needBuilder();
      int64_t n = num(0);
      if (n < 0 || n >= b.nodeCount()) fail(e, fmt::format("node {} does not exist", n));
      b.attributes.push_back({static_cast<NodeId>(n), e.text, num(1)});
      return;
    }
    case Op::StmtEndpoints: {
      TopologyBuilder& b = needBuilder();
      if (!b.nodesDeclared()) fail(e, "declare (Nodes n) before placing endpoints");
      const int64_t r = num(0), p = num(1);
      if (r < 0 || r >= b.nodeCount())
        throw EvalError{e.range,
                        fmt::format("endpoints at router {}, which does not exist (the network "
                                    "has routers 0 to {})",
                                    r, b.nodeCount() - 1),
                        DiagKind::BadEndpoint,
                        "an endpoint attaches to a router of the network; check the arithmetic "
                        "of the router's number"};
      if (p < 0 || p > kMaxEndpointsPerRouter)
        throw EvalError{e.range,
                        fmt::format("router {} is given {} endpoints; a router has 0 (a switch) "
                                    "to {}",
                                    r, p, kMaxEndpointsPerRouter),
                        DiagKind::BadEndpoint, "(Endpoints r 0) makes router r a switch"};
      if (b.endpoints.empty()) b.endpoints.assign(static_cast<size_t>(b.nodeCount()), -1);
      int16_t& slot = b.endpoints[static_cast<size_t>(r)];
      if (slot >= 0)
        throw EvalError{e.range,
                        fmt::format("the endpoints of router {} are stated twice ({} and {})", r,
                                    slot, p),
                        DiagKind::BadEndpoint, "state each router's endpoints once"};
      slot = static_cast<int16_t>(p);
      return;
    }
    case Op::StmtConcentration: {
      TopologyBuilder& b = needBuilder();
      const int64_t p = num(0);
      if (b.concentration)
        fail(e, fmt::format("the concentration is declared twice ({} and {})", *b.concentration,
                            p));
      if (p < 0 || p > kMaxEndpointsPerRouter)
        throw EvalError{e.range,
                        fmt::format("a concentration of {} endpoints per router; a router has "
                                    "0 (a switch) to {}",
                                    p, kMaxEndpointsPerRouter),
                        DiagKind::BadEndpoint, "(Concentration 0) makes the routers not named by "
                        "(Endpoints r p) switches"};
      b.concentration = p;
      return;
    }
    case Op::StmtGroups: {
      TopologyBuilder& b = needBuilder();
      const int64_t n = num(0);
      if (b.groupEndpoints)
        fail(e, fmt::format("the groups are declared twice ({} and {})", *b.groupEndpoints, n));
      if (n < 1)
        throw EvalError{e.range, fmt::format("groups of {} endpoints; a group has one at least", n),
                        DiagKind::BadEndpoint,
                        "(Groups n) puts the endpoints in groups of n consecutive ids"};
      b.groupEndpoints = n;
      return;
    }
    case Op::StmtRequire:
      if (!num(0)) throw EvalError{e.range, e.text, DiagKind::OutOfRange, ""};
      return;
    default: eval(e, frame); return;
  }
}

}  // namespace ndl::elab
