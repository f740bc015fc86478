#include "compiler/elaborate/Deadlock.h"

#include "compiler/elaborate/Translation.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

namespace ndl::elab {

uint64_t DependencyGraph::edgeCount() const {
  uint64_t n = 0;
  for (const auto& s : succ) n += s.size();
  return n;
}

namespace {

void addEdge(std::vector<uint32_t>& list, uint32_t w) {
  if (std::find(list.begin(), list.end(), w) == list.end()) list.push_back(w);
}

class Builder {
 public:
  Builder(const Graph& g, const RouteFunctions& fns, const DeadlockOptions& opt,
          const Limits& limits)
      : g_(g), fns_(fns), opt_(opt), limits_(limits), k_(std::max<uint32_t>(1, fns.classes)) {
    out_.deps.classes = out_.extended.classes = k_;
  }

  DependencyBuild run() {
    std::vector<NodeId> dests = plan();
    const uint64_t perDest = static_cast<uint64_t>(g_.channels.size()) * k_ + g_.nodeCount;
    // A routing that reads the source is explored once per source, along
    // the routes only: about a diameter's worth of states each.
    const uint64_t states = fns_.readsSource ? static_cast<uint64_t>(g_.nodeCount) * 4 *
                                                   (g_.nodeCount + 8) * k_
                                             : perDest;
    // Header fields multiply the states by their initial outcomes (at least).
    std::vector<InitialState> initials;
    const bool enumerable = initialStates(fns_, 0, g_.nodeCount > 1 ? 1 : 0, initials);
    const uint64_t outcomes = enumerable ? initials.size() : kMaxInitialStates + 1;
    out_.estimatedWork =
        (dests.size() + samples_.size()) * states * outcomes * (fns_.waits ? 2 : 1);
    const uint64_t budget = outcomes > 1 ? limits_.maxDrawSteps : limits_.maxRouteSteps;
    if (out_.estimatedWork > budget) {
      out_.status = AnalysisStatus::kTooLarge;
      out_.message = fmt::format(
          "network of {} nodes is too large for the dependency check{}; estimated {} routing "
          "steps (limit {})",
          g_.nodeCount,
          outcomes > 1 ? fmt::format(" with each of {}{} random outcomes",
                                     enumerable ? "" : "more than ", outcomes - !enumerable)
                       : "",
          out_.estimatedWork, budget);
      // Traced from every destination because translation did not hold: say why.
      if (!notTranslated_.empty()) out_.message += "; not by translation: " + notTranslated_;
      return std::move(out_);
    }
    // Allocated once the network is known to be small enough: per (channel, class), on a
    // network of a million nodes these would be hundreds of MB for a check that is declined.
    visited_.assign(static_cast<size_t>(g_.channels.size()) * k_, 0);
    if (!opt_.escapeClasses.empty()) adj_.resize(visited_.size());
    out_.deps.succ.assign(visited_.size(), {});
    if (!opt_.escapeClasses.empty()) out_.extended.succ.assign(visited_.size(), {});
    if (!translations_.empty() && !translatesAsSampled(dests)) {
      // Not invariant after all: every destination.
      translations_.clear();
      dests.clear();
      for (NodeId d = 0; d < g_.nodeCount; ++d)
        if (g_.terminal(d)) dests.push_back(d);
      out_.method = fmt::format("all destinations ({}); translation was tried and did not hold",
                                dests.size());
      // The estimate above counted the representatives only.
      out_.estimatedWork =
          (dests.size() + samples_.size()) * states * outcomes * (fns_.waits ? 2 : 1);
      if (out_.estimatedWork > budget) {
        out_.status = AnalysisStatus::kTooLarge;
        out_.message = fmt::format(
            "network of {} nodes is too large for the dependency check of a routing that is "
            "not translation-invariant; estimated {} routing steps (limit {})",
            g_.nodeCount, out_.estimatedWork, budget);
        return std::move(out_);
      }
    }
    const WorkBudget budgetSteps(fns_, limits_.maxEvalSteps);
    for (size_t i = 0; i < dests.size(); ++i) {
      if (auto why = budgetSteps.over(i, dests.size(), "the dependency check", "destinations")) {
        out_.status = AnalysisStatus::kTooLarge;
        out_.message = std::move(*why);
        return std::move(out_);
      }
      const NodeId d = dests[i];
      std::vector<std::pair<uint32_t, uint32_t>> edges, ext;
      explore(d, edges, ext);
      if (!refused_.empty()) {
        out_.status = AnalysisStatus::kTooLarge;
        out_.message = refused_;
        return std::move(out_);
      }
      if (!out_.errors.empty()) break;
      if (translations_.empty()) {
        for (auto [v, w] : edges) addEdge(out_.deps.succ[v], w);
        for (auto [v, w] : ext) addEdge(out_.extended.succ[v], w);
      } else {
        // Edges in one orbit have the same translates: translate one of each.
        for (auto* list : {&edges, &ext}) {
          for (auto& [v, w] : *list) {
            const NodeId t = toRep_[g_.channels[v / k_].src];
            v = move(v, t);
            w = move(w, t);
          }
          std::sort(list->begin(), list->end());
          list->erase(std::unique(list->begin(), list->end()), list->end());
        }
        for (NodeId t : translations_) {
          for (auto [v, w] : edges) addEdge(out_.deps.succ[move(v, t)], move(w, t));
          for (auto [v, w] : ext) addEdge(out_.extended.succ[move(v, t)], move(w, t));
        }
      }
    }
    if (!out_.errors.empty()) {
      out_.status = AnalysisStatus::kRouteErrors;
      out_.message = out_.errors.front().message;
    }
    for (auto& s : out_.deps.succ) std::sort(s.begin(), s.end());
    for (auto& s : out_.extended.succ) std::sort(s.begin(), s.end());
    return std::move(out_);
  }

