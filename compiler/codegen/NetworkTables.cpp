#include "compiler/codegen/NetworkTables.h"

#include <fmt/format.h>

#include <stdexcept>

#include "compiler/elaborate/Metrics.h"
#include "compiler/elaborate/Patterns.h"
#include "compiler/sema/Interfaces.h"
#include "ndl/runtime/sim/generated_abi.h"
#include "ndl/runtime/sim/param_rules.h"

namespace ndl::codegen {
namespace {

using sema::EnumId;

// The code of a value of one of NDL's enums in the simulator's table: its place among the
// names of the --param entry's rule (runtime/sim/param_rules.h), so that the compiler writes
// exactly the codes the simulator reads and checks.
int64_t runtimeCode(std::string_view param, EnumId e) {
  const std::string_view name = sema::enumInfo(e).name;
  if (std::optional<int64_t> code = rt::paramEnumCode(param, name)) return *code;
  throw std::logic_error(fmt::format("{} has no code for '{}' (runtime/sim/param_rules.h)", param,
                                     name));
}

// A built-in pattern's code, or Custom for one written in NDL that chooses destinations (its
// index is UserPattern's; a pattern beside a trace, say, is none: the built-in default stands).
int64_t patternCode(const sema::Parameters& p, const sema::TrafficSpec& t) {
  static const int64_t kCustom = *rt::paramEnumCode("Pattern", "Custom");
  return elab::userPatternIndex(p, t.patternDef) ? kCustom : runtimeCode("Pattern", t.pattern);
}

// ndl::rt::DeadlockHandling's values.
int64_t deadlockHandling(EnumId e) {
  switch (e) {
    case EnumId::DeadlockHandling_Avoid: return 2;
    case EnumId::DeadlockHandling_Detect: return 0;
    case EnumId::DeadlockHandling_DropAfterTimeout: return 3;
    default: return 1;  // Drop
  }
}

}  // namespace

int64_t selection(EnumId e) {
  switch (e) {
    case EnumId::Selection_Random: return 1;
    case EnumId::Selection_MostCredits: return 2;
    case EnumId::Selection_StraightFirst: return 3;
    default: return 0;  // First
  }
}

// Per VC of a kind, the index of its class.
std::vector<int32_t> classOfVc(const elab::VcClasses& c) {
  std::vector<int32_t> out;
  for (size_t k = 0; k < c.names.size(); ++k) out.insert(out.end(), c.count[k], static_cast<int32_t>(k));
  return out;
}

SimulatorTables makeTables(const sema::CheckedProgram& program, const elab::Network& network,
                           bool distances) {
  const sema::Parameters& p = program.params;
  const elab::Graph& g = network.graph;
  SimulatorTables t;
  t.i64.assign(NDL_P_I64_COUNT, 0);
  t.f64.assign(NDL_P_F64_COUNT, 0.0);
  t.str.assign(NDL_P_STR_COUNT, "");

  t.ports = encodePortTable(g);
  for (int64_t r : g.radices) t.radices.push_back(static_cast<int32_t>(r));

  auto& i = t.i64;
  i[NDL_P_FlowControl] = runtimeCode("FlowControl", p.flowControl);
  i[NDL_P_ChannelWidthBits] = p.channelWidthBits;
  i[NDL_P_PacketFlits] = p.packetFlits;
  i[NDL_P_HeaderFlits] = (p.headerBits + p.channelWidthBits - 1) / p.channelWidthBits;
  i[NDL_P_DataBitsPerPacket] = p.dataBits;
  i[NDL_P_PacketPerMessage] = p.packetPerMessage;
  i[NDL_P_BufferFlits] = p.bufferFlits;
  i[NDL_P_VirtualChannels] = p.virtualChannels;
  i[NDL_P_InjectionVirtualChannels] = p.injectionVirtualChannels;
  i[NDL_P_RouterDelayClocks] = p.routerDelayClocks;
  i[NDL_P_HeaderDelayClocks] = p.headerDelayNetworkClocks;
  i[NDL_P_PipelineFlitClocks] = p.pipelineFlitNetworkClocks;
  for (size_t k = 0; k < p.pipelineClocks.size(); ++k) {
    t.str[NDL_P_RouterPipeline] += fmt::format("{}{} {}", k == 0 ? "" : " ",
                                               sema::kPipelineStageNames[k], p.pipelineClocks[k]);
  }
  i[NDL_P_Predictor] = network.predictorDef ? 1 : 0;
  if (network.predictorDef) {
    t.str[NDL_P_PredictorName] = program.defs.defs[*network.predictorDef].name;
    t.str[NDL_P_PredictivePath] =
        fmt::format("IB {} ST {}", p.predictHeaderClocks, p.pipelineFlitClocks);
    i[NDL_P_PredictHeaderClocks] = p.predictHeaderNetworkClocks;
    i[NDL_P_PredictorLatencyClocks] = p.predictorLatencyNetworkClocks;
    i[NDL_P_MispredictionCheck] = runtimeCode("MispredictionCheck", p.mispredictionCheck);
    i[NDL_P_PortStateCount] = static_cast<int64_t>(network.portStates.size());
    for (const elab::RingShape& ring : elab::portStateShapes(network, program.defs)) {
      t.portStates.push_back(ring.capacity);
      t.portStates.push_back(ring.lo);
      t.portStates.push_back(ring.hi);
      t.portStates.push_back(ring.perRouter ? 1 : 0);
    }
  }
  i[NDL_P_LinkDelayClocks] = p.linkDelayClocks;
  i[NDL_P_CreditDelayClocks] = p.creditDelayClocks;
  // An interval is a mean time between creations (spec 1.2): the same process as a rate, at
  // one over the interval; (InjectionProcess ...) chooses the process.
  // A trace is the load (CreationRate 0): no synthetic process runs beside it.
  i[NDL_P_CreationProcess] =
      p.injectionProcess == EnumId::InjectionProcess_Trace
          ? runtimeCode("CreationProcess", EnumId::InjectionProcess_Bernoulli)
          : runtimeCode("CreationProcess", p.injectionProcess);
  i[NDL_P_CreationMax] = p.creationMax;
  i[NDL_P_MessageMinBits] = p.messageMinBits;
  i[NDL_P_MessageMaxBits] = p.messageMaxBits;
  i[NDL_P_QueueCapacity] = p.queueCapacity;
  i[NDL_P_SwitchInputByOutput] = runtimeCode("SwitchInputByOutput", p.switchInput);
  i[NDL_P_SwitchHoldPacket] = runtimeCode("SwitchHoldPacket", p.switchHold);
  i[NDL_P_InternalSpeedup] = p.internalSpeedup;
  i[NDL_P_AtomicVcAllocation] = runtimeCode(
      "AtomicVcAllocation",
      network.atomicVcAllocation ? EnumId::VcAllocation_Atomic : EnumId::VcAllocation_NonAtomic);
  i[NDL_P_QueueOverflow] = runtimeCode("QueueOverflow", p.queueOverflow);
  i[NDL_P_Measurement] = runtimeCode("Measurement", p.measurement);
  i[NDL_P_Pattern] = patternCode(p, p.traffic);
  i[NDL_P_UserPattern] = elab::userPatternIndex(p, p.traffic.patternDef).value_or(-1);
  for (uint32_t def : elab::userPatterns(p))
    t.str[NDL_P_UserPatternNames] +=
        (t.str[NDL_P_UserPatternNames].empty() ? "" : ",") + program.defs.defs[def].name;
  i[NDL_P_Deadlock] = deadlockHandling(p.deadlockHandling);
  i[NDL_P_DeadlockTimeoutClocks] = p.deadlockTimeoutNetworkClocks;
  i[NDL_P_RecoveryTimeoutClocks] = p.recoveryTimeoutNetworkClocks;
  i[NDL_P_Seed] = p.seed;
  i[NDL_P_WarmupMessages] = p.warmupMessages;
  i[NDL_P_MeasuredMessages] = p.measuredMessages.value_or(0);
  i[NDL_P_TimeLimitClocks] = p.simulationTimeClocks.value_or(0);
  i[NDL_P_SamplingIntervalClocks] = p.sampleIntervalClocks;
  const std::string& routing =
      network.routingDef ? program.defs.defs[*network.routingDef].name : std::string();
  // 4: a selection written in NDL (ndl_user_select), ndl::rt::Selection::kUser.
  i[NDL_P_Selection] = network.selectionDef ? 4 : selection(network.selection);
  i[NDL_P_NumClasses] = static_cast<int64_t>(network.networkClasses.names.size());
  i[NDL_P_ReadsCongestion] = network.readsCongestion || network.selectionReadsCongestion;
  i[NDL_P_ReadsGlobalCongestion] = network.readsGlobalCongestion;
  i[NDL_P_RecoveryField] = network.recoveryField;
  i[NDL_P_TokenClasses] = static_cast<int64_t>(network.tokenClasses);
  i[NDL_P_WaitBreakCount] = network.waitBreaks ? static_cast<int64_t>(network.waitBreaks->size()) : -1;
  if (network.waitBreaks) t.waitBreaks = *network.waitBreaks;
  for (size_t k = 0; k < network.networkClasses.names.size(); ++k)
    t.str[NDL_P_ClassNames] += (k ? "," : "") + network.networkClasses.names[k];
  t.vcClass = classOfVc(network.networkClasses);
  t.injVcClass = classOfVc(network.injectionClasses);
  for (size_t k = 0; k < network.networkClasses.names.size(); ++k) {
    const int32_t n = network.networkClasses.count[k];
    const uint64_t bits = n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    t.classVcs.push_back(static_cast<int64_t>(bits << network.networkClasses.start[k]));
  }
  i[NDL_P_NumNodes] = g.nodeCount;
  i[NDL_P_NumPorts] = t.ports.portCount;
  i[NDL_P_NumSignatures] = static_cast<int64_t>(t.ports.signatureStart.size() - 1);
  i[NDL_P_NumNodeRuns] = static_cast<int64_t>(t.ports.nodeRuns.size() / 2);
  i[NDL_P_NumDims] = static_cast<int64_t>(t.radices.size());
  i[NDL_P_NumPortDims] = static_cast<int64_t>(g.dimNames.size());
  i[NDL_P_Wrap] = t.ports.wrap;
  i[NDL_P_HotSpotCount] = static_cast<int64_t>(p.traffic.hotSpotNodes.size());
  i[NDL_P_ReportPairCount] = static_cast<int64_t>(p.reportPairs.size());
  for (elab::NodeId n = 0; n < g.nodeCount; ++n) {
    const int32_t e = static_cast<int32_t>(g.endpointsAt(n));
    const size_t k = t.endpointRuns.size();
    if (k > 0 && t.endpointRuns[k - 2] == e) {
      ++t.endpointRuns[k - 1];
    } else {
      t.endpointRuns.push_back(e);
      t.endpointRuns.push_back(1);
    }
  }
  i[NDL_P_NumEndpoints] = static_cast<int64_t>(g.endpointCount());
  i[NDL_P_GroupEndpoints] = g.groupEndpoints;
  i[NDL_P_NumEndpointRuns] = static_cast<int64_t>(t.endpointRuns.size() / 2);

  // Distances for the report: exact when cheap, else left to the runtime.
  i[NDL_P_Diameter] = -1;
  t.f64[NDL_P_AvgDistance] = -1.0;
  if (distances) {
    elab::DistanceStats d = elab::graphDistances(g);
    if (d.status == elab::AnalysisStatus::kOk) {
      i[NDL_P_Diameter] = d.diameter;
      t.f64[NDL_P_AvgDistance] =
          static_cast<double>(d.avgDistance.num) / static_cast<double>(d.avgDistance.den);
    }
  }
  t.f64[NDL_P_NetworkFrequencyHz] = p.networkHz.toDouble();
  t.f64[NDL_P_RouterFrequencyHz] = p.routerHz == p.networkHz ? 0.0 : p.routerHz.toDouble();
  t.f64[NDL_P_CreationRate] = p.creationRate.toDouble();
  t.f64[NDL_P_CreationIntervalClocks] =
      p.creationIntervalClocks ? p.creationIntervalClocks->toDouble() : 0.0;
  t.f64[NDL_P_HotSpotShare] = p.traffic.hotSpotShare.toDouble();
  if (p.injectionProcess == EnumId::InjectionProcess_OnOff) {
    t.f64[NDL_P_OnOffBurstClocks] = p.onOffBurstClocks.toDouble();
    t.f64[NDL_P_OnOffDuty] = p.onOffDuty.toDouble();
  }

  t.str[NDL_P_TopologyName] = p.topology.text;
  t.str[NDL_P_TopologyKind] =
      p.topology.inlineBody ? "custom" : program.defs.defs[p.topology.def].name;
  t.str[NDL_P_RoutingName] = routing;
  if (network.selectionDef) t.str[NDL_P_SelectionName] = program.defs.defs[*network.selectionDef].name;
  t.str[NDL_P_DataOutputFile] = p.dataOutputFile;
  t.str[NDL_P_PatternFile] = p.patternFile;  // absolute: resolved by the driver
  t.str[NDL_P_TraceFile] = p.traceFile;      // likewise
  t.f64[NDL_P_ExpandRate] = p.expandRate.toDouble();
  t.str[NDL_P_ScreenOutputFile] = p.screenOutputFile;
  for (size_t d = 0; d < g.dimNames.size(); ++d)
    t.str[NDL_P_DimNames] += (d ? "," : "") + g.dimNames[d];
  i[NDL_P_HeaderFieldCount] = static_cast<int64_t>(network.header.size());
  for (size_t f = 0; f < network.header.size(); ++f) {
    const elab::HeaderFieldLayout& h = network.header[f];
    t.str[NDL_P_HeaderFieldNames] += (f ? "," : "") + h.name;
    t.headerFields.insert(t.headerFields.end(), {h.offset, h.bits, h.lo, h.hi});
  }

  for (int64_t n : p.traffic.hotSpotNodes) t.hotNodes.push_back(static_cast<int32_t>(n));
  i[NDL_P_TrafficClassCount] = static_cast<int64_t>(p.classes.size());
  for (size_t k = 0; k < p.classes.size(); ++k) {
    const sema::TrafficClassSpec& c = p.classes[k];
    t.str[NDL_P_TrafficClassNames] += (k ? "," : "") + c.name;
    t.trafficClasses.insert(
        t.trafficClasses.end(),
        {c.creationRate.toDouble(), static_cast<double>(patternCode(p, c.traffic)),
         static_cast<double>(c.messageMinBits), static_cast<double>(c.messageMaxBits),
         static_cast<double>(c.reply),
         static_cast<double>(elab::userPatternIndex(p, c.traffic.patternDef).value_or(-1)),
         static_cast<double>(c.priority),
         static_cast<double>(runtimeCode("CreationProcess", c.injectionProcess)),
         c.creationIntervalClocks ? c.creationIntervalClocks->toDouble() : 0.0,
         c.onOffBurstClocks.toDouble(), c.onOffDuty.toDouble()});
  }
  if (p.interface) {
    const rt::InterfaceTiming f = sema::interfaceTiming(*p.interface);
    i[NDL_P_InterfacePeriodPs] = f.network_period_ps;
    i[NDL_P_InterfaceSendStages] = static_cast<int64_t>(f.send.size());
    i[NDL_P_InterfaceReceiveStages] = static_cast<int64_t>(f.receive.size());
    i[NDL_P_SynchronizerClocks] = f.synchronizer_clocks;
    i[NDL_P_HostWritePs] = f.host_write_ps;
    i[NDL_P_HostReadPs] = f.host_read_ps;
    i[NDL_P_SoftwareOverheadPs] = f.overhead_ps;
    i[NDL_P_PollIntervalPs] = f.poll_interval_ps;
    i[NDL_P_PollPhasePs] = f.poll_phase_ps;
    i[NDL_P_InterfaceLoopback] = f.external_loop ? 1 : 0;
    t.str[NDL_P_InterfaceName] = p.interface->name;
    for (const std::vector<rt::InterfaceStage>* path : {&f.send, &f.receive}) {
      for (const rt::InterfaceStage& s : *path)
        t.interfaceStages.insert(t.interfaceStages.end(),
                                 {s.domain, s.period_ps, s.latency_ps, s.occupancy_ps});
    }
  }
  for (const sema::NodePair& pair : p.reportPairs) {
    t.reportPairs.push_back(static_cast<int32_t>(pair.src));
    t.reportPairs.push_back(static_cast<int32_t>(pair.dst));
  }
  return t;
}

namespace {

// Calls f(rule) for every entry --param may change (runtime/sim/param_rules.h).
template <class F>
void forRuntimeEntries(F f) {
  for (const rt::ParamRule& r : rt::kParamRules) f(r);
}

template <class T>
void append(std::string& out, const char* what, const std::vector<T>& v) {
  out += what;
  for (const T& x : v) out += fmt::format(" {}", x);
  out += '\n';
}

}  // namespace

std::string structuralKey(const SimulatorTables& tables) {
  SimulatorTables t = tables;
  forRuntimeEntries([&](const rt::ParamRule& r) {
    const size_t k = static_cast<size_t>(r.index);
    if (r.table == rt::AbiTable::kI64) t.i64[k] = 0;
    if (r.table == rt::AbiTable::kF64) t.f64[k] = 0.0;
    if (r.table == rt::AbiTable::kStr) t.str[k].clear();
  });
  // Under (NetworkPacketSize Message) the packet is the longest message, which the simulator
  // derives again from MessageMaxBits (a --param entry) at start-up: not a new build.
  if (t.i64[NDL_P_PacketPerMessage] != 0) {
    t.i64[NDL_P_PacketFlits] = 0;
    t.i64[NDL_P_DataBitsPerPacket] = 0;
  }
  std::string out;
  append(out, "i64", t.i64);
  append(out, "f64", t.f64);
  for (const std::string& s : t.str) out += fmt::format("str {}\n", s.size()) + s + "\n";
  append(out, "signatureStart", t.ports.signatureStart);
  append(out, "signatureRows", t.ports.signatureRows);
  append(out, "nodeRuns", t.ports.nodeRuns);
  append(out, "radices", t.radices);
  append(out, "hotNodes", t.hotNodes);
  append(out, "reportPairs", t.reportPairs);
  append(out, "trafficClasses", t.trafficClasses);
  append(out, "endpointRuns", t.endpointRuns);
  append(out, "vcClass", t.vcClass);
  append(out, "injVcClass", t.injVcClass);
  append(out, "classVcs", t.classVcs);
  append(out, "headerFields", t.headerFields);
  append(out, "waitBreaks", t.waitBreaks);
  append(out, "portStates", t.portStates);
  append(out, "interfaceStages", t.interfaceStages);
  return out;
}

std::vector<std::string> runtimeParamArgs(const SimulatorTables& t) {
  std::vector<std::string> args;
  forRuntimeEntries([&](const rt::ParamRule& r) {
    const size_t k = static_cast<size_t>(r.index);
    args.push_back("--param");
    switch (r.table) {
      case rt::AbiTable::kI64:
        args.push_back(r.kind == rt::ParamKind::kUnsigned
                           ? fmt::format("{}={}", r.name, static_cast<uint64_t>(t.i64[k]))
                           : fmt::format("{}={}", r.name, t.i64[k]));
        break;
      case rt::AbiTable::kF64:
        args.push_back(fmt::format("{}={}", r.name, t.f64[k]));  // shortest exact
        break;
      case rt::AbiTable::kStr:
        args.push_back(fmt::format("{}={}", r.name, t.str[k]));
        break;
    }
  });
  return args;
}

}  // namespace ndl::codegen
