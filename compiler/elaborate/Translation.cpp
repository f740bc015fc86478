#include "compiler/elaborate/Translation.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace ndl::elab {

MixedRadix::MixedRadix(const std::vector<int64_t>& radices) {
  for (int64_t k : radices) radices_.push_back(static_cast<uint32_t>(k));
}

NodeId MixedRadix::neg(NodeId a) const {
  NodeId id = 0, stride = 1;
  for (uint32_t k : radices_) {
    id += ((k - a % k) % k) * stride;
    a /= k;
    stride *= k;
  }
  return id;
}

NodeId MixedRadix::add(NodeId a, NodeId b) const {
  NodeId id = 0, stride = 1;
  for (uint32_t k : radices_) {
    const uint32_t x = a % k, y = b % k;
    a /= k;
    b /= k;
    id += ((x + y) % k) * stride;
    stride *= k;
  }
  return id;
}

namespace {

// A channel's direction, except on a dimension of radix 2 (hypercubes), where
// + and - reach the same neighbour and a translate may swap them.
int8_t dirOf(const Graph& g, const Channel& ch) {
  return ch.dim < g.radices.size() && g.radices[ch.dim] == 2 ? 0 : ch.dir;
}

// Nodes numbered by the set of their channels (dimension, direction, and
// offset to the other end): adding t to every node maps each channel onto one
// of the same dimension and direction exactly when every node and its
// translate have the same number.
std::vector<uint32_t> nodeKinds(const Graph& g, const MixedRadix& mr) {
  std::map<std::vector<std::tuple<uint16_t, int8_t, NodeId>>, uint32_t> ids;
  std::vector<uint32_t> kind(g.nodeCount);
  std::vector<std::tuple<uint16_t, int8_t, NodeId>> key;
  for (NodeId v = 0; v < g.nodeCount; ++v) {
    key.clear();
    for (ChannelId c = g.outBegin(v); c < g.outEnd(v); ++c)
      key.emplace_back(g.channels[c].dim, dirOf(g, g.channels[c]), mr.sub(g.channels[c].dst, v));
    std::sort(key.begin(), key.end());
    kind[v] = ids.emplace(key, static_cast<uint32_t>(ids.size())).first->second;
  }
  return kind;
}

}  // namespace

std::optional<std::vector<NodeId>> graphTranslations(const Graph& g, const MixedRadix& mr) {
  const NodeId n = g.nodeCount;
  const std::vector<uint32_t> kind = nodeKinds(g, mr);
  const bool uniform = std::all_of(kind.begin(), kind.end(), [](uint32_t x) { return x == 0; });
  if (!uniform && uint64_t{n} * n > 400'000'000ULL) return std::nullopt;
  std::vector<NodeId> translations;
  for (NodeId t = 0; t < n; ++t) {
    bool same = true;
    for (NodeId v = 0; v < n && same && !uniform; ++v) same = kind[v] == kind[mr.add(v, t)];
    if (same) translations.push_back(t);
  }
  return translations;
}

ChannelId moveChannel(const Graph& g, const MixedRadix& mr, ChannelId c, NodeId t) {
  const Channel& ch = g.channels[c];
  const NodeId s = mr.add(ch.src, t);
  const NodeId d = mr.add(ch.dst, t);
  for (ChannelId x = g.outBegin(s); x < g.outEnd(s); ++x) {
    const Channel& y = g.channels[x];
    if (y.dim == ch.dim && dirOf(g, y) == dirOf(g, ch) && y.dst == d) return x;
  }
  return kNoChannel;
}

namespace {

// The check makes at most limits.maxEvalSteps / kStepsPerCheckCall routing calls: about 1%
// of what one analysis may spend, for routings of a few dozen steps a call (0.4M calls,
// about half a second, under `ndlc check`; a hundredth of that under `ndlc build`).
constexpr uint64_t kStepsPerCheckCall = 750;

class Checker {
 public:
  Checker(const Graph& g, const RouteFunctions& fns, const Limits& limits)
      : g_(g), fns_(fns), limits_(limits), mr_(g.radices) {}

