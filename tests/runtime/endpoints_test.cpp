// Routers with 0..p endpoints (NodeDesc::endpoints): every message reaches the endpoint it
// was sent to, switches neither send nor receive, endpoints of one router eject in the same
// clock, throughput is per endpoint, and the router's size limits count endpoint ports and VCs.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "ndl/runtime/net/endpoints.h"
#include "ndl/runtime/net/network.h"
#include "ndl/runtime/net/router.h"
#include "ndl/runtime/stats/statistics.h"
#include "ndl/runtime/traffic/traffic_source.h"
#include "test_networks.h"

namespace ndl::rt {
namespace {

using testing::baseParams;

// A 4-router ring whose routers have 2, 0, 1 and 3 endpoints: endpoints 0 and 1 at router 0,
// none at router 1 (a switch), 2 at router 2, 3, 4 and 5 at router 3.
NetworkDesc ringWithEndpoints() {
  NetworkDesc d = makeRing(4);
  const int32_t per[] = {2, 0, 1, 3};
  for (int32_t r = 0; r < 4; ++r) d.nodes[r].endpoints = per[r];
  return d;
}

SimParams ringParams() {
  SimParams p = baseParams(FlowControl::kWormhole, 4, 8, 1);
  p.virtual_channels = 2;
  testing::useDateline(p);
  return p;
}

// The network, sources and statistics driven clock by clock as the simulator does, with
// what the routers eject read straight from their cycle log: the tails that left, at which
// router and clock, apart from the statistics.
struct Rig {
  struct Ejected {
    int64_t clock;
    int32_t router;
    int32_t endpoint;  // the router's first endpoint + the packet's dst_local
    uint32_t message;
  };
  SimParams params;
  Network net;
  PacketStore store;
  CycleLog log;
  Statistics stats;
  TrafficSources sources;
  std::vector<Ejected> ejected;

  Rig(const NetworkDesc& desc, SimParams p)
      : params(std::move(p)),
        net(desc, params),
        stats(params, net.endpoints()),
        sources(params, net.topology(), net.endpoints()) {}

