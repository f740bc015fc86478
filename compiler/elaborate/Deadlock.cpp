#include "compiler/elaborate/Deadlock.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "compiler/elaborate/GraphCheck.h"
#include "compiler/elaborate/Metrics.h"

namespace ndl::elab {

uint32_t vcClasses(VcPolicy policy) { return policy == VcPolicy::kDateline ? 2 : 1; }

uint8_t nextClass(const Graph& g, VcPolicy policy, uint8_t cls, ChannelId from, ChannelId to) {
  if (policy == VcPolicy::kAnyVc) return 0;
  const Channel& b = g.channels[to];
  const uint8_t crosses = (b.flags & kWrap) ? 1 : 0;
  if (from == kNoChannel || g.channels[from].dim != b.dim) return crosses;
  return cls | crosses;
}

uint64_t DependencyGraph::edgeCount() const {
  uint64_t n = 0;
  for (uint64_t m : next) n += std::popcount(m);
  return n;
}

namespace {

constexpr uint32_t kMaxSegment = (1u << 26) - 1;

// Open-addressing map from a turn (channel, next port) to the range of
// segment lengths seen with it. The turn count is bounded by channels x
// ports, far below the number of hops traced, so lookups dominate.
class TurnMap {
 public:
  struct Range {
    uint32_t minH = UINT32_MAX;
    uint32_t maxH = 0;
  };

  TurnMap() : keys_(1024, kEmpty), values_(1024) {}

  void add(uint64_t key, uint32_t h) {
    if ((size_ + 1) * 2 > keys_.size()) grow();
    const size_t i = slot(key);
    if (keys_[i] == kEmpty) {
      keys_[i] = key;
      ++size_;
    }
    values_[i].minH = std::min(values_[i].minH, h);
    values_[i].maxH = std::max(values_[i].maxH, h);
  }

  template <class F>
  void forEach(F&& f) const {
    for (size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] != kEmpty) f(keys_[i], values_[i]);
  }
  size_t size() const { return size_; }

 private:
  static constexpr uint64_t kEmpty = UINT64_MAX;

  size_t slot(uint64_t key) const {
    const size_t mask = keys_.size() - 1;
    uint64_t h = key * 0x9E3779B97F4A7C15ULL;
    size_t i = (h ^ h >> 29) & mask;
    while (keys_[i] != kEmpty && keys_[i] != key) i = (i + 1) & mask;
    return i;
  }

  void grow() {
    std::vector<uint64_t> keys(keys_.size() * 2, kEmpty);
    std::vector<Range> values(keys.size());
    keys.swap(keys_);
    values.swap(values_);
    for (size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == kEmpty) continue;
      const size_t j = slot(keys[i]);
      keys_[j] = keys[i];
      values_[j] = values[i];
    }
  }

  std::vector<uint64_t> keys_;
  std::vector<Range> values_;
  size_t size_ = 0;
};

uint64_t turnKey(ChannelId c, uint32_t port) { return static_cast<uint64_t>(c) << 6 | port; }

// Node ids as mixed-radix coordinates, dimension 0 fastest; translations
// add coordinates modulo the radices.
class MixedRadix {
 public:
  explicit MixedRadix(const std::vector<int64_t>& radices) {
    for (int64_t k : radices) radices_.push_back(static_cast<uint32_t>(k));
  }
  size_t dims() const { return radices_.size(); }

  void decode(NodeId n, uint32_t* out) const {
    for (size_t i = 0; i < radices_.size(); ++i) {
      out[i] = n % radices_[i];
      n /= radices_[i];
    }
  }
  // a + sign * b, coordinatewise modulo the radices.
  NodeId combine(const uint32_t* a, const uint32_t* b, bool subtract) const {
    NodeId id = 0;
    for (size_t i = radices_.size(); i-- > 0;) {
      const uint32_t k = radices_[i];
      uint32_t d = subtract ? a[i] + (k - b[i]) : a[i] + b[i];
      if (d >= k) d -= k;
      id = id * k + d;
    }
    return id;
  }

