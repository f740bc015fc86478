// The router's use of candidate routes (docs/routing.md): a header waiting for an output VC
// is routed again every router clock and sees how long it has waited; priority tiers are
// tried in order; the selections pick among free candidates and stay deterministic.
#include <gtest/gtest.h>

#include <algorithm>

#include "ndl/runtime/stats/json_output.h"
#include "oracle_routing.h"
#include "test_networks.h"

namespace ndl::rt {
namespace {

using testing::baseParams;
using testing::setLoad;

using testing::resultsText;

// Observations of the routing calls of one run (the tests run one simulation at a time).
struct Seen {
  int64_t calls = 0;
  uint32_t max_blocked = 0;
  int64_t escaped = 0;  // headers that took the fallback tier
};
Seen g_seen;

RouteSet countingDor(const RouteContext& ctx) {
  ++g_seen.calls;
  g_seen.max_blocked = std::max(g_seen.max_blocked, ctx.blocked_for);
  return oracle::dimensionOrder(ctx);
}

TEST(Rerouting, WaitingHeadersAreRoutedAgainAndSeeTheirWait) {
  // A 4-node ring at a load beyond saturation: headers wait, and every clock of waiting is
  // one more routing call with a larger blocked_for.
  SimParams p = baseParams(FlowControl::kWormhole, 8, 8, 1);
  p.virtual_channels = 1;
  p.route_fn = countingDor;
  setLoad(p, 0.2);
  p.creation_max = 2000;
  p.deadlock_timeout_clocks = 1000;
  g_seen = {};
  const Results r = simulate(makeMesh({4}), p);
  ASSERT_EQ(r.messages.delivered, 2000);
  EXPECT_GT(r.collisions_total, 0);
  // One call per packet hop when nothing waits (the destination ejects without asking);
  // blocked headers asked again.
  EXPECT_GT(g_seen.calls, r.flit_hops / 8 * 11 / 10);
  EXPECT_GT(g_seen.max_blocked, 8u);
}

TEST(Rerouting, AnIdleHeaderIsRoutedOncePerHop) {
  SimParams p = baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.route_fn = countingDor;
  g_seen = {};
  const Results r = testing::runSingle(makeMesh({8}), p, 0, 7);
  ASSERT_EQ(r.messages.delivered, 1);
  EXPECT_EQ(g_seen.calls, 7);  // one per router before the destination, which ejects
  EXPECT_EQ(g_seen.max_blocked, 0u);
}

uint64_t zeroHeader(int32_t, int32_t, uint64_t) { return 0; }

// Waiting headers (docs/routing.md): with the waits at which the routing's answer may change
// (SimParams::wait_breaks), a header found blocked is routed again only at those or when one
// of its candidates may have become free. Minimal adaptive routing on VC 0 of a 4x4 mesh;
// after kEscapeAfter clocks of waiting also VC 1 of the dimension-order port, as a second
// tier that marks the header "escaped" (bit 0). VC 1 may be a token class.
constexpr uint32_t kEscapeAfter = 12;
RouteSet escapeAfterWait(const RouteContext& ctx) {
  ++g_seen.calls;
  const TopologyIndex& t = *ctx.topo;
  RouteSet r{{0, 0, 0, 0}, -1};
  for (int32_t d = 0; d < t.numDims(); ++d) {
    const int32_t cur = t.coord(ctx.node, d), dst = t.coord(ctx.dest, d);
    if (cur != dst) r.tier[0] |= oracle::single(t.dirPort(ctx.node, d, dst > cur ? 1 : -1),
                                                ctx.num_vcs, 0, 1).tier[0];
  }
  if ((ctx.header & 1) != 0 || ctx.blocked_for >= kEscapeAfter) {
    const RouteSet dor = oracle::dimensionOrder(ctx);
    const int port = __builtin_ctzll(dor.tier[0]) / ctx.num_vcs;
    const uint64_t escape = oracle::single(port, ctx.num_vcs, 1, 2).tier[0];
    if ((ctx.header & 1) != 0) {
      r.tier[0] = escape;  // escaped packets stay in VC 1
    } else {
      r.tier[1] = escape;
      r.writes = 1;
      r.write[0] = HeaderWrite{{0, escape, 0, 0}, 1, 1};
    }
  }
  return r;
}

SimParams escapeParams(bool token) {
  SimParams p = baseParams(FlowControl::kWormhole, 8, 4, 1);
  p.virtual_channels = 2;
  p.route_fn = escapeAfterWait;
  p.header_init = zeroHeader;
  p.header_fields = {{"escaped", 0, 1}};
  p.vc_class = {0, 1};
  p.class_names = {"adaptive", "escape"};
  p.recovery_field = 1;
  p.recovery_field_name = "escaped";
  if (token) p.token_classes = 2;
  p.atomic_vc_allocation = true;
  p.selection = Selection::kMostCredits;
  setLoad(p, 0.5);  // beyond saturation: many headers wait, and some escape
  p.creation_max = 4000;
  p.seed = 5;
  return p;
}

TEST(WaitingHeaders, SkippingTheirRoutingChangesNothingButTheCalls) {
  for (bool token : {false, true}) {
    SimParams every = escapeParams(token);
    g_seen = {};
    const Results a = simulate(makeMesh({4, 4}), every);
    const int64_t every_calls = g_seen.calls;
    SimParams breaks = every;
    breaks.wait_breaks = std::vector<uint32_t>{kEscapeAfter};
    g_seen = {};
    const Results b = simulate(makeMesh({4, 4}), breaks);
    ASSERT_EQ(a.messages.delivered, 4000) << token;
    EXPECT_GT(a.recoveries, 0) << token;
    if (token) {
      EXPECT_GT(a.token_captures, 0);
    }
    // (Compared whole, without printing two results files on a failure.)
    EXPECT_TRUE(resultsText(a) == resultsText(b)) << token;
    // Most waiting clocks need no routing call.
    EXPECT_LT(g_seen.calls * 2, every_calls) << token;
    // The breakpoint is what makes a waiting header escape: a routing said not to read its
    // wait waits on for an adaptive VC instead, and the run differs.
    SimParams wrong = every;
    wrong.wait_breaks = std::vector<uint32_t>{};
    const Results c = simulate(makeMesh({4, 4}), wrong);
    EXPECT_LT(c.recoveries, a.recoveries) << token;
    EXPECT_FALSE(resultsText(c) == resultsText(a)) << token;
  }
}

// Tier 0: VC 0 of the minimal port; tier 1: VC 1 of it. A header takes VC 1 only when VC 0
// is not free.
RouteSet tieredDor(const RouteContext& ctx) {
  const RouteSet any = oracle::dimensionOrder(ctx);
  const int port = __builtin_ctzll(any.tier[0]) / ctx.num_vcs;
  RouteSet r = oracle::single(port, ctx.num_vcs, 0, 1);
  r.tier[1] = oracle::single(port, ctx.num_vcs, 1, 2).tier[0];
  if (ctx.in_vc == 1 && ctx.arrived >= 0) ++g_seen.escaped;
  return r;
}

TEST(Tiers, TheSecondTierIsUsedOnlyWhenTheFirstIsBusy) {
  SimParams p = baseParams(FlowControl::kWormhole, 8, 8, 1);
  p.virtual_channels = 2;
  p.route_fn = tieredDor;
  // Alone in the network, a packet never leaves tier 0.
  g_seen = {};
  Results r = testing::runSingle(makeMesh({8}), p, 0, 7);
  ASSERT_EQ(r.messages.delivered, 1);
  EXPECT_EQ(g_seen.escaped, 0);
  // Under load, VC 0 is often owned: some headers arrive on VC 1.
  setLoad(p, 0.4);
  p.creation_max = 3000;
  g_seen = {};
  r = simulate(makeMesh({8}), p);
  ASSERT_EQ(r.messages.delivered, 3000);
  EXPECT_GT(g_seen.escaped, 0);
}

// On a ring of even radix, half-way destinations have two minimal ways; offering both lets
// the selection choose.
RouteSet bothWaysAtTies(const RouteContext& ctx) {
  const TopologyIndex& t = *ctx.topo;
  const int32_t k = t.radix(0);
  const int32_t fwd = ((t.coord(ctx.dest, 0) - t.coord(ctx.node, 0)) % k + k) % k;
  if (2 * fwd != k) return oracle::dimensionOrder(ctx);
  // At the source only: afterwards the way is no longer a tie.
  const RouteSet plus = oracle::single(t.dirPort(ctx.node, 0, 1), ctx.num_vcs, 0, ctx.num_vcs);
  const RouteSet minus = oracle::single(t.dirPort(ctx.node, 0, -1), ctx.num_vcs, 0, ctx.num_vcs);
  return RouteSet{{plus.tier[0] | minus.tier[0], 0, 0, 0}, -1};
}

Results tieRun(Selection s, uint64_t seed) {
  SimParams p = baseParams(FlowControl::kWormhole, 4, 8, 1);
  p.virtual_channels = 2;
  testing::useDateline(p);  // the dateline oracle for everything but the ties
  p.route_fn = bothWaysAtTies;
  p.selection = s;
  p.seed = seed;
  p.creation_rate = 0;
  // Every node sends 200 messages half way round.
  for (int64_t c = 0; c < 200; ++c)
    for (int32_t n = 0; n < 8; ++n) p.script.push_back({c * 20, n, (n + 4) % 8, 128});
  return simulate(makeRing(8), p);
}

TEST(Selection, RandomSplitsTiesAndIsDeterministic) {
  const Results first = tieRun(Selection::kFirst, 1);
  const Results random = tieRun(Selection::kRandom, 1);
  ASSERT_EQ(first.messages.delivered, 1600);
  ASSERT_EQ(random.messages.delivered, 1600);
  // First takes + (port 0) whenever it is free and loads the + ring; Random spreads the
  // half-way traffic over both rings and waits less.
  EXPECT_LT(random.network_latency.mean, first.network_latency.mean);
  // The same seed gives the same run; another seed another one.
  const Results again = tieRun(Selection::kRandom, 1);
  EXPECT_EQ(again.cycles, random.cycles);
  EXPECT_DOUBLE_EQ(again.network_latency.mean, random.network_latency.mean);
  EXPECT_EQ(again.collisions_total, random.collisions_total);
  const Results other = tieRun(Selection::kRandom, 2);
  EXPECT_NE(other.network_latency.mean, random.network_latency.mean);
}

TEST(Selection, EverySelectionDeliversEverythingOnATorus) {
  for (Selection s : {Selection::kFirst, Selection::kRandom, Selection::kMostCredits,
                      Selection::kStraightFirst}) {
    SimParams p = baseParams(FlowControl::kWormhole, 4, 8, 1);
    p.virtual_channels = 2;
    testing::useDateline(p);
    p.selection = s;
    setLoad(p, 0.3);
    p.creation_max = 4000;
    const Results r = simulate(makeTorus({4, 4}), p);
    EXPECT_EQ(r.messages.delivered, 4000) << selectionName(s);
    EXPECT_EQ(r.status, RunStatus::kOk) << selectionName(s);
  }
}

// MostCredits against First: both VCs of the dimension-order port are candidates of one tier.
// A stream of packets from one end of a line to the other finds VC 0 given up by the previous
// tail while that packet's flits still fill the next buffer (fewer credits) and VC 1 empty.
struct VcSeen {
  int64_t hops = 0, on_vc1 = 0;
};
VcSeen g_vc;

RouteSet bothVcsDor(const RouteContext& ctx) {
  if (ctx.arrived >= 0 && ctx.blocked_for == 0) {  // arrived over a link, first call here
    ++g_vc.hops;
    g_vc.on_vc1 += ctx.in_vc == 1;
  }
  const RouteSet any = oracle::dimensionOrder(ctx);
  const int port = __builtin_ctzll(any.tier[0]) / ctx.num_vcs;
  return oracle::single(port, ctx.num_vcs, 0, 2);
}

VcSeen streamRun(Selection s) {
  SimParams p = baseParams(FlowControl::kWormhole, 8, 8, 1);
  p.virtual_channels = 2;
  p.atomic_vc_allocation = false;
  p.route_fn = bothVcsDor;
  p.selection = s;
  for (int i = 0; i < 50; ++i) p.script.push_back({0, 0, 7, 256});
  g_vc = {};
  const Results r = simulate(makeMesh({8}), p);
  EXPECT_EQ(r.messages.delivered, 50) << selectionName(s);
  return g_vc;
}

TEST(Selection, MostCreditsTakesTheEmptierVcWhereFirstTakesTheLowest) {
  const VcSeen first = streamRun(Selection::kFirst);
  const VcSeen most = streamRun(Selection::kMostCredits);
  ASSERT_GT(first.hops, 50 * 5);
  ASSERT_GT(most.hops, 50 * 5);
  // First: VC 0 whenever it is free, which it is once the tail ahead has left.
  EXPECT_EQ(first.on_vc1, 0);
  // MostCredits: consecutive packets alternate, VC 0 still holding the previous one's flits.
  EXPECT_GT(most.on_vc1 * 10, most.hops * 4);
  EXPECT_LT(most.on_vc1 * 10, most.hops * 6);
}

// Header writes (docs/routing.md): both VCs of the dimension-order port are candidates of one
// tier; taking VC k writes k into header bit 0. A header that arrives with a bit that does not
// name the VC it came in on was given a VC the allocator should not have paired with the write
// the selection chose (an earlier grant of the same clock took the chosen VC).
struct HeaderSeen {
  int64_t checked = 0, mismatched = 0, on_vc1 = 0;
};
HeaderSeen g_header;

RouteSet headerMarkingDor(const RouteContext& ctx) {
  const bool injected = ctx.arrived < 0;
  if (!injected) {
    ++g_header.checked;
    g_header.mismatched += static_cast<int64_t>(ctx.header & 1) != ctx.in_vc;
    g_header.on_vc1 += ctx.in_vc == 1;
  }
  const RouteSet any = oracle::dimensionOrder(ctx);
  const int port = __builtin_ctzll(any.tier[0]) / ctx.num_vcs;
  RouteSet r = oracle::single(port, ctx.num_vcs, 0, 2);
  r.writes = 2;
  for (int k = 0; k < 2; ++k) {
    HeaderWrite& w = r.write[k];
    w = HeaderWrite{};
    w.cand[0] = oracle::single(port, ctx.num_vcs, k, k + 1).tier[0];
    w.clear = 1;
    w.value = static_cast<uint64_t>(k);
  }
  return r;
}

TEST(HeaderWrites, TheHeaderIsWrittenForTheVcGranted) {
  for (Selection s : {Selection::kFirst, Selection::kRandom, Selection::kMostCredits}) {
    SimParams p = baseParams(FlowControl::kWormhole, 4, 8, 1);
    p.virtual_channels = 2;
    p.route_fn = headerMarkingDor;
    p.header_init = zeroHeader;
    p.header_fields = {{"vc", 0, 1}};
    p.selection = s;
    setLoad(p, 0.25);
    p.creation_max = 3000;
    g_header = {};
    const Results r = simulate(makeMesh({4, 4}), p);
    EXPECT_EQ(r.messages.delivered, 3000) << selectionName(s);
    EXPECT_GT(g_header.checked, 3000) << selectionName(s);
    EXPECT_GT(g_header.on_vc1, 100) << selectionName(s);
    EXPECT_EQ(g_header.mismatched, 0) << selectionName(s);
  }
}

// A routing that reports a header field written out of its range stops the run naming it.
RouteSet outOfRange(const RouteContext& ctx) {
  RouteSet r = oracle::dimensionOrder(ctx);
  r.header_error = kHeaderOutOfRange << 8 | 0;
  return r;
}

TEST(HeaderWrites, AWriteOutsideItsRangeStopsTheRunNamingTheField) {
  SimParams p = baseParams(FlowControl::kWormhole, 4, 8, 1);
  p.route_fn = outOfRange;
  p.header_init = zeroHeader;
  p.header_fields = {{"budget", 0, 3}};
  const Results r = testing::runSingle(makeMesh({8}), p, 0, 7);
  EXPECT_EQ(r.status, RunStatus::kRoutingError);
  EXPECT_NE(r.status_message.find("routing at node 0 for destination 7 sets header field 'budget' "
                                  "outside its range 0..3"),
            std::string::npos)
      << r.status_message;
  EXPECT_EQ(r.messages.delivered, 0);
}

}  // namespace
}  // namespace ndl::rt
