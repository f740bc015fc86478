// Everything a run measured, in plain data: what the report, the data output file and the
// JSON writer print (spec 2.3/2.4).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ndl/runtime/sim/sim_params.h"
#include "ndl/runtime/stats/latency_histogram.h"
#include "ndl/runtime/stats/measurement.h"
#include "ndl/runtime/stats/steady_state.h"

namespace ndl::rt {

inline constexpr const char* kNdlVersion = "0.1.0";

// Why a run ended. Anything but kOk is a runtime failure (exit code 3).
enum class RunStatus : uint8_t {
  kOk,
  kDeadlock,            // a wait-for cycle among blocked VCs (or nothing moved for a long time)
  kTimeLimit,           // the time limit came before the measured messages / the drain
  kInjectionQueueFull,  // creations were refused because an injection queue was full
  kInterrupted,         // stopped by RunOptions::stop (SIGINT in generated simulators)
  kRoutingError,        // the routing failed for a packet (RoutingFailure): no candidate, a
                        // missing port, a header value outside its field's range
  kApplicationStuck,    // a pattern's programs wait for messages that will never come (dropped)
  kSaturated,           // a steady run found the network saturated: a result, not a failure
  kPatternError,        // a pattern written in NDL failed for a source (PatternFailure)
};
std::string_view runStatusName(RunStatus status);

// created, delivered, dropped and refused are the statistics' counters; in_flight is what
// the simulator still holds at the end, counted from its records, not derived from the
// others: conservation (conserved) compares the two.
struct MessageCounts {
  int64_t created = 0;
  int64_t delivered = 0;
  int64_t dropped = 0;
  int64_t refused = 0;
  int64_t in_flight = 0;  // messages held: queued at sources, in the network, partly delivered
  int64_t queued = 0;     // of in_flight, not yet fully handed to the injection channel
};

struct PacketCounts {
  int64_t created = 0;
  int64_t delivered = 0;
  int64_t dropped = 0;
  int64_t in_flight = 0;  // packets held: at the source (made or still to be), in VCs, on links
};

// What created less delivered, dropped, refused and in flight leaves: 0 when conserved.
inline int64_t unaccounted(const MessageCounts& m) {
  return m.created - m.delivered - m.dropped - m.refused - m.in_flight;
}
inline int64_t unaccounted(const PacketCounts& p) {
  return p.created - p.delivered - p.dropped - p.in_flight;
}
// Every message and every packet created is delivered, dropped, refused or held, exactly once.
inline bool conserved(const MessageCounts& m, const PacketCounts& p) {
  return unaccounted(m) == 0 && unaccounted(p) == 0 && m.in_flight >= 0 && p.in_flight >= 0 &&
         0 <= m.queued && m.queued <= m.in_flight;
}

// Messages by their largest packet hop count, packets by their own hop count.
struct DistanceRow {
  int32_t hops = 0;
  uint64_t count = 0;  // messages
  double mean_network_cycles = 0;
  double mean_message_cycles = 0;
  uint64_t packets = 0;
  double mean_packet_cycles = 0;
};

struct PairRow {
  int32_t src = 0;
  int32_t dst = 0;
  LatencySummary network;  // clocks
  LatencySummary message;
  LatencySummary packet;
};

// One traffic class (TrafficClass forms): its messages over the run, its load in the
// measurement window (flits per endpoint per clock over every endpoint), and the latencies of
// its measured messages.
struct ClassRow {
  std::string name;
  int32_t priority = 0;  // (Priority n): higher is served first
  int64_t created = 0, delivered = 0, dropped = 0, refused = 0, measured = 0;
  double offered_flits_per_node_cycle = 0;
  double accepted_flits_per_node_cycle = 0;
  LatencySummary network_latency;  // clocks
  LatencySummary message_latency;
  double hops_mean = 0;  // of each measured message's longest packet path
};

// One sampling interval (SimulationInterval) of the time series.
struct SeriesRow {
  int64_t end_cycle = 0;
  int64_t created = 0;        // messages created (refused included)
  int64_t injected = 0;       // messages whose first head entered the network
  int64_t injected_bits = 0;  // their total length
  int64_t arrived = 0;        // messages delivered
  int64_t arrived_bits = 0;
  int64_t in_network = 0;       // messages injected and not yet resolved, at the end
  int64_t in_network_bits = 0;  // their total length (INSIGHT's residual load)
  int64_t flits_in_network = 0;
  int64_t delivered_flits = 0;
};

// The closed-loop application of a pattern file (docs/workloads.md). Clocks are network
// clocks from the start of the run.
// Its times are network clocks, or (with an interface) picoseconds: period_ps says which.
struct ApplicationResult {
  bool present = false;
  int64_t period_ps = 0;  // 0: times in network clocks; else ps, and the network's period
  // A time of this result in network clocks (with an interface, the clock it falls in,
  // rounded up) and in ns.
  int64_t clockOf(int64_t t) const { return period_ps > 0 ? (t + period_ps - 1) / period_ps : t; }
  double nsOf(int64_t t, double ns_per_clock) const {
    return period_ps > 0 ? static_cast<double>(t) / 1000.0 : static_cast<double>(t) * ns_per_clock;
  }
  std::string pattern_file;
  bool complete = false;         // every program ended and all its messages arrived
  int64_t completion_clock = -1;  // when that happened; -1 if it did not
  int64_t messages_sent = 0;
  int64_t messages_delivered = 0;
  int64_t messages_dropped = 0;
  std::vector<int64_t> finish_clock;    // per node: when its program ended, -1 if it did not
  std::vector<int64_t> compute_clocks;  // per node: time in compute gaps
  std::vector<int64_t> wait_clocks;     // per node: time in receives
  struct Wait {
    int32_t node = 0;
    int32_t from = 0;
    uint64_t tag = 0;
    uint32_t line = 0;  // of the receive in the pattern file
    int64_t since = 0;  // its time
  };
  std::vector<Wait> waiting;  // programs still waiting at the end (the first 64)
  int64_t waiting_nodes = 0;
  // The clocks at which node programs passed their `mark` lines, one series per (label,
  // node), sorted so; the intervals are between consecutive passes (a ping-pong's round
  // trips). Clocks are kept up to ApplicationResult::kMarkClocks in all; counts and
  // intervals cover every pass.
  struct Mark {
    std::string label;
    int32_t node = 0;
    uint32_t line = 0;  // of the first pass
    int64_t count = 0;
    int64_t last_clock = 0;
    std::vector<int64_t> clocks;  // the first passes (truncated: not all)
    bool truncated = false;
    int64_t interval_min = 0, interval_max = 0, interval_sum = 0;  // over count - 1 intervals
  };
  static constexpr size_t kMarkClocks = size_t{1} << 20;
  std::vector<Mark> marks;
};

// Kept per endpoint during the run, so message counts are 32-bit (memory per node matters).
// With one endpoint per router (every network whose topology says nothing of endpoints) the
// row also holds its router's figures (collisions, dropped_packets, class_grants,
// recoveries, recovery_hops); otherwise those are in RouterRow and stay 0 here.
struct NodeRow {
  int64_t injected_flits = 0;
  int64_t delivered_flits = 0;
  int64_t collisions = 0;       // packets held at this router (counted once per packet)
  // INSIGHT's collisions per node of messages and of packets: those of the measured packets
  // and messages this node sent, wherever they were held (a message's are its packets').
  int64_t sent_packet_collisions = 0;
  int64_t sent_message_collisions = 0;
  uint32_t sent_measured_packets = 0;
  uint32_t sent_measured_messages = 0;
  uint32_t sent = 0;      // messages created and accepted at this node
  uint32_t received = 0;  // messages delivered to this node
  uint32_t refused = 0;
  uint32_t dropped_packets = 0;  // dropped at this node's router
  std::vector<int64_t> class_grants;  // packets granted an output VC of each network class
  int64_t recoveries = 0;     // grants that set the routing's RecoveryField
  int64_t recovery_hops = 0;  // grants to packets with it set (recovery VC use)
  // Message latency (creation to delivery, clocks) of the measured messages this endpoint
  // sent (sent_measured_messages of them) and of those it received.
  int64_t sent_latency = 0;
  int64_t received_latency = 0;
  uint32_t received_measured_messages = 0;
};

// A router's own figures, kept apart from the endpoints' rows when routers have other than
// one endpoint each.
struct RouterRow {
  int64_t collisions = 0;             // packets held at this router (counted once per packet)
  uint32_t dropped_packets = 0;       // dropped at this router
  std::vector<int64_t> class_grants;  // packets granted an output VC of each network class
  int64_t recoveries = 0;
  int64_t recovery_hops = 0;
};

// A deadlock the run found: a cycle of blocked virtual channels, each waiting for the next.
struct DeadlockRecord {
  int64_t clock = -1;  // -1: none found
  // Channel names, "n3:x+ vc0": the VC of the link leaving node 3 along x+ ("n3:pe vc0" for
  // an injection VC); each waits for the next, the last for the first.
  std::vector<std::string> cycle;
};

struct Results {
  std::string ndl_version = kNdlVersion;
  RunStatus status = RunStatus::kOk;
  std::string status_message;