 private:
  std::vector<uint32_t> radices_;
};

// The channel at `src` along the same dimension as `like` that enters `dst`,
// preferring the same direction (on a radix-2 dimension a translate may
// turn + into -). kNoChannel when the translate does not exist.
ChannelId channelLike(const Graph& g, const Channel& like, NodeId src, NodeId dst,
                      bool& dirChanged) {
  ChannelId found = kNoChannel;
  for (ChannelId x = g.outBegin(src); x < g.outEnd(src); ++x) {
    const Channel& ch = g.channels[x];
    if (ch.dim != like.dim || ch.dst != dst) continue;
    if (ch.dir == like.dir) {
      dirChanged = false;
      return x;
    }
    if (found == kNoChannel) found = x;
  }
  dirChanged = true;
  return found;
}

// For the dateline classes of translated routes: how many hops back along
// the straight line (same dimension and direction) ending at each channel
// the nearest kWrap channel is; 0 for a wrap channel, UINT32_MAX if none.
std::vector<uint32_t> hopsBackToWrap(const Graph& g) {
  const size_t m = g.channels.size();
  std::vector<ChannelId> prev(m, kNoChannel);
  for (ChannelId e = 0; e < m; ++e) {
    const Channel& ch = g.channels[e];
    const ChannelId n = g.findPort(ch.dst, ch.dim, ch.dir);
    if (n != kNoChannel) prev[n] = e;
  }
  constexpr uint32_t kUnknown = UINT32_MAX - 1, kInProgress = UINT32_MAX - 2, kNone = UINT32_MAX;
  std::vector<uint32_t> back(m, kUnknown);
  std::vector<ChannelId> chain;
  for (ChannelId c = 0; c < m; ++c) {
    if (back[c] != kUnknown) continue;
    chain.clear();
    ChannelId x = c;
    while (x != kNoChannel && back[x] == kUnknown && !(g.channels[x].flags & kWrap)) {
      back[x] = kInProgress;
      chain.push_back(x);
      x = prev[x];
    }
    uint32_t base;
    if (x == kNoChannel || back[x] == kInProgress) {
      base = kNone;  // the line starts somewhere, or circles, without a wrap
    } else if (back[x] == kUnknown) {
      base = back[x] = 0;  // x is a wrap channel
    } else {
      base = back[x];
    }
    for (size_t i = 0; i < chain.size(); ++i)
      back[chain[i]] = base == kNone ? kNone : base + static_cast<uint32_t>(chain.size() - i);
  }
  return back;
}

class Builder {
 public:
  Builder(const Graph& g, const RouteFunctions& fns, const DeadlockOptions& opt,
          const Limits& limits)
      : g_(g),
        fns_(fns),
        policy_(opt.policy),
        limits_(limits),
        hopLimit_(routeHopLimit(g, limits)) {
    out_.deps.classes = vcClasses(opt.policy);
    out_.deps.policy = opt.policy;
  }

  DependencyBuild run() {
    std::string why = translationPlan();
    if (why.empty()) {
      if (!estimate(reps_.size(), "the representatives'")) return std::move(out_);
      out_.deps.next.assign(g_.channels.size() * out_.deps.classes, 0);
      why = byTranslation();
      if (why.empty() || !out_.errors.empty()) return finish();
    }
    if (!estimate(g_.nodeCount, "all")) return std::move(out_);
    out_.deps.next.assign(g_.channels.size() * out_.deps.classes, 0);
    allPairs();
    out_.method =
        why == "-" ? fmt::format("all pairs ({} sources)", g_.nodeCount)
                   : fmt::format("all pairs ({} sources; no translation: {})", g_.nodeCount, why);
    return finish();
  }