 private:
  // The destinations to explore: one per orbit of the graph's translations
  // when the routing may be translated, else all.
  std::vector<NodeId> plan() {
    std::vector<NodeId> dests;
    const SymmetryVerdict verdict = symmetryVerdict(g_, fns_, limits_);
    // Switches are no destination: translations would map them onto routers that are.
    const bool symmetric = verdict.use && !g_.radices.empty() && !g_.representatives.empty() &&
                           !g_.hasSwitches();
    uint64_t product = 1;
    for (int64_t r : g_.radices) product *= static_cast<uint64_t>(r);
    if (symmetric && product == g_.nodeCount) {
      mr_.emplace(g_.radices);
      if (auto found = graphTranslations(g_, *mr_)) translations_ = std::move(*found);
    }
    if (!translations_.empty()) {
      std::vector<uint8_t> covered(g_.nodeCount, 0);
      toRep_.assign(g_.nodeCount, 0);
      for (NodeId d = 0; d < g_.nodeCount; ++d) {
        if (covered[d]) continue;
        dests.push_back(d);
        for (NodeId t : translations_) {
          const NodeId v = mr_->add(d, t);
          covered[v] = 1;
          toRep_[v] = mr_->neg(t);  // v + (-t) = d
        }
      }
      // Destinations to cross-check against the translated ones.
      for (NodeId t : {translations_.size() / 3, 2 * translations_.size() / 3})
        if (t > 0 && t < translations_.size()) samples_.push_back(translations_[t]);
      out_.method = fmt::format("{} destination{} + {} translations", dests.size(),
                                dests.size() == 1 ? "" : "s", translations_.size());
      return dests;
    }
    for (NodeId d = 0; d < g_.nodeCount; ++d)
      if (g_.terminal(d)) dests.push_back(d);
    out_.method = fmt::format("all destinations ({})", dests.size());
    notTranslated_ = verdict.why;
    if (!notTranslated_.empty()) out_.method += "; not by translation: " + notTranslated_;
    return dests;
  }

  ChannelId moveChannel(ChannelId c, NodeId t) const { return elab::moveChannel(g_, *mr_, c, t); }
  uint32_t move(uint32_t v, NodeId t) const {
    return moveChannel(v / k_, t) * k_ + v % k_;
  }

  // The translated dependencies of the first destination must be those
  // explored for its translates.
  bool translatesAsSampled(const std::vector<NodeId>& dests) {
    std::vector<std::pair<uint32_t, uint32_t>> base, ext, other;
    explore(dests.front(), base, ext);
    for (NodeId t : samples_) {
      std::vector<std::pair<uint32_t, uint32_t>> moved;
      for (auto [v, w] : base) moved.emplace_back(move(v, t), move(w, t));
      other.clear();
      ext.clear();
      explore(mr_->add(dests.front(), t), other, ext);
      std::sort(moved.begin(), moved.end());
      std::sort(other.begin(), other.end());
      if (moved != other) return false;
    }
    return out_.errors.empty();
  }

  // The candidates of a state, over both waits; false after an error.
  // `start` is the packet's state: its initial one when in.channel is none.
  bool candidatesAt(NodeId src, NodeId dst, NodeId cur, Hop in, const RouteState& start,
                    std::vector<Hop>& all) {
    all.clear();
    for (uint32_t wait : {0u, kLongWait}) {
      if (wait != 0 && !fns_.waits) break;
      RouteState state = start;
      // Past its first hop a packet of a routing that does not read the
      // source is explored for all sources at once: `src` is a stand-in.
      const NodeId named = in.channel != kNoChannel && !fns_.readsSource ? kAnySource : src;
      if (auto err = routeCandidates(g_, fns_, named, dst, cur, in, kUnknownHops, wait, state,
                                     step_)) {
        if (out_.errors.size() < limits_.maxErrors) out_.errors.push_back(std::move(*err));
        return false;
      }
      for (const Hop& h : step_)
        if (std::find(all.begin(), all.end(), h) == all.end()) all.push_back(h);
    }
    return true;
  }

