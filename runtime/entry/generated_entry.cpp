// The entry point of every generated simulator: turns the tables of the
// generated module (generated_abi.h) into the runtime's NetworkDesc and
// SimParams, and wraps the NDL routing function as the runtime's
// ndl_generated_route. Compiled to LLVM bitcode with the simulator core and
// linked with the generated module, so that the routing function inlines
// into the router step.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "ndl/runtime/net/network.h"
#include "ndl/runtime/net/routing.h"
#include "ndl/runtime/sim/generated_abi.h"
#include "ndl/runtime/sim/port_table.h"
#include "ndl/runtime/sim/sim_params.h"
#include "ndl/runtime/sim/simulator_main.h"

extern "C" ndl::rt::RouteSet ndl_generated_route(const ndl::rt::RouteContext& ctx);
uint64_t ndl_generated_header(int32_t src, int32_t dst, uint64_t random);
int32_t ndl_generated_pattern(ndl::rt::TrafficContext& ctx);
int64_t ndl_generated_select(const ndl::rt::RouteContext& ctx, const ndl::rt::Candidate& c);
int64_t ndl_generated_predict(const ndl::rt::RouteContext& ctx, ndl::rt::PredictorRings& rings,
                              int32_t port);
void ndl_generated_forward(const ndl::rt::RouteContext& ctx, ndl::rt::PredictorRings& rings,
                           int32_t port, int32_t out_code);

// Set by generated code at a value the NDL evaluator refuses (generated_abi.h).
extern "C" const char* ndl_eval_failure = nullptr;
extern "C" uint64_t ndl_eval_steps = 0;