  // topology
  std::string topology_name;
  int32_t nodes = 0;  // routers
  // Endpoints when routers have other than one endpoint each; -1 otherwise (then as many as
  // nodes, with the same ids).
  int32_t endpoints = -1;
  int64_t links = 0;
  int32_t diameter = 0;
  double avg_distance = 0;

  SimParams params;  // effective parameters
  double cycle_ns = 0;

  int64_t cycles = 0;
  double simulated_time_ns = 0;
  double wall_seconds = 0;
  int64_t router_clocks = 0;  // router steps simulated (routers x router clocks)
  int64_t flit_hops = 0;

  MessageCounts messages;
  PacketCounts packets;
  bool conserved = true;  // conserved(messages, packets)

  // measurement window (messages by arrival order)
  int64_t window_start_cycle = 0;
  int64_t window_end_cycle = 0;
  int64_t measured_messages = 0;

  // latencies in clocks, measured window
  LatencySummary network_latency;  // first head entering to last tail ejected, per message
  LatencySummary message_latency;  // creation to last tail ejected, per message
  LatencySummary packet_latency;   // head entering to tail ejected, per packet
  // The same measured latencies in at most kLatencyBins bins each (JSON latency_histograms).
  static constexpr int64_t kLatencyBins = 100;
  LatencyBins network_bins, message_bins, packet_bins;

