// The predictive path's tentative reservation (docs/prediction.md): a header that took the
// predictive path asks for its output VC after every normal request of the same clock, and
// one that gets none goes on along the normal pipeline.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "oracle_routing.h"
#include "test_networks.h"

namespace ndl::rt {
namespace {

constexpr int32_t kXPlus = 1;  // the port code of (port 0 1)

// Predicts X+ for every header that arrived over a link, nothing at an injection port: of two
// headers meeting at the middle router of a line, the one from the left is predicted (and
// hits: X+ is dimension order's port to the right end), the one injected there is not.
int64_t arrivalsGoRight(const RouteContext& ctx, PredictorRings&, int32_t) {
  return ctx.arrived >= 0 ? kXPlus : -1;
}
void noUpdate(const RouteContext&, PredictorRings&, int32_t, int32_t) {}

struct Pair {
  int64_t a = 0, b = 0;  // the message latencies of A (0 -> 2) and B (1 -> 2)
  int64_t lost = 0, hits = 0;
};

// A: node 0 -> 2 created at clock 0; B: node 1 -> 2 created at clock `b_at`; one VC of one
// packet per port, so at the middle router they want the same output VC. header_delay 6 (IB 1
// + RC 3 + VA 1 + SA 1) on the normal path, 1 on the predictive one.
Pair meet(int64_t b_at, bool send_a, bool send_b) {
  SimParams p = testing::baseParams(FlowControl::kVirtualCutThrough, 4, 4, 6);
  p.virtual_channels = 1;
  p.predict_fn = arrivalsGoRight;
  p.forward_fn = noUpdate;
  p.predictor_name = "ArrivalsGoRight";
  p.predict_header_clocks = 1;
  p.predictor_latency_clocks = 0;
  if (send_a) p.script.push_back({0, 0, 2, p.data_bits_per_packet});
  if (send_b) p.script.push_back({b_at, 1, 2, p.data_bits_per_packet});
  const Results r = simulate(makeMesh({3}), p);
  EXPECT_EQ(r.messages.delivered, (send_a ? 1 : 0) + (send_b ? 1 : 0));
  Pair out;
  out.lost = r.prediction.lost[0] + r.prediction.lost[1];
  out.hits = r.prediction.hits[0] + r.prediction.hits[1];
  const int64_t sum = std::llround(r.message_latency.mean * static_cast<double>(r.messages.delivered));
  if (send_a && send_b) {
    // Which of the two is the longer is not known here: the test below finds out from the
    // latencies alone.
    out.a = r.message_latency.max;
    out.b = sum - r.message_latency.max;
  } else {
    out.a = out.b = r.message_latency.max;
  }
  return out;
}

TEST(TentativeReservation, ANormalRequestOfTheSameClockWinsTheOutputVc) {
  // Alone, each latency is the clock of its VC request at the middle router plus the same
  // rest (one hop and the ejection of a packet of the same length), so B created at
  // a_alone - b_alone asks in the very clock A does.
  const Pair a = meet(0, true, false);
  const Pair b = meet(0, false, true);
  ASSERT_EQ(a.hits, 1);  // A is predicted at the middle router and hits
  ASSERT_EQ(a.lost, 0);
  const int64_t same = a.a - b.b;
  ASSERT_GE(same, 0);
  // The same clock: B, the normal request, takes the VC and is not delayed at all; A loses
  // its reservation and is later than alone by at least the normal path's 6 - 1 clocks.
  const Pair tie = meet(same, true, true);
  EXPECT_EQ(tie.lost, 1);
  EXPECT_EQ(std::min(tie.a, tie.b), b.b) << "B was delayed";
  EXPECT_GE(std::max(tie.a, tie.b), a.a + 5);
  // One clock later B asks after A, which already holds the VC: A keeps its path.
  const Pair after = meet(same + 1, true, true);
  EXPECT_EQ(after.lost, 0);
  EXPECT_EQ(std::min(after.a, after.b), a.a) << "A was delayed";
}

TEST(TentativeReservation, NoneIsLostWithoutContention) {
  const Pair far = meet(200, true, true);  // B long after A has left
  EXPECT_EQ(far.lost, 0);
  EXPECT_EQ(far.hits, 1);
}

}  // namespace
}  // namespace ndl::rt
