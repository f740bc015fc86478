// The evaluator remembers the results of the functions that start a recursive search
// (compiler/elaborate/EvalMemo.cpp): the same arguments again cost one step, not the search,
// and give the same value; what may change between calls is never remembered.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/elaborate/ElaboratedText.h"

namespace ndl::elab {
namespace {

// Calls `name` with integer arguments; returns its value and the evaluator's work it took.
std::pair<int64_t, uint64_t> call(ElaboratedText& p, const std::string& name,
                                  std::vector<int64_t> args) {
  std::vector<Value> values;
  for (int64_t a : args) values.push_back(Value::integer(a));
  const uint64_t before = p.evaluator->work();
  std::optional<Value> v = p.evaluator->call(*p.checked->defs.find(name), values, {});
  EXPECT_TRUE(v.has_value()) << name;
  return {v ? v->a : -1, p.evaluator->work() - before};
}

// The search walks k steps; `entry` starts it, `config` starts it and reads (vcs).
std::unique_ptr<ElaboratedText> load() {
  return elaborateText("memo.ndl", R"(
    (define (search (x Int) (k Int)) Int (if (= k 0) x (search (+ x 3) (- k 1))))
    (define (entry (x Int) (k Int)) Int (search x k))
    (define (config (x Int)) Int (search (vcs) x))
    ;; Functions are remembered when called from another: the callers.
    (define (call-entry (x Int) (k Int)) Int (entry x k))
    (define (call-search (x Int) (k Int)) Int (search x k))
    (define (call-config (x Int)) Int (config x))
    (define-routing (Probe) (port 0 (if (> (entry current 10) 0) 1 -1)))
    (Topology (Mesh 4 4))
    (RoutingAlgorithm Probe)
    (VirtualChannels 2)
    (NetworkChannelWidth 32bit)
    (NetworkFrequency 50MHz)
    (NetworkPacketSize 256bit)
    (MessageCreationInterval 2usec))");
}

TEST(EvalMemo, ASearchAgainWithTheSameArgumentsCostsOneStep) {
  auto p = load();
  ASSERT_TRUE(p->network) << "the program must elaborate";
  auto [first, cost] = call(*p, "call-entry", {5, 100});
  EXPECT_EQ(first, 5 + 3 * 100);
  EXPECT_GT(cost, 100u);
  auto [again, costAgain] = call(*p, "call-entry", {5, 100});
  EXPECT_EQ(again, first);
  EXPECT_EQ(costAgain, 1u);  // the call of entry; its body is not run
  // Other arguments are searched.
  auto [other, costOther] = call(*p, "call-entry", {6, 100});
  EXPECT_EQ(other, 6 + 3 * 100);
  EXPECT_GT(costOther, 100u);
}

TEST(EvalMemo, RecursiveFunctionsAndConfigurationReadersAreNotRemembered) {
  auto p = load();
  ASSERT_TRUE(p->network);
  // Recursive itself: a lookup at every level would cost more than it saves.
  EXPECT_GT(call(*p, "call-search", {0, 80}).second, 80u);
  EXPECT_GT(call(*p, "call-search", {0, 80}).second, 80u);
  // Reads (vcs), which the configuration sets while routings are already evaluated.
  auto [v2, cost] = call(*p, "call-config", {70});
  EXPECT_EQ(v2, 2 + 3 * 70);
  EXPECT_GT(call(*p, "call-config", {70}).second, 70u);
  p->evaluator->network().vcs = 4;
  EXPECT_EQ(call(*p, "call-config", {70}).first, 4 + 3 * 70);
}

TEST(EvalMemo, AChangedNetworkDropsWhatWasRemembered) {
  auto p = load();
  ASSERT_TRUE(p->network);
  call(*p, "call-entry", {1, 90});
  EXPECT_EQ(call(*p, "call-entry", {1, 90}).second, 1u);
  p->evaluator->network();  // may change the network: nothing remembered holds
  EXPECT_GT(call(*p, "call-entry", {1, 90}).second, 90u);
  EXPECT_EQ(call(*p, "call-entry", {1, 90}).second, 1u);
}

}  // namespace
}  // namespace ndl::elab