  void run(int64_t clocks) {
    const DynamicRoute route{params.route_fn};
    for (int64_t c = 0; c < clocks; ++c) {
      net.deliver(c);
      sources.createDue(c, store, stats, net);
      net.beginRound(c);
      for (int32_t r = 0; r < net.routers(); ++r) {
        if (sources.pending(r)) sources.inject(r, c, store, stats, net);
        net.stepRouter(r, c, route, store, log);
      }
      for (const CycleLog::Arrival& a : log.arrivals) {
        const Packet& p = store.packets[a.packet];
        ejected.push_back({c, a.node, net.endpoints().first(a.node) + p.dst_local, p.message});
      }
      log.clear();
      log.flit_hops = 0;
    }
  }
};

TEST(Endpoints, LayoutNumbersEndpointsRouterByRouter) {
  const EndpointLayout l(ringWithEndpoints());
  EXPECT_FALSE(l.oneEach());
  EXPECT_EQ(l.endpoints(), 6);
  EXPECT_EQ(l.first(0), 0);
  EXPECT_EQ(l.first(1), 2);
  EXPECT_EQ(l.at(1), 0);
  EXPECT_EQ(l.first(2), 2);
  EXPECT_EQ(l.first(3), 3);
  EXPECT_EQ(l.routerOf(1), 0);
  EXPECT_EQ(l.routerOf(2), 2);
  EXPECT_EQ(l.routerOf(5), 3);
  EXPECT_EQ(l.localOf(5), 2);
  const EndpointLayout one(makeRing(4));
  EXPECT_TRUE(one.oneEach());
  EXPECT_EQ(one.endpoints(), 4);
  EXPECT_EQ(one.routerOf(3), 3);
}

// Every ordered pair of the six endpoints, one message each: each is ejected exactly once, at
// its destination endpoint's router and port, and none at the switch.
TEST(Endpoints, EveryMessageReachesItsEndpointOnce) {
  SimParams p = ringParams();
  int64_t clock = 0;
  for (int32_t s = 0; s < 6; ++s)
    for (int32_t d = 0; d < 6; ++d)
      if (s != d) p.script.push_back({clock++, s, d, p.data_bits_per_packet});
  Rig rig(ringWithEndpoints(), p);
  rig.run(400);
  ASSERT_EQ(rig.ejected.size(), 30u);
  std::map<uint32_t, int> times;
  std::vector<int> received(6, 0);
  for (const Rig::Ejected& e : rig.ejected) {
    const Message& m = rig.store.messages[e.message];
    ++times[e.message];
    EXPECT_EQ(e.endpoint, m.dst) << "message " << m.src << " -> " << m.dst;
    EXPECT_EQ(e.router, rig.net.endpoints().routerOf(m.dst));
    EXPECT_NE(e.router, 1) << "the switch ejected a packet";
    ++received[static_cast<size_t>(e.endpoint)];
  }
  EXPECT_EQ(times.size(), 30u);
  for (const auto& [message, n] : times) EXPECT_EQ(n, 1) << "message " << message;
  for (int32_t e = 0; e < 6; ++e) EXPECT_EQ(received[static_cast<size_t>(e)], 5) << e;
  EXPECT_EQ(rig.net.flitsInNetwork(), 0);
}

// The same through the simulator: rows per endpoint (sent, received, flits), per router
// (collisions) apart, the switch's router row present and no endpoint row for it.
TEST(Endpoints, SimulatorRowsArePerEndpoint) {
  SimParams p = ringParams();
  int64_t clock = 0;
  for (int32_t s = 0; s < 6; ++s)
    for (int32_t d = 0; d < 6; ++d)
      if (s != d) p.script.push_back({clock++, s, d, p.data_bits_per_packet});
  const Results r = simulate(ringWithEndpoints(), p);
  ASSERT_EQ(r.status, RunStatus::kOk) << r.status_message;
  EXPECT_EQ(r.nodes, 4);
  EXPECT_EQ(r.endpoints, 6);
  ASSERT_EQ(r.per_node.size(), 6u);
  ASSERT_EQ(r.per_router.size(), 4u);
  EXPECT_EQ(r.messages.delivered, 30);
  for (const NodeRow& row : r.per_node) {
    EXPECT_EQ(row.sent, 5u);
    EXPECT_EQ(row.received, 5u);
    EXPECT_EQ(row.injected_flits, 5 * 4);
    EXPECT_EQ(row.delivered_flits, 5 * 4);
  }
  const nlohmann::json j = toJson(r);
  EXPECT_EQ(j["topology"]["endpoints"], 6);
  EXPECT_TRUE(j["tables"].contains("routers"));
  const std::string routers = formatTable(r, ResultTable::kRouters);
  EXPECT_EQ(routers.substr(0, routers.find('\n')),
            "router,dropped_packets,collisions,class_grants.class0,recoveries,recovery_hops");
  EXPECT_EQ(std::count(routers.begin(), routers.end(), '\n'), 5);
  // Endpoint rows: the router columns (dropped_packets, collisions, grants, recoveries) empty.
  const std::string nodes = formatTable(r, ResultTable::kNodes);
  const size_t row0 = nodes.find('\n') + 1;
  const NodeRow& e0 = r.per_node[0];
  ASSERT_GT(e0.sent_measured_messages, 0u);
  ASSERT_GT(e0.received_measured_messages, 0u);
  const std::string latencies =
      nlohmann::json(static_cast<double>(e0.sent_latency) / e0.sent_measured_messages).dump() +
      "," +
      nlohmann::json(static_cast<double>(e0.received_latency) / e0.received_measured_messages)
          .dump();
  EXPECT_EQ(nodes.substr(row0, nodes.find('\n', row0) - row0),
            "0,5,5,0,,20,20,,0.2,0.2,,,," + latencies);
  EXPECT_EQ(std::count(nodes.begin(), nodes.end(), '\n'), 7);
}

// One endpoint per router: no endpoints key, no routers table, router figures in node rows.
TEST(Endpoints, DefaultLayoutKeepsOneRowPerRouter) {
  const Results r = testing::runSingle(makeRing(4), ringParams(), 0, 2);
  EXPECT_EQ(r.endpoints, -1);
  EXPECT_TRUE(r.per_router.empty());
  EXPECT_EQ(r.per_node.size(), 4u);
  const nlohmann::json j = toJson(r);
  EXPECT_FALSE(j["topology"].contains("endpoints"));
  EXPECT_FALSE(j["tables"].contains("routers"));
}

double latencyOf(const NetworkDesc& d, int32_t src, int32_t dst) {
  const Results r = testing::runSingle(d, ringParams(), src, dst);
  EXPECT_EQ(r.status, RunStatus::kOk) << r.status_message;
  EXPECT_EQ(r.messages.delivered, 1);
  return r.network_latency.mean;
}

// Zero load: between two endpoints of one router a packet crosses that router only (inject
// -> eject, no link); across one link it costs what one hop costs with one endpoint each.
TEST(Endpoints, ZeroLoadLatency) {
  const NetworkDesc plain = makeRing(4);
  const double one_hop = latencyOf(plain, 0, 1);
  const double two_hops = latencyOf(plain, 0, 2);
  const double per_hop = two_hops - one_hop;  // a link and a router
  ASSERT_GT(per_hop, 0);
  const NetworkDesc eps = ringWithEndpoints();
  EXPECT_EQ(latencyOf(eps, 0, 1), one_hop - per_hop);  // both at router 0
  EXPECT_EQ(latencyOf(eps, 5, 3), one_hop - per_hop);  // both at router 3
  EXPECT_EQ(latencyOf(eps, 1, 3), one_hop);            // router 0 -> router 3, one link
  EXPECT_EQ(latencyOf(eps, 2, 4), one_hop);            // router 2 -> router 3
  EXPECT_EQ(latencyOf(eps, 0, 2), two_hops);           // through the switch
}

// Two routers in a line, router 0 with 3 endpoints (0, 1, 2), router 1 with one (3). A packet
// from endpoint 3 (over the link) and one from endpoint 0 (from router 0's own injection
// port), timed to reach router 0's ejection in the same clock: to endpoints 1 and 2 both leave
// in that clock (an ejection port each); to endpoint 1 both, they leave one after the other.
TEST(Endpoints, TwoEndpointsEjectInTheSameClock) {
  NetworkDesc d = makeMesh({2});
  d.nodes[0].endpoints = 3;
  SimParams p = baseParams(FlowControl::kWormhole, 1, 4, 1);
  auto clockOf = [&](std::vector<ScriptedMessage> script) {
    SimParams q = p;
    q.script = std::move(script);
    Rig rig(d, q);
    rig.run(50);
    std::vector<int64_t> clocks;
    for (const Rig::Ejected& e : rig.ejected) clocks.push_back(e.clock);
    return std::make_pair(clocks, rig.ejected);
  };
  const int64_t remote = clockOf({{0, 3, 1, 32}}).first.at(0);
  const int64_t local = clockOf({{0, 0, 2, 32}}).first.at(0);
  ASSERT_GT(remote, local);
  const int64_t later = remote - local;  // create the local one this much later
  const auto [both, ejected] = clockOf({{0, 3, 1, 32}, {later, 0, 2, 32}});
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0], remote);
  EXPECT_EQ(both[1], remote);
  EXPECT_EQ(ejected[0].router, 0);
  EXPECT_EQ(ejected[1].router, 0);
  EXPECT_NE(ejected[0].endpoint, ejected[1].endpoint);
  // One ejection port for both: one waits a clock.
  const auto same = clockOf({{0, 3, 1, 32}, {later, 0, 1, 32}}).first;
  ASSERT_EQ(same.size(), 2u);
  EXPECT_NE(same[0], same[1]);
}