 private:
  DependencyBuild finish() {
    if (!out_.errors.empty()) {
      out_.status = AnalysisStatus::kRouteErrors;
      out_.message = out_.errors.front().message;
    }
    return std::move(out_);
  }

  // Refuses when tracing routes from `sources` sources would exceed the
  // budget; a minimal routing makes (distance sum) calls per source.
  bool estimate(uint64_t sources, const char* what) {
    Bfs bfs(g_);
    const Bfs::Result r = bfs.run(reps_.empty() ? 0 : reps_[0]);
    if (r.reached != g_.nodeCount) {
      out_.status = AnalysisStatus::kDisconnected;
      out_.message = "the network is disconnected; routes cannot be traced";
      return false;
    }
    out_.estimatedWork = sources * (r.distanceSum + g_.channels.size());
    if ((sources == g_.nodeCount && sources > limits_.maxAllPairsNodes) ||
        out_.estimatedWork > limits_.maxRouteSteps) {
      out_.status = AnalysisStatus::kTooLarge;
      out_.message = fmt::format(
          "network of {} nodes is too large to trace {} routes for the deadlock check; "
          "estimated {} routing steps (limit {})",
          g_.nodeCount, what, out_.estimatedWork, limits_.maxRouteSteps);
      return false;
    }
    return true;
  }

  void record(ChannelId c1, uint8_t cls, ChannelId c2) {
    out_.deps.next[static_cast<size_t>(c1) * out_.deps.classes + cls] |=
        1ULL << (c2 - g_.outBegin(g_.channels[c1].dst));
  }

  void allPairs() {
    for (NodeId s = 0; s < g_.nodeCount; ++s) {
      for (NodeId d = 0; d < g_.nodeCount; ++d) {
        if (s == d) continue;
        ChannelId prev = kNoChannel;
        uint8_t cls = 0;
        auto err = traceRoute(g_, fns_, s, d, hopLimit_, [&](ChannelId c) {
          const uint8_t next = nextClass(g_, policy_, cls, prev, c);
          if (prev != kNoChannel) record(prev, cls, c);
          prev = c;
          cls = next;
        });
        if (err) {
          out_.errors.push_back(std::move(*err));
          if (out_.errors.size() >= limits_.maxErrors) return;
        }
      }
    }
  }

  // Whether the translation method applies; sets reps_, translations_ and
  // repOf_. Returns "" when it does, "-" when it was not asked for, else
  // the reason.
  std::string translationPlan() {
    reps_ = routeSources(g_, fns_, limits_);
    if (reps_.empty() || g_.radices.empty()) return "-";
    UInt128 product = 1;
    for (int64_t k : g_.radices) {
      if (k < 1) return "a radix is not positive";
      product *= static_cast<UInt128>(k);
      if (product > g_.nodeCount) break;
    }
    if (product != g_.nodeCount) return "the radices do not multiply to the node count";
    mr_.emplace(g_.radices);
    const size_t dims = mr_->dims();

    // The candidate translations: nodes whose neighbourhood (dimension and
    // offset of every output channel) is node 0's.
    std::vector<uint32_t> a(dims), b(dims);
    auto signature = [&](NodeId n, std::vector<uint64_t>& sig) {
      sig.clear();
      mr_->decode(n, a.data());
      for (ChannelId c = g_.outBegin(n); c < g_.outEnd(n); ++c) {
        mr_->decode(g_.channels[c].dst, b.data());
        sig.push_back(static_cast<uint64_t>(g_.channels[c].dim) << 32 |
                      mr_->combine(b.data(), a.data(), /*subtract=*/true));
      }
      std::sort(sig.begin(), sig.end());
    };
    std::vector<uint64_t> sig0, sig;
    signature(0, sig0);
    translations_.clear();
    for (NodeId t = 0; t < g_.nodeCount; ++t) {
      signature(t, sig);
      if (sig == sig0) translations_.push_back(t);
    }
    if (static_cast<uint64_t>(translations_.size()) * reps_.size() != g_.nodeCount)
      return "the representatives' translates do not cover the nodes";
    repOf_.assign(g_.nodeCount, UINT32_MAX);
    for (uint32_t ri = 0; ri < reps_.size(); ++ri) {
      mr_->decode(reps_[ri], a.data());
      for (NodeId t : translations_) {
        mr_->decode(t, b.data());
        const NodeId w = mr_->combine(a.data(), b.data(), false);
        if (repOf_[w] != UINT32_MAX) return "two representatives have a common translate";
        repOf_[w] = ri;
      }
    }
    return "";
  }