namespace {

// Stops the run at a failure the generated code recorded; `what` says which call it was in.
[[noreturn, gnu::noinline, gnu::cold]] void evalFailed(const std::string& what) {
  const std::string message = what + ": " + ndl_eval_failure;
  ndl_eval_failure = nullptr;
  throw ndl::rt::RoutingFailure(message);
}
std::string atNode(const ndl::rt::RouteContext& ctx) {
  return " at node " + std::to_string(ctx.node) + " for destination " + std::to_string(ctx.dest);
}

// Decoded once in main from the module's compact port table (port_table.h); the routing
// hooks below only index. g_port_of: a node's local port along (dim, dir), -1 if none;
// g_port_start: a node's first port; g_peer: per port, the node at the far end of an output
// port, -1 for an input-only one.
std::vector<int16_t> g_port_of;
std::vector<int32_t> g_port_start;
std::vector<int32_t> g_peer;
int32_t g_port_dims = 0;
// The endpoints per router, for a pattern's (endpoint-router e) and (router-endpoint r i).
ndl::rt::EndpointLayout g_endpoints;

ndl::rt::NetworkDesc makeNetwork() {
  ndl::rt::NetworkDesc desc;
  const int64_t n = ndl_params_i64[NDL_P_NumNodes];
  desc.topology_name = ndl_params_str[NDL_P_TopologyName];
  desc.topology_kind = ndl_params_str[NDL_P_TopologyKind];
  desc.nodes.resize(static_cast<size_t>(n));
  g_port_dims = static_cast<int32_t>(ndl_params_i64[NDL_P_NumPortDims]);
  g_port_of.assign(static_cast<size_t>(n) * g_port_dims * 2, -1);
  g_port_start.assign(static_cast<size_t>(n) + 1, 0);
  g_peer.assign(static_cast<size_t>(ndl_params_i64[NDL_P_NumPorts]), -1);
  const ndl::rt::PortTableView table{ndl_signature_start, ndl_signature_ports, ndl_node_runs,
                                     ndl_params_i64[NDL_P_NumNodeRuns]};
  int32_t next = 0;  // ports decoded so far
  ndl::rt::forEachPort(table, [&](int32_t v, int32_t local, const int32_t* f) {
    ndl::rt::PortDesc port;
    port.peer_node = f[0];
    port.peer_port = f[1];
    port.direction = static_cast<ndl::rt::LinkDirection>(f[2]);
    port.dim = static_cast<int8_t>(f[3]);
    port.sign = static_cast<int8_t>(f[4]);
    port.delay_clocks = f[6];
    if (f[4] != 0 && f[3] >= 0 && f[3] < g_port_dims) {
      int16_t& slot = g_port_of[(static_cast<size_t>(v) * g_port_dims + f[3]) * 2 + (f[4] > 0)];
      if (slot < 0) slot = static_cast<int16_t>(local);
    }
    if (port.direction != ndl::rt::LinkDirection::kInOnly) g_peer[static_cast<size_t>(next)] = f[0];
    ++next;
    g_port_start[static_cast<size_t>(v) + 1] = next;
    desc.nodes[static_cast<size_t>(v)].ports.push_back(port);
  });
  // Nodes without ports start where the previous node ends.
  for (int64_t v = 1; v <= n; ++v)
    g_port_start[static_cast<size_t>(v)] =
        std::max(g_port_start[static_cast<size_t>(v)], g_port_start[static_cast<size_t>(v) - 1]);
  for (int64_t d = 0; d < ndl_params_i64[NDL_P_NumDims]; ++d) desc.dims.push_back(ndl_radices[d]);
  desc.wrap = ndl_params_i64[NDL_P_Wrap] != 0;
  for (const char* s = ndl_params_str[NDL_P_DimNames]; *s != '\0';) {
    const char* e = s;
    while (*e != '\0' && *e != ',') ++e;
    desc.dim_names.emplace_back(s, e);
    s = *e == ',' ? e + 1 : e;
  }
  // Endpoints per router, run-length coded in router order.
  size_t v = 0;
  for (int64_t k = 0; k < ndl_params_i64[NDL_P_NumEndpointRuns]; ++k) {
    const int32_t per = ndl_endpoint_runs[2 * k];
    for (int32_t i = 0; i < ndl_endpoint_runs[2 * k + 1] && v < desc.nodes.size(); ++i, ++v)
      desc.nodes[v].endpoints = per;
  }
  g_endpoints = ndl::rt::EndpointLayout(desc);
  desc.diameter = static_cast<int32_t>(ndl_params_i64[NDL_P_Diameter]);
  desc.avg_distance = ndl_params_f64[NDL_P_AvgDistance];
  return desc;
}

// From the module's tables, or a copy that --param changed (abi_params.h).
ndl::rt::SimParams makeParams(const ndl::rt::AbiValues& values) {
  using namespace ndl::rt;
  const int64_t* i = values.i64.data();
  SimParams p;
  setRuntimeParams(values, p);  // the --param entries (param_rules.h)
  // The entries compiled into the code, or derived by the compiler with them.
  p.channel_width_bits = static_cast<int32_t>(i[NDL_P_ChannelWidthBits]);
  p.packet_flits = static_cast<int32_t>(i[NDL_P_PacketFlits]);
  p.header_flits = static_cast<int32_t>(i[NDL_P_HeaderFlits]);
  p.data_bits_per_packet = i[NDL_P_DataBitsPerPacket];
  p.packet_per_message = i[NDL_P_PacketPerMessage] != 0;
  p.virtual_channels = static_cast<int32_t>(i[NDL_P_VirtualChannels]);
  p.injection_virtual_channels = static_cast<int32_t>(i[NDL_P_InjectionVirtualChannels]);
  p.pipeline_flit_clocks = static_cast<int32_t>(i[NDL_P_PipelineFlitClocks]);
  p.global_congestion = i[NDL_P_ReadsGlobalCongestion] != 0;
  p.router_pipeline = ndl_params_str[NDL_P_RouterPipeline];
  for (int64_t k = 0; k < i[NDL_P_HotSpotCount]; ++k)
    p.pattern_params.hotspot_nodes.push_back(ndl_hot_nodes[k]);
  p.pattern_params.group_endpoints = static_cast<int32_t>(i[NDL_P_GroupEndpoints]);
  for (const char* s = ndl_params_str[NDL_P_UserPatternNames]; *s != '\0';) {
    const char* e = s;
    while (*e != '\0' && *e != ',') ++e;
    p.user_patterns.emplace_back(s, e);
    s = *e == ',' ? e + 1 : e;
  }
  if (!p.user_patterns.empty()) p.dest_fn = ndl_generated_pattern;
  p.user_pattern = static_cast<int32_t>(i[NDL_P_UserPattern]);
  if (p.pattern == TrafficPattern::kCustom && p.user_pattern >= 0)
    p.pattern_name = p.user_patterns[static_cast<size_t>(p.user_pattern)];
  p.route_fn = ndl_generated_route;
  p.routing_name = ndl_params_str[NDL_P_RoutingName];
  p.selection = static_cast<Selection>(i[NDL_P_Selection]);
  p.selection_name = ndl_params_str[NDL_P_SelectionName];
  p.recovery_timeout_clocks = i[NDL_P_RecoveryTimeoutClocks];
  if (p.selection == Selection::kUser) p.select_fn = ndl_generated_select;
  if (i[NDL_P_Predictor] != 0) {
    p.predict_fn = ndl_generated_predict;
    p.forward_fn = ndl_generated_forward;
    p.predictor_name = ndl_params_str[NDL_P_PredictorName];
    p.predictive_path = ndl_params_str[NDL_P_PredictivePath];
    p.predict_header_clocks = static_cast<int32_t>(i[NDL_P_PredictHeaderClocks]);
    p.predictor_latency_clocks = static_cast<int32_t>(i[NDL_P_PredictorLatencyClocks]);
    p.misprediction_check_none = i[NDL_P_MispredictionCheck] == 1;
    for (int64_t k = 0; k < i[NDL_P_PortStateCount]; ++k)
      p.port_rings.push_back({ndl_port_states[4 * k], ndl_port_states[4 * k + 1],
                              ndl_port_states[4 * k + 2], ndl_port_states[4 * k + 3] != 0});
  }
  if (i[NDL_P_HeaderFieldCount] > 0) {
    p.header_init = ndl_generated_header;
    const char* s = ndl_params_str[NDL_P_HeaderFieldNames];
    for (int64_t k = 0; k < i[NDL_P_HeaderFieldCount]; ++k) {
      const char* e = s;
      while (*e != '\0' && *e != ',') ++e;
      p.header_fields.push_back({std::string(s, e), ndl_header_fields[4 * k + 2],
                                 ndl_header_fields[4 * k + 3]});
      s = *e == ',' ? e + 1 : e;
    }
  }
  for (int64_t k = 0; k < i[NDL_P_VirtualChannels]; ++k)
    p.vc_class.push_back(static_cast<uint8_t>(ndl_vc_class[k]));
  for (const char* s = ndl_params_str[NDL_P_ClassNames]; *s != '\0';) {
    const char* e = s;
    while (*e != '\0' && *e != ',') ++e;
    p.class_names.emplace_back(s, e);
    s = *e == ',' ? e + 1 : e;
  }
  p.token_classes = static_cast<uint64_t>(i[NDL_P_TokenClasses]);
  if (i[NDL_P_WaitBreakCount] >= 0) {
    p.wait_breaks.emplace();
    for (int64_t k = 0; k < i[NDL_P_WaitBreakCount]; ++k)
      p.wait_breaks->push_back(static_cast<uint32_t>(ndl_wait_breaks[k]));
  }
  if (const int64_t f = i[NDL_P_RecoveryField]; f >= 0 && f < i[NDL_P_HeaderFieldCount]) {
    p.recovery_field = uint64_t{1} << ndl_header_fields[4 * f];  // a Bool: one bit
    p.recovery_field_name = p.header_fields[static_cast<size_t>(f)].name;
  }
  for (int64_t k = 0; k < i[NDL_P_InjectionVirtualChannels]; ++k)
    p.injection_vc_class.push_back(static_cast<uint8_t>(ndl_inj_vc_class[k]));
  p.deadlock = static_cast<DeadlockHandling>(i[NDL_P_Deadlock]);
  for (int64_t k = 0; k < i[NDL_P_ReportPairCount]; ++k)
    p.report_pairs.emplace_back(ndl_report_pairs[2 * k], ndl_report_pairs[2 * k + 1]);
  if (i[NDL_P_InterfacePeriodPs] > 0) {
    InterfaceTiming& f = p.interface;
    f.network_period_ps = i[NDL_P_InterfacePeriodPs];
    f.synchronizer_clocks = i[NDL_P_SynchronizerClocks];
    f.host_write_ps = i[NDL_P_HostWritePs];
    f.host_read_ps = i[NDL_P_HostReadPs];
    f.overhead_ps = i[NDL_P_SoftwareOverheadPs];
    f.poll_interval_ps = i[NDL_P_PollIntervalPs];
    f.poll_phase_ps = i[NDL_P_PollPhasePs];
    f.external_loop = i[NDL_P_InterfaceLoopback] != 0;
    const int64_t sends = i[NDL_P_InterfaceSendStages];
    for (int64_t k = 0; k < sends + i[NDL_P_InterfaceReceiveStages]; ++k) {
      const int64_t* row = &ndl_interface_stages[k * NDL_INTERFACE_STAGE_FIELDS];
      (k < sends ? f.send : f.receive)
          .push_back({static_cast<int32_t>(row[0]), row[1], row[2], row[3]});
    }
    p.interface_name = ndl_params_str[NDL_P_InterfaceName];
  }
  const char* name = ndl_params_str[NDL_P_TrafficClassNames];
  for (int64_t k = 0; k < i[NDL_P_TrafficClassCount]; ++k) {
    const double* row = &ndl_traffic_classes[k * NDL_TRAFFIC_CLASS_FIELDS];
    SimParams::TrafficClass c;
    const char* e = name;
    while (*e != '\0' && *e != ',') ++e;
    c.name.assign(name, e);
    name = *e == ',' ? e + 1 : e;
    c.rate = row[0];
    c.pattern = static_cast<TrafficPattern>(static_cast<int>(row[1]));
    c.min_bits = static_cast<int64_t>(row[2]);
    c.max_bits = static_cast<int64_t>(row[3]);
    c.reply = static_cast<int32_t>(row[4]);
    c.user_pattern = static_cast<int32_t>(row[5]);
    c.priority = static_cast<uint8_t>(row[6]);
    c.process = static_cast<CreationProcess>(static_cast<int>(row[7]));
    c.interval_clocks = row[8];
    c.on_off_burst_clocks = row[9];
    c.on_off_duty = row[10];
    p.classes.push_back(std::move(c));
  }
  return p;
}

}  // namespace

