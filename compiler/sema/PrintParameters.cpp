#include <fmt/format.h>

#include "compiler/sema/Parameters.h"

namespace ndl::sema {
namespace {

// A built-in pattern's name, or the (define-pattern ...) the program names.
std::string patternName(const TrafficSpec& t) {
  return t.userPattern.empty() ? std::string(enumInfo(t.pattern).name) : t.userPattern;
}

}  // namespace

std::string printParameters(const Parameters& p) {
  std::string out;
  auto line = [&](FormId id, const std::string& value) {
    bool given = p.where[static_cast<size_t>(id)].valid();
    out += fmt::format("{} = {}{}\n", formInfo(id).name, value, given ? "" : " (default)");
  };
  // A router-clock time and the network clocks the simulator counts it in.
  auto routerClocks = [&](int64_t clocks, int64_t network) {
    return p.routerHz == p.networkHz
               ? fmt::format("{} router clocks", clocks)
               : fmt::format("{} router clocks ({} network clocks)", clocks, network);
  };
  line(FormId::Topology, p.topology.text);
  line(FormId::FlowControlMethod, std::string(enumInfo(p.flowControl).name));
  line(FormId::RoutingAlgorithm,
       p.routingName.empty() ? std::string("the topology's own") : p.routingName);
  line(FormId::NetworkChannelWidth, fmt::format("{}bit (1 flit)", p.channelWidthBits));
  line(FormId::NetworkFrequency, fmt::format("{}Hz", p.networkHz.str()));
  line(FormId::RouterFrequency, fmt::format("{}Hz", p.routerHz.str()));
  line(FormId::NetworkPacketSize,
       p.packetPerMessage
           ? fmt::format("Message (one packet per message, up to {}bit = {} flits)", p.packetBits,
                         p.packetFlits)
           : fmt::format("{}bit = {} flits", p.packetBits, p.packetFlits));
  line(FormId::NetworkDataSize, fmt::format("{}bit (header {}bit)", p.dataBits, p.headerBits));
  line(FormId::NodeBufferSize, fmt::format("{} flits per virtual channel", p.bufferFlits));
  if (p.pipelineClocks.empty())
    line(FormId::NodeHardwareDelay, routerClocks(p.routerDelayClocks, p.headerDelayNetworkClocks));
  else
    out += fmt::format("NodeHardwareDelay = {} (RouterPipeline's IB + RC + VA + SA)\n",
                       routerClocks(p.routerDelayClocks, p.headerDelayNetworkClocks));
  if (!p.pipelineClocks.empty()) {
    std::string stages;
    for (size_t k = 0; k < p.pipelineClocks.size(); ++k)
      stages += fmt::format("{}{} {}", k ? ", " : "", kPipelineStageNames[k], p.pipelineClocks[k]);
    line(FormId::RouterPipeline, stages + " router clocks");
  }
  if (!p.predictorName.empty()) {
    line(FormId::Predictor, p.predictorName);
    line(FormId::PredictivePath,
         fmt::format("IB {}, ST {} router clocks{}", p.predictHeaderClocks, p.pipelineFlitClocks,
                     p.routerHz == p.networkHz
                         ? std::string()
                         : fmt::format(" (IB {} network clocks)", p.predictHeaderNetworkClocks)));
    line(FormId::PredictorLatency, fmt::format("{} clocks", p.predictorLatencyNetworkClocks));
    line(FormId::MispredictionCheck, std::string(enumInfo(p.mispredictionCheck).name));
  }
  line(FormId::LinkDelay, fmt::format("{} clocks", p.linkDelayClocks));
  line(FormId::CreditDelay, fmt::format("{} clocks", p.creditDelayClocks));
  // With traffic classes the load, length and pattern are each class's (below).
  const bool classes = !p.classes.empty();
  if (p.offeredLoad && !classes) {
    line(FormId::OfferedLoad, fmt::format("{} flits per node per clock (messages of {} flits on "
                                          "average)",
                                          p.offeredLoad->str(), p.meanMessageFlits.str()));
  }
  if (p.offeredLoad && !classes) {
    out += fmt::format("MessageCreationRate = {} per node per clock (from OfferedLoad)\n",
                       p.creationRate.str());
  } else if (!classes) {
    line(FormId::MessageCreationRate, fmt::format("{} per node per clock", p.creationRate.str()));
  }
  if (!classes)
    line(FormId::MessageCreationInterval,
       p.creationIntervalClocks ? fmt::format("{} clocks", p.creationIntervalClocks->str())
                                : std::string("none"));
  if (p.measurementFrom) {
    out += fmt::format("Measurement = {} (from {})\n", enumInfo(p.measurement).name,
                       formInfo(*p.measurementFrom).name);
  } else {
    line(FormId::Measurement, std::string(enumInfo(p.measurement).name));
  }
  if (p.creationMax > 0)
    line(FormId::MessageCreationMax, fmt::format("{}", p.creationMax));
  else  // a steady run ends by itself; the form's default, 10000, is a burst's
    out += "MessageCreationMax = no limit (steady measurement)\n";
  if (!classes)
    line(FormId::MessageLength, fmt::format("{}bit to {}bit", p.messageMinBits, p.messageMaxBits));
  line(FormId::MessageMaxCount, fmt::format("{} messages", p.queueCapacity));
  line(FormId::InjectionQueueOverflow, std::string(enumInfo(p.queueOverflow).name));
  if (!classes) line(FormId::TrafficPattern, patternName(p.traffic));
  for (size_t k = 0; k < p.classes.size(); ++k) {
    const TrafficClassSpec& c = p.classes[k];
    out += fmt::format("TrafficClass {} = {}: {} per node per clock{}, {}, {}bit to {}bit{}{}{}\n", k,
                       c.name, c.creationRate.str(),
                       c.offeredLoad ? fmt::format(" (OfferedLoad {})", c.offeredLoad->str())
                                     : std::string(c.creationRate.isZero() ? " (replies only)" : ""),
                       patternName(c.traffic), c.messageMinBits, c.messageMaxBits,
                       c.reply >= 0 ? fmt::format(", answered by {}", p.classes[c.reply].name)
                                    : std::string(),
                       c.priority != 0 ? fmt::format(", priority {}", c.priority) : std::string(),
                       c.injectionProcess == EnumId::InjectionProcess_Bernoulli
                           ? std::string()
                           : fmt::format(", {}", enumInfo(c.injectionProcess).name));
  }
  line(FormId::InjectionProcess,
       p.injectionProcess == EnumId::InjectionProcess_OnOff
           ? fmt::format("OnOff, bursts of {} clocks, on {}% of the time", p.onOffBurstClocks.str(),
                         p.onOffDuty.mul(100) ? p.onOffDuty.mul(100)->str() : "?")
       : p.injectionProcess == EnumId::InjectionProcess_Trace
           ? fmt::format("Trace \"{}\"", p.traceFile)
           : std::string(enumInfo(p.injectionProcess).name));
  line(FormId::VirtualChannels, fmt::format("{}", p.virtualChannels));
  line(FormId::InjectionVirtualChannels, fmt::format("{}", p.injectionVirtualChannels));
  line(FormId::DeadlockHandling, std::string(enumInfo(p.deadlockHandling).name));
  line(FormId::Selection, p.selection               ? std::string(enumInfo(*p.selection).name)
                          : !p.selectionName.empty() ? p.selectionName
                                                     : std::string("the routing's own, else First"));
  line(FormId::DeadlockTimeout, routerClocks(p.deadlockTimeoutClocks, p.deadlockTimeoutNetworkClocks));
  line(FormId::RecoveryTimeout, routerClocks(p.recoveryTimeoutClocks, p.recoveryTimeoutNetworkClocks));
  line(FormId::SimulationInterval, fmt::format("{} clocks", p.sampleIntervalClocks));
  line(FormId::SimulationTime, p.simulationTimeClocks
                                   ? fmt::format("{} clocks", *p.simulationTimeClocks)
                                   : std::string("until drained"));
  line(FormId::Seed, fmt::format("{}", p.seed));
  line(FormId::WarmupMessages, fmt::format("{}", p.warmupMessages));
  line(FormId::MeasuredMessages,
       p.measuredMessages ? fmt::format("{}", *p.measuredMessages) : std::string("all"));
  if (!p.patternFile.empty()) line(FormId::CommunicationPatternFile, fmt::format("\"{}\"", p.patternFile));
  if (!p.dataOutputFile.empty()) line(FormId::DataOutputFile, fmt::format("\"{}\"", p.dataOutputFile));
  if (!p.screenOutputFile.empty())
    line(FormId::ScreenOutputFile, fmt::format("\"{}\"", p.screenOutputFile));
  for (const NodePair& pair : p.reportPairs) out += fmt::format("ReportPairs += ({} {})\n", pair.src, pair.dst);
  for (const SweepSpec& s : p.sweeps) {
    out += fmt::format("Sweep {} =", formInfo(s.param).name);
    for (const ast::Node* v : s.values) out += " " + ast::print(*v);
    out += "\n";
  }
  return out;
}

}  // namespace ndl::sema