  // Traces the representatives' routes, brings every turn (channel, next
  // port) back to the representative of its node's orbit, and lays the
  // translates of those turns over all nodes. The segment length h (hops
  // so far in the current dimension, the turn's first channel included)
  // goes along: on a translate, the dateline class of that channel is 1
  // iff a wrap lies within its last h hops. Returns "" or why the method
  // does not apply.
  std::string byTranslation() {
    const bool dateline = policy_ == VcPolicy::kDateline;
    TurnMap seen;
    std::vector<ChannelId> path;
    bool bent = false;
    for (NodeId r : reps_) {
      for (NodeId d = 0; d < g_.nodeCount; ++d) {
        if (d == r) continue;
        path.clear();
        auto err = traceRoute(g_, fns_, r, d, hopLimit_, [&](ChannelId c) { path.push_back(c); });
        if (err) {
          out_.errors.push_back(std::move(*err));
          if (out_.errors.size() >= limits_.maxErrors) return "routing errors";
          continue;
        }
        uint32_t h = 1;
        for (size_t j = 1; j < path.size(); ++j) {
          const Channel& c1 = g_.channels[path[j - 1]];
          const Channel& c2 = g_.channels[path[j]];
          seen.add(turnKey(path[j - 1], path[j] - g_.outBegin(c1.dst)), dateline ? h : 0);
          if (c2.dim != c1.dim) {
            h = 1;
          } else {
            bent |= c2.dir != c1.dir;
            h = std::min(h + 1, kMaxSegment);
          }
        }
      }
    }
    if (!out_.errors.empty()) return "routing errors";
    if (dateline && bent) return "a route turns back within a dimension";

    // Turns relative to the representatives.
    const size_t dims = mr_->dims();
    std::vector<uint32_t> wc(dims), rc(dims), tc(dims), x(dims), y(dims);
    TurnMap types;
    std::string why;
    seen.forEach([&](uint64_t key, const TurnMap::Range& range) {
      if (!why.empty()) return;
      const ChannelId c1 = static_cast<ChannelId>(key >> 6);
      const NodeId w = g_.channels[c1].dst;
      const ChannelId c2 = g_.outBegin(w) + static_cast<uint32_t>(key & 63);
      const NodeId r = reps_[repOf_[w]];
      mr_->decode(w, wc.data());
      mr_->decode(r, rc.data());
      for (size_t i = 0; i < dims; ++i) tc[i] = (wc[i] + g_.radices[i] - rc[i]) % g_.radices[i];
      bool flip1 = false, flip2 = false;
      const ChannelId t1 = translateBack(c1, tc, x, y, flip1);
      const ChannelId t2 = translateBack(c2, tc, x, y, flip2);
      if (t1 == kNoChannel || t2 == kNoChannel) {
        why = "a translate of a channel does not exist";
        return;
      }
      if (dateline && flip1 && range.maxH >= 2) {
        why = "a translation reverses a dimension";
        return;
      }
      const uint64_t k = turnKey(t1, t2 - g_.outBegin(r));
      types.add(k, range.minH);
      types.add(k, range.maxH);
    });
    if (!why.empty()) return why;

    // Lay the types over every translate.
    struct Type {
      ChannelId c1, c2;
      TurnMap::Range range;
      std::vector<uint32_t> from, mid, to;  // coordinates of src(c1), dst(c1), dst(c2)
    };
    std::vector<Type> list;
    types.forEach([&](uint64_t key, const TurnMap::Range& range) {
      Type t;
      t.c1 = static_cast<ChannelId>(key >> 6);
      const NodeId r = g_.channels[t.c1].dst;
      t.c2 = g_.outBegin(r) + static_cast<uint32_t>(key & 63);
      t.range = range;
      t.from.resize(dims);
      t.mid.resize(dims);
      t.to.resize(dims);
      mr_->decode(g_.channels[t.c1].src, t.from.data());
      mr_->decode(r, t.mid.data());
      mr_->decode(g_.channels[t.c2].dst, t.to.data());
      list.push_back(std::move(t));
    });
    const std::vector<uint32_t> back = dateline ? hopsBackToWrap(g_) : std::vector<uint32_t>{};
    for (NodeId t : translations_) {
      mr_->decode(t, tc.data());
      for (const Type& ty : list) {
        const NodeId a = mr_->combine(ty.from.data(), tc.data(), false);
        const NodeId m = mr_->combine(ty.mid.data(), tc.data(), false);
        const NodeId z = mr_->combine(ty.to.data(), tc.data(), false);
        bool flip1 = false, flip2 = false;
        const ChannelId c1 = channelLike(g_, g_.channels[ty.c1], a, m, flip1);
        const ChannelId c2 = channelLike(g_, g_.channels[ty.c2], m, z, flip2);
        if (c1 == kNoChannel || c2 == kNoChannel) return "a translate of a channel does not exist";
        if (!dateline) {
          record(c1, 0, c2);
          continue;
        }
        if (flip1 && ty.range.maxH >= 2) return "a translation reverses a dimension";
        // Class 1 if some segment length reaches back past a wrap, class 0
        // if some does not.
        if (ty.range.maxH > back[c1]) record(c1, 1, c2);
        if (ty.range.minH <= back[c1]) record(c1, 0, c2);
      }
    }
    out_.method = fmt::format("representatives + translation ({} source{} traced, {} translates)",
                              reps_.size(), reps_.size() == 1 ? "" : "s", translations_.size());
    return "";
  }