// (has-port n d dir) of NDL routing functions.
// A node's network ports: the number of its first endpoint's port.
inline int32_t portCount(int32_t node) {
  return g_port_start[static_cast<size_t>(node) + 1] - g_port_start[static_cast<size_t>(node)];
}

extern "C" int64_t ndl_has_port(int64_t node, int64_t dim, int64_t dir) {
  if (node < 0 || node >= ndl_params_i64[NDL_P_NumNodes] || dim < 0 || dim >= g_port_dims) return 0;
  return g_port_of[(static_cast<size_t>(node) * g_port_dims + dim) * 2 + (dir > 0)] >= 0;
}

// (peer n p) of NDL routing functions: the far end of an output port, n itself if it has none.
extern "C" int64_t ndl_peer(int64_t node, int64_t port) {
  const int64_t dim = port >> 1;
  if (node < 0 || node >= ndl_params_i64[NDL_P_NumNodes] || dim < 0 || dim >= g_port_dims)
    return node;
  const int16_t local = g_port_of[(static_cast<size_t>(node) * g_port_dims + dim) * 2 + (port & 1)];
  if (local < 0) return node;
  return g_peer[static_cast<size_t>(g_port_start[static_cast<size_t>(node)] + local)];
}

// (endpoint-router e), (router-endpoint r i), (router-endpoints r) of NDL code, on a network
// whose routers have other than one endpoint each (generated code folds them otherwise); the
// generated code checks the numbers first, so these only keep out of bounds.
extern "C" int64_t ndl_endpoint_router(int64_t e) {
  return e < 0 || e >= g_endpoints.endpoints() ? 0 : g_endpoints.routerOf(static_cast<int32_t>(e));
}
extern "C" int64_t ndl_router_first_endpoint(int64_t r) {
  return r < 0 || r >= g_endpoints.routers() ? 0 : g_endpoints.first(static_cast<int32_t>(r));
}
extern "C" int64_t ndl_router_endpoints(int64_t r) {
  return r < 0 || r >= g_endpoints.routers() ? 0 : g_endpoints.at(static_cast<int32_t>(r));
}

