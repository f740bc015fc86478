// Simulation parameters with every quantity already converted to clocks and flits by the
// compiler (spec 1.2/1.3), plus the routing and destination functions the simulator calls.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ndl/runtime/app/interface_timing.h"
#include "ndl/runtime/net/prediction.h"
#include "ndl/runtime/net/routing.h"
#include "ndl/runtime/traffic/traffic.h"

namespace ndl::rt {

enum class FlowControl : uint8_t { kStoreAndForward, kVirtualCutThrough, kWormhole };

// How a source draws creation times: one Bernoulli(creation_rate) trial per clock; one
// message every creation_interval_clocks with a random phase per source; or on/off, a
// Bernoulli(creation_rate / on_off_duty) trial per clock while on, the source switching off
// and on as a two-state Markov chain (mean on period on_off_burst_clocks, on a share
// on_off_duty of the time; docs/runtime.md 2.7).
enum class CreationProcess : uint8_t { kBernoulli, kPeriodic, kOnOff };

// A message created while its source's injection queue is full: kRefuse counts it as refused;
// kBlock holds it at the source, which creates no other message until the queue has room
// (sources that always generate, as in seed 000's simulator).
enum class QueueOverflow : uint8_t { kRefuse, kBlock };
// How a synthetic run measures (kMeasurementNames in param_rules.h, by code).
enum class Measurement : uint8_t { kBurst, kSteady };

// A message created at a given clock regardless of the synthetic process: for tests, probes
// and (later) trace-driven workloads.
struct ScriptedMessage {
  int64_t cycle = 0;
  int32_t src = 0;
  int32_t dst = 0;
  int64_t bits = 0;
};

struct PatternProgram;

struct SimParams {
  // ---- router and channels
  FlowControl flow_control = FlowControl::kVirtualCutThrough;
  int32_t channel_width_bits = 32;     // one flit = one phit
  int32_t packet_flits = 8;            // whole packet, header included
  int32_t header_flits = 2;            // PacketSize - DataSize, in flits
  int64_t data_bits_per_packet = 192;  // NetworkDataSize
  // (NetworkPacketSize Message): every message is one packet of ceil(bits / channel width)
  // flits, its first flit the head; packet_flits and data_bits_per_packet then describe the
  // longest message (syncMessagePackets keeps them so).
  bool packet_per_message = false;
  int32_t buffer_flits = 8;            // per input VC (NodeBufferSize)
  int32_t virtual_channels = 1;        // per network input port
  int32_t injection_virtual_channels = 1;
  int32_t router_delay_clocks = 1;  // NodeHardwareDelay, in router clocks (as reported)
  // The same delay in link clocks, converted exactly by the compiler; -1: routers run on
  // the network clock and it equals router_delay_clocks.
  int32_t header_delay_clocks = -1;
  // RouterPipeline: its ST stage in link clocks, which every flit takes after it leaves its
  // VC, on its way to the next router or its endpoint (router_delay_clocks is then IB + RC +
  // VA + SA); and the stages as written in router clocks ("IB 1 RC 3 ..."), for the report.
  int32_t pipeline_flit_clocks = 0;
  std::string router_pipeline;
  int32_t link_delay_clocks = 1;    // LinkDelay, in link clocks (>= 1)
  int32_t credit_delay_clocks = 1;  // CreditDelay, in link clocks (>= 1)
  double network_frequency_hz = 50e6;
  double router_frequency_hz = 0.0;  // 0: routers run on the network clock

