// Zero-load latency of one packet for each flow control, against the closed forms of the
// runtime's cycle model (docs/runtime.md):
//   - the head is written into the source's injection VC at clock 0 and one flit follows
//     per clock;
//   - at every router a header leaves D clocks (NodeHardwareDelay) after it reached the front
//     of its VC (store-and-forward: after its tail arrived), body flits follow one per clock;
//     a head queued behind another packet reaches the front the clock that packet's tail
//     leaves;
//   - a link adds L clocks; the tail is delivered the clock it leaves the destination router.
// So with H links crossed (H+1 routers) and P flits:
//   cut-through and wormhole:  T = (H+1)*D + H*L + (P-1)
//   store-and-forward:         T = (H+1)*(D + P-1) + H*L + (P-1)
// (store-and-forward pays the P-1 serialisation at every router, the others once).
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <utility>

#include "test_networks.h"

namespace ndl::rt {

// Test names (gtest, ctest) show the flow control by name.
inline void PrintTo(FlowControl fc, std::ostream* os) { *os << flowControlName(fc); }

namespace {

using testing::baseParams;
using testing::runSingle;

int64_t cutThroughLatency(int64_t hops, int64_t d, int64_t l, int64_t p) {
  return (hops + 1) * d + hops * l + (p - 1);
}
int64_t storeAndForwardLatency(int64_t hops, int64_t d, int64_t l, int64_t p) {
  return (hops + 1) * (d + p - 1) + hops * l + (p - 1);
}

struct Case {
  FlowControl fc;
  int32_t flits;
  int32_t delay;
};

class ZeroLoad : public ::testing::TestWithParam<std::tuple<FlowControl, int32_t, int32_t>> {};

TEST_P(ZeroLoad, SinglePacketOnTorusMatchesClosedForm) {
  const auto [fc, flits, delay] = GetParam();
  const NetworkDesc torus = makeTorus({4, 4});
  const SimParams p = baseParams(fc, flits, flits, delay);
  // (src, dst, hops under dimension order with the shorter way): node = x + 4y.
  const int32_t cases[][3] = {{0, 1, 1}, {0, 3, 1}, {0, 2, 2}, {0, 10, 4}, {5, 14, 3}, {0, 0, 0}};
  for (const auto& c : cases) {
    if (c[0] == c[1]) continue;
    const Results r = runSingle(torus, p, c[0], c[1]);
    const int64_t expected = fc == FlowControl::kStoreAndForward
                                 ? storeAndForwardLatency(c[2], delay, 1, flits)
                                 : cutThroughLatency(c[2], delay, 1, flits);
    SCOPED_TRACE(::testing::Message() << flowControlName(fc) << " " << c[0] << "->" << c[1]);
    ASSERT_EQ(r.status, RunStatus::kOk);
    ASSERT_EQ(r.messages.delivered, 1);
    EXPECT_EQ(r.network_latency.max, expected);
    EXPECT_EQ(r.packet_latency.max, expected);
    EXPECT_EQ(r.message_latency.max, expected);  // no source queueing
    EXPECT_EQ(r.hops_mean, c[2]);
    EXPECT_EQ(r.collisions_total, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(FlowControls, ZeroLoad,
                         ::testing::Combine(::testing::Values(FlowControl::kStoreAndForward,
                                                              FlowControl::kVirtualCutThrough,
                                                              FlowControl::kWormhole),
                                            ::testing::Values(1, 4, 8),
                                            ::testing::Values(0, 1, 3)));

TEST(ZeroLoadTest, PipelineCostsItsStagesPerRouter) {
  // A router pipeline (docs/pipeline.md) holds a header for IB + RC + VA + SA (the header
  // delay) and delays every flit by ST once it leaves, to the next router or its endpoint:
  // at zero load a hop costs the sum, as a lumped delay of the sum does, under every flow
  // control (store-and-forward's tail arrives ST later too).
  const NetworkDesc torus = makeTorus({4, 4});
  for (FlowControl fc :
       {FlowControl::kStoreAndForward, FlowControl::kVirtualCutThrough, FlowControl::kWormhole}) {
    for (const auto& [header, st] : {std::pair{1, 2}, std::pair{6, 1}, std::pair{0, 5}}) {
      SimParams p = baseParams(fc, 4, 4, header);
      p.pipeline_flit_clocks = st;
      const Results r = runSingle(torus, p, 0, 10);  // 4 hops
      const int64_t expected = fc == FlowControl::kStoreAndForward
                                   ? storeAndForwardLatency(4, header + st, 1, 4)
                                   : cutThroughLatency(4, header + st, 1, 4);
      SCOPED_TRACE(::testing::Message() << flowControlName(fc) << " header " << header
                                        << " ST " << st);
      ASSERT_EQ(r.status, RunStatus::kOk);
      EXPECT_EQ(r.network_latency.max, expected);
      EXPECT_EQ(r.hops_mean, 4);
    }
  }
}

TEST(ZeroLoadTest, LinkDelayIsPaidPerHop) {
  // Ring of 8, 3 hops one way, links of 3 clocks and credits of 2.
  const NetworkDesc ring = makeRing(8);
  for (FlowControl fc :
       {FlowControl::kStoreAndForward, FlowControl::kVirtualCutThrough, FlowControl::kWormhole}) {
    SimParams p = baseParams(fc, 6, 6, 2);
    p.link_delay_clocks = 3;
    p.credit_delay_clocks = 2;
    const Results r = runSingle(ring, p, 1, 4);
    const int64_t expected = fc == FlowControl::kStoreAndForward
                                 ? storeAndForwardLatency(3, 2, 3, 6)
                                 : cutThroughLatency(3, 2, 3, 6);
    EXPECT_EQ(r.network_latency.max, expected) << flowControlName(fc);
  }
}

// The credit loop of a link is L + C clocks: a flit sent at t reaches the next router at
// t+L, a body flit (or an idle router's head after D) may leave it that clock at the earliest,
// and its credit is back upstream at t+L+C. A wormhole VC of B flits therefore sends B flits
// per max(B, L+C) clocks: flit k leaves floor(k/B)*max(B, L+C) + k%B clocks after the head,
// on every link alike, so the tail trails the head by that much for k = P-1 instead of P-1.
// B >= L+C streams one flit per clock and gives the cut-through latency.
int64_t tailTrail(int64_t p, int64_t b, int64_t l, int64_t c) {
  return (p - 1) / b * std::max(b, l + c) + (p - 1) % b;
}

TEST(ZeroLoadTest, WormholeTailTrailsTheHeadByTheCreditLoop) {
  const NetworkDesc mesh = makeMesh({4, 4});
  for (int32_t l = 1; l <= 3; ++l) {
    for (int32_t c = 1; c <= 3; ++c) {
      for (int32_t b = 1; b <= l + c + 1; ++b) {
        for (int32_t d : {1, 2}) {
          SimParams p = baseParams(FlowControl::kWormhole, 8, b, d);
          p.link_delay_clocks = l;
          p.credit_delay_clocks = c;
          const Results r = runSingle(mesh, p, 0, 15);  // 3 + 3 hops
          SCOPED_TRACE(::testing::Message() << "L=" << l << " C=" << c << " B=" << b << " D=" << d);
          ASSERT_EQ(r.messages.delivered, 1);
          EXPECT_EQ(r.network_latency.max, cutThroughLatency(6, d, l, 8) - 7 + tailTrail(8, b, l, c));
          if (b >= l + c) {
            EXPECT_EQ(r.network_latency.max, cutThroughLatency(6, d, l, 8));
          }
        }
      }
    }
  }
}

TEST(ZeroLoadTest, EcubeOnHypercubeCorrectsOneBitPerHop) {
  const NetworkDesc cube = makeHypercube(4);
  SimParams p = baseParams(FlowControl::kVirtualCutThrough, 4, 4, 1);
  p.route_fn = oracle::ecube;
  const int32_t pairs[][2] = {{0, 15}, {3, 5}, {8, 9}, {6, 9}};
  for (const auto& pr : pairs) {
    const int32_t hops = __builtin_popcount(static_cast<unsigned>(pr[0] ^ pr[1]));
    const Results r = runSingle(cube, p, pr[0], pr[1]);
    EXPECT_EQ(r.network_latency.max, cutThroughLatency(hops, 1, 1, 4));
    EXPECT_EQ(r.hops_mean, hops);
  }
}

TEST(ZeroLoadTest, MultiPacketMessagePaysSerialisationOfAllPackets) {
  // A message of 3 packets through one injection channel: packet i's head enters at
  // clock i*P (one flit per clock). Each head reaches the front of the (single) injection VC
  // the clock the previous tail leaves, which is the clock it was written (D = 1), so every
  // packet has the zero-load latency and the last tail arrives 2P + T_one after creation;
  // the message's network latency (first head in, last tail out) is the same.
  const NetworkDesc torus = makeTorus({4, 4});
  SimParams p = baseParams(FlowControl::kVirtualCutThrough, 4, 8, 1);
  p.script = {{0, 0, 10, 3 * p.data_bits_per_packet}};
  const Results r = simulate(torus, p);
  ASSERT_EQ(r.messages.delivered, 1);
  ASSERT_EQ(r.packets.delivered, 3);
  EXPECT_EQ(r.message_latency.max, 2 * 4 + cutThroughLatency(4, 1, 1, 4));
  EXPECT_EQ(r.network_latency.max, r.message_latency.max);
  EXPECT_EQ(r.packet_latency.max, cutThroughLatency(4, 1, 1, 4));
}

// (NetworkPacketSize Message): each message is one worm of its own length, so a message of
// P flits has the zero-load latency of one P-flit packet, whatever its length, and the
// buffer check follows the longest message.
TEST(ZeroLoadTest, PacketPerMessageIsOneWormOfTheMessageLength) {
  const NetworkDesc torus = makeTorus({4, 4});
  for (FlowControl fc : {FlowControl::kWormhole, FlowControl::kVirtualCutThrough,
                         FlowControl::kStoreAndForward}) {
    SimParams p = baseParams(fc, 4, 40, 1);
    p.packet_per_message = true;
    p.message_min_bits = 32;
    p.message_max_bits = 40 * 32;
    // 10 flits, 37 flits (1,170 bits rounds up) and 1 flit, node 0 to node 10 (4 hops).
    p.script = {{0, 0, 10, 320}, {2000, 0, 10, 1170}, {4000, 0, 10, 32}};
    const Results r = simulate(torus, p);
    SCOPED_TRACE(flowControlName(fc));
    ASSERT_EQ(r.messages.delivered, 3);
    EXPECT_EQ(r.packets.delivered, 3);
    auto expected = [&](int64_t flits) {
      return fc == FlowControl::kStoreAndForward ? storeAndForwardLatency(4, 1, 1, flits)
                                                 : cutThroughLatency(4, 1, 1, flits);
    };
    EXPECT_EQ(r.packet_latency.max, expected(37));
    EXPECT_EQ(r.packet_latency.p50, expected(10));
    EXPECT_EQ(r.per_node[10].delivered_flits, 10 + 37 + 1);
    // The longest message must fit a cut-through buffer.
    if (fc != FlowControl::kWormhole) {
      p.buffer_flits = 36;
      EXPECT_THROW(simulate(torus, p), std::invalid_argument);
    }
  }
}

TEST(ZeroLoadTest, SourceQueueingCountsInMessageLatencyOnly) {
  // Two messages from the same source at clock 0: the second waits P clocks for the
  // injection channel. Its network latency is the zero-load one, its message latency P more.
  const NetworkDesc torus = makeTorus({4, 4});
  SimParams p = baseParams(FlowControl::kWormhole, 4, 4, 1);
  p.injection_virtual_channels = 2;
  p.script = {{0, 0, 1, 128}, {0, 0, 2, 128}};
  const Results r = simulate(torus, p);
  ASSERT_EQ(r.messages.delivered, 2);
  EXPECT_EQ(r.network_latency.max, cutThroughLatency(2, 1, 1, 4));
  EXPECT_EQ(r.message_latency.max, 4 + cutThroughLatency(2, 1, 1, 4));
}

TEST(ZeroLoadTest, SlowerRouterClockStretchesHeaderDelay) {
  // Routers (and their PEs) at half the link clock act only in the link clocks that hold one
  // of their edges: the odd ones. A header delay of 1 router clock is 2 link clocks. One-flit
  // packet from 0 to 2 on a ring, message created at clock 0:
  //   clock 1 (first router edge) the PE writes the head, node 0 routes it: leaves at 1+2 = 3;
  //   it reaches node 1 at 4, is routed at the next edge 5, leaves at 7, reaches node 2 at 8,
  //   is routed at 9 and delivered at 11. Network latency 11 - 1 = 10, message latency 11.
  const NetworkDesc ring = makeRing(8);
  SimParams p = baseParams(FlowControl::kVirtualCutThrough, 1, 1, 1);
  p.network_frequency_hz = 100e6;
  p.router_frequency_hz = 50e6;
  p.header_delay_clocks = 2;  // as the compiler converts it (docs/language.md, clock domains)
  const Results slow = runSingle(ring, p, 0, 2);
  EXPECT_EQ(slow.network_latency.max, 10);
  EXPECT_EQ(slow.message_latency.max, 11);
  // The same routers at the link clock: the plain closed form.
  const Results fast = runSingle(ring, baseParams(FlowControl::kVirtualCutThrough, 1, 1, 1), 0, 2);
  EXPECT_EQ(fast.network_latency.max, cutThroughLatency(2, 1, 1, 1));
  // A faster router clock only shortens the header delay: 3 router clocks at twice the link
  // clock are ceil(1.5) = 2 link clocks per hop.
  SimParams faster = baseParams(FlowControl::kVirtualCutThrough, 1, 1, 3);
  faster.router_frequency_hz = 2 * faster.network_frequency_hz;
  faster.header_delay_clocks = 2;
  EXPECT_EQ(runSingle(ring, faster, 0, 2).network_latency.max, cutThroughLatency(2, 2, 1, 1));
}

}  // namespace
}  // namespace ndl::rt