  SymmetryVerdict run() {
    const NodeId n = g_.nodeCount;
    uint64_t product = 1;
    for (int64_t r : g_.radices) product *= static_cast<uint64_t>(r);
    if (g_.radices.empty() || product != n) return no("the node numbers are not coordinates");
    if (!placeNodes()) return verdict_;
    // Channels into each representative, for the ways a packet arrives there (a node's
    // are their translates).
    for (NodeId r : g_.representatives) into_[r];
    for (ChannelId c = 0; c < g_.channels.size(); ++c) {
      auto it = into_.find(g_.channels[c].dst);
      if (it != into_.end()) it->second.push_back(c);
    }
    uint32_t maxIn = 0;
    for (const auto& [r, in] : into_)
      maxIn = std::max<uint32_t>(maxIn, static_cast<uint32_t>(in.size()));
    const uint64_t perPair = 2ULL * (1 + uint64_t{maxIn} * std::max<uint32_t>(1, fns_.classes)) *
                             (fns_.waits ? 2 : 1);
    // The (node, destination offset) pairs compared: every pair if that fits the
    // calls allowed, else every node toward a spread of offsets, else a spread of
    // nodes, each toward its own offset.
    const uint64_t pairs =
        std::max<uint64_t>(1, limits_.maxEvalSteps / kStepsPerCheckCall / perPair);
    std::vector<std::pair<NodeId, NodeId>> plan;
    if (uint64_t{n} * (n - 1) <= pairs) {
      for (NodeId a = 0; a < n; ++a)
        for (NodeId o = 1; o < n; ++o) plan.emplace_back(a, o);
    } else if (n <= pairs) {
      const uint64_t k = pairs / n;
      for (NodeId a = 0; a < n; ++a)
        for (uint64_t i = 1; i <= k; ++i)
          plan.emplace_back(a, static_cast<NodeId>(1 + (i * (n - 1) + a) / (k + 1) % (n - 1)));
    } else {
      for (uint64_t i = 0; i < pairs; ++i)
        plan.emplace_back(static_cast<NodeId>(i * n / pairs),
                          static_cast<NodeId>(1 + (i * 7919) % (n - 1)));
    }
    const WorkBudget budget(fns_, limits_.maxEvalSteps);
    for (size_t i = 0; i < plan.size(); ++i) {
      if (i % 256 == 255) {
        if (auto over = budget.over(i + 1, plan.size(), "checking that the routing moves with "
                                                        "the translations", "pairs"))
          return no(*over);
      }
      const auto [a, o] = plan[i];
      if (t_[a] != 0 && !samePair(a, o)) return verdict_;  // t_[a] == 0: a representative
    }
    verdict_.use = true;
    return verdict_;
  }

 private:
  SymmetryVerdict no(std::string why) {
    verdict_.use = false;
    verdict_.why = std::move(why);
    return verdict_;
  }

  // Each node's representative and the translation taking it there; false
  // (verdict set) when they do not cover the network.
  bool placeNodes() {
    const NodeId n = g_.nodeCount;
    const std::optional<std::vector<NodeId>> translations = graphTranslations(g_, mr_);
    if (!translations) {
      no("the network is too large to find its translations");
      return false;
    }
    rep_.assign(n, kNone);
    t_.assign(n, 0);
    for (NodeId r : g_.representatives) {
      for (NodeId t : *translations) {
        const NodeId a = mr_.add(r, t);
        if (rep_[a] != kNone) continue;
        rep_[a] = r;
        t_[a] = t;
      }
    }
    for (NodeId a = 0; a < n; ++a) {
      if (rep_[a] == kNone) {
        no(fmt::format("no translate of a representative is node {}", a));
        return false;
      }
    }
    return true;
  }

  ChannelId moveChannel(ChannelId c, NodeId t) const { return elab::moveChannel(g_, mr_, c, t); }

