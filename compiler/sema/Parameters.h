// The checked program: every parameter of a simulation converted exactly
// to the units the simulator works in (bits, flits, clocks, Hz), with the
// defaults of Forms.def filled in. This is what elaboration consumes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ast/Ast.h"
#include "compiler/sema/Expr.h"
#include "compiler/sema/FormTable.h"
#include "compiler/support/Rational.h"
#include "compiler/support/SourceRange.h"

namespace ndl::sema {

// The network: a call of a topology definition, (Torus 64 64), or the
// inline body of (Topology (Nodes 16) (Link 0 1 0) ...).
struct TopologySpec {
  const ast::Node* call = nullptr;  // (Torus 64 64), or the Topology form itself when inline
  bool inlineBody = false;
  uint32_t def = 0;                 // index in the DefinitionTable (set by bindNetwork)
  std::vector<Expr> args;           // one per parameter of the definition
  std::string text;                 // "Torus 64 64", for reports
};

struct TrafficSpec {
  EnumId pattern = EnumId::Traffic_Uniform;
  // (TrafficPattern Name) of a (define-pattern ...), bound by bindNetwork to patternDef; ""
  // for a built-in (`pattern`, which is then the one read).
  std::string userPattern;
  SourceRange userPatternRange;  // the name, for errors
  std::optional<uint32_t> patternDef;
  Rational hotSpotShare;              // HotSpot: share of messages to hot nodes
  std::vector<int64_t> hotSpotNodes;  // HotSpot: the hot nodes
};

// (InjectionProcess ...) as written; OnOff's burst is a time (clocks or seconds), resolved to
// clocks by the rules.
struct InjectionSpec {
  EnumId process = EnumId::InjectionProcess_Bernoulli;
  Rational burst;              // OnOff: mean length of an on period
  bool burstInClocks = false;  // burst as written in clocks, else in seconds
  Rational duty;               // OnOff: share of the time a source is on, in (0, 1]
  std::string traceFile;       // Trace: the file as written
  SourceRange traceRange;      // Trace: its string
};

// A (TrafficClass ...), resolved as the program's own traffic would be with the class's forms
// in place of the top-level ones (docs/language.md, "Traffic classes"). creationRate 0: a
// class sent only in reply to another.
struct TrafficClassSpec {
  std::string name;
  SourceRange range;
  Rational creationRate;  // messages per endpoint per network clock
  std::optional<Rational> offeredLoad;
  Rational meanMessageFlits;
  int64_t messageMinBits = 0;
  int64_t messageMaxBits = 0;
  TrafficSpec traffic;
  SourceRange patternRange;  // its own (TrafficPattern ...); invalid: the top-level one's
  int32_t reply = -1;  // the class answering each delivered message of this one; -1: none
  int32_t priority = 0;  // (Priority n), 0..255: higher is served first (docs/language.md)
  // Its creation process: its own InjectionProcess or the top level's (Parameters' fields).
  EnumId injectionProcess = EnumId::InjectionProcess_Bernoulli;
  std::optional<Rational> creationIntervalClocks;  // Periodic
  Rational onOffBurstClocks;
  Rational onOffDuty;
};

struct SweepSpec {
  FormId param;
  SourceRange range;
  std::vector<const ast::Node*> values;  // each checked against the parameter
};

struct NodePair {
  int64_t src;
  int64_t dst;
  SourceRange range;
};

// The stages of (RouterPipeline ...), in their fixed order (docs/pipeline.md).
enum class PipelineStage : uint8_t { IB, RC, VA, SA, ST };
inline constexpr int kPipelineStages = 5;
inline constexpr std::string_view kPipelineStageNames[kPipelineStages] = {"IB", "RC", "VA", "SA",
                                                                          "ST"};

// (ClockDomain ...), (Interface ...) and the host costs, resolved (docs/interfaces.md). Domain
// 0 is the network's own clock, named `network`; every time is exact picoseconds.
struct ClockDomainSpec {
  std::string name;
  SourceRange range;  // its name in the ClockDomain form; invalid for `network`
  int64_t periodPs = 0;
};
struct InterfaceStageSpec {
  std::string name;
  SourceRange range;  // the (Stage ...) form
  int32_t domain = 0;
  int64_t clocks = 0;           // latency, in its domain's clocks
  int64_t occupancyClocks = 0;  // until it takes the next message; = clocks unless given
};
struct InterfacePathSpec {
  std::string name;
  std::vector<InterfaceStageSpec> stages;
};
struct InterfaceSpec {
  std::string name;
  SourceRange range;  // its name
  std::vector<ClockDomainSpec> domains;
  InterfacePathSpec send, receive;
  int64_t synchronizerClocks = 0;
  int64_t hostWritePs = 0, hostReadPs = 0, softwareOverheadPs = 0;
  int64_t pollIntervalPs = 0, pollPhasePs = 0;
  // (Loopback External): a node's message to itself leaves by a link from its router back to
  // that router (a self-link), not from the send path into the receive path.
  bool externalLoop = false;
  SourceRange loopbackRange;  // the form's value, when given
};

struct Parameters {
  TopologySpec topology;
  EnumId flowControl = EnumId::FlowControl_Wormhole;
  std::string routingName;           // "" : the topology's own routing
  std::optional<uint32_t> routingDef;  // set by bindNetwork when a routing is named

