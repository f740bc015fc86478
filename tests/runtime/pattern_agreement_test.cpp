// The checker accepts exactly what the simulator can finish. Random small patterns of
// sends, waiting and posted receives, sends after names, waits, compute and repetitions are
// read and checked, then run closed-loop against idle networks of random per-message
// latencies: a pattern the checker accepts must complete under every latency; one it
// rejects for a receive nobody sends or a cycle must end stuck; and a node's finish time is
// always its computing plus its waiting.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ndl/runtime/app/application.h"
#include "ndl/runtime/app/pattern.h"

namespace ndl::rt {
namespace {

// Messages are placed first (a send at one node, its receive at another, each at a random
// point of its program), then compute gaps and waits; a name is waited for only after its
// node posted it, so the patterns are well formed and any rejection is about matching.
std::string randomPattern(std::mt19937_64& rng, int nodes) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  const char* names[] = {"a", "b", "c"};
  std::vector<std::vector<std::string>> prog(nodes);
  auto insert = [&](int n, std::string line) {
    const int at = pick(static_cast<int>(prog[n].size()) + 1);
    prog[n].insert(prog[n].begin() + at, std::move(line));
  };
  for (int m = 1 + pick(7); m > 0; --m) {
    const int src = pick(nodes);
    int dst = pick(nodes - 1);
    if (dst >= src) ++dst;
    const std::string tag = std::to_string(pick(2));
    std::string send = "send " + std::to_string(dst) + " 8byte tag " + tag;
    if (pick(2)) send += std::string(" after ") + names[pick(3)] + (pick(3) ? "" : " c");
    insert(src, send);
    std::string recv = "recv " + std::to_string(src) + " tag " + tag;
    if (pick(3)) recv += std::string(" as ") + names[pick(3)];
    insert(dst, recv);
  }
  for (int n = 0; n < nodes; ++n) {
    for (int k = pick(3); k > 0; --k)
      insert(n, pick(2) ? "compute " + std::to_string(pick(4)) + "ns"
                        : std::string("wait ") + names[pick(3)]);
  }
  std::string text = "nodes " + std::to_string(nodes) + "\n";
  const int repeat = 1 + pick(3);
  for (int n = 0; n < nodes; ++n) {
    text += "node " + std::to_string(n) + "\n";
    if (repeat > 1) text += "repeat " + std::to_string(repeat) + "\n";
    std::string posted;
    for (std::string line : prog[n]) {
      // Keep only the names this node posted before the line.
      const bool wait = line.rfind("wait ", 0) == 0;
      const size_t after = line.find(" after ");
      if (wait || after != std::string::npos) {
        std::string kept;
        for (const char* name : names) {
          const std::string listed = wait ? line.substr(5) : line.substr(after + 7);
          if (listed.find(name) != std::string::npos && posted.find(name) != std::string::npos)
            kept += std::string(" ") + name;
        }
        if (kept.empty() && wait) continue;
        line = kept.empty() ? line.substr(0, after)
                            : (wait ? "wait" : line.substr(0, after) + " after") + kept;
      }
      if (const size_t as = line.find(" as "); as != std::string::npos) posted += line.substr(as + 4);
      text += "  " + line + "\n";
    }
    if (repeat > 1) text += "end\n";
  }
  return text;
}

struct Outcome {
  bool complete = false;
  bool stuck = false;
  ApplicationResult result;
};

Outcome simulate(const std::shared_ptr<const PatternProgram>& p, uint64_t seed, int max_delay) {
  std::mt19937_64 rng(seed);
  Application app(p, 1000.0, 0.0);
  std::vector<std::pair<int64_t, AppSend>> flying;
  int64_t c = 0;
  for (; c < 100000 && !app.complete() && !app.stuck(); ++c) {
    app.advanceDue(c);
    for (const AppSend& s : app.sends())
      flying.push_back({c + 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(max_delay)), s});
    for (size_t i = 0; i < flying.size();) {
      if (flying[i].first != c) {
        ++i;
        continue;
      }
      const AppSend s = flying[i].second;
      app.onDelivered(s.dst, s.src, s.tag, c);
      flying.erase(flying.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  Outcome o;
  o.complete = app.complete();
  o.stuck = app.stuck();
  app.report(o.result, c);
  return o;
}

TEST(PatternAgreement, TheCheckerAcceptsExactlyWhatTheSimulatorFinishes) {
  int accepted = 0, stuck_expected = 0;
  for (uint64_t it = 0; it < 4000; ++it) {
    std::mt19937_64 rng(it);
    const int nodes = 2 + static_cast<int>(rng() % 3);
    const std::string text = randomPattern(rng, nodes);
    PatternLimits limits = patternLimits(nodes, false, 32, 192, true, 8);
    std::vector<PatternError> errors;
    auto program = readPatternText(text, "t.cpf", limits, errors);
    bool only_unreceived_sends = true;
    for (const PatternError& e : errors) {
      ASSERT_TRUE(e.kind == PatternErrorKind::kUnmatched || e.kind == PatternErrorKind::kCycle)
          << e.message << "\n" << text;
      if (e.message.find("never received") == std::string::npos) only_unreceived_sends = false;
    }
    if (!program) {  // read it unchecked, to run what the checker rejected
      limits.check_steps = 0;
      std::vector<PatternError> ignored;
      program = readPatternText(text, "t.cpf", limits, ignored);
      ASSERT_TRUE(program);
    }
    const auto p = std::make_shared<const PatternProgram>(std::move(*program));
    accepted += errors.empty();
    stuck_expected += !only_unreceived_sends;
    for (int delay : {1, 4, 9}) {
      const Outcome o = simulate(p, it * 31 + static_cast<uint64_t>(delay), delay);
      SCOPED_TRACE(::testing::Message() << "pattern " << it << ", delays up to " << delay << "\n"
                                        << text);
      if (errors.empty()) {
        ASSERT_TRUE(o.complete);
      }
      if (!only_unreceived_sends) {
        ASSERT_TRUE(o.stuck);
      }
      if (o.complete) {
        for (int n = 0; n < nodes; ++n) {
          ASSERT_EQ(o.result.finish_clock[n], o.result.compute_clocks[n] + o.result.wait_clocks[n]);
        }
      } else {
        ASSERT_EQ(static_cast<int64_t>(o.result.waiting.size()), o.result.waiting_nodes);
      }
    }
  }
  // The generator must exercise both sides.
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(stuck_expected, 200);
}

}  // namespace
}  // namespace ndl::rt