  // ---- traffic
  CreationProcess creation_process = CreationProcess::kBernoulli;
  double creation_rate = 0.01;            // messages per node per clock
  double creation_interval_clocks = 0.0;  // kPeriodic only
  double on_off_burst_clocks = 0.0;       // kOnOff: mean on period, clocks (>= 1)
  double on_off_duty = 0.0;               // kOnOff: share of the time on, (0, 1]
  int64_t creation_max = 0;               // 0: unlimited
  int64_t message_min_bits = 64;
  int64_t message_max_bits = 256;
  int64_t injection_queue_capacity = 10000;  // MessageMaxCount, messages per node
  QueueOverflow queue_overflow = QueueOverflow::kRefuse;  // InjectionQueueOverflow
  // (VcAllocation Atomic): an output VC is given to a packet only when the buffer it feeds is
  // empty (all its credits back), so no VC buffer ever holds flits of two packets.
  bool atomic_vc_allocation = false;
  // (SwitchInputArbitration ByOutput): an input's switch arbiter picks an output its VCs want,
  // then a VC for it, where ByVc picks one of its requesting VCs (docs/runtime.md 2.1).
  bool switch_by_output = false;
  // (SwitchHold Packet): a packet granted the switch keeps the connection while it can send.
  bool switch_hold_packet = false;
  // (InternalSpeedup S): allocation and switch passes a router clock; output ports queue for
  // their channels above 1 (docs/runtime.md 2.1).
  int32_t internal_speedup = 1;
  TrafficPattern pattern = TrafficPattern::kUniform;
  PatternParams pattern_params;
  DestFn dest_fn = nullptr;             // kCustom (generated code); otherwise the reference pattern
  std::string pattern_name;             // for reports when kCustom
  // The patterns written in NDL (define-pattern) the program's traffic names, in the order of
  // the generated code's index; user_pattern: the main traffic's under kCustom, -1 none.
  std::vector<std::string> user_patterns;
  int32_t user_pattern = -1;
  std::vector<ScriptedMessage> script;  // extra messages, in clock order
  // (InjectionProcess (Trace "file")): its path (for the results); its messages, read at
  // start-up, are the script; their count, for the results.
  std::string trace_file;
  int64_t trace_messages = 0;
  // CommunicationPatternFile: its path (for the results) and the programs read from it, run
  // closed-loop beside any synthetic traffic; the run ends when the application completes.
  std::string pattern_file;
  std::shared_ptr<const PatternProgram> pattern_program;
  double expand_rate = 0.0;  // ProcessorPerformanceExpandRate: compute gaps / (1 + rate)
  // (Interface ...): the node side of every endpoint in exact picoseconds (the programs' sends
  // and receives pass its paths and pay the host costs); absent, programs count network clocks.
  InterfaceTiming interface;
  std::string interface_name;

  // ---- routing and deadlocks
  RouteFn route_fn = nullptr;  // required: generated from NDL, or a test's oracle
  std::string routing_name;    // for reports
  Selection selection = Selection::kFirst;
  SelectFn select_fn = nullptr;  // kUser: scores a free candidate
  std::string selection_name;    // kUser: the NDL selection's name, for the results
  // (Predictor ...) (docs/prediction.md): the hooks, the rings per port, PredictivePath's IB
  // and PredictorLatency in network clocks; predict_fn null without a predictor.
  PredictFn predict_fn = nullptr;
  ForwardFn forward_fn = nullptr;
  std::string predictor_name;
  std::string predictive_path;  // "IB 1 ST 1", router clocks, for the results
  std::vector<RingSpec> port_rings;
  int32_t predict_header_clocks = 1;
  int32_t predictor_latency_clocks = 4;
  // (MispredictionCheck None): a miss is found after RC, when a copy of the packet has left by
  // the predicted port; false: hint bits find it at IB.
  bool misprediction_check_none = false;
  // The routing or selection reads other routers' queues ((port-queue-at R P)): the network
  // keeps a copy of every output VC's credits as each router clock begins.
  bool global_congestion = false;
  // (RecoveryTimeout), network clocks: compiled into the routing; kept for the results.
  int64_t recovery_timeout_clocks = 0;
  // The routing's header fields: a new packet's header from header_init (none: 0), and the
  // fields' names and ranges for error messages.
  HeaderInitFn header_init = nullptr;
  struct HeaderField {
    std::string name;
    int64_t lo = 0, hi = 0;
  };
  std::vector<HeaderField> header_fields;
  // The VC class of each network VC (virtual_channels entries) and of each injection VC;
  // empty: every VC in class 0.
  std::vector<uint8_t> vc_class;
  std::vector<std::string> class_names;  // of the network classes, for the results
  uint64_t recovery_field = 0;  // header bit of the routing's (RecoveryField name), or 0
  std::string recovery_field_name;
  // Bit k: network class k is a token class (TokenClasses): its VCs go only to the holder
  // of the network's one recovery token (DISHA's deadlock-buffer lane).
  uint64_t token_classes = 0;
  // The values of (blocked-for) at which the routing's answer for a waiting header may change,
  // ascending (at most 16, each at least 1): a header found blocked is routed again when its
  // wait reaches one, or when one of its candidate VCs may have become free, not every router
  // clock (docs/routing.md, "Waiting headers"). Unset: routed every clock (a routing that reads
  // (blocked-for) otherwise, or one written in C++).
  std::optional<std::vector<uint32_t>> wait_breaks;
  std::vector<uint8_t> injection_vc_class;
  DeadlockHandling deadlock = DeadlockHandling::kDetect;
  // In link clocks (the compiler converts DeadlockTimeout from router clocks).
  // A header blocked this long is suspected: the simulator looks for a wait-for cycle through
  // the blocked VCs (at most once per this many clocks), or under kDropAfterTimeout removes
  // it. 0 chooses 1000.
  int64_t deadlock_timeout_clocks = 0;
  // Backstop: no flit moved for this long while flits are in the network is reported as a
  // deadlock even when no cycle was found. 0 chooses max(10000, 4 * deadlock_timeout_clocks).
  int64_t deadlock_detect_clocks = 0;