  double offered_flits_per_node_cycle = 0;
  double accepted_flits_per_node_cycle = 0;
  double bandwidth_bytes_per_s = 0;  // message bytes delivered per second, whole network
  double hops_mean = 0;  // per delivered packet, measured window
  std::vector<DistanceRow> by_distance;
  std::vector<PairRow> pairs;
  std::vector<ClassRow> classes;  // empty without TrafficClass forms

  DeadlockRecord deadlock;     // the first deadlock found
  int64_t deadlocks_found = 0;  // cycles found (under Drop each is broken by dropping)
  int64_t deadlock_searches = 0;  // wait-for searches run (a header was blocked that long)

  int64_t collisions_total = 0;
  double collisions_per_packet = 0;
  double collisions_per_message = 0;

  std::vector<NodeRow> per_node;  // per endpoint
  // Per router, only when routers have other than one endpoint each (else empty: the
  // router's figures are in its endpoint's NodeRow).
  std::vector<RouterRow> per_router;
  // Channel loads over the whole run: flits each network channel carried (its flits per clock
  // are flits / cycles). The rows (JSON tables.channels) only for networks of up to
  // kChannelRowLimit routers; the summary for every network.
  struct ChannelRow {
    int32_t router, port, to_router;
    uint64_t flits;
  };
  static constexpr int64_t kChannelRowLimit = 4096;
  std::vector<ChannelRow> channels;
  int64_t channel_count = 0;
  uint64_t channel_flits_total = 0;
  uint64_t channel_flits_max = 0;
  std::string channel_busiest;  // "n3:x+", the first of the most loaded
  // The routing's network VC classes and (RecoveryField name), if any; totals of the
  // per-node class grants, recoveries and recovery hops (whole run).
  std::vector<std::string> class_names;
  std::string recovery_field;
  std::vector<int64_t> class_grants;
  int64_t recoveries = 0;
  int64_t recovery_hops = 0;
  // The recovery token (TokenClasses): whether the routing has one, how often a packet took
  // it and how many clocks it was held in all.
  bool has_token = false;
  int64_t token_captures = 0;
  int64_t token_held_clocks = 0;
  // Predictive switching (docs/prediction.md), whole run: only with a predictor.
  bool has_prediction = false;
  std::string predictor;
  std::string predictive_path;
  PredictionCounters prediction;
  int64_t port_state_bytes = 0;
  // MispredictionCheck None: the copies whose records were freed (all flits discarded) and
  // those still held at the end, counted from the packet records.
  bool misprediction_check_none = false;
  int64_t copies_freed = 0;
  int64_t copies_in_flight = 0;
  std::vector<SeriesRow> series;
  int64_t sampling_interval_clocks = 0;
  SteadyState steady_state;
  MeasurementReport measurement;  // steady runs (docs/runtime.md 3.1)
  ApplicationResult application;
};

// Exit code of a finished run: 0 when kOk or kSaturated (a measurement of the network),
// 3 otherwise.
inline int exitCodeFor(const Results& r) {
  return r.status == RunStatus::kOk || r.status == RunStatus::kSaturated ? 0 : 3;
}

}  // namespace ndl::rt