  // The channel c moved by -t (coordinates tc).
  ChannelId translateBack(ChannelId c, const std::vector<uint32_t>& tc, std::vector<uint32_t>& x,
                          std::vector<uint32_t>& y, bool& flip) const {
    const Channel& ch = g_.channels[c];
    mr_->decode(ch.src, x.data());
    const NodeId s = mr_->combine(x.data(), tc.data(), true);
    mr_->decode(ch.dst, y.data());
    const NodeId d = mr_->combine(y.data(), tc.data(), true);
    return channelLike(g_, ch, s, d, flip);
  }

  const Graph& g_;
  const RouteFunctions& fns_;
  VcPolicy policy_;
  const Limits& limits_;
  uint32_t hopLimit_;
  DependencyBuild out_;
  std::vector<NodeId> reps_;
  std::vector<NodeId> translations_;
  std::vector<uint32_t> repOf_;
  std::optional<MixedRadix> mr_;
};

}  // namespace

DependencyBuild buildDependencies(const Graph& g, const RouteFunctions& fns,
                                  const DeadlockOptions& options, const Limits& limits) {
  DependencyBuild b;
  auto invalid = [&](std::string why) {
    b.status = AnalysisStatus::kInvalid;
    b.message = std::move(why);
    return std::move(b);
  };
  if (!fns.route) return invalid("no routing function");
  if (g.nodeCount == 0) return invalid("the network has no nodes");
  if (options.numVcs < 1) return invalid("at least one virtual channel is needed");
  if (options.policy == VcPolicy::kDateline && options.numVcs < 2)
    return invalid(fmt::format(
        "dateline deadlock avoidance needs at least 2 virtual channels per port, not {}",
        options.numVcs));
  for (NodeId n = 0; n < g.nodeCount; ++n)
    if (g.outDegree(n) > kMaxPorts)
      return invalid(fmt::format("node {} has {} output ports; at most {} are supported", n,
                                 g.outDegree(n), kMaxPorts));
  return Builder(g, fns, options, limits).run();
}

