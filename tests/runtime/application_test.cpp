// Closed-loop execution (application.h) driven by hand, without a network: what a program
// does at each clock, and how a run that cannot finish is reported.
#include <gtest/gtest.h>

#include <memory>
#include <tuple>

#include "ndl/runtime/app/application.h"
#include "ndl/runtime/app/pattern.h"
#include "ndl/runtime/sim/run_messages.h"

namespace ndl::rt {
namespace {

std::shared_ptr<const PatternProgram> read(std::string_view text, int32_t nodes,
                                           uint64_t check_steps) {
  PatternLimits limits = patternLimits(nodes, false, 32, 192, true, 8);
  limits.check_steps = check_steps;
  std::vector<PatternError> errors;
  auto p = readPatternText(text, "t.cpf", limits, errors);
  EXPECT_TRUE(p) << (errors.empty() ? "" : errors[0].message);
  return std::make_shared<const PatternProgram>(std::move(*p));
}

TEST(Application, ReceiveNobodySendsPastTheCheckersBudgetIsReportedStuck) {
  // The checker follows the programs for 2 steps only, so it cannot see that node 1 never
  // sends tag 9; the run must end stuck, naming the waiter, its peer and tag.
  const auto p = read("nodes 2\nnode 1\n  compute 2ns\n  compute 2ns\n  send 0 8byte tag 8\n"
                      "node 0\n  recv 1 tag 8\n  recv 1 tag 9\n",
                      2, 2);
  ASSERT_FALSE(p->fully_checked);
  Application app(p, 1000.0, 0.0);  // 1 ns clocks: each gap is 2 clocks
  int64_t c = 0;
  for (; c < 10 && !app.stuck(); ++c) {
    app.advanceDue(c);
    for (const AppSend& s : app.sends()) {
      EXPECT_EQ(s.src, 1);
      EXPECT_EQ(s.tag, 8u);
      EXPECT_EQ(c, 4);  // after both gaps
      app.onDelivered(s.dst, s.src, s.tag, c + 3);
    }
  }
  ASSERT_TRUE(app.stuck());
  ApplicationResult r;
  app.report(r, c);
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.messages_sent, 1);
  EXPECT_EQ(r.messages_delivered, 1);
  ASSERT_EQ(r.waiting.size(), 1u);
  EXPECT_EQ(r.waiting[0].node, 0);
  EXPECT_EQ(r.waiting[0].from, 1);
  EXPECT_EQ(r.waiting[0].tag, 9u);
  EXPECT_EQ(r.waiting[0].line, 8u);
  EXPECT_EQ(r.waiting[0].since, 8);  // delivered in clock 7, seen in clock 8
  EXPECT_EQ(r.finish_clock[1], 4);
  EXPECT_EQ(r.finish_clock[0], -1);
  EXPECT_EQ(stuckMessage(r),
            "the application cannot finish: no message is on its way, and 1 program waits: "
            "node 0 (line 8) for node 1 tag 9");
}

TEST(Application, MarksRecordTheClockOfEachPassAndTheIntervals) {
  const auto p = read("nodes 2\nnode 0\n  mark m\n  repeat 3\n    compute 5ns\n    mark m\n"
                      "  end\n",
                      2, uint64_t{1} << 20);
  Application app(p, 1000.0, 1.5);  // speed-up 2.5: 5 ns gaps take 2 clocks
  for (int64_t c = 0; c < 20 && !app.complete(); ++c) app.advanceDue(c);
  ApplicationResult r;
  app.report(r, 20);
  ASSERT_TRUE(r.complete);
  ASSERT_EQ(r.marks.size(), 1u);
  const ApplicationResult::Mark& m = r.marks[0];
  EXPECT_EQ(m.label, "m");
  EXPECT_EQ(m.node, 0);
  EXPECT_EQ(m.line, 3u);
  EXPECT_EQ(m.count, 4);
  EXPECT_EQ(m.clocks, (std::vector<int64_t>{0, 2, 4, 6}));
  EXPECT_EQ(m.interval_min, 2);
  EXPECT_EQ(m.interval_max, 2);
  EXPECT_EQ(m.interval_sum, 6);
  EXPECT_FALSE(m.truncated);
}

TEST(Application, PostedReceivesReleaseTheirSendsInWhicheverOrderTheyComplete) {
  // Node 0 posts two receives and answers each after its own; node 1 asks late, node 2
  // early. A name posted again waits for its previous receive; the program's end waits for
  // every posted receive.
  const auto p = read("nodes 3\nnode 0\n  recv 1 as a\n  recv 2 as b\n  send 1 8byte after a\n"
                      "  send 2 8byte after b\n  recv 2 tag 5 as b\n"
                      "node 1\n  compute 10ns\n  send 0 8byte\n  recv 0\n"
                      "node 2\n  send 0 8byte\n  recv 0\n  send 0 8byte tag 5\n",
                      3, uint64_t{1} << 20);
  ASSERT_TRUE(p->fully_checked);
  Application app(p, 1000.0, 0.0);
  std::vector<std::pair<int64_t, AppSend>> flying;  // an idle network: 3 clocks a message
  std::vector<std::tuple<int64_t, int32_t, int32_t>> sent;  // clock, src, dst
  int64_t c = 0;
  for (; c < 100 && !app.complete(); ++c) {
    app.advanceDue(c);
    for (const AppSend& s : app.sends()) {
      sent.emplace_back(c, s.src, s.dst);
      flying.push_back({c + 3, s});
    }
    for (size_t i = 0; i < flying.size();) {
      if (flying[i].first == c) {
        const AppSend& s = flying[i].second;
        app.onDelivered(s.dst, s.src, s.tag, c);
        flying.erase(flying.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
  }
  ASSERT_TRUE(app.complete());
  // Node 2 asks at 0 (in at 3, seen at 4): answered at 4, in at 7, seen at 8, when node 2
  // sends tag 5 (in at 11). Node 1 asks at 10 (in at 13): answered at 14.
  const std::vector<std::tuple<int64_t, int32_t, int32_t>> want = {
      {0, 2, 0}, {4, 0, 2}, {8, 2, 0}, {10, 1, 0}, {14, 0, 1}};
  EXPECT_EQ(sent, want);
  ApplicationResult r;
  app.report(r, c);
  EXPECT_EQ(r.finish_clock[0], 14);  // its second `b` completed at 12; `a` seen at 14
  EXPECT_EQ(r.finish_clock[2], 8);
  EXPECT_EQ(r.finish_clock[1], 18);
  EXPECT_EQ(r.wait_clocks[0], 14);  // from its end of program (clock 0) on
}

TEST(Application, AProgramWaitingForAPostedReceiveNobodySendsIsStuckAtThatReceive) {
  const auto p = read("nodes 2\nnode 0\n  recv 1 tag 3 as x\n  wait x\nnode 1\n  compute 1ns\n",
                      2, 1);  // the checker stops at once: the run must find it
  Application app(p, 1000.0, 0.0);
  int64_t c = 0;
  for (; c < 10 && !app.stuck(); ++c) app.advanceDue(c);
  ASSERT_TRUE(app.stuck());
  ApplicationResult r;
  app.report(r, c);
  ASSERT_EQ(r.waiting.size(), 1u);
  EXPECT_EQ(r.waiting[0].node, 0);
  EXPECT_EQ(r.waiting[0].from, 1);
  EXPECT_EQ(r.waiting[0].tag, 3u);
  EXPECT_EQ(r.waiting[0].line, 3u);  // the receive, not the wait
  EXPECT_EQ(r.waiting_nodes, 1);
}

}  // namespace
}  // namespace ndl::rt