namespace {
// The router whose routing or selection runs, for a congestion read (ndl_port_load): set
// before each call only when the program reads congestion (ReadsCongestion, a constant of the
// generated module), so that other programs pay nothing for it.
int32_t g_routing_node = 0;

inline void viewCongestion(const ndl::rt::RouteContext& ctx) {
  if (ndl_params_i64[NDL_P_ReadsCongestion] != 0) g_routing_node = ctx.node;
}
}  // namespace

// (port-queue P), (port-credits P), (port-free-vcs P) at the router routing now: over the VCs
// of its output port P, the slots held downstream (flits in the buffer or on their way, whose
// credits have not come back: BookSim2's GetUsedCredit), the free slots, the VCs no packet owns.
extern "C" int64_t ndl_port_load(int64_t port, int64_t what) {
  const ndl::rt::Network& net = *ndl::rt::Network::current();
  const int32_t node = g_routing_node;
  const int64_t dim = port >> 1;
  if (dim < 0 || dim >= g_port_dims) return -1;
  const int16_t local =
      g_port_of[(static_cast<size_t>(node) * g_port_dims + dim) * 2 + (port & 1)];
  if (local < 0) return -1;
  const int32_t vcs = net.vcsPerPort();
  const uint16_t* e = net.outVcRow(node) + static_cast<ptrdiff_t>(local) * vcs;
  int64_t free_vcs = 0, credits = 0;
  for (int32_t k = 0; k < vcs; ++k) {
    credits += e[k] & static_cast<uint16_t>(~ndl::rt::kOwnedBit);
    free_vcs += e[k] < ndl::rt::kOwnedBit;
  }
  return what == 0   ? int64_t{vcs} * net.bufferFlits() - credits
         : what == 1 ? credits
                     : free_vcs;
}