std::optional<std::vector<DependencyHop>> findCycle(const Graph& g, const DependencyGraph& deps) {
  const uint32_t k = deps.classes;
  const size_t vertices = deps.next.size();
  enum : uint8_t { kWhite, kGray, kBlack };
  std::vector<uint8_t> color(vertices, kWhite);
  struct Frame {
    size_t vertex;
    uint64_t pending;  // successor ports not yet explored
  };
  std::vector<Frame> stack;
  for (size_t root = 0; root < vertices; ++root) {
    if (color[root] != kWhite || deps.next[root] == 0) continue;
    color[root] = kGray;
    stack.push_back({root, deps.next[root]});
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.pending == 0) {
        color[top.vertex] = kBlack;
        stack.pop_back();
        continue;
      }
      const uint32_t port = std::countr_zero(top.pending);
      top.pending &= top.pending - 1;
      const auto c1 = static_cast<ChannelId>(top.vertex / k);
      const auto cls = static_cast<uint8_t>(top.vertex % k);
      const ChannelId c2 = g.outBegin(g.channels[c1].dst) + port;
      const size_t w = static_cast<size_t>(c2) * k + nextClass(g, deps.policy, cls, c1, c2);
      if (color[w] == kGray) {
        size_t i = stack.size();
        while (stack[i - 1].vertex != w) --i;
        std::vector<DependencyHop> cycle;
        for (size_t j = i - 1; j < stack.size(); ++j)
          cycle.push_back({static_cast<ChannelId>(stack[j].vertex / k),
                           static_cast<uint8_t>(stack[j].vertex % k)});
        return cycle;
      }
      if (color[w] == kWhite) {
        color[w] = kGray;
        stack.push_back({w, deps.next[w]});  // invalidates `top`
      }
    }
  }
  return std::nullopt;
}

std::string formatCycle(const Graph& g, std::span<const DependencyHop> cycle, bool showClass,
                        size_t maxShown) {
  if (cycle.empty()) return {};
  auto hop = [&](const DependencyHop& h) {
    std::string s = fmt::format("n{}:{}", g.channels[h.channel].src, g.portName(h.channel));
    if (showClass) s += fmt::format("/vc{}", h.vcClass);
    return s;
  };
  std::string out;
  maxShown = std::max<size_t>(maxShown, 3);
  if (cycle.size() <= maxShown) {
    for (const DependencyHop& h : cycle) out += hop(h) + " -> ";
  } else {
    for (size_t i = 0; i + 2 < maxShown; ++i) out += hop(cycle[i]) + " -> ";
    out += fmt::format("... ({} more hops) -> ", cycle.size() - maxShown + 1);
    out += hop(cycle.back()) + " -> ";
  }
  return out + hop(cycle.front());  // back where it started: a cycle
}

DeadlockResult checkDeadlock(const Graph& g, const RouteFunctions& fns,
                             const DeadlockOptions& options, const Limits& limits) {
  DependencyBuild b = buildDependencies(g, fns, options, limits);
  DeadlockResult r;
  r.status = b.status;
  r.classes = b.deps.classes;
  r.method = std::move(b.method);
  r.message = std::move(b.message);
  r.estimatedWork = b.estimatedWork;
  r.errors = std::move(b.errors);
  if (r.status != AnalysisStatus::kOk) return r;
  r.dependencies = b.deps.edgeCount();
  auto cycle = findCycle(g, b.deps);
  r.deadlockFree = !cycle;
  if (cycle) {
    r.cycle = std::move(*cycle);
    r.cycleText = formatCycle(g, r.cycle, r.classes > 1);
  }
  return r;
}

}  // namespace ndl::elab
