// The pattern reader and its cursors (docs/workloads.md): every collective's messages pair up,
// one send per receive, along the documented algorithm; repetitions are stored once and run
// their count; relative nodes wrap around.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "ndl/runtime/app/pattern.h"
#include "ndl/runtime/app/pattern_cursor.h"

namespace ndl::rt {
namespace {

PatternLimits limits(int32_t nodes) {
  return patternLimits(nodes, false, 32, 192, true, 8);
}

struct Messages {
  std::multiset<std::pair<int32_t, int32_t>> sent, received;  // (src, dst)
  std::vector<int> sends_per_node, recvs_per_node;
};

Messages collective(CollectiveKind kind, int32_t nodes, int32_t root) {
  Messages m;
  m.sends_per_node.assign(nodes, 0);
  m.recvs_per_node.assign(nodes, 0);
  for (int32_t n = 0; n < nodes; ++n) {
    int32_t peer = 0;
    bool send = false;
    for (uint32_t i = 0; collectiveStep(kind, n, nodes, root, i, &peer, &send); ++i) {
      EXPECT_NE(peer, n);
      EXPECT_GE(peer, 0);
      EXPECT_LT(peer, nodes);
      if (send) {
        m.sent.insert({n, peer});
        ++m.sends_per_node[n];
      } else {
        m.received.insert({peer, n});
        ++m.recvs_per_node[n];
      }
    }
  }
  return m;
}

int ceilLog2(int32_t n) {
  int r = 0;
  while ((int64_t{1} << r) < n) ++r;
  return r;
}

TEST(Pattern, CollectivesPairEverySendWithOneReceive) {
  for (int32_t nodes : {1, 2, 3, 5, 6, 7, 8, 13, 16, 31, 32, 33, 64, 100}) {
    for (int32_t root : {0, nodes / 3, nodes - 1}) {
      SCOPED_TRACE(testing::Message() << nodes << " nodes, root " << root);
      const Messages b = collective(CollectiveKind::kBarrier, nodes, root);
      EXPECT_EQ(b.sent, b.received);
      for (int32_t n = 0; n < nodes; ++n) {
        EXPECT_EQ(b.sends_per_node[n], ceilLog2(nodes));  // one message per round
        EXPECT_EQ(b.recvs_per_node[n], ceilLog2(nodes));
      }
      const Messages a = collective(CollectiveKind::kAllToAll, nodes, root);
      EXPECT_EQ(a.sent, a.received);
      EXPECT_EQ(a.sent.size(), static_cast<size_t>(nodes) * (nodes - 1));
      for (const auto& pair : a.sent) EXPECT_EQ(a.sent.count(pair), 1u);  // each pair once
      const Messages bc = collective(CollectiveKind::kBroadcast, nodes, root);
      EXPECT_EQ(bc.sent, bc.received);
      for (int32_t n = 0; n < nodes; ++n)
        EXPECT_EQ(bc.recvs_per_node[n], n == root ? 0 : 1);  // every node reached once
      const Messages rd = collective(CollectiveKind::kReduce, nodes, root);
      EXPECT_EQ(rd.sent, rd.received);
      for (int32_t n = 0; n < nodes; ++n)
        EXPECT_EQ(rd.sends_per_node[n], n == root ? 0 : 1);  // every node's value once
      // Reduce is broadcast reversed.
      std::multiset<std::pair<int32_t, int32_t>> reversed;
      for (auto [s, d] : bc.sent) reversed.insert({d, s});
      EXPECT_EQ(rd.sent, reversed);
    }
  }
}

TEST(Pattern, BroadcastTreeIsBinomial) {
  // 8 nodes, root 0: 0 -> 1, 2, 4; 1 -> 3, 5; 2 -> 6; 3 -> 7: depth log2 8 = 3.
  const Messages bc = collective(CollectiveKind::kBroadcast, 8, 0);
  const std::multiset<std::pair<int32_t, int32_t>> expected = {
      {0, 1}, {0, 2}, {0, 4}, {1, 3}, {1, 5}, {2, 6}, {3, 7}};
  EXPECT_EQ(bc.sent, expected);
}

TEST(Pattern, RepeatIsStoredOnceAndRunsItsCount) {
  std::vector<PatternError> errors;
  const auto p = readPatternText(
      "nodes 4\nnode all\n  repeat 1000000\n    repeat 3\n      send +1 8byte\n"
      "      recv -1\n    end\n    compute 1ns\n  end\n",
      "t.cpf", limits(4), errors);
  ASSERT_TRUE(p) << (errors.empty() ? "" : errors[0].message);
  // Per node: repeat, repeat, send, recv, end, compute, end.
  EXPECT_EQ(p->ops.size(), 4u * 7u);
  PatternCursors c(*p);
  int64_t sends = 0, computes = 0;
  for (PatternStep s = c.next(2); s.kind != PatternStep::kDone; s = c.next(2)) {
    if (s.kind == PatternStep::kSend) {
      EXPECT_EQ(s.peer, 3);
      ++sends;
    }
    if (s.kind == PatternStep::kRecv) {
      EXPECT_EQ(s.peer, 1);
    }
    if (s.kind == PatternStep::kCompute) {
      EXPECT_EQ(s.value, 1000);  // picoseconds
      ++computes;
    }
  }
  EXPECT_EQ(sends, 3000000);
  EXPECT_EQ(computes, 1000000);
}

TEST(Pattern, MarksNameTheirLabelsOnceAndStepInPlace) {
  std::vector<PatternError> errors;
  const auto p = readPatternText(
      "nodes 2\nnode 0\n  mark start\n  repeat 3\n    send 1 8byte\n    mark sent\n  end\n"
      "  mark start\nnode 1\n  repeat 3\n    recv 0\n  end\n",
      "t.cpf", limits(2), errors);
  ASSERT_TRUE(p) << (errors.empty() ? "" : errors[0].message);
  EXPECT_EQ(p->labels, (std::vector<std::string>{"start", "sent"}));
  PatternCursors c(*p);
  std::vector<std::pair<int, int64_t>> steps;  // kind, value
  for (PatternStep s = c.next(0); s.kind != PatternStep::kDone; s = c.next(0))
    steps.emplace_back(s.kind, s.kind == PatternStep::kMark ? s.value : -1);
  const int M = PatternStep::kMark, S = PatternStep::kSend;
  EXPECT_EQ(steps, (std::vector<std::pair<int, int64_t>>{
                       {M, 0}, {S, -1}, {M, 1}, {S, -1}, {M, 1}, {S, -1}, {M, 1}, {M, 0}}));
}

TEST(Pattern, RelativeNodesWrapAndSectionsSelect) {
  std::vector<PatternError> errors;
  const auto p = readPatternText(
      "nodes 5 ; five\nnode 3..4\n  send +3 1Kbyte tag 9\nnode 1..2\n  recv -3 tag 9\n",
      "t.cpf", limits(5), errors);
  ASSERT_TRUE(p) << (errors.empty() ? "" : errors[0].message);
  PatternCursors c(*p);
  const PatternStep s3 = c.next(3), s4 = c.next(4), r1 = c.next(1), r2 = c.next(2);
  EXPECT_EQ(s3.kind, PatternStep::kSend);
  EXPECT_EQ(s3.peer, 1);  // 3 + 3 mod 5
  EXPECT_EQ(s3.value, 8192);
  EXPECT_EQ(s3.tag, 9u);
  EXPECT_EQ(s4.peer, 2);
  EXPECT_EQ(r1.peer, 3);  // 1 - 3 mod 5
  EXPECT_EQ(r2.peer, 4);
  EXPECT_EQ(c.next(0).kind, PatternStep::kDone);  // no line for node 0
}

}  // namespace
}  // namespace ndl::rt