// (port-queue-at R P): router R's output port P's queue in the snapshot taken as the router
// clock began, so that what a routing sees of other routers does not depend on which of them
// has stepped already in this clock.
extern "C" int64_t ndl_port_queue_at(int64_t router, int64_t port) {
  const ndl::rt::Network& net = *ndl::rt::Network::current();
  const int64_t dim = port >> 1;
  if (router < 0 || router >= net.routers() || dim < 0 || dim >= g_port_dims) return -1;
  const int16_t local =
      g_port_of[(static_cast<size_t>(router) * g_port_dims + dim) * 2 + (port & 1)];
  if (local < 0) return -1;
  return net.snapshotQueue(static_cast<int32_t>(router), local);
}

namespace {

// (graph-distance a b): one byte per ordered pair, rows by destination, built by one BFS per
// node over the port table the first time a routing asks (the checker's analyses use the
// same table, compiler/elaborate/Distances.h, and refuse networks it cannot hold).
std::vector<uint8_t> g_distance;
constexpr uint8_t kUnreached = 255;

[[gnu::noinline, gnu::cold]] void buildDistances() {
  const int64_t n = ndl_params_i64[NDL_P_NumNodes];
  g_distance.assign(static_cast<size_t>(n) * static_cast<size_t>(n), kUnreached);
  std::vector<int32_t> queue(static_cast<size_t>(n));
  std::vector<int32_t> dist(static_cast<size_t>(n));
  for (int32_t from = 0; from < n; ++from) {
    std::fill(dist.begin(), dist.end(), -1);
    size_t head = 0, tail = 0;
    dist[static_cast<size_t>(from)] = 0;
    queue[tail++] = from;
    while (head < tail) {
      const int32_t u = queue[head++];
      const int32_t du = dist[static_cast<size_t>(u)];
      if (du >= kUnreached) {
        std::fprintf(stderr,
                     "ndl: (graph-distance a b) counts up to 254 hops; node %d is farther from "
                     "node %d\n",
                     u, from);
        std::exit(2);
      }
      g_distance[static_cast<size_t>(u) * static_cast<size_t>(n) + from] = static_cast<uint8_t>(du);
      for (int32_t p = g_port_start[static_cast<size_t>(u)];
           p < g_port_start[static_cast<size_t>(u) + 1]; ++p) {
        const int32_t peer = g_peer[static_cast<size_t>(p)];
        if (peer < 0) continue;  // an input-only port
        if (dist[static_cast<size_t>(peer)] < 0) {
          dist[static_cast<size_t>(peer)] = du + 1;
          queue[tail++] = peer;
        }
      }
    }
  }
}

}  // namespace