  // Sizes.
  int64_t channelWidthBits = 0;  // one flit = one phit
  int64_t packetBits = 0;
  int64_t packetFlits = 0;  // rounded up to whole flits; the longest packet
  bool packetPerMessage = false;  // (NetworkPacketSize Message): a packet per message, as long
  int64_t dataBits = 0;     // payload per packet
  int64_t headerBits = 0;   // packetBits - dataBits
  int64_t bufferFlits = 0;  // per input virtual channel
  int64_t messageMinBits = 0;
  int64_t messageMaxBits = 0;

  // Clocks.
  Rational networkHz;
  Rational routerHz;             // = networkHz unless RouterFrequency is given
  int64_t routerDelayClocks = 0;  // router clocks
  int64_t linkDelayClocks = 1;    // network clocks
  int64_t creditDelayClocks = 1;  // network clocks
  int64_t deadlockTimeoutClocks = 0;  // router clocks
  int64_t recoveryTimeoutClocks = 32;  // router clocks: (recovery-timeout)
  int64_t sampleIntervalClocks = 0;   // network clocks
  // The router-clock times above in network clocks (rounded up), the clocks the
  // simulation counts: what the simulator receives.
  int64_t headerDelayNetworkClocks = 0;
  // (RouterPipeline ...): each stage in router clocks, as written; empty without the form.
  // routerDelayClocks is then IB + RC + VA + SA, the stages that hold a header at the front
  // of its VC; ST, which every flit passes after it leaves its VC, overlapping the next, is
  // pipelineFlitClocks (router clocks) and pipelineFlitNetworkClocks (network clocks).
  std::vector<int64_t> pipelineClocks;
  int64_t pipelineFlitClocks = 0;
  int64_t pipelineFlitNetworkClocks = 0;
  int64_t deadlockTimeoutNetworkClocks = 0;
  int64_t recoveryTimeoutNetworkClocks = 32;
  std::optional<int64_t> simulationTimeClocks;