  void tooManyInitials(NodeId src, NodeId dst) {
    refused_ = fmt::format(
        "a packet from node {} to node {} may start in more than {} random header states; the "
        "dependency check enumerates them all",
        src, dst, kMaxInitialStates);
  }

  bool isEscape(uint32_t v) const {
    const uint32_t k = v % k_;
    return k < opt_.escapeClasses.size() && opt_.escapeClasses[k];
  }

  void noEscape(NodeId cur, NodeId dst, Hop in) {
    if (!out_.escapeConnected) return;
    out_.escapeConnected = false;
    out_.escapeGap =
        in.channel == kNoChannel
            ? fmt::format("at node {} for destination {}, a packet just injected has no escape "
                          "candidate",
                          cur, dst)
            : fmt::format("at node {} for destination {}, a packet that arrived by {} in class "
                          "{} has no escape candidate",
                          cur, dst, g_.portName(in.channel), in.vcClass);
  }

  // Every state a packet bound for d can reach: dependency edges, and for
  // Duato the extended edges of the escape classes. A state is a (channel,
  // class) vertex and, for a routing with header fields, the header.
  void explore(NodeId d, std::vector<std::pair<uint32_t, uint32_t>>& edges,
               std::vector<std::pair<uint32_t, uint32_t>>& ext) {
    const bool duato = !opt_.escapeClasses.empty();
    struct State {
      uint32_t v;
      uint64_t header;
    };
    std::vector<State> stack;
    std::vector<uint32_t> touched;
    std::vector<Hop> all;
    auto reach = [&](uint32_t w, uint64_t header) {
      const bool fresh = !visited_[w];
      if (fresh) {
        visited_[w] = 1;
        touched.push_back(w);
      }
      if (fns_.hasHeader ? seen_.insert({w, header}).second : fresh) stack.push_back({w, header});
    };
    // A routing that reads the source is explored source by source (the
    // state then includes it); any other from all sources at once.
    for (NodeId first = 0; first < g_.nodeCount && out_.errors.empty() && refused_.empty();
         ++first) {
      const NodeId last = fns_.readsSource ? first : g_.nodeCount - 1;
      for (NodeId s = first; s <= last && out_.errors.empty(); ++s) {
        if ((s == d && !(fns_.selfRoutes && g_.selfLinked(d))) || !g_.terminal(s)) continue;
        const Hop in{kNoChannel, 0};
        if (!initialStates(fns_, s, d, initials_)) {
          tooManyInitials(s, d);
          break;
        }
        for (const InitialState& init : initials_) {
          if (!out_.errors.empty()) break;
          if (!candidatesAt(s, d, s, in, init.state, all)) break;
          bool escape = false;
          for (const Hop& h : all) {
            const uint32_t w = h.channel * k_ + h.vcClass;
            escape |= isEscape(w);
            reach(w, h.header);
          }
          if (duato && !escape) noEscape(s, d, in);
        }
      }
      while (!stack.empty() && out_.errors.empty()) {
        const State at = stack.back();
        stack.pop_back();
        const uint32_t v = at.v;
        const Hop in{v / k_, static_cast<uint8_t>(v % k_), at.header};
        const NodeId cur = g_.channels[in.channel].dst;
        if (cur == d) continue;  // ejects
        // Without readsSource the source does not matter: first stands in.
        RouteState state{};
        state.words[0] = first;
        state.words[1] = static_cast<int64_t>(at.header);
        if (!candidatesAt(first, d, cur, in, state, all)) break;
        bool escape = false;
        for (const Hop& h : all) {
          const uint32_t w = h.channel * k_ + h.vcClass;
          escape |= isEscape(w);
          edges.emplace_back(v, w);
          if (duato) adj_[v].push_back(w);
          reach(w, h.header);
        }
        if (duato && !escape) noEscape(cur, d, in);
      }
      if (duato) extendedEdges(touched, ext);
      for (uint32_t v : touched) {
        visited_[v] = 0;
        if (duato) adj_[v].clear();
      }
      touched.clear();
      seen_.clear();
      if (!fns_.readsSource) break;
    }
  }

