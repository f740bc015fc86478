// Measures the runtime's speed and memory on the reference cases of bench/RESULTS.md:
// an 8x8 torus (dimension order, 2 VCs of 8 flits, 8-flit packets, uniform) at 0.1 and 0.3
// flits/node/clock and a 64x64 torus at 0.01. One case per process so that the peak
// resident memory belongs to that case alone.
//   ndl_runtime_bench CASE [CLOCKS [FLOW]]
//     CASE: torus8-0.1 | torus8-0.3 | torus64-0.01
//     FLOW: Wormhole (default) | VirtualCutThrough | StoreAndForward
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>

#include "ndl/runtime/net/topologies.h"
#include "ndl/runtime/sim/simulator.h"
#include "oracle_routing.h"

namespace {

// A field of /proc/self/status in kB (VmRSS: resident now, VmHWM: peak resident).
long statusKb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string key = std::string(field) + ":";
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) return std::strtol(line.c_str() + key.size(), nullptr, 10);
  }
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ndl::rt;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s torus8-0.1|torus8-0.3|torus64-0.01 [CLOCKS]\n", argv[0]);
    return 2;
  }
  const std::string name = argv[1];
  int32_t k = 8;
  double load = 0.1;
  int64_t clocks = 400000;
  if (name == "torus8-0.3") {
    load = 0.3;
  } else if (name == "torus64-0.01") {
    k = 64;
    load = 0.01;
    clocks = 40000;
  } else if (name != "torus8-0.1") {
    std::fprintf(stderr, "unknown case %s\n", name.c_str());
    return 2;
  }
  if (argc > 2) clocks = std::atoll(argv[2]);
  const std::string flow = argc > 3 ? argv[3] : "Wormhole";

  SimParams p;
  p.flow_control = flow == "VirtualCutThrough" ? FlowControl::kVirtualCutThrough
                   : flow == "StoreAndForward" ? FlowControl::kStoreAndForward
                                               : FlowControl::kWormhole;
  p.channel_width_bits = 32;
  p.packet_flits = 8;
  p.header_flits = 2;
  p.data_bits_per_packet = 6 * 32;
  p.buffer_flits = 8;
  p.virtual_channels = 2;
  p.injection_virtual_channels = 1;
  p.router_delay_clocks = 1;
  p.deadlock = DeadlockHandling::kAvoid;
  // The runtime has no routing of its own: the test oracle of the stdlib's DimensionOrder.
  p.route_fn = oracle::dimensionOrderDateline;
  p.message_min_bits = p.message_max_bits = p.data_bits_per_packet;  // one packet
  p.creation_rate = load / p.packet_flits;
  p.time_limit_clocks = clocks;
  p.seed = 1;

  const long rss_before = statusKb("VmRSS");
  NetworkDesc desc = makeTorus({k, k});
  const long rss_desc = statusKb("VmRSS");
  Simulator sim(std::move(desc), p);
  const long rss_built = statusKb("VmRSS");
  // CPU time of this process too: the machine may be shared, and the figure we want is
  // what one core achieves.
  const std::clock_t cpu_start = std::clock();
  const Results r = sim.run();
  const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  const long hwm = statusKb("VmHWM");
  const double nodes = static_cast<double>(r.nodes);
  fmt::print("case {}: {}x{} torus, {}, load {} flits/node/clock, {} clocks\n", name, k, k,
             flowControlName(p.flow_control), load, r.cycles);
  fmt::print("  wall {:.3f} s, cpu {:.3f} s\n", r.wall_seconds, cpu);
  fmt::print("  router-clocks/s {:.1f} M (wall), {:.1f} M (cpu)\n",
             r.router_clocks / r.wall_seconds / 1e6, r.router_clocks / cpu / 1e6);
  fmt::print("  flit-hops/s {:.1f} M (wall), {:.1f} M (cpu)\n", r.flit_hops / r.wall_seconds / 1e6,
             r.flit_hops / cpu / 1e6);
  fmt::print("  accepted {:.4f} flits/node/clock, mean network latency {:.2f} clocks\n",
             r.accepted_flits_per_node_cycle, r.network_latency.mean);
  fmt::print(
      "  memory: network state {:.0f} B/node, peak RSS growth {:.0f} B/node "
      "(description {:.0f}, built {:.0f}, after run {:.0f})\n",
      sim.networkStateBytes() / nodes, (hwm - rss_before) * 1024.0 / nodes,
      (rss_desc - rss_before) * 1024.0 / nodes, (rss_built - rss_before) * 1024.0 / nodes,
      (statusKb("VmRSS") - rss_before) * 1024.0 / nodes);
  return 0;
}