  // Traffic.
  Rational creationRate;  // messages per node per network clock
  std::optional<Rational> creationIntervalClocks;  // when given as an interval
  // (OfferedLoad r): flits per node per clock; creationRate is r over meanMessageFlits, the
  // mean flits of a message as the simulator draws lengths and packetizes them.
  std::optional<Rational> offeredLoad;
  Rational meanMessageFlits;
  int64_t creationMax = 0;
  int64_t queueCapacity = 0;  // messages per injection queue
  TrafficSpec traffic;
  // The top-level (TrafficPattern ...) as given (with classes, their default; a class may
  // replace it, so it is bound on its own).
  TrafficSpec givenTraffic;
  // (TrafficClass ...) in order; empty without. With classes the top-level load forms are
  // refused and class 0's rate, pattern and lengths are also in the fields above (the
  // simulator's first class is its main traffic).
  std::vector<TrafficClassSpec> classes;
  // (InjectionProcess ...): Bernoulli, Periodic (every creationIntervalClocks, a whole
  // number) or OnOff, a Markov-modulated Bernoulli process whose on periods last
  // onOffBurstClocks on average and take the share onOffDuty of the time (docs/runtime.md 2.7).
  EnumId injectionProcess = EnumId::InjectionProcess_Bernoulli;
  Rational onOffBurstClocks;
  Rational onOffDuty;
  // (InjectionProcess (Trace "file")): the trace's messages are the load (made absolute by the
  // driver, which reads and checks it); empty without.
  std::string traceFile;
  SourceRange traceFileRange;
  // (Interface ...): every endpoint's network interface; nullopt without (docs/interfaces.md).
  std::optional<InterfaceSpec> interface;
  std::string patternFile;     // CommunicationPatternFile (made absolute by the driver)
  SourceRange patternFileRange;  // its string, for diagnostics about the file
  Rational expandRate;         // ProcessorPerformanceExpandRate

  // Routers.
  int64_t virtualChannels = 1;
  int64_t injectionVirtualChannels = 1;
  EnumId deadlockHandling = EnumId::DeadlockHandling_Drop;
  EnumId queueOverflow = EnumId::QueueOverflow_Refuse;  // InjectionQueueOverflow
  std::optional<EnumId> vcAllocation;  // (VcAllocation ...); else the routing's default
  EnumId switchInput = EnumId::SwitchInput_ByVc;  // (SwitchInputArbitration ...)
  EnumId switchHold = EnumId::SwitchHold_Flit;    // (SwitchHold ...)
  int64_t internalSpeedup = 1;                    // (InternalSpeedup n)
  std::optional<EnumId> selection;  // (Selection ...); else the routing's DefaultSelection
  std::string selectionName;             // (Selection Name) of a (define-selection ...)
  std::optional<uint32_t> selectionDef;  // its definition, once bound
  // (Predictor Name) of a (define-predictor ...), bound like the selection; with it,
  // (PredictivePath (IB d) (ST d)): a correctly predicted header waits IB (router clocks, and
  // in network clocks) in place of IB + RC + VA + SA; and (PredictorLatency d), network clocks
  // from a header leaving to its OnForward update being seen (docs/prediction.md).
  std::string predictorName;
  std::optional<uint32_t> predictorDef;
  int64_t predictHeaderClocks = 0;
  int64_t predictHeaderNetworkClocks = 0;
  int64_t predictorLatencyNetworkClocks = 4;
  // (MispredictionCheck None): a miss is found after RC, and a copy of the packet has left by
  // the predicted port (docs/prediction.md); HintBits, the default, finds it at IB.
  EnumId mispredictionCheck = EnumId::MispredictionCheck_HintBits;

  // Runs and output.
  // (Measurement Steady|Burst): Steady unless given, implied by a burst form
  // (measurementFrom: MessageCreationMax, WarmupMessages or MeasuredMessages) or a pattern file.
  // Under Steady creationMax is 0 (no limit) and the warm-up is the steady state's own.
  EnumId measurement = EnumId::Measurement_Steady;
  std::optional<FormId> measurementFrom;
  int64_t seed = 1;
  int64_t warmupMessages = 0;
  std::optional<int64_t> measuredMessages;  // nullopt: all after warm-up
  std::string dataOutputFile;
  std::string screenOutputFile;
  std::vector<NodePair> reportPairs;
  std::vector<SweepSpec> sweeps;

  // Where each form was given (invalid range: defaulted).
  SourceRange where[kFormCount];
};

// Whether the traffic classes differ in priority: only then do priorities change anything.
inline bool classPriorities(const Parameters& p) {
  for (const TrafficClassSpec& c : p.classes)
    if (c.priority != p.classes.front().priority) return true;
  return false;
}

// Text listing of the parameters, one per line, as `--dump-after=sema`
// shows them: name, converted value, and "(default)" where not given.
std::string printParameters(const Parameters& p);

}  // namespace ndl::sema
