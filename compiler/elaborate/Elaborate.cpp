#include "compiler/elaborate/Elaborate.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "compiler/elaborate/GraphCheck.h"
#include "compiler/elaborate/Reaches.h"
#include "compiler/elaborate/TopologyBuilder.h"
#include "compiler/sema/BindNetwork.h"
#include "compiler/support/InternalError.h"

namespace ndl::elab {
namespace {

DiagKind problemKind(GraphProblemKind k) {
  switch (k) {
    case GraphProblemKind::kSelfLink: return DiagKind::SelfLink;
    case GraphProblemKind::kIsolatedNode: return DiagKind::IsolatedNode;
    case GraphProblemKind::kDisconnected: return DiagKind::DisconnectedNetwork;
    case GraphProblemKind::kTooManyPorts: return DiagKind::TooManyPorts;
    case GraphProblemKind::kMalformed: break;
  }
  return DiagKind::EvaluationError;
}

std::string_view problemHint(GraphProblemKind k) {
  switch (k) {
    case GraphProblemKind::kIsolatedNode: return "every node needs at least one link";
    case GraphProblemKind::kDisconnected:
      return "add links so that every node can reach every other";
    case GraphProblemKind::kTooManyPorts: return "a router has at most 64 ports";
    default: return "";
  }
}

// Per-dimension facts routing functions ask about: wrap-around links
// (wraps) and whether the dimension has ports at all (has-dim).
void describeNetwork(const Graph& g, NetworkContext& ctx) {
  ctx.nodeCount = g.nodeCount;
  ctx.setRadices(g.radices);
  ctx.wraps.assign(g.dimNames.size(), 0);
  ctx.dimUsed.assign(g.dimNames.size(), 0);
  for (const Channel& c : g.channels) {
    ctx.dimUsed[c.dim] = 1;
    if (c.flags & kWrap) ctx.wraps[c.dim] = 1;
  }
}

// The classes of one kind from the routing's declarations, evaluated with
// the configuration; they must partition the kind's `vcs` VCs.
bool layoutClasses(const sema::Definition& routing, bool injection, int64_t vcs,
                   SourceRange site, uint32_t def, Evaluator& evaluator, DiagnosticEngine& diags,
                   VcClasses& out) {
  std::vector<const sema::VcClassDecl*> decls;
  for (const sema::VcClassDecl& k : routing.vcClasses)
    if (k.injection == injection) decls.push_back(&k);
  if (decls.empty()) {
    out.names = {"all"};
    out.start = {0};
    out.count = {static_cast<int32_t>(vcs)};
    return true;
  }
  std::vector<Value> args(sema::kRoutingParams);
  int64_t sum = 0;
  std::string terms;
  for (const sema::VcClassDecl* k : decls) {
    std::optional<Value> n = evaluator.callExpr(def, k->count, args, site);
    if (!n) return false;
    if (n->a < 0 || n->a > 64) {
      diags.report(DiagKind::TooFewVirtualChannels, k->range,
                   fmt::format("VC class '{}' of {} has {} VCs", k->name, routing.name, n->a))
          .withHint("a class has 0 to 64 VCs")
          .note(site, "with this configuration");
      return false;
    }
    out.names.push_back(k->name);
    out.start.push_back(static_cast<int32_t>(sum));
    out.count.push_back(static_cast<int32_t>(n->a));
    sum += n->a;
    terms += fmt::format("{}{} {}", terms.empty() ? "" : " + ", n->a, k->name);
  }
  if (sum != vcs) {
    const char* form = injection ? "InjectionVirtualChannels" : "VirtualChannels";
    diags.report(DiagKind::TooFewVirtualChannels, site,
                 fmt::format("the {} VC classes of {} hold {} VC{} ({}), but {} is {}",
                             injection ? "injection" : "network", routing.name, sum,
                             sum == 1 ? "" : "s", terms, form, vcs))
        .withHint(fmt::format("set ({} {}) or change the classes' counts", form, sum))
        .note(decls.front()->range, "classes declared here");
    return false;
  }
  return true;
}

// Bits for `values` distinct values (at least one).
uint32_t bitsFor(uint64_t values) {
  uint32_t b = 1;
  while (b < 64 && (uint64_t{1} << b) < values) ++b;
  return b;
}

// The routing's header fields packed into the packet's 64-bit header, in the
// order declared; (Int lo hi) ranges evaluated with the configuration.
bool layoutHeader(const sema::Definition& routing, uint32_t def, SourceRange site,
                  Evaluator& evaluator, DiagnosticEngine& diags, std::vector<HeaderFieldLayout>& out) {
  std::vector<Value> args(sema::kRoutingParams);
  uint32_t offset = 0;
  for (const sema::HeaderFieldDecl& d : routing.headerFields) {
    HeaderFieldLayout f;
    f.name = d.name;
    f.type = d.type;
    if (d.type == sema::Type::Node) {
      f.hi = evaluator.network().nodeCount - 1;
    } else if (d.type == sema::Type::Int) {
      std::optional<Value> lo = evaluator.callExpr(def, d.lo, args, site);
      std::optional<Value> hi = lo ? evaluator.callExpr(def, d.hi, args, site) : std::nullopt;
      if (!hi) return false;
      if (lo->a > hi->a) {
        diags.report(DiagKind::EmptyRange, d.form,
                     fmt::format("header field '{}' has the empty range {}..{}", d.name, lo->a,
                                 hi->a))
            .withHint("write (Int lo hi) with lo <= hi")
            .note(site, "with this configuration");
        return false;
      }
      f.lo = lo->a;
      f.hi = hi->a;
    }
    // hi - lo + 1 values, computed without overflow in unsigned arithmetic.
    const uint64_t span = static_cast<uint64_t>(f.hi) - static_cast<uint64_t>(f.lo);
    f.bits = span >= (uint64_t{1} << 63) ? 64 : bitsFor(span + 1);
    f.offset = offset;
    if (offset + f.bits > 64) {
      diags.report(DiagKind::OutOfRange, d.form,
                   fmt::format("the header fields of {} need {} bits up to '{}'; a packet header "
                               "carries 64",
                               routing.name, offset + f.bits, d.name))
          .withHint("narrow the (Int lo hi) ranges or drop a field")
          .note(site, "with this configuration");
      return false;
    }
    offset += f.bits;
    out.push_back(std::move(f));
  }
  return true;
}

// The synthetic patterns defined only on some networks (runtime/src/traffic/traffic.cpp) and the
// hot-spot nodes: an error at the TrafficPattern form, not when the simulator starts.
bool checkPattern(const sema::TrafficSpec& traffic, SourceRange at, const Graph& g,
                  DiagnosticEngine& diags) {
  if (!at.valid()) return true;  // the default, Uniform, fits every network
  const sema::TrafficSpec& t = traffic;
  // Patterns number endpoints; coordinates are the routers', so the patterns that move along
  // dimensions need one endpoint per router.
  const int64_t n = static_cast<int64_t>(g.endpointCount());
  const bool powerOfTwo = n > 0 && (n & (n - 1)) == 0;
  const std::string_view name = sema::enumInfo(t.pattern).name;
  const bool oneEach = g.endpoints.empty();
  switch (t.pattern) {
    case sema::EnumId::Traffic_Tornado:
    case sema::EnumId::Traffic_Neighbor:
      if (oneEach && g.radices.empty()) {
        diags.report(DiagKind::OutOfRange, at,
                     fmt::format("{} moves along the network's dimensions, and {} has none: it "
                                 "is given by its links, not as a k-ary n-cube",
                                 name, g.name))
            .withHint("use Uniform, RandomPermutation, a bit pattern on 2^k nodes, or a "
                      "pattern file");
        return false;
      }
      if (oneEach && t.pattern == sema::EnumId::Traffic_Tornado &&
          std::all_of(g.radices.begin(), g.radices.end(), [](int64_t k) { return k <= 2; })) {
        // Half way round a ring of 1 or 2 nodes is the node itself: no source would send.
        diags.report(DiagKind::OutOfRange, at,
                     fmt::format("Tornado goes ceil(k/2) - 1 steps along each dimension, and "
                                 "every dimension of {} has k <= 2: each node would send to "
                                 "itself, and no message would be created",
                                 g.name))
            .withHint("use Neighbor or BitComplement, which cross each dimension");
        return false;
      }
      if (oneEach) return true;
      diags.report(DiagKind::OutOfRange, at,
                   fmt::format("{} moves along the routers' dimensions, but {} has {} endpoints "
                               "on {} routers",
                               name, g.name, n, g.nodeCount))
          .withHint("use Uniform, a bit pattern on 2^k endpoints, or a pattern file over the "
                    "endpoints");
      return false;
    case sema::EnumId::Traffic_BitReversal:
    case sema::EnumId::Traffic_BitComplement:
    case sema::EnumId::Traffic_Shuffle:
      if (powerOfTwo) return true;
      diags.report(DiagKind::OutOfRange, at,
                   fmt::format("{} needs a power-of-two node count; {} has {} nodes", name,
                               g.name, n))
          .withHint("its destinations are bit operations on node numbers: use a network of "
                    "2^k nodes, or Uniform, Tornado or Neighbor");
      return false;
    case sema::EnumId::Traffic_Transpose:
      if (powerOfTwo ||
          (oneEach && g.radices.size() == 2 && g.radices[0] == g.radices[1]))
        return true;
      diags.report(DiagKind::OutOfRange, at,
                   fmt::format("Transpose needs a square 2-D network or a power-of-two node "
                               "count; {} has {} nodes",
                               g.name, n))
          .withHint("(x, y) goes to (y, x): use a k x k network or 2^k nodes");
      return false;
    case sema::EnumId::Traffic_HotSpot:
      for (int64_t hot : t.hotSpotNodes) {
        if (hot >= 0 && hot < n) continue;
        diags.report(DiagKind::OutOfRange, at,
                     oneEach ? fmt::format("hot-spot node {} does not exist: {} has nodes 0 "
                                           "to {}",
                                           hot, g.name, n - 1)
                             : fmt::format("hot-spot endpoint {} does not exist: {} has "
                                           "endpoints 0 to {}",
                                           hot, g.name, n - 1))
            .withHint("name nodes of this network in (Nodes ...)");
        return false;
      }
      return true;
    case sema::EnumId::Traffic_BadDragon: {
      const int64_t group = g.groupEndpoints;
      if (group > 0 && n % group == 0 && n / group >= 2) return true;
      diags.report(DiagKind::OutOfRange, at,
                   group == 0
                       ? fmt::format("BadDragon sends to the next group of endpoints, and {} "
                                     "declares no groups",
                                     g.name)
                       : fmt::format("BadDragon sends to the next group of endpoints, and {}'s "
                                     "{} endpoints do not make two groups of {} or more",
                                     g.name, n, group))
          .withHint(group == 0 ? "use it on a network whose topology states (Groups n), such "
                                 "as the stdlib's Dragonfly (groups of a p endpoints)"
                               : "(Groups n) must divide the endpoints into two groups at least");
      return false;
    }
    default:
      return true;
  }
}

// The pattern of the program, or of each traffic class (its own, or the top-level one it
// takes), on this network.
bool checkTraffic(const sema::Parameters& p, const Graph& g, DiagnosticEngine& diags) {
  const SourceRange top = p.where[static_cast<size_t>(sema::FormId::TrafficPattern)];
  if (p.classes.empty()) return checkPattern(p.traffic, top, g, diags);
  for (const sema::TrafficClassSpec& c : p.classes)
    if (!checkPattern(c.traffic, c.patternRange.valid() ? c.patternRange : top, g, diags))
      return false;
  return true;
}

// The routing's (Require ...) checks and VC classes under the configuration.
bool configureRouting(const sema::CheckedProgram& program, Network& net, Evaluator& evaluator,
                      DiagnosticEngine& diags) {
  const sema::Parameters& p = program.params;
  const uint32_t def = *net.routingDef;
  const sema::Definition& routing = program.defs.defs[def];
  NetworkContext& ctx = evaluator.network();
  ctx.vcs = p.virtualChannels;
  ctx.injectionVcs = p.injectionVirtualChannels;
  ctx.avoiding = p.deadlockHandling == sema::EnumId::DeadlockHandling_Avoid;
  ctx.recoveryTimeout = p.recoveryTimeoutNetworkClocks;  // (blocked-for) counts network clocks
  ctx.bufferFlits = p.bufferFlits > 0 ? p.bufferFlits : p.packetFlits;
  SourceRange at = p.where[static_cast<size_t>(sema::FormId::RoutingAlgorithm)];
  SourceRange site = at.valid() ? at : p.topology.call->range;
  if (p.selection) {
    net.selection = *p.selection;
  } else if (p.selectionDef) {
    net.selectionDef = p.selectionDef;
  } else if (!routing.defaultSelection.empty()) {
    std::optional<sema::EnumId> e = sema::findEnum("Selection", routing.defaultSelection);
    std::optional<uint32_t> d = program.defs.find(routing.defaultSelection);
    if (e) {
      net.selection = *e;
    } else if (d && program.defs.defs[*d].kind == sema::DefKind::Selection) {
      net.selectionDef = d;
    } else {
      diags.report(DiagKind::UnknownEnum, routing.defaultSelectionRange,
                   fmt::format("'{}' is not a selection", routing.defaultSelection))
          .withHint("First, Random, MostCredits, StraightFirst, or one defined with "
                    "(define-selection (Name) score)");
      return false;
    }
  }
  net.predictorDef = p.predictorDef;
  if (net.predictorDef)
    for (uint32_t d = 0; d < program.defs.defs.size(); ++d)
      if (program.defs.defs[d].kind == sema::DefKind::PortState) net.portStates.push_back(d);
  net.atomicVcAllocation = p.vcAllocation.value_or(routing.defaultVcAllocation.value_or(
                               sema::EnumId::VcAllocation_NonAtomic)) ==
                           sema::EnumId::VcAllocation_Atomic;
  std::vector<Value> args(sema::kRoutingParams);
  for (const sema::Expr& r : routing.checks) {
    std::optional<Value> ok = evaluator.callExpr(def, r.kids[0], args, site);
    if (!ok) return false;
    if (!ok->a) {
      diags.report(DiagKind::OutOfRange, site, fmt::format("{}: {}", routing.name, r.text))
          .withHint("change the configuration or choose another routing")
          .note(r.range, "required here");
      return false;
    }
  }
  if (!layoutClasses(routing, false, p.virtualChannels, site, def, evaluator, diags,
                     net.networkClasses) ||
      !layoutClasses(routing, true, p.injectionVirtualChannels, site, def, evaluator, diags,
                     net.injectionClasses))
    return false;
  ctx.networkClasses = static_cast<int64_t>(net.networkClasses.names.size());
  if (!layoutHeader(routing, def, site, evaluator, diags, net.header)) return false;
  ctx.header = net.header;
  net.escapeClasses.assign(net.networkClasses.names.size(), false);
  for (const auto& [name, range] : routing.escapeClasses)
    for (size_t k = 0; k < net.networkClasses.names.size(); ++k)
      if (net.networkClasses.names[k] == name) net.escapeClasses[k] = true;
  for (const auto& [name, range] : routing.tokenClasses) {
    for (size_t k = 0; k < net.networkClasses.names.size(); ++k) {
      if (net.networkClasses.names[k] != name) continue;
      if (k >= 64) {  // the runtime keeps token classes as a 64-bit mask
        diags.report(DiagKind::TooFewVirtualChannels, range,
                     fmt::format("token class '{}' is class {} of {}; token classes must be "
                                 "among the first 64",
                                 name, k, routing.name))
            .withHint("declare the token classes before the others");
        return false;
      }
      net.tokenClasses |= uint64_t{1} << k;
    }
  }
  for (size_t f = 0; f < net.header.size(); ++f)
    if (net.header[f].name == routing.recoveryField) net.recoveryField = static_cast<int64_t>(f);
  return true;
}

// The routings a topology body names with (DefaultRouting Name), under any condition.
void defaultRoutings(const sema::Expr& e, const sema::DefinitionTable& defs,
                     std::vector<uint32_t>& out) {
  if (e.op == sema::Op::StmtDefaultRouting)
    if (std::optional<uint32_t> d = defs.find(e.text)) out.push_back(*d);
  for (const sema::Expr& k : e.kids) defaultRoutings(k, defs, out);
}

// The definitions the runs of `ndlc sweep` may execute beyond the elaborated network's: those
// the values of a Sweep of RoutingAlgorithm, Selection or Topology name (and a swept topology's
// default routing when the program names no routing).
void sweptDefinitions(const sema::CheckedProgram& program, std::vector<uint32_t>& out) {
  const sema::Parameters& p = program.params;
  bool routingNamed = p.where[static_cast<size_t>(sema::FormId::RoutingAlgorithm)].valid();
  for (const sema::SweepSpec& s : p.sweeps)
    routingNamed = routingNamed || s.param == sema::FormId::RoutingAlgorithm;
  for (const sema::SweepSpec& s : p.sweeps) {
    if (s.param != sema::FormId::RoutingAlgorithm && s.param != sema::FormId::Selection &&
        s.param != sema::FormId::Topology)
      continue;
    for (const ast::Node* v : s.values) {
      std::string_view name = v->isSymbol() ? std::string_view(v->text) : v->head();
      if (s.param == sema::FormId::RoutingAlgorithm) name = sema::canonicalRouting(name);
      std::optional<uint32_t> d = program.defs.find(name);
      if (!d) continue;
      out.push_back(*d);
      if (s.param == sema::FormId::Topology && !routingNamed)
        defaultRoutings(program.defs.defs[*d].body, program.defs, out);
    }
  }
}

// RecoveryTimeout is the value of (recovery-timeout) and nothing else: given (or swept) for a
// network whose routing, selection and topology never read it (nor those a Sweep names), it
// would change nothing.
void checkRecoveryTimeoutRead(const sema::CheckedProgram& program, const Network& net,
                              DiagnosticEngine& diags) {
  const sema::Parameters& p = program.params;
  std::vector<SourceRange> sites;
  if (SourceRange at = p.where[static_cast<size_t>(sema::FormId::RecoveryTimeout)]; at.valid())
    sites.push_back(at);
  for (const sema::SweepSpec& s : p.sweeps)
    if (s.param == sema::FormId::RecoveryTimeout) sites.push_back(s.range);
  if (sites.empty()) return;
  std::vector<uint32_t> roots = {p.topology.def};
  if (net.routingDef) roots.push_back(*net.routingDef);
  if (net.selectionDef) roots.push_back(*net.selectionDef);
  const size_t own = roots.size();
  sweptDefinitions(program, roots);
  if (reaches(program.defs, roots, sema::Op::RecoveryTimeout)) return;
  const std::string_view swept = roots.size() > own ? ", nor does a definition a Sweep names" : "";
  std::string readers;
  for (uint32_t d = 0; d < program.defs.defs.size(); ++d) {
    const sema::Definition& def = program.defs.defs[d];
    if (def.kind != sema::DefKind::Routing) continue;
    const uint32_t one[] = {d};
    if (reaches(program.defs, one, sema::Op::RecoveryTimeout))
      readers += (readers.empty() ? "" : ", ") + def.name;
  }
  const std::string routing =
      net.routingDef ? fmt::format("routing {}", program.defs.defs[*net.routingDef].name)
                     : std::string("the network's code");
  for (const SourceRange& at : sites) {
    diags
        .report(DiagKind::NoEffect, at,
                fmt::format("RecoveryTimeout has no effect: {} never reads (recovery-timeout){}",
                            routing, swept))
        .withHint(readers.empty()
                      ? std::string("remove it: only a routing that reads (recovery-timeout) "
                                    "uses it")
                      : fmt::format("remove it, or choose a routing that reads "
                                    "(recovery-timeout): {}",
                                    readers));
  }
}

// Does e read frame slot `slot` (of the definition it belongs to)?
bool readsVar(const sema::Expr& e, uint32_t slot) {
  if (e.op == sema::Op::Var && e.i == slot) return true;
  for (const sema::Expr& k : e.kids)
    if (readsVar(k, slot)) return true;
  return false;
}

// Is e a congestion read ((port-queue P), (port-credits P), (port-free-vcs P),
// (port-queue-at R P))?
bool isCongestionRead(const sema::Expr& e) {
  return e.op == sema::Op::PortQueue || e.op == sema::Op::PortCreditsAt ||
         e.op == sema::Op::PortFreeVcsAt || e.op == sema::Op::PortQueueAt;
}

// Does e read another router's queues ((port-queue-at R P)), which the simulator then keeps
// a snapshot of every clock?
bool readsGlobalCongestion(const sema::Expr& e) {
  if (e.op == sema::Op::PortQueueAt) return true;
  for (const sema::Expr& k : e.kids)
    if (readsGlobalCongestion(k)) return true;
  return false;
}

// Does e read congestion anywhere?
bool readsCongestion(const sema::Expr& e) {
  if (isCongestionRead(e)) return true;
  for (const sema::Expr& k : e.kids)
    if (readsCongestion(k)) return true;
  return false;
}

// Does e read any variable (a parameter, a let or a loop)?
bool readsAnyVar(const sema::Expr& e) {
  if (e.op == sema::Op::Var) return true;
  for (const sema::Expr& k : e.kids)
    if (readsAnyVar(k)) return true;
  return false;
}

// The value of a constant threshold, or nullopt for any other expression (and on overflow).
std::optional<int64_t> constantThreshold(const sema::Expr& e, const NetworkContext& config) {
  using sema::Op;
  switch (e.op) {
    case Op::ConstInt: return e.i;
    case Op::RecoveryTimeout: return config.recoveryTimeout;
    case Op::Vcs: return config.vcs;
    case Op::InjectionVcs: return config.injectionVcs;
    case Op::Neg: {
      std::optional<int64_t> a = constantThreshold(e.kids[0], config);
      if (!a || *a == INT64_MIN) return std::nullopt;
      return -*a;
    }
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Min: case Op::Max: {
      if (e.kids.empty()) return std::nullopt;
      std::optional<int64_t> acc = constantThreshold(e.kids[0], config);
      if (e.op == Op::Sub && e.kids.size() == 1 && acc) {
        if (*acc == INT64_MIN) return std::nullopt;
        return -*acc;
      }
      for (size_t k = 1; acc && k < e.kids.size(); ++k) {
        std::optional<int64_t> b = constantThreshold(e.kids[k], config);
        if (!b) return std::nullopt;
        int64_t r = 0;
        switch (e.op) {
          case Op::Add: if (__builtin_add_overflow(*acc, *b, &r)) return std::nullopt; break;
          case Op::Sub: if (__builtin_sub_overflow(*acc, *b, &r)) return std::nullopt; break;
          case Op::Mul: if (__builtin_mul_overflow(*acc, *b, &r)) return std::nullopt; break;
          case Op::Min: r = std::min(*acc, *b); break;
          default: r = std::max(*acc, *b); break;
        }
        acc = r;
      }
      return acc;
    }
    default: return std::nullopt;
  }
}

// Appends the breakpoints of every (blocked-for) read in e; false on a read that is not a
// comparison with a constant threshold.
bool collectWaitBreaks(const sema::Expr& e, const NetworkContext& config,
                       std::vector<int64_t>& out) {
  using sema::Op;
  auto isWait = [](const sema::Expr& x) {
    return x.op == Op::Var && x.i == sema::kRoutingBlockedSlot;
  };
  const bool compare = e.op == Op::Lt || e.op == Op::Le || e.op == Op::Gt || e.op == Op::Ge ||
                       e.op == Op::Eq || e.op == Op::Ne;
  if (compare && e.kids.size() == 2 && (isWait(e.kids[0]) || isWait(e.kids[1]))) {
    const bool left = isWait(e.kids[0]);
    const sema::Expr& other = e.kids[left ? 1 : 0];
    if (readsAnyVar(other)) return false;
    const std::optional<int64_t> t = constantThreshold(other, config);
    if (!t || *t == INT64_MAX) return false;
    // With the wait w on the left, (< w T) and (>= w T) flip when w reaches T, (<= w T) and
    // (> w T) when it reaches T + 1; mirrored when w is on the right.
    Op op = e.op;
    if (!left) {
      op = op == Op::Lt ? Op::Gt : op == Op::Gt ? Op::Lt : op == Op::Le ? Op::Ge
           : op == Op::Ge ? Op::Le : op;
    }
    if (op == Op::Lt || op == Op::Ge || op == Op::Eq || op == Op::Ne) out.push_back(*t);
    if (op == Op::Le || op == Op::Gt || op == Op::Eq || op == Op::Ne) out.push_back(*t + 1);
    return true;
  }
  if (isWait(e)) return false;
  // A routing that reads congestion may answer differently whenever the load changes.
  if (isCongestionRead(e)) return false;
  for (const sema::Expr& k : e.kids)
    if (!collectWaitBreaks(k, config, out)) return false;
  return true;
}

}  // namespace

std::optional<std::vector<int64_t>> waitBreaks(const sema::Expr& body,
                                               const NetworkContext& config, bool* tooMany) {
  if (tooMany) *tooMany = false;
  std::vector<int64_t> out;
  if (!collectWaitBreaks(body, config, out)) return std::nullopt;
  std::erase_if(out, [](int64_t b) { return b < 1 || b > INT32_MAX; });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (out.size() > kMaxWaitBreaks) {
    if (tooMany) *tooMany = true;
    return std::nullopt;
  }
  return out;
}

std::vector<RingShape> portStateShapes(const Network& net, const sema::DefinitionTable& defs) {
  std::vector<RingShape> shapes;
  for (uint32_t d : net.portStates) {
    const sema::Definition& st = defs.defs[d];
    const bool port = st.symbolType == sema::Type::Port;
    shapes.push_back({st.ringCapacity, port ? sema::kEjectionPortCode : st.symbolLo,
                      port ? static_cast<int64_t>(net.graph.dimNames.size()) * 2 - 1 : st.symbolHi,
                      st.perRouter});
  }
  return shapes;
}

std::optional<Network> elaborate(const sema::CheckedProgram& program, Evaluator& evaluator,
                                 DiagnosticEngine& diags) {
  const sema::Parameters& p = program.params;
  const sema::Definition& def = program.defs.defs[p.topology.def];
  SourceRange site = p.topology.call->range;

  std::vector<Value> args;
  for (const sema::Expr& a : p.topology.args) {
    std::optional<Value> v = evaluator.evaluate(a);
    if (!v) return std::nullopt;
    args.push_back(*v);
  }
  TopologyBuilder builder;
  builder.linkHz = p.networkHz;
  builder.selfLinks = p.interface.has_value();
  evaluator.setBuilder(&builder);
  std::optional<Value> done = evaluator.call(p.topology.def, args, site);
  evaluator.setBuilder(nullptr);
  if (!done) return std::nullopt;
  if (!builder.nodesDeclared()) {
    diags.report(DiagKind::BadDefinition, def.range,
                 fmt::format("topology '{}' never declares its nodes", def.name))
        .withHint("start its body with (Nodes n)");
    return std::nullopt;
  }

  Network net;
  net.closedDiameter = builder.diameter;
  net.closedAverage = builder.averageDistance;
  net.closedBisection = builder.bisection;
  std::string defaultRouting = builder.defaultRouting;
  net.graph = builder.finish(p.topology.text);

  bool bad = false;
  for (const GraphProblem& problem : checkGraph(net.graph, 16, builder.selfLinks)) {
    if (problem.kind == GraphProblemKind::kMalformed)
      throw InternalError("elaboration built a malformed graph: " + problem.message);
    diags.report(problemKind(problem.kind), site, problem.message)
        .withHint(std::string(problemHint(problem.kind)));
    bad = true;
  }
  if (bad) return std::nullopt;
  if (p.interface && p.interface->externalLoop) {
    bool any = false;
    for (NodeId r = 0; r < net.graph.nodeCount && !any; ++r)
      any = net.graph.terminal(r) && net.graph.selfLinked(r);
    if (!any) {
      diags.report(DiagKind::BadInterface, p.interface->loopbackRange,
                   fmt::format("(Loopback External) sends a node's message to itself out by a "
                               "link from its router back to the same router, and no router "
                               "with endpoints in {} has one",
                               net.graph.name))
          .withHint("cable one in the topology, (UnidirectionalLink r r) for router r (docs/interfaces.md, "
                    "\"The external loop\"), or loop inside the interface: (Loopback Internal)")
          .note(site, "the topology");
      return std::nullopt;
    }
    net.externalLoop = true;
  }
  if (net.graph.endpointCount() == 0) {
    diags.report(DiagKind::NoEndpoints, site,
                 fmt::format("{} has no endpoints: every router is a switch, so no traffic "
                             "has a source or a destination",
                             net.graph.name))
        .withHint("give the routers that terminals attach to endpoints: (Endpoints r p), or "
                  "(Concentration p) for every router not named");
    return std::nullopt;
  }
  if (net.graph.endpointCount() == 1) {
    diags.report(DiagKind::NoEndpoints, site,
                 fmt::format("{} has one endpoint: its traffic has no destination but its "
                             "source",
                             net.graph.name))
        .withHint("a network needs two endpoints or more: a second router, or (Concentration p) "
                  "with p >= 2 on a lone switch");
    return std::nullopt;
  }
  describeNetwork(net.graph, evaluator.network());
  if (!checkTraffic(p, net.graph, diags)) return std::nullopt;

  if (p.routingDef) {
    net.routingDef = p.routingDef;
  } else if (!defaultRouting.empty()) {
    std::optional<uint32_t> r = program.defs.find(defaultRouting);
    if (!r || program.defs.defs[*r].kind != sema::DefKind::Routing) {
      diags.report(DiagKind::UnknownName, def.range,
                   fmt::format("topology '{}' names the default routing '{}', which is not "
                               "defined",
                               def.name, defaultRouting))
          .withHint("define it with (define-routing (Name) ...)");
      return std::nullopt;
    }
    net.routingDef = *r;
  }
  if (net.routingDef && !configureRouting(program, net, evaluator, diags)) return std::nullopt;
  checkRecoveryTimeoutRead(program, net, diags);
  if (net.routingDef) {
    net.waitBreaks = waitBreaks(program.defs.defs[*net.routingDef].body, evaluator.network(),
                                &net.waitBreaksTooMany);
    net.readsCongestion = readsCongestion(program.defs.defs[*net.routingDef].body);
  }
  net.selectionReadsCongestion =
      net.selectionDef && readsCongestion(program.defs.defs[*net.selectionDef].body);
  net.readsGlobalCongestion =
      (net.routingDef && readsGlobalCongestion(program.defs.defs[*net.routingDef].body)) ||
      (net.selectionDef && readsGlobalCongestion(program.defs.defs[*net.selectionDef].body));
  return net;
}

RouteFunctions routeFunctions(const Network& network, const sema::DefinitionTable& defs,
                              Evaluator& evaluator, bool& failed) {
  RouteFunctions fns;
  const Graph* g = &network.graph;
  const VcClasses* classes = &network.networkClasses;
  uint32_t def = *network.routingDef;
  fns.classes = static_cast<uint32_t>(classes->names.size());
  const std::vector<HeaderFieldLayout>* header = &network.header;
  const sema::Definition* routing = &defs.defs[def];
  fns.hasHeader = !header->empty();
  if (fns.hasHeader) {
    // Initial values field by field, each seeing the fields before it. The
    // random draws of all fields are numbered in the order they are made;
    // a draw takes the value the enumeration prescribes (0 past its end).
    // Every outcome is found by depth-first search over the draws, learning
    // each draw's range as it is made, so a range may depend on earlier
    // draws and fields: (random (+ 1 (random 4))) has 1 + 2 + 3 + 4 outcomes
    // of unequal probability.
    auto evaluate = [header, routing, def, &evaluator, &failed](NodeId src, NodeId dst,
                                                                uint64_t& packed) {
      Value args[sema::kRoutingParams + sema::kMaxHeaderFields] = {
          Value::integer(src), Value::integer(dst), Value::integer(src), Value::integer(-1),
          Value::integer(1)};
      packed = 0;
      // The routing's frame: its parameters and header fields, no more.
      const std::span<const Value> frame(args, sema::kRoutingParams + header->size());
      for (size_t i = 0; i < header->size(); ++i) {
        const HeaderFieldLayout& f = (*header)[i];
        const std::optional<sema::Expr>& init = routing->headerFields[i].init;
        int64_t v = f.type == sema::Type::Node ? static_cast<int64_t>(src) : f.lo;
        if (init) {
          std::optional<Value> r = evaluator.callExpr(def, *init, frame, SourceRange{});
          if (!r) {
            failed = true;
            return;
          }
          v = r->a;
          if (v < f.lo || v > f.hi) {
            evaluator.reportAt(routing->headerFields[i].form,
                               fmt::format("the initial value of header field '{}' is {}, outside "
                                           "its range {}..{} (packet from node {} to node {})",
                                           f.name, v, f.lo, f.hi, src, dst));
            failed = true;
            return;
          }
        }
        args[sema::kRoutingParams + i] = Value::integer(v);
        packed |= f.pack(v);
      }
    };
    fns.initials = [evaluate, &evaluator, &failed](NodeId src, NodeId dst,
                                                   std::vector<InitialState>& out) {
      Draws& ctx = evaluator.draws();
      out.clear();
      ctx.prescribed.clear();
      for (;;) {
        ctx.ranges.clear();
        InitialState one{};
        one.state.words[0] = src;
        uint64_t packed = 0;
        if (!failed) evaluate(src, dst, packed);
        one.state.words[1] = static_cast<int64_t>(packed);
        // The draws made: the prescribed ones, then zeros.
        for (int64_t r : ctx.ranges) {
          const uint64_t u = static_cast<uint64_t>(r);
          one.denominator = one.denominator > UINT64_MAX / u ? UINT64_MAX : one.denominator * u;
        }
        out.push_back(one);
        if (failed) break;  // one state, so that the analyses report the failure
        if (out.size() > kMaxInitialStates) {
          ctx.prescribed.clear();
          return false;
        }
        if (!nextOutcome(ctx)) break;
      }
      ctx.prescribed.clear();
      ctx.ranges.clear();
      return true;
    };
  }
  auto once = [g, classes, def, header, &evaluator, &failed](
                       NodeId cur, NodeId dst, Hop in, uint32_t blockedFor, RouteState& s,
                       std::vector<Hop>& out) {
    if (failed) return CandidateStatus::kFailed;
    const bool injected = in.channel == kNoChannel;
    const Value arrived =
        injected ? Value::integer(-1)
                 : Value::port(g->channels[in.channel].dim, g->channels[in.channel].dir);
    Value args[sema::kRoutingParams + sema::kMaxHeaderFields] = {
        Value::integer(cur),      Value::integer(dst), Value::integer(s.words[0]), arrived,
        Value::integer(injected), Value::integer(in.vcClass), Value::integer(blockedFor)};
    const uint64_t packed = static_cast<uint64_t>(s.words[1]);
    for (size_t i = 0; i < header->size(); ++i)
      args[sema::kRoutingParams + i] = Value::integer((*header)[i].unpack(packed));
    evaluator.clearRoutes();
    std::optional<Value> route = evaluator.call(
        def, std::span<const Value>(args, sema::kRoutingParams + header->size()), SourceRange{});
    if (!route) {
      failed = true;
      return CandidateStatus::kFailed;
    }
    // Tier by tier, in the order of output ports and classes (the
    // simulator's masks), without classes of no VCs. A VC offered twice in
    // a tier, once with a header write and once without, writes: the
    // simulator keeps one write mask per tier and VC, the union of both.
    struct Offer {
      ChannelId channel;
      uint8_t vcClass;
      uint64_t clear, value;
    };
    std::vector<Offer> offers;
    for (const auto& tier : evaluator.route(*route)) {
      offers.clear();
      for (const RouteCandidate& c : tier) {
        const int64_t dim = c.port >> 1;
        const ChannelId ch = dim < 0 || dim > 0xFFFF
                                 ? kNoChannel
                                 : g->findPort(cur, static_cast<uint16_t>(dim),
                                               (c.port & 1) ? +1 : -1);
        if (ch == kNoChannel) {
          out.assign(1, Hop{static_cast<ChannelId>(c.port), 0});
          return CandidateStatus::kMissingPort;
        }
        if (c.vcClass != RouteCandidate::kAnyClass &&
            static_cast<size_t>(c.vcClass) >= classes->names.size()) {
          failed = true;
          return CandidateStatus::kFailed;
        }
        const size_t n = classes->names.size();
        for (size_t k = 0; k < n; ++k) {
          if (c.vcClass != RouteCandidate::kAnyClass && static_cast<size_t>(c.vcClass) != k)
            continue;
          if (classes->count[k] == 0) continue;
          auto same = std::find_if(offers.begin(), offers.end(), [&](const Offer& o) {
            return o.channel == ch && o.vcClass == k;
          });
          if (same == offers.end())
            offers.push_back({ch, static_cast<uint8_t>(k), c.clear, c.value});
          else {
            same->clear |= c.clear;
            same->value |= c.value;
          }
        }
      }
      std::sort(offers.begin(), offers.end(), [](const Offer& a, const Offer& b) {
        return std::tie(a.channel, a.vcClass) < std::tie(b.channel, b.vcClass);
      });
      for (const Offer& o : offers)
        out.push_back(Hop{o.channel, o.vcClass, (packed & ~o.clear) | o.value});
    }
    return CandidateStatus::kOk;
  };
  if (!readsCongestion(routing->body)) {
    fns.candidates = once;
  } else {
    // A routing that reads congestion: first its answer on an idle network (what the trace
    // follows, so hop counts are those of zero load), then the candidates of every outcome of
    // its congestion comparisons, enumerated like draws (docs/routing.md, "Congestion"), so
    // that the deadlock check sees every channel the routing may take under load.
    fns.candidates = [once, routing, &evaluator, &failed](NodeId cur, NodeId dst, Hop in,
                                                           uint32_t blockedFor, RouteState& s,
                                                           std::vector<Hop>& out) {
      out.clear();
      CandidateStatus st = once(cur, dst, in, blockedFor, s, out);
      if (st != CandidateStatus::kOk) return st;
      Choices& ch = evaluator.choices();
      ch.prescribed.clear();
      std::vector<Hop> more;
      evaluator.setCongestion(Congestion::kEvery);
      size_t outcomes = 0;
      for (;;) {
        ch.made = 0;
        more.clear();
        st = once(cur, dst, in, blockedFor, s, more);
        if (st != CandidateStatus::kOk) break;
        for (const Hop& h : more)
          if (std::find(out.begin(), out.end(), h) == out.end()) out.push_back(h);
        if (++outcomes > kMaxCongestionOutcomes) {
          evaluator.reportAt(routing->nameRange,
                             fmt::format("the routing's congestion comparisons at node {} for "
                                         "destination {} have more than {} outcomes; the "
                                         "analyses cannot follow them all",
                                         cur, dst, kMaxCongestionOutcomes));
          failed = true;
          st = CandidateStatus::kFailed;
          break;
        }
        // The next outcome: the last choice still false becomes true, later ones drop.
        const size_t made = ch.made;
        ch.prescribed.resize(made, 0);
        size_t j = made;
        while (j > 0 && ch.prescribed[j - 1] == 1) --j;
        if (j == 0) break;
        ch.prescribed.resize(j);
        ch.prescribed[j - 1] = 1;
      }
      evaluator.setCongestion(Congestion::kIdle);
      ch.prescribed.clear();
      return st;
    };
  }
  // On a network with declared symmetry the routes of a routing that does
  // not depend on where it is stand for all: the analyses may then trace
  // from the representatives only. Never assumed when it is known to be
  // wrong: a routing that reads `source`, or spreads packets over several
  // VC classes (dateline classes depend on absolute coordinates), is traced
  // everywhere. Nor on a network small enough to trace everywhere at once
  // (kTraceEverywhereUpTo nodes): nothing else notices a routing that tests
  // absolute node numbers (`(= dest 13)`), so there its every route and
  // dependency is checked; above, the analyses use the representatives only
  // once the candidates are seen to move with the translations
  // (symmetryVerdict, Translation.h; docs/routing.md).
  int usedClasses = 0;
  for (int32_t n : classes->count) usedClasses += n > 0;
  const sema::Expr& body = defs.defs[def].body;
  fns.readsSource = readsVar(body, 2);
  fns.waits = readsVar(body, sema::kRoutingBlockedSlot);
  constexpr NodeId kTraceEverywhereUpTo = 256;
  fns.translationInvariant = network.graph.nodeCount > kTraceEverywhereUpTo &&
                             !network.graph.representatives.empty() && defs.defs[def].hasRoute &&
                             usedClasses <= 1 && !fns.readsSource && !fns.hasHeader &&
                             !network.externalLoop;
  fns.selfRoutes = network.externalLoop;
  fns.work = [&evaluator] { return evaluator.work(); };
  if (routing->hops && !routing->hopsNominal) {
    fns.declaredHops = [routing, def, &evaluator, &failed](NodeId src,
                                                          NodeId dst) -> std::optional<int64_t> {
      Value args[3] = {Value::integer(src), Value::integer(dst), Value::integer(src)};
      std::optional<Value> h = evaluator.callExpr(def, *routing->hops, args);
      if (!h) {
        failed = true;
        return std::nullopt;
      }
      return h->a;
    };
  }
  return fns;
}

}  // namespace ndl::elab