  // ---- run control and statistics
  // kSteady (docs/runtime.md 3.1): sample periods of sampling_interval_clocks decide the
  // warm-up, the measurement and its end; creation_max, warmup_messages and measured_messages
  // are then 0. kBurst: INSIGHT's finite run, the window by arrival order.
  Measurement measurement = Measurement::kBurst;
  uint64_t seed = 1;
  int64_t warmup_messages = 0;
  int64_t measured_messages = 0;         // 0: every message after the warm-up
  int64_t time_limit_clocks = 0;         // 0: none (see docs/runtime.md for the default stop)
  int64_t sampling_interval_clocks = 0;  // SimulationInterval; 0: 1000 clocks
  std::vector<std::pair<int32_t, int32_t>> report_pairs;

  // ---- traffic classes (TrafficClass forms; docs/language.md, "Traffic classes"): empty
  // without. Class 0 is the main traffic above (creation_rate, pattern, message bits); its
  // row's own fields are not read. A class with rate 0 is sent only in reply.
  struct TrafficClass {
    std::string name;
    double rate = 0;  // messages per endpoint per clock, Bernoulli
    TrafficPattern pattern = TrafficPattern::kUniform;
    int32_t user_pattern = -1;  // kCustom: which of user_patterns
    int64_t min_bits = 0, max_bits = 0;
    int32_t reply = -1;  // the class answering each delivered message of this one
    uint8_t priority = 0;  // higher is served first: the source's queue, VC and switch allocation
    // Its creation process, as creation_process and its parameters are the main traffic's.
    CreationProcess process = CreationProcess::kBernoulli;
    double interval_clocks = 0.0;
    double on_off_burst_clocks = 0.0;
    double on_off_duty = 0.0;
  };
  std::vector<TrafficClass> classes;

  // ---- output
  std::string data_output_file;
  std::string screen_output_file;
};

// Whether the traffic classes differ in priority: only then do the source queues and the
// allocators order by it.
inline bool classPriorities(const SimParams& p) {
  for (const SimParams::TrafficClass& c : p.classes)
    if (c.priority != p.classes.front().priority) return true;
  return false;
}

std::string_view flowControlName(FlowControl fc);
std::string_view deadlockName(DeadlockHandling dh);
std::string_view queueOverflowName(QueueOverflow q);
std::string_view measurementName(Measurement m);
// Flits of the packet of a message of `bits` under packet_per_message.
inline int64_t messagePacketFlits(const SimParams& p, int64_t bits) {
  return (bits + p.channel_width_bits - 1) / p.channel_width_bits;
}
// Under packet_per_message, sets packet_flits and data_bits_per_packet from the longest
// message (after MessageLength changed); otherwise does nothing.
void syncMessagePackets(SimParams& p);
std::string_view routingName(const SimParams& params);
std::string_view selectionName(Selection s);

// Empty if the parameters are usable with `nodes` nodes, else what is wrong.
std::string validate(const SimParams& params, int32_t nodes);

}  // namespace ndl::rt
