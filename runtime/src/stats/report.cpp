// Human report and data output file.
#include "ndl/runtime/stats/report.h"

#include <fmt/format.h>

#include <algorithm>

#include "ndl/runtime/app/interface_timing.h"
#include "ndl/runtime/stats/output_file.h"

namespace ndl::rt {
namespace {

bool writeText(const std::string& text, const std::string& path, std::string* error) {
  return writeOutputFile(path, text, error);
}

std::string latencyLine(const char* name, const LatencySummary& s, double ns) {
  return fmt::format(
      "  {:<22} mean {:>10.2f}  p50 {:>8}  p99 {:>8}  max {:>8} clocks  "
      "(mean {:.1f} ns)\n",
      name, s.mean, s.p50, s.p99, s.max, s.mean * ns);
}

}  // namespace

std::string formatReport(const Results& r) {
  const SimParams& p = r.params;
  std::string s;
  s += fmt::format(
      "NDL {} simulation: {} ({} nodes, {}{} links, diameter {}, avg distance {:.3f})\n",
      r.ndl_version, r.topology_name, r.nodes,
      r.endpoints >= 0 ? fmt::format("{} endpoints, ", r.endpoints) : "", r.links, r.diameter,
      r.avg_distance);
  s += fmt::format(
      "  {}, {} VC(s) x {} flits, {} injection VC(s), packet {} flits, "
      "router {}, routing {} (selection {}), deadlock handling {}\n",
      flowControlName(p.flow_control), p.virtual_channels, p.buffer_flits,
      p.injection_virtual_channels, p.packet_flits,
      p.router_pipeline.empty() ? fmt::format("delay {} clocks", p.router_delay_clocks)
                                : fmt::format("pipeline {} clocks", p.router_pipeline),
      routingName(p),
      p.selection == Selection::kUser && !p.selection_name.empty()
          ? std::string_view(p.selection_name)
          : selectionName(p.selection),
      deadlockName(p.deadlock));
  const bool synthetic = p.creation_process == CreationProcess::kPeriodic || p.creation_rate > 0;
  const std::string_view pattern = p.pattern == TrafficPattern::kCustom && !p.pattern_name.empty()
                                       ? std::string_view(p.pattern_name)
                                       : patternName(p.pattern);
  // The process is named when it is not the default Bernoulli (whose line keeps its bytes).
  const std::string process =
      p.creation_process == CreationProcess::kPeriodic
          ? fmt::format(", periodic every {} clocks", p.creation_interval_clocks)
      : p.creation_process == CreationProcess::kOnOff
          ? fmt::format(", on/off (bursts of {} clocks on average, on {:.4g}% of the time)",
                        p.on_off_burst_clocks, p.on_off_duty * 100)
          : std::string();
  if (!p.trace_file.empty()) {
    s += fmt::format("  traffic: trace {} ({} message{}), seed {}\n", p.trace_file,
                     p.trace_messages, p.trace_messages == 1 ? "" : "s", p.seed);
  } else if (p.pattern_file.empty()) {
    s += fmt::format("  traffic {}{}, seed {}\n", pattern, process, p.seed);
  } else if (synthetic) {
    s += fmt::format("  traffic: pattern file {} (processor speed-up {}) and {} background{}, seed {}\n",
                     p.pattern_file, 1 + p.expand_rate, pattern, process, p.seed);
  } else {
    s += fmt::format("  traffic: pattern file {} (processor speed-up {}), seed {}\n",
                     p.pattern_file, 1 + p.expand_rate, p.seed);
  }
  s += fmt::format("status: {}{}{}\n", runStatusName(r.status),
                   r.status_message.empty() ? "" : ": ", r.status_message);
  if (const ApplicationResult& a = r.application; a.present) {
    int64_t compute = 0, wait = 0;
    for (size_t n = 0; n < a.finish_clock.size(); ++n) {
      compute += a.compute_clocks[n];
      wait += a.wait_clocks[n];
    }
    const double nodes = a.finish_clock.empty() ? 1.0 : static_cast<double>(a.finish_clock.size());
    s += fmt::format("application {}: ", a.pattern_file);
    const double unit_ns = a.nsOf(1, r.cycle_ns);
    if (a.period_ps > 0) {  // exact time: ns as exact as picoseconds print
      s += a.complete ? fmt::format("completed at {} ns (in clock {})", nsText(a.completion_clock),
                                    a.clockOf(a.completion_clock))
                      : fmt::format("did not complete ({} programs waiting)", a.waiting_nodes);
    } else {
      s += a.complete ? fmt::format("completed at {:.1f} ns ({} clocks)",
                                    static_cast<double>(a.completion_clock) * r.cycle_ns,
                                    a.completion_clock)
                      : fmt::format("did not complete ({} programs waiting)", a.waiting_nodes);
    }
    s += fmt::format("; {} messages; per node {:.1f} ns computing, {:.1f} ns waiting\n",
                     a.messages_sent, static_cast<double>(compute) / nodes * unit_ns,
                     static_cast<double>(wait) / nodes * unit_ns);
    // One line per mark label with intervals: over its nodes' series, the interval range.
    for (size_t i = 0; i < a.marks.size();) {
      size_t j = i;
      int64_t k = 0, sum = 0, lo = 0, hi = 0;
      for (; j < a.marks.size() && a.marks[j].label == a.marks[i].label; ++j) {
        const ApplicationResult::Mark& m = a.marks[j];
        if (m.count < 2) continue;
        lo = k == 0 ? m.interval_min : std::min(lo, m.interval_min);
        hi = std::max(hi, m.interval_max);
        k += m.count - 1;
        sum += m.interval_sum;
      }
      if (k > 0 && a.period_ps > 0) {
        s += fmt::format("  mark {}: {} intervals at {} node{}, mean {:.3f} ns, min {} max {} ns\n",
                         a.marks[i].label, k, j - i, j - i == 1 ? "" : "s",
                         static_cast<double>(sum) / static_cast<double>(k) / 1000.0, nsText(lo),
                         nsText(hi));
      } else if (k > 0) {
        s += fmt::format("  mark {}: {} intervals at {} node{}, mean {:.1f} ns ({:.2f} clocks), "
                         "min {} max {} clocks\n",
                         a.marks[i].label, k, j - i, j - i == 1 ? "" : "s",
                         static_cast<double>(sum) / static_cast<double>(k) * r.cycle_ns,
                         static_cast<double>(sum) / static_cast<double>(k), lo, hi);
      }
      i = j;
    }
  }
  s += fmt::format("time: {} clocks = {:.1f} ns simulated, {:.2f} s wall\n", r.cycles,
                   r.simulated_time_ns, r.wall_seconds);
  s += fmt::format("messages: created {}, delivered {}, dropped {}, refused {}, in flight {}\n",
                   r.messages.created, r.messages.delivered, r.messages.dropped, r.messages.refused,
                   r.messages.in_flight);
  s += fmt::format("packets:  created {}, delivered {}, dropped {}, in flight {}\n",
                   r.packets.created, r.packets.delivered, r.packets.dropped, r.packets.in_flight);
  if (r.conserved) {
    s += "conservation: holds\n";
  } else {
    // In flight is what the simulator holds, counted apart: say by how much the counts part.
    s += fmt::format(
        "conservation: VIOLATED: messages created - delivered - dropped - refused - in flight = "
        "{}, packets created - delivered - dropped - in flight = {}, {} queued of {} in flight\n",
        unaccounted(r.messages), unaccounted(r.packets), r.messages.queued, r.messages.in_flight);
  }
  if (r.deadlock.clock >= 0 && r.status != RunStatus::kDeadlock) {
    s += fmt::format("deadlocks: {} found and broken by dropping; the first at clock {}\n",
                     r.deadlocks_found, r.deadlock.clock);
  }
  s += fmt::format("measured: {} messages arriving in clocks [{}, {})\n", r.measured_messages,
                   r.window_start_cycle, r.window_end_cycle);
  s += "latency:\n";
  s += latencyLine("network (message)", r.network_latency, r.cycle_ns);
  s += latencyLine("message", r.message_latency, r.cycle_ns);
  s += latencyLine("network (packet)", r.packet_latency, r.cycle_ns);
  s += fmt::format("throughput: offered {:.4f}, accepted {:.4f} flits/node/clock; bandwidth {:.4g} "
                   "MB/s of messages\n",
                   r.offered_flits_per_node_cycle, r.accepted_flits_per_node_cycle,
                   r.bandwidth_bytes_per_s / 1e6);
  s += fmt::format("hops: mean {:.3f}\n", r.hops_mean);
  if (r.channel_count > 0 && r.cycles > 0) {
    const double clocks = static_cast<double>(r.cycles);
    s += fmt::format("channels: {} carried {:.4f} flits/clock on average, the busiest {:.4f} ({})\n",
                     r.channel_count,
                     static_cast<double>(r.channel_flits_total) /
                         static_cast<double>(r.channel_count) / clocks,
                     static_cast<double>(r.channel_flits_max) / clocks, r.channel_busiest);
  }
  if (r.has_prediction) {
    const PredictionCounters& c = r.prediction;
    const int64_t heads = c.heads[0] + c.heads[1], predictions = c.predictions[0] + c.predictions[1];
    const int64_t hits = c.hits[0] + c.hits[1], lost = c.lost[0] + c.lost[1];
    s += fmt::format("prediction: {} ({}), hit rate {:.4f} of {} predictions, PST rate {:.4f} of {} "
                     "hops ({} reservations lost); network ports {}/{} hits, injection ports "
                     "{}/{}\n",
                     r.predictor, r.predictive_path,
                     predictions > 0 ? static_cast<double>(hits) / predictions : 0.0, predictions,
                     heads > 0 ? static_cast<double>(hits - lost) / heads : 0.0, heads, lost,
                     c.hits[0], c.predictions[0], c.hits[1], c.predictions[1]);
    if (r.misprediction_check_none)
      s += fmt::format("mispredicted packets (no hint bits): {} sent the wrong way, {} found and "
                       "discarded ({} flits), {} still travelling\n",
                       c.mispredicted[0] + c.mispredicted[1], c.found, c.discarded_flits,
                       r.copies_in_flight);
  }
  if (r.class_names.size() > 1 || !r.recovery_field.empty()) {
    s += "vc classes (packets granted, whole run):";
    for (size_t k = 0; k < r.class_names.size() && k < r.class_grants.size(); ++k)
      s += fmt::format(" {} {}", r.class_names[k], r.class_grants[k]);
    if (!r.recovery_field.empty())
      s += fmt::format("; recoveries {} ({} set), {} hops in recovery", r.recoveries,
                       r.recovery_field, r.recovery_hops);
    if (r.has_token)
      s += fmt::format("; token taken {} times, held {} clocks", r.token_captures,
                       r.token_held_clocks);
    s += "\n";
  }
  s += fmt::format("collisions: total {}, per packet {:.3f}, per message {:.3f}\n",
                   r.collisions_total, r.collisions_per_packet, r.collisions_per_message);
  if (const MeasurementReport& m = r.measurement; m.steady) {
    s += fmt::format("measurement: steady, {}; warm-up {} periods of {} clocks", verdictName(m.verdict),
                     m.warmup_periods, m.period_clocks);
    if (m.warmup_end_clock >= 0)
      s += fmt::format(", measured messages created in clocks {} to {} ({} periods)",
                       m.warmup_end_clock, m.window_end_clock, m.measured_periods);
    if (m.drain_end_clock >= 0) s += fmt::format(", drained at clock {}", m.drain_end_clock);
    if (!m.reason.empty()) s += fmt::format(" ({})", m.reason);
    s += "\n";
  }
  if (r.steady_state.batches > 0) {
    s += fmt::format(
        "steady state: {}, {} leading messages truncated, mean message latency "
        "{:.2f} +/- {:.2f} clocks (95%, {} batch means)\n",
        r.steady_state.detected ? "detected" : "not detected", r.steady_state.truncated,
        r.steady_state.mean, r.steady_state.ci95_half_width, r.steady_state.batches);
  } else {
    s += "steady state: too few measured messages for batch means\n";
  }
  if (!r.by_distance.empty()) {
    s += "by distance:  hops  messages  network latency  message latency   packets  packet "
         "latency (clocks)\n";
    for (const DistanceRow& d : r.by_distance) {
      s += fmt::format("              {:>4}  {:>8}  {:>15.2f}  {:>15.2f}  {:>8}  {:>14.2f}\n",
                       d.hops, d.count, d.mean_network_cycles, d.mean_message_cycles, d.packets,
                       d.mean_packet_cycles);
    }
  }
  for (const ClassRow& c : r.classes) {
    s += fmt::format(
        "class {}{}: {} created, {} delivered, {} measured; offered {:.4f}, accepted {:.4f} "
        "flits/node/clock; network latency mean {:.2f}, message latency mean {:.2f} clocks; "
        "{:.2f} hops\n",
        c.name, c.priority != 0 ? fmt::format(" (priority {})", c.priority) : std::string(),
        c.created, c.delivered, c.measured, c.offered_flits_per_node_cycle,
        c.accepted_flits_per_node_cycle, c.network_latency.mean, c.message_latency.mean,
        c.hops_mean);
  }
  for (const PairRow& pr : r.pairs) {
    s += fmt::format(
        "pair {} -> {}: {} messages, network mean {:.2f} p99 {}, message mean "
        "{:.2f} p99 {}; {} packets, mean {:.2f} p99 {} clocks\n",
        pr.src, pr.dst, pr.network.count, pr.network.mean, pr.network.p99, pr.message.mean,
        pr.message.p99, pr.packet.count, pr.packet.mean, pr.packet.p99);
  }
  return s;
}

bool writeReport(const Results& r, const std::string& path, std::string* error) {
  return writeText(formatReport(r), path, error);
}

std::string formatDataOutput(const Results& r) {
  std::string s;
  s += fmt::format("# NDL data output, format 1\n");
  s += "[summary]\n";
  s += fmt::format("topology\t{}\nnodes\t{}\nstatus\t{}\ncycles\t{}\ncycle_ns\t{}\n",
                   r.topology_name, r.nodes, runStatusName(r.status), r.cycles, r.cycle_ns);
  s += fmt::format(
      "messages_created\t{}\nmessages_delivered\t{}\nmessages_dropped\t{}\n"
      "messages_refused\t{}\nmessages_in_flight\t{}\n",
      r.messages.created, r.messages.delivered, r.messages.dropped, r.messages.refused,
      r.messages.in_flight);
  s += fmt::format("network_latency_mean_cycles\t{:.4f}\nmessage_latency_mean_cycles\t{:.4f}\n",
                   r.network_latency.mean, r.message_latency.mean);
  s += fmt::format("offered_flits_per_node_cycle\t{:.6f}\naccepted_flits_per_node_cycle\t{:.6f}\n",
                   r.offered_flits_per_node_cycle, r.accepted_flits_per_node_cycle);
  s += fmt::format("[series]\t{}\n", r.sampling_interval_clocks);
  s += "end_cycle\tcreated\tinjected\tinjected_bits\tarrived\tarrived_bits\tin_network"
       "\tin_network_bits\tflits_in_network\tdelivered_flits\n";
  for (const SeriesRow& x : r.series) {
    s += fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n", x.end_cycle, x.created,
                     x.injected, x.injected_bits, x.arrived, x.arrived_bits, x.in_network,
                     x.in_network_bits, x.flits_in_network, x.delivered_flits);
  }
  s += "[nodes]\n";
  s += "node\tsent\treceived\trefused\tcollisions\tdropped_packets\tinjected_flits"
       "\tdelivered_flits\tsent_packets\tsent_packet_collisions\tsent_messages"
       "\tsent_message_collisions\n";
  for (size_t n = 0; n < r.per_node.size(); ++n) {
    const NodeRow& x = r.per_node[n];
    s += fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n", n, x.sent, x.received,
                     x.refused, x.collisions, x.dropped_packets, x.injected_flits,
                     x.delivered_flits, x.sent_measured_packets, x.sent_packet_collisions,
                     x.sent_measured_messages, x.sent_message_collisions);
  }
  if (!r.per_router.empty()) {
    // Endpoints apart from routers: [nodes] rows are endpoints (their router columns 0), the
    // routers' own figures follow.
    s += "[routers]\nrouter\tcollisions\tdropped_packets\n";
    for (size_t n = 0; n < r.per_router.size(); ++n) {
      s += fmt::format("{}\t{}\t{}\n", n, r.per_router[n].collisions,
                       r.per_router[n].dropped_packets);
    }
  }
  s += "[distance]\n";
  s += "hops\tmessages\tmean_network_cycles\tmean_message_cycles\tpackets\tmean_packet_cycles\n";
  for (const DistanceRow& d : r.by_distance) {
    s += fmt::format("{}\t{}\t{:.4f}\t{:.4f}\t{}\t{:.4f}\n", d.hops, d.count,
                     d.mean_network_cycles, d.mean_message_cycles, d.packets,
                     d.mean_packet_cycles);
  }
  s += "[pairs]\n";
  s += "src\tdst\tmessages\tnetwork_mean\tnetwork_p50\tnetwork_p99\tnetwork_max\tmessage_mean"
       "\tmessage_p50\tmessage_p99\tmessage_max\tpackets\tpacket_mean\tpacket_p50\tpacket_p99"
       "\tpacket_max\n";
  for (const PairRow& p : r.pairs) {
    s += fmt::format("{}\t{}\t{}\t{:.4f}\t{}\t{}\t{}\t{:.4f}\t{}\t{}\t{}\t{}\t{:.4f}\t{}\t{}\t{}\n",
                     p.src, p.dst, p.network.count, p.network.mean, p.network.p50, p.network.p99,
                     p.network.max, p.message.mean, p.message.p50, p.message.p99, p.message.max,
                     p.packet.count, p.packet.mean, p.packet.p50, p.packet.p99, p.packet.max);
  }
  return s;
}

bool writeDataOutput(const Results& r, const std::string& path, std::string* error) {
  return writeText(formatDataOutput(r), path, error);
}

}  // namespace ndl::rt
