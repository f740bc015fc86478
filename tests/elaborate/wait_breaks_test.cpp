// The waits at which a routing's answer may change (elab::waitBreaks): the simulator routes a
// blocked header again only at these or when a candidate may have become free, so they must
// include every wait at which the routing's candidates change. Checked against the
// evaluator: each routing below is asked at every wait from 0 to 80 clocks, and the waits at
// which its candidates differ from the clock before must be exactly the breakpoints (a single
// comparison) or among them.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tests/elaborate/ElaboratedText.h"

namespace ndl::elab {
namespace {

using Elaborated = ElaboratedText;

// A 4x4 mesh with two VC classes, routed by `routing` (a define-routing named Probe).
std::unique_ptr<Elaborated> elaborateWith(const std::string& routing) {
  return elaborateText("probe.ndl", routing + R"(
    (Topology (Mesh 4 4))
    (RoutingAlgorithm Probe)
    (VirtualChannels 2)
    (RecoveryTimeout 20clock)
    (NetworkChannelWidth 32bit)
    (NetworkFrequency 50MHz)
    (NetworkPacketSize 256bit)
    (MessageCreationInterval 2usec))");
}

// The waits in [1, 80] at which the candidates from node 0 to node 15 differ from the wait
// before.
std::set<int64_t> observedChanges(Elaborated& e) {
  bool failed = false;
  RouteFunctions fns = routeFunctions(*e.network, e.checked->defs, *e.evaluator, failed);
  std::set<int64_t> changes;
  std::vector<Hop> before;
  for (uint32_t w = 0; w <= 80; ++w) {
    RouteState state{};
    std::vector<Hop> hops;
    EXPECT_EQ(fns.candidates(0, 15, Hop{}, w, state, hops), CandidateStatus::kOk);
    auto key = [](const std::vector<Hop>& v) {
      std::vector<std::pair<uint32_t, uint32_t>> k;
      for (const Hop& h : v) k.emplace_back(h.channel, h.vcClass);
      return k;
    };
    if (w > 0 && key(hops) != key(before)) changes.insert(w);
    before = hops;
  }
  EXPECT_FALSE(failed);
  return changes;
}

std::string probe(const std::string& condition) {
  return "(define-routing (Probe) (VcClass a 1) (VcClass b 1)\n"
         "  (if " + condition + " (minimal-from current dest 0 b) (minimal-from current dest 0 a)))";
}

TEST(WaitBreaks, EveryComparisonFlipsExactlyAtItsBreakpoints) {
  const std::vector<std::string> ops{"<", "<=", ">", ">=", "=", "!="};
  const std::vector<std::string> thresholds{"7", "(recovery-timeout)", "(+ (recovery-timeout) 3)",
                                            "(- (* 2 (vcs)) 1)", "(max 0 (min 50 12))"};
  for (const std::string& op : ops) {
    for (const std::string& t : thresholds) {
      for (bool waitFirst : {true, false}) {
        const std::string cond = waitFirst ? "(" + op + " (blocked-for) " + t + ")"
                                           : "(" + op + " " + t + " (blocked-for))";
        auto e = elaborateWith(probe(cond));
        ASSERT_TRUE(e->network) << cond;
        ASSERT_TRUE(e->network->waitBreaks) << cond;
        const std::set<int64_t> breaks(e->network->waitBreaks->begin(),
                                       e->network->waitBreaks->end());
        EXPECT_EQ(observedChanges(*e), breaks) << cond;
        EXPECT_FALSE(breaks.empty()) << cond;
      }
    }
  }
}

TEST(WaitBreaks, SeveralComparisonsGiveTheUnionAndConstantRoutingsNone) {
  auto e = elaborateWith(probe("(or (and (>= (blocked-for) 5) (< (blocked-for) 9)) "
                               "(= (blocked-for) 30) (> (blocked-for) (recovery-timeout)))"));
  ASSERT_TRUE(e->network && e->network->waitBreaks);
  EXPECT_EQ(*e->network->waitBreaks, (std::vector<int64_t>{5, 9, 21, 30, 31}));
  EXPECT_EQ(observedChanges(*e), (std::set<int64_t>{5, 9, 21}));  // 30 and 31 are masked by 21
  // A routing that never reads its wait never changes its answer while it waits.
  auto d = elaborateWith("(define-routing (Probe) (minimal-from current dest 0 0))");
  ASSERT_TRUE(d->network && d->network->waitBreaks);
  EXPECT_TRUE(d->network->waitBreaks->empty());
  // A threshold of 0 or below is never crossed by a header that has waited.
  auto z = elaborateWith(probe("(>= (blocked-for) 0)"));
  ASSERT_TRUE(z->network && z->network->waitBreaks);
  EXPECT_TRUE(z->network->waitBreaks->empty());
  EXPECT_TRUE(observedChanges(*z).empty());
}

TEST(WaitBreaks, AnyOtherReadOfTheWaitRoutesEveryClock) {
  for (const std::string& cond :
       {std::string("(let ((w (blocked-for))) (> w 4))"),  // bound by let
        std::string("(> (* 2 (blocked-for)) 9)"),          // arithmetic on the wait
        std::string("(< (blocked-for) (coord dest 0))"),   // a threshold that reads a variable
        std::string("(= (mod (blocked-for) 2) 0)")}) {
    auto e = elaborateWith(probe(cond));
    ASSERT_TRUE(e->network) << cond;
    EXPECT_FALSE(e->network->waitBreaks) << cond;
  }
  // More distinct breakpoints than the simulator keeps.
  std::string many = "(or";
  for (int k = 1; k <= 17; ++k) many += " (= (blocked-for) " + std::to_string(3 * k) + ")";
  auto e = elaborateWith(probe(many + ")"));
  ASSERT_TRUE(e->network);
  EXPECT_FALSE(e->network->waitBreaks);
}

}  // namespace
}  // namespace ndl::elab
