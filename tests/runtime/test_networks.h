// Small networks and parameter sets shared by the runtime tests.
#pragma once

#include <string>

#include "ndl/runtime/net/topologies.h"
#include "ndl/runtime/sim/sim_params.h"
#include "ndl/runtime/sim/simulator.h"
#include "ndl/runtime/stats/json_output.h"
#include "ndl/runtime/stats/result_tables.h"
#include "ndl/runtime/stats/results.h"
#include "oracle_routing.h"

namespace ndl::rt::testing {

// One flit = 32 bits; a packet of `flits` flits carries flits*32 data bits (no header
// flits), so a message of that many bits is exactly one packet.
inline SimParams baseParams(FlowControl fc, int32_t flits, int32_t buffer, int32_t delay) {
  SimParams p;
  p.flow_control = fc;
  p.channel_width_bits = 32;
  p.packet_flits = flits;
  p.header_flits = 0;
  p.data_bits_per_packet = 32 * flits;
  p.buffer_flits = buffer;
  p.router_delay_clocks = delay;
  p.message_min_bits = p.message_max_bits = 32 * flits;
  p.creation_rate = 0;
  p.route_fn = oracle::dimensionOrder;
  p.routing_name = "DimensionOrder";
  return p;
}

// Deadlock avoidance as the stdlib's DimensionOrder does it: BookSim2's dateline classes.
inline void useDateline(SimParams& p) {
  p.deadlock = DeadlockHandling::kAvoid;
  p.route_fn = oracle::dimensionOrderDateline;
}

// Offered load in flits/node/clock -> messages per node per clock (one packet each).
inline void setLoad(SimParams& p, double flits_per_node_clock) {
  p.creation_rate = flits_per_node_clock / p.packet_flits;
}

// Runs a single message src -> dst created at clock 0 in an otherwise idle network.
inline Results runSingle(const NetworkDesc& desc, SimParams p, int32_t src, int32_t dst) {
  p.creation_rate = 0;
  p.script = {{0, src, dst, p.data_bits_per_packet}};
  return simulate(desc, p);
}

// Everything a run writes, the wall time aside: the summary JSON and each table's CSV. Runs
// that must agree bit for bit are compared on this.
inline std::string resultsText(const Results& r) {
  nlohmann::json j = toJson(r);
  j.erase("wall_seconds");
  std::string text = j.dump();
  for (ResultTable t : kResultTables) {
    if (hasTable(r, t)) text += "\n" + formatTable(r, t);
  }
  return text;
}

}  // namespace ndl::rt::testing