  // From each escape state, the escape states it may ask for next, directly
  // or after non-escape hops (Duato's indirect dependencies).
  void extendedEdges(const std::vector<uint32_t>& states,
                     std::vector<std::pair<uint32_t, uint32_t>>& ext) {
    std::vector<uint32_t> todo, seen;
    for (uint32_t e : states) {
      if (!isEscape(e)) continue;
      todo.assign(adj_[e].begin(), adj_[e].end());
      seen.clear();
      while (!todo.empty()) {
        const uint32_t w = todo.back();
        todo.pop_back();
        if (std::find(seen.begin(), seen.end(), w) != seen.end()) continue;
        seen.push_back(w);
        if (isEscape(w)) {
          ext.emplace_back(e, w);
        } else {
          todo.insert(todo.end(), adj_[w].begin(), adj_[w].end());
        }
      }
    }
  }

  const Graph& g_;
  const RouteFunctions& fns_;
  const DeadlockOptions& opt_;
  std::string notTranslated_;  // why the routing may not be explored by translation
  const Limits& limits_;
  const uint32_t k_;
  DependencyBuild out_;
  std::vector<uint8_t> visited_;
  // States (vertex, header) reached, for a routing with header fields.
  struct StateHash {
    size_t operator()(const std::pair<uint32_t, uint64_t>& s) const {
      return std::hash<uint64_t>()(s.second * 0x9E3779B97F4A7C15ULL ^ s.first);
    }
  };
  std::unordered_set<std::pair<uint32_t, uint64_t>, StateHash> seen_;
  std::vector<std::vector<uint32_t>> adj_;  // this destination's edges, for Duato
  std::vector<Hop> step_;
  std::vector<InitialState> initials_;
  std::string refused_;  // why the check gave up part way (too many random states)
  std::vector<NodeId> translations_;
  std::vector<NodeId> samples_;
  std::vector<NodeId> toRep_;  // per node: the translation to its orbit's representative
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
  if (!fns.candidates) return invalid("no routing function");
  if (g.nodeCount == 0) return invalid("the network has no nodes");
  if (options.numVcs < 1) return invalid("at least one virtual channel is needed");
  return Builder(g, fns, options, limits).run();
}

std::optional<std::vector<DependencyHop>> findCycle(const DependencyGraph& deps) {
  const uint32_t k = deps.classes;
  const size_t vertices = deps.succ.size();
  enum : uint8_t { kWhite, kGray, kBlack };
  std::vector<uint8_t> color(vertices, kWhite);
  struct Frame {
    uint32_t vertex;
    uint32_t next;  // index of the successor to explore next
  };
  std::vector<Frame> stack;
  for (uint32_t root = 0; root < vertices; ++root) {
    if (color[root] != kWhite || deps.succ[root].empty()) continue;
    color[root] = kGray;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      Frame& top = stack.back();
      const auto& succ = deps.succ[top.vertex];
      if (top.next == succ.size()) {
        color[top.vertex] = kBlack;
        stack.pop_back();
        continue;
      }
      const uint32_t w = succ[top.next++];
      if (color[w] == kGray) {
        size_t i = stack.size();
        while (stack[i - 1].vertex != w) --i;
        std::vector<DependencyHop> cycle;
        for (size_t j = i - 1; j < stack.size(); ++j)
          cycle.push_back({stack[j].vertex / k, static_cast<uint8_t>(stack[j].vertex % k)});
        return cycle;
      }
      if (color[w] == kWhite) {
        color[w] = kGray;
        stack.push_back({w, 0});  // invalidates `top`
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
  auto cycle = findCycle(b.deps);
  if (!cycle) {
    r.deadlockFree = true;
    r.reason = "the channel dependency graph is acyclic";
    return r;
  }
  const bool escapes = std::find(options.escapeClasses.begin(), options.escapeClasses.end(),
                                 true) != options.escapeClasses.end();
  if (escapes && b.escapeConnected) {
    auto extended = findCycle(b.extended);
    if (!extended) {
      r.deadlockFree = true;
      r.byDuato = true;
      r.reason =
          "by Duato's condition: the escape classes are offered everywhere and their extended "
          "dependency graph is acyclic";
      return r;
    }
    cycle = std::move(extended);
    r.message = "the escape classes' extended dependency graph has a cycle";
  } else if (escapes) {
    r.message = b.escapeGap;
  }
  // Classes are named in the text when packets use more than one.
  std::vector<bool> used(b.deps.classes, false);
  for (uint32_t v = 0; v < b.deps.succ.size(); ++v)
    if (!b.deps.succ[v].empty()) used[v % b.deps.classes] = true;
  r.cycle = std::move(*cycle);
  r.cycleText = formatCycle(g, r.cycle, std::count(used.begin(), used.end(), true) > 1);
  return r;
}

}  // namespace ndl::elab