extern "C" int64_t ndl_distance(int64_t from, int64_t to) {
  const int64_t n = ndl_params_i64[NDL_P_NumNodes];
  if (from < 0 || to < 0 || from >= n || to >= n) return n;
  if (g_distance.empty()) buildDistances();
  const uint8_t d = g_distance[static_cast<size_t>(to) * static_cast<size_t>(n) +
                               static_cast<size_t>(from)];
  return d == kUnreached ? n : d;
}

// The runtime's hook for generated routing (see simulator.cpp): the NDL
// function names candidates by (port code, class); here they become bits of
// the router's output VCs (local port * VCs + VC).
extern "C" ndl::rt::RouteSet ndl_generated_route(const ndl::rt::RouteContext& ctx) {
  // Node ids are never negative: passed as unsigned, the optimizer knows it
  // and turns the NDL floor division and modulo of coordinates into shifts
  // and masks (or plain unsigned arithmetic) once the routing is inlined.
  const auto id = [](int32_t node) { return static_cast<int64_t>(static_cast<uint32_t>(node)); };
  // Tiers, error word, and 5 words per header field (generated_abi.h).
  int64_t out[5 + 5 * ndl::rt::kMaxHeaderWrites];
  const bool injected = ctx.in_port >= portCount(ctx.node);  // from any of its endpoints
  ndl_eval_steps = 0;
  viewCongestion(ctx);
  ndl_user_route(id(ctx.node), id(ctx.dest), id(ctx.src), ctx.arrived, injected ? 1 : 0,
                 ctx.in_class, ctx.blocked_for, static_cast<int64_t>(ctx.header), out);
  if (ndl_eval_failure != nullptr) [[unlikely]] evalFailed("routing" + atNode(ctx));
  const int64_t classes = ndl_params_i64[NDL_P_NumClasses];
  const int32_t vcs = ctx.num_vcs;
  const int16_t* ports = &g_port_of[static_cast<size_t>(ctx.node) * g_port_dims * 2];
  // Not value-initialized: the unused writes stay unset (routing.h).
  ndl::rt::RouteSet set;
  set.bad_port = -1;
  // (port code, class) bits to bits of this router's output VCs; false for a port it lacks.
  auto toVcs = [&](uint64_t mask, uint64_t& vcMask) {
    vcMask = 0;
    for (uint64_t m = mask; m != 0; m &= m - 1) {
      const int b = __builtin_ctzll(m);
      if (b == 63) {
        set.bad_port = 0x7fffffff;  // a dimension the network does not have
        return false;
      }
      const int32_t code = static_cast<int32_t>(b / classes);
      const int32_t port = ports[code];
      if (port < 0) {
        set.bad_port = code;
        return false;
      }
      vcMask |= static_cast<uint64_t>(ndl_class_vcs[b % classes]) << (port * vcs);
    }
    return true;
  };
  for (int t = 0; t < ndl::rt::kRouteTiers; ++t)
    if (!toVcs(static_cast<uint64_t>(out[t]), set.tier[t])) return set;
  set.header_error = static_cast<int32_t>(out[4]);
  const int64_t fields = ndl_params_i64[NDL_P_HeaderFieldCount];
  set.writes = 0;
  for (int64_t f = 0; f < fields; ++f) {
    const int64_t* w = &out[5 + 5 * f];
    if ((w[0] | w[1] | w[2] | w[3]) == 0) continue;
    ndl::rt::HeaderWrite& hw = set.write[set.writes++];
    for (int t = 0; t < ndl::rt::kRouteTiers; ++t) toVcs(static_cast<uint64_t>(w[t]), hw.cand[t]);
    const int64_t bits = ndl_header_fields[4 * f + 1];
    hw.clear = (bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1) << ndl_header_fields[4 * f];
    hw.value = static_cast<uint64_t>(w[4]);
  }
  return set;
}

