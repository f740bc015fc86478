// INSIGHT's statistics beyond the means (seed 004, section 2): latency by distance and by
// node pair for packets as well as messages, the residual load of the network in messages
// and in total message length, and collisions per node split by message and packet.
#include <gtest/gtest.h>

#include <cstdint>

#include "test_networks.h"

namespace ndl::rt {
namespace {

using testing::baseParams;

// Zero-load latency of a P-flit packet over H hops under cut-through (flow_control_test.cpp).
int64_t cutThrough(int64_t hops, int64_t d, int64_t p) { return (hops + 1) * d + hops + (p - 1); }

TEST(Statistics, PacketsByDistanceAndByPair) {
  // A 3-packet message 0 -> 10 (4 hops) and a 1-packet message 0 -> 1 (1 hop), apart in
  // time: every packet has its zero-load latency, so each distance's packet mean is exact.
  SimParams p = baseParams(FlowControl::kVirtualCutThrough, 4, 8, 1);
  p.script = {{0, 0, 10, 3 * p.data_bits_per_packet}, {1000, 0, 1, p.data_bits_per_packet}};
  p.report_pairs = {{0, 10}, {0, 1}};
  const Results r = simulate(makeTorus({4, 4}), p);
  ASSERT_EQ(r.messages.delivered, 2);
  ASSERT_EQ(r.by_distance.size(), 2u);
  EXPECT_EQ(r.by_distance[0].hops, 1);
  EXPECT_EQ(r.by_distance[0].count, 1u);
  EXPECT_EQ(r.by_distance[0].packets, 1u);
  EXPECT_DOUBLE_EQ(r.by_distance[0].mean_packet_cycles, cutThrough(1, 1, 4));
  EXPECT_EQ(r.by_distance[1].hops, 4);
  EXPECT_EQ(r.by_distance[1].count, 1u);
  EXPECT_EQ(r.by_distance[1].packets, 3u);
  EXPECT_DOUBLE_EQ(r.by_distance[1].mean_packet_cycles, cutThrough(4, 1, 4));
  // The message's network latency covers its three packets: two more packet times.
  EXPECT_DOUBLE_EQ(r.by_distance[1].mean_network_cycles, 2 * 4 + cutThrough(4, 1, 4));
  ASSERT_EQ(r.pairs.size(), 2u);
  EXPECT_EQ(r.pairs[0].message.count, 1u);
  EXPECT_EQ(r.pairs[0].packet.count, 3u);
  EXPECT_EQ(r.pairs[0].packet.max, cutThrough(4, 1, 4));
  EXPECT_EQ(r.pairs[1].packet.count, 1u);
  EXPECT_EQ(r.pairs[1].packet.max, cutThrough(1, 1, 4));
}

TEST(Statistics, ResidualLoadCountsMessagesAndTheirLength) {
  // Two messages enter at clock 0 from different sources; sampled every 3 clocks, both are
  // in the network at the end of the first interval and none at the end of the run.
  SimParams p = baseParams(FlowControl::kVirtualCutThrough, 4, 8, 1);
  p.sampling_interval_clocks = 3;
  p.message_max_bits = 3 * p.data_bits_per_packet;
  p.script = {{0, 0, 10, 3 * p.data_bits_per_packet}, {0, 5, 6, 100}};
  const Results r = simulate(makeTorus({4, 4}), p);
  ASSERT_EQ(r.messages.delivered, 2);
  ASSERT_GE(r.series.size(), 2u);
  EXPECT_EQ(r.series[0].end_cycle, 3);
  EXPECT_EQ(r.series[0].in_network, 2);
  EXPECT_EQ(r.series[0].in_network_bits, 3 * p.data_bits_per_packet + 100);
  EXPECT_EQ(r.series.back().in_network, 0);
  EXPECT_EQ(r.series.back().in_network_bits, 0);
}

TEST(Statistics, CollisionsPerNodeSplitByMessageAndPacket) {
  // Under load with multi-packet messages, every packet measured and delivered: the
  // collisions the senders' packets met add up to the routers' counts, and the per-node
  // sums give the network's per-packet and per-message means.
  SimParams p = baseParams(FlowControl::kVirtualCutThrough, 4, 8, 1);
  p.virtual_channels = 2;
  testing::useDateline(p);
  p.message_min_bits = p.data_bits_per_packet;
  p.message_max_bits = 3 * p.data_bits_per_packet;
  p.creation_rate = 0.05;
  p.creation_max = 3000;
  p.seed = 5;
  const Results r = simulate(makeTorus({4, 4}), p);
  ASSERT_EQ(r.status, RunStatus::kOk);
  ASSERT_EQ(r.messages.delivered, 3000);
  int64_t router_side = 0, packet_sum = 0, message_sum = 0, packets = 0, messages = 0;
  for (const NodeRow& n : r.per_node) {
    router_side += n.collisions;
    packet_sum += n.sent_packet_collisions;
    message_sum += n.sent_message_collisions;
    packets += n.sent_measured_packets;
    messages += n.sent_measured_messages;
  }
  ASSERT_GT(router_side, 0);  // the load makes packets wait
  EXPECT_EQ(packet_sum, router_side);
  EXPECT_EQ(message_sum, router_side);  // a message's collisions are its packets'
  EXPECT_EQ(packets, r.packets.delivered);
  EXPECT_GT(packets, messages);  // messages of up to 3 packets
  EXPECT_EQ(messages, 3000);
  EXPECT_DOUBLE_EQ(r.collisions_per_packet, static_cast<double>(packet_sum) / packets);
  EXPECT_DOUBLE_EQ(r.collisions_per_message, static_cast<double>(message_sum) / messages);
}

}  // namespace
}  // namespace ndl::rt
