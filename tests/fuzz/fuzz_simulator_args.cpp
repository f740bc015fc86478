// libFuzzer target: a generated simulator's command line, from the arguments to a short run.
// The input is split at newlines into arguments (at most 64) and read as `SIM ARGS...` would
// be: CLI11's options, every --param Name=Value checked against its rule and applied to the
// parameter tables (abi_params.h, param_rules.h), the tables turned into SimParams as the
// entry does (setRuntimeParams), and the run's checks (validate). Arguments that pass them all
// are simulated on a 2x2 mesh, cut short (a few thousand clocks, short messages) so that an
// input stays fast: a value the checks let through and the simulator cannot run (a pattern
// code without a destination function) crashes here, not in a user's run. Output files are
// not written and pattern files not read (fuzz_pattern covers the reader).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "ndl/runtime/net/topologies.h"
#include "ndl/runtime/sim/generated_abi.h"
#include "ndl/runtime/sim/simulator.h"
#include "ndl/runtime/sim/simulator_main.h"
#include "tests/runtime/oracle_routing.h"

namespace {

constexpr int32_t kNodes = 4;
constexpr int64_t kClocks = 2000;        // a run's bound
constexpr int64_t kMessagePackets = 16;  // a message's bound, in packets

// The tables ndlc compiles for a 2x2 mesh under dimension order with hot-spot traffic:
//   (Topology (Mesh 2 2)) (FlowControlMethod Wormhole) (NetworkChannelWidth 32bit)
//   (NetworkFrequency 50MHz) (NetworkPacketSize 128bit) (NodeBufferSize 4flit)
//   (MessageCreationRate 5%) (MessageCreationMax 200) (TrafficPattern (HotSpot 20% (Nodes 3)))
//   (RoutingAlgorithm DimensionOrder)
// (`ndlc emit-llvm --module-only` shows them); the routing is the runtime tests' oracle of it.
ndl::rt::AbiValues compiledTables() {
  std::vector<int64_t> i(NDL_P_I64_COUNT, 0);
  std::vector<double> f(NDL_P_F64_COUNT, 0.0);
  std::vector<const char*> s(NDL_P_STR_COUNT, "");
  i[NDL_P_FlowControl] = 2;  // Wormhole
  i[NDL_P_ChannelWidthBits] = 32;
  i[NDL_P_PacketFlits] = 4;
  i[NDL_P_HeaderFlits] = 1;
  i[NDL_P_DataBitsPerPacket] = 96;
  i[NDL_P_BufferFlits] = 4;
  i[NDL_P_VirtualChannels] = 1;
  i[NDL_P_InjectionVirtualChannels] = 1;
  i[NDL_P_RouterDelayClocks] = 1;
  i[NDL_P_HeaderDelayClocks] = 1;
  i[NDL_P_LinkDelayClocks] = 1;
  i[NDL_P_CreditDelayClocks] = 1;
  i[NDL_P_CreationMax] = 200;
  i[NDL_P_MessageMinBits] = 96;
  i[NDL_P_MessageMaxBits] = 96;
  i[NDL_P_QueueCapacity] = 10000;
  i[NDL_P_Pattern] = 7;   // HotSpot
  i[NDL_P_UserPattern] = -1;  // no pattern written in NDL
  i[NDL_P_Deadlock] = 1;  // Drop
  i[NDL_P_DeadlockTimeoutClocks] = 1000;
  i[NDL_P_RecoveryTimeoutClocks] = 32;
  i[NDL_P_Seed] = 1;
  i[NDL_P_SamplingIntervalClocks] = 1000;
  i[NDL_P_Selection] = 2;  // MostCredits, the routing's default
  i[NDL_P_NumClasses] = 2;
  i[NDL_P_RecoveryField] = -1;
  i[NDL_P_NumNodes] = kNodes;
  i[NDL_P_NumPorts] = 8;
  i[NDL_P_NumSignatures] = 4;
  i[NDL_P_NumNodeRuns] = 4;
  i[NDL_P_NumDims] = 2;
  i[NDL_P_NumPortDims] = 2;
  i[NDL_P_Diameter] = 2;
  i[NDL_P_HotSpotCount] = 1;
  f[NDL_P_NetworkFrequencyHz] = 50e6;
  f[NDL_P_CreationRate] = 0.05;
  f[NDL_P_AvgDistance] = 4.0 / 3.0;
  f[NDL_P_HotSpotShare] = 0.2;
  s[NDL_P_TopologyName] = "Mesh 2 2";
  s[NDL_P_TopologyKind] = "Mesh";
  s[NDL_P_RoutingName] = "DimensionOrder";
  s[NDL_P_DimNames] = "x,y";
  s[NDL_P_ClassNames] = "direct,crossing";
  return ndl::rt::copyAbiValues(i.data(), f.data(), s.data());
}

// As generated_entry.cpp makes them: the --param entries, then the compiled ones.
ndl::rt::SimParams makeParams(const ndl::rt::AbiValues& values) {
  using namespace ndl::rt;
  const int64_t* i = values.i64.data();
  SimParams p;
  setRuntimeParams(values, p);
  p.channel_width_bits = static_cast<int32_t>(i[NDL_P_ChannelWidthBits]);
  p.packet_flits = static_cast<int32_t>(i[NDL_P_PacketFlits]);
  p.header_flits = static_cast<int32_t>(i[NDL_P_HeaderFlits]);
  p.data_bits_per_packet = i[NDL_P_DataBitsPerPacket];
  p.packet_per_message = i[NDL_P_PacketPerMessage] != 0;
  p.virtual_channels = static_cast<int32_t>(i[NDL_P_VirtualChannels]);
  p.injection_virtual_channels = static_cast<int32_t>(i[NDL_P_InjectionVirtualChannels]);
  p.pattern_params.hotspot_nodes = {3};
  p.route_fn = oracle::dimensionOrder;
  p.routing_name = values.str[NDL_P_RoutingName];
  p.selection = static_cast<Selection>(i[NDL_P_Selection]);
  p.deadlock = static_cast<DeadlockHandling>(i[NDL_P_Deadlock]);
  p.recovery_timeout_clocks = i[NDL_P_RecoveryTimeoutClocks];
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> words{"sim"};
  std::string word;
  for (size_t i = 0; i < size && words.size() < 64; ++i) {
    if (data[i] == '\n') {
      words.push_back(std::move(word));
      word.clear();
    } else {
      word += static_cast<char>(data[i]);
    }
  }
  if (!word.empty() && words.size() < 64) words.push_back(std::move(word));
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);