// The runtime's hook for a selection written in NDL.
int64_t ndl_generated_select(const ndl::rt::RouteContext& ctx, const ndl::rt::Candidate& c) {
  const auto id = [](int32_t node) { return static_cast<int64_t>(static_cast<uint32_t>(node)); };
  const bool injected = ctx.in_port >= portCount(ctx.node);  // from any of its endpoints
  ndl_eval_steps = 0;
  viewCongestion(ctx);
  const int64_t score =
      ndl_user_select(id(ctx.node), id(ctx.dest), id(ctx.src), ctx.arrived, injected ? 1 : 0,
                      ctx.in_class, ctx.blocked_for, c.out_port, c.out_class, c.credits,
                      c.port_free_vcs, c.port_credits);
  if (ndl_eval_failure != nullptr) [[unlikely]] evalFailed("selection" + atNode(ctx));
  return score;
}

// The state the generated predictor reads and writes: the rings of the port being served
// (ndl_ring_*) and of its router (ndl_router_ring_*), k numbering each kind's rings.
namespace {
ndl::rt::PredictorRings* g_rings = nullptr;
}  // namespace

extern "C" int64_t ndl_ring_length(int64_t k) { return g_rings->ports.length(k); }
extern "C" int64_t ndl_ring_ref(int64_t k, int64_t i) { return g_rings->ports.ref(k, i); }
extern "C" int64_t ndl_ring_count(int64_t k, int64_t x) { return g_rings->ports.count(k, x); }
extern "C" void ndl_ring_push(int64_t k, int64_t x) { g_rings->ports.push(k, x); }
extern "C" int64_t ndl_router_ring_length(int64_t k) { return g_rings->routers.length(k); }
extern "C" int64_t ndl_router_ring_ref(int64_t k, int64_t i) { return g_rings->routers.ref(k, i); }
extern "C" int64_t ndl_router_ring_count(int64_t k, int64_t x) {
  return g_rings->routers.count(k, x);
}
extern "C" void ndl_router_ring_push(int64_t k, int64_t x) { g_rings->routers.push(k, x); }