// flits/node/clock is averaged over endpoints: 6 on the ring, not its 4 routers.
TEST(Endpoints, ThroughputIsPerEndpoint) {
  SimParams p = ringParams();
  p.creation_rate = 0.02;
  p.time_limit_clocks = 3000;
  p.seed = 7;
  const Results r = simulate(ringWithEndpoints(), p);
  ASSERT_EQ(r.window_start_cycle, 0);
  int64_t delivered = 0, offered = 0;
  for (const NodeRow& row : r.per_node) delivered += row.delivered_flits;
  ASSERT_GT(delivered, 0);
  const double clocks = static_cast<double>(r.window_end_cycle - r.window_start_cycle);
  EXPECT_DOUBLE_EQ(r.accepted_flits_per_node_cycle, static_cast<double>(delivered) / (clocks * 6));
  (void)offered;
  // The switch is no source: every endpoint sends, at its own rate.
  for (const NodeRow& row : r.per_node) EXPECT_GT(row.sent, 0u);
}

TEST(Endpoints, TooManyPortsIsRefused) {
  NetworkDesc d = makeRing(4);  // 2 network ports per router
  d.nodes[2].endpoints = 31;
  try {
    Network net(d, ringParams());
    FAIL() << "accepted 33 ports";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "node 2 has 2 network ports and 31 endpoints, 33 ports in all; the runtime "
              "supports 32 per router (network ports and endpoints together, at most 31 network "
              "ports)");
  }
  d.nodes[2].endpoints = 30;  // 32 in all: fits
  SimParams p = ringParams();
  EXPECT_NO_THROW(Network(d, p));
}

TEST(Endpoints, TooManyLocalVcsIsRefused) {
  NetworkDesc d = makeRing(4);
  d.nodes[1].endpoints = 8;
  SimParams p = ringParams();  // 2 VCs per network port
  p.injection_virtual_channels = 8;  // 2 x 2 + 8 x 8 = 68
  try {
    Network net(d, p);
    FAIL() << "accepted 68 VCs";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "node 1 needs 68 input VCs (2 ports x 2 VCs + 8 endpoints x 8 injection VCs); the "
              "runtime supports 64 per router");
  }
  p.injection_virtual_channels = 7;  // 4 + 56 = 60
  EXPECT_NO_THROW(Network(d, p));
}

TEST(Endpoints, NegativeCountIsRefused) {
  NetworkDesc d = makeRing(4);
  d.nodes[0].endpoints = -1;
  EXPECT_THROW(Network(d, ringParams()), std::invalid_argument);
}

// Patterns number endpoints: a bit pattern needs a power-of-two endpoint count.
TEST(Endpoints, BitPatternsCountEndpoints) {
  SimParams p = ringParams();
  p.pattern = TrafficPattern::kBitComplement;
  p.creation_rate = 0.01;
  try {
    Network net(ringWithEndpoints(), p);
    FAIL() << "BitComplement on 6 endpoints";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "BitComplement needs a power-of-two node count, the network has 6");
  }
  NetworkDesc eight = ringWithEndpoints();
  eight.nodes[1].endpoints = 2;  // 8 endpoints on 4 routers
  p.time_limit_clocks = 2000;
  const Results r = simulate(eight, p);
  EXPECT_EQ(r.status, RunStatus::kOk) << r.status_message;
  EXPECT_GT(r.messages.delivered, 0);
}

}  // namespace
}  // namespace ndl::rt