  static const ndl::rt::AbiValues kCompiled = compiledTables();
  ndl::rt::ParamTables tables;
  tables.values = kCompiled;
  tables.make = makeParams;
  ndl::rt::SimParams params = tables.make(tables.values);
  ndl::rt::SimulatorArgs args;
  if (ndl::rt::parseSimulatorArgs(static_cast<int>(words.size()), argv.data(), &tables, params,
                                  args)) {
    return 0;  // --help, or a usage error the simulator reports
  }
  ndl::rt::syncMessagePackets(params);
  if (!ndl::rt::validate(params, kNodes).empty()) return 0;
  if (!params.pattern_file.empty()) return 0;

  // Valid arguments: a run, bounded whatever they ask for.
  params.time_limit_clocks =
      params.time_limit_clocks > 0 ? std::min(params.time_limit_clocks, kClocks) : kClocks;
  const int64_t longest = kMessagePackets * params.data_bits_per_packet;
  params.message_max_bits = std::min(params.message_max_bits, longest);
  params.message_min_bits = std::min(params.message_min_bits, params.message_max_bits);
  params.data_output_file.clear();
  params.screen_output_file.clear();
  try {
    ndl::rt::Simulator sim(ndl::rt::makeMesh({2, 2}), params);
    ndl::rt::RunOptions options;
    options.progress = false;
    (void)sim.run(options);
  } catch (const std::exception&) {
    // The simulator's own refusals (exit 2) and runtime failures (exit 3), as SIM reports them.
  }
  return 0;
}