// The runtime's hooks for a predictor written in NDL.
int64_t ndl_generated_predict(const ndl::rt::RouteContext& ctx, ndl::rt::PredictorRings& rings,
                              int32_t port) {
  const auto id = [](int32_t node) { return static_cast<int64_t>(static_cast<uint32_t>(node)); };
  const bool injected = ctx.in_port >= portCount(ctx.node);
  g_rings = &rings;
  rings.select(port, ctx.node);
  ndl_eval_steps = 0;
  const int64_t code = ndl_user_predict(id(ctx.node), id(ctx.dest), id(ctx.src), ctx.arrived,
                                        injected ? 1 : 0, ctx.in_class, 0);
  if (ndl_eval_failure != nullptr) [[unlikely]] evalFailed("predictor" + atNode(ctx));
  return code;
}

void ndl_generated_forward(const ndl::rt::RouteContext& ctx, ndl::rt::PredictorRings& rings,
                           int32_t port, int32_t out_code) {
  const auto id = [](int32_t node) { return static_cast<int64_t>(static_cast<uint32_t>(node)); };
  const bool injected = ctx.in_port >= portCount(ctx.node);
  g_rings = &rings;
  rings.select(port, ctx.node);
  ndl_eval_steps = 0;
  ndl_user_on_forward(id(ctx.node), id(ctx.dest), id(ctx.src), ctx.arrived, injected ? 1 : 0,
                      ctx.in_class, 0, out_code);
  if (ndl_eval_failure != nullptr) [[unlikely]] evalFailed("predictor's OnForward" + atNode(ctx));
}

// The destination function of the patterns written in NDL (define-pattern): the source's stream
// seeds the call's draws; a destination outside the network stops the run, as the checker's
// evaluation of every source would have (a source's draws past its first 2^16 outcomes, or a
// call past its budget, are seen only here).
int32_t ndl_generated_pattern(ndl::rt::TrafficContext& ctx) {
  ndl_eval_steps = 0;
  const int64_t dest = ndl_user_pattern(ctx.user_pattern, ctx.node,
                                        static_cast<int64_t>(ctx.rng->next()));
  const auto name = [&] {
    const char* s = ndl_params_str[NDL_P_UserPatternNames];
    for (int32_t k = 0; k < ctx.user_pattern; ++k) s = std::strchr(s, ',') + 1;
    return std::string(s, std::strcspn(s, ","));
  };
  if (ndl_eval_failure != nullptr) [[unlikely]] {
    const std::string message = "pattern '" + name() + "' for source " +
                                std::to_string(ctx.node) + ": " + ndl_eval_failure;
    ndl_eval_failure = nullptr;
    throw ndl::rt::PatternFailure(message);
  }
  if (dest < 0 || dest >= ctx.nodes) [[unlikely]]
    throw ndl::rt::PatternFailure("pattern '" + name() + "' sends node " +
                                  std::to_string(ctx.node) + " to " + std::to_string(dest) +
                                  ", outside the network's nodes 0 to " +
                                  std::to_string(ctx.nodes - 1));
  return static_cast<int32_t>(dest);
}

// The runtime's hook for a new packet's header fields.
uint64_t ndl_generated_header(int32_t src, int32_t dst, uint64_t random) {
  ndl_eval_steps = 0;
  const int64_t header = ndl_user_header_init(src, dst, static_cast<int64_t>(random));
  if (ndl_eval_failure != nullptr) [[unlikely]]
    evalFailed("the initial header of a packet from node " + std::to_string(src) + " to node " +
               std::to_string(dst));
  return static_cast<uint64_t>(header);
}

int main(int argc, char** argv) {
  ndl::rt::NetworkDesc desc = makeNetwork();
  ndl::rt::ParamTables tables;
  tables.values = ndl::rt::copyAbiValues(ndl_params_i64, ndl_params_f64, ndl_params_str);
  tables.make = makeParams;
  return ndl::rt::simulatorMain(argc, argv, std::move(desc), tables);
}