  // Node a toward a + o against its representative r toward r + o, every way in and wait.
  bool samePair(NodeId a, NodeId o) {
    const NodeId r = rep_[a], t = t_[a];
    const NodeId b = mr_.add(a, o), rb = mr_.add(r, o);
    if (!sameCandidates(a, b, r, rb, t, Hop{kNoChannel, 0}, Hop{kNoChannel, 0})) return false;
    for (ChannelId c : into_.at(r)) {
      const ChannelId moved = moveChannel(c, t);
      if (moved == kNoChannel) return no(fmt::format("channel {} has no translate", c)).use;
      for (uint32_t k = 0; k < std::max<uint32_t>(1, fns_.classes); ++k) {
        const Hop inR{c, static_cast<uint8_t>(k)}, inA{moved, static_cast<uint8_t>(k)};
        if (!sameCandidates(a, b, r, rb, t, inA, inR)) return false;
      }
    }
    return true;
  }

  bool sameCandidates(NodeId a, NodeId b, NodeId r, NodeId rb, NodeId t, Hop inA, Hop inR) {
    for (uint32_t wait : {0u, kLongWait}) {
      if (wait != 0 && !fns_.waits) break;
      // Injected: the source is where the packet is; past its first hop any
      // source (the routing reads none).
      const NodeId srcA = inA.channel == kNoChannel ? a : kAnySource;
      const NodeId srcR = inR.channel == kNoChannel ? r : kAnySource;
      const bool okA = candidatesAt(srcA, b, a, inA, wait, hopsA_);
      const bool okR = candidatesAt(srcR, rb, r, inR, wait, hopsR_);
      if (!okA && !okR) continue;  // the same failure; the traces report it
      bool same = okA == okR;
      if (same) {
        for (Hop& h : hopsR_) h.channel = moveChannel(h.channel, t);
        auto order = [](const Hop& x, const Hop& y) {
          return std::tie(x.channel, x.vcClass, x.header) <
                 std::tie(y.channel, y.vcClass, y.header);
        };
        std::sort(hopsA_.begin(), hopsA_.end(), order);
        std::sort(hopsR_.begin(), hopsR_.end(), order);
        same = hopsA_ == hopsR_;
      }
      if (!same) {
        return no(fmt::format("the routing's candidates at node {} toward node {} are not the "
                              "translates of those at node {} toward node {}",
                              a, b, r, rb))
            .use;
      }
    }
    return true;
  }

  // The routing has no header fields and reads no source (the form's
  // conditions): its state is the source alone, and a stand-in past the first hop.
  bool candidatesAt(NodeId src, NodeId dst, NodeId cur, Hop in, uint32_t wait,
                    std::vector<Hop>& out) {
    RouteState state{};
    state.words[0] = src == kAnySource ? 0 : src;
    return !routeCandidates(g_, fns_, src, dst, cur, in, kUnknownHops, wait, state, out);
  }

  static constexpr NodeId kNone = UINT32_MAX;
  const Graph& g_;
  const RouteFunctions& fns_;
  const Limits& limits_;
  MixedRadix mr_;
  std::vector<NodeId> rep_;  // each node's representative
  std::vector<NodeId> t_;    // and the translation from it: rep_[a] + t_[a] = a
  std::map<NodeId, std::vector<ChannelId>> into_;  // per representative
  std::vector<Hop> hopsA_, hopsR_;
  SymmetryVerdict verdict_;
};

}  // namespace

SymmetryVerdict symmetryVerdict(const Graph& g, const RouteFunctions& fns, const Limits& limits) {
  const bool repsValid =
      !g.representatives.empty() && std::all_of(g.representatives.begin(), g.representatives.end(),
                                                [&](NodeId r) { return r < g.nodeCount; });
  if (!fns.translationInvariant || !limits.useSymmetry || !repsValid || !fns.candidates) return {};
  return Checker(g, fns, limits).run();
}

}  // namespace ndl::elab
