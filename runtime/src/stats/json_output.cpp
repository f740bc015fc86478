// JSON results (spec 2.4). nlohmann::json objects keep keys sorted, so equal results give
// equal bytes.
#include "ndl/runtime/stats/json_output.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "ndl/runtime/stats/output_file.h"
#include "ndl/runtime/traffic/message_flits.h"

namespace ndl::rt {
namespace {

nlohmann::json latency(const LatencySummary& s, double scale) {
  return {{"mean", s.mean * scale},
          {"p50", static_cast<double>(s.p50) * scale},
          {"p99", static_cast<double>(s.p99) * scale},
          {"max", static_cast<double>(s.max) * scale},
          {"count", s.count}};
}

// null without a pattern file. Times in ns and in network clocks; with an interface also
// exact in ps (times_ps, interval_ps, completion_time_ps, since_ps), the clocks then being
// those the times fall in.
nlohmann::json application(const ApplicationResult& a, double ns) {
  using nlohmann::json;
  if (!a.present) return nullptr;
  const bool exact = a.period_ps > 0;
  // The per-node rows are the application table (result_tables.h); the means stay here.
  int64_t compute = 0, wait = 0;
  for (size_t n = 0; n < a.finish_clock.size(); ++n) {
    compute += a.compute_clocks[n];
    wait += a.wait_clocks[n];
  }
  json waiting = json::array();
  for (const ApplicationResult::Wait& w : a.waiting) {
    json row = {{"node", w.node},
                {"from", w.from},
                {"tag", w.tag},
                {"line", w.line},
                {"since_clock", a.clockOf(w.since)}};
    if (exact) row["since_ps"] = w.since;
    waiting.push_back(std::move(row));
  }
  json marks = json::array();
  for (const ApplicationResult::Mark& m : a.marks) {
    const int64_t k = m.count - 1;  // intervals
    const double mean = k > 0 ? static_cast<double>(m.interval_sum) / static_cast<double>(k) : 0.0;
    // In network clocks: whole without an interface, fractions of a clock with one.
    const double per_clock = exact ? 1.0 / static_cast<double>(a.period_ps) : 1.0;
    json row = {
        {"label", m.label},
        {"node", m.node},
        {"line", m.line},
        {"count", m.count},
        {"clocks_truncated", m.truncated},
        {"interval_cycles",
         k > 0 ? json{{"count", k},
                      {"mean", mean * per_clock},
                      {"min", exact ? json(static_cast<double>(m.interval_min) * per_clock)
                                    : json(m.interval_min)},
                      {"max", exact ? json(static_cast<double>(m.interval_max) * per_clock)
                                    : json(m.interval_max)}}
               : json()},
        {"interval_ns", k > 0 ? json{{"count", k}, {"mean", exact ? mean / 1000.0 : mean * ns},
                                     {"min", a.nsOf(m.interval_min, ns)},
                                     {"max", a.nsOf(m.interval_max, ns)}}
                              : json()}};
    if (exact) {
      row["times_ps"] = m.clocks;
      row["interval_ps"] = k > 0 ? json{{"count", k}, {"mean", mean}, {"min", m.interval_min},
                                        {"max", m.interval_max}}
                                 : json();
    } else {
      row["clocks"] = m.clocks;
    }
    marks.push_back(std::move(row));
  }
  const double count = a.finish_clock.empty() ? 1.0 : static_cast<double>(a.finish_clock.size());
  // Per node in ns: from ps divided exactly as written, from clocks as ever.
  auto perNode = [&](int64_t total) {
    return exact ? static_cast<double>(total) / count / 1000.0
                 : static_cast<double>(total) / count * ns;
  };
  json out = {{"pattern_file", a.pattern_file},
              {"complete", a.complete},
              {"completion_clock", a.complete ? a.clockOf(a.completion_clock) : int64_t{-1}},
              {"completion_time_ns", a.complete ? json(a.nsOf(a.completion_clock, ns)) : json()},
              {"messages_sent", a.messages_sent},
              {"messages_delivered", a.messages_delivered},
              {"messages_dropped", a.messages_dropped},
              {"mean_compute_ns", perNode(compute)},
              {"mean_wait_ns", perNode(wait)},
              {"marks", marks},
              {"waiting", waiting},
              {"waiting_nodes", a.waiting_nodes}};
  if (exact) out["completion_time_ps"] = a.complete ? json(a.completion_clock) : json();
  return out;
}

// Hit rate over predictions, PST rate over all hops (docs/prediction.md); per kind of input
// port and in all. With hint bits no mispredicted packet travels: the miss is known at IB;
// without (MispredictionCheck None) a miss sends a copy the wrong way.
nlohmann::json prediction(const Results& r) {
  const PredictionCounters& c = r.prediction;
  auto figures = [](int64_t heads, int64_t predictions, int64_t hits, int64_t busy, int64_t lost) {
    return nlohmann::json{
        {"hops", heads},
        {"predictions", predictions},
        {"hits", hits},
        {"not_predicted_busy", busy},
        {"reservations_lost", lost},
        {"hit_rate", predictions > 0 ? static_cast<double>(hits) / predictions : 0.0},
        {"pst_rate", heads > 0 ? static_cast<double>(hits - lost) / heads : 0.0}};
  };
  nlohmann::json j = figures(c.heads[0] + c.heads[1], c.predictions[0] + c.predictions[1],
                             c.hits[0] + c.hits[1], c.busy[0] + c.busy[1], c.lost[0] + c.lost[1]);
  j["predictor"] = r.predictor;
  j["predictive_path"] = r.predictive_path;
  j["misprediction_check"] = r.misprediction_check_none ? "None" : "HintBits";
  j["mispredicted_packets"] = c.mispredicted[0] + c.mispredicted[1];
  j["mispredicted_found"] = c.found;
  j["discarded_flits"] = c.discarded_flits;
  j["mispredicted_freed"] = r.copies_freed;
  j["mispredicted_in_flight"] = r.copies_in_flight;
  j["port_state_bytes"] = r.port_state_bytes;
  j["network_ports"] = figures(c.heads[0], c.predictions[0], c.hits[0], c.busy[0], c.lost[0]);
  j["injection_ports"] = figures(c.heads[1], c.predictions[1], c.hits[1], c.busy[1], c.lost[1]);
  j["network_ports"]["mispredicted_packets"] = c.mispredicted[0];
  j["injection_ports"]["mispredicted_packets"] = c.mispredicted[1];
  return j;
}

}  // namespace

namespace {
// The synthetic load the configuration offers, flits per endpoint per clock: each class's
// creation rate times its mean message flits, as the checker converts an OfferedLoad (a
// pattern that maps a source onto itself creates less; replies come on top). Null for a
// trace, whose messages are the load.
nlohmann::json configuredLoad(const SimParams& p) {
  if (!p.trace_file.empty()) return nullptr;
  const auto flits = [&](int64_t lo, int64_t hi) {
    return meanMessageFlits(lo, hi,
                            p.packet_per_message ? p.channel_width_bits : p.data_bits_per_packet,
                            p.packet_per_message ? 1 : p.packet_flits)
        .value();
  };
  const double rate =
      p.creation_process == CreationProcess::kPeriodic
          ? 1.0 / static_cast<double>(std::max<int64_t>(1, std::llround(p.creation_interval_clocks)))
          : p.creation_rate;
  double load = rate * flits(p.message_min_bits, p.message_max_bits);
  for (size_t k = 1; k < p.classes.size(); ++k)
    load += p.classes[k].rate * flits(p.classes[k].min_bits, p.classes[k].max_bits);
  return load;
}

// A histogram of the measured latencies in clocks: counts[i] latencies in
// [first_clock + i * bin_clocks, first_clock + (i + 1) * bin_clocks).
nlohmann::json bins(const LatencyBins& b) {
  return {{"first_clock", b.first}, {"bin_clocks", b.width}, {"counts", b.counts}};
}
}  // namespace

nlohmann::json toJson(const SimParams& p) {
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& [a, b] : p.report_pairs) pairs.push_back({a, b});
  nlohmann::json out = {
      {"FlowControlMethod", std::string(flowControlName(p.flow_control))},
      {"NetworkChannelWidth_bits", p.channel_width_bits},
      {"NetworkPacketSize_flits", p.packet_flits},
      {"PacketPerMessage", p.packet_per_message},
      {"header_flits", p.header_flits},
      {"NetworkDataSize_bits", p.data_bits_per_packet},
      {"NodeBufferSize_flits", p.buffer_flits},
      {"VirtualChannels", p.virtual_channels},
      {"InjectionVirtualChannels", p.injection_virtual_channels},
      {"NodeHardwareDelay_clocks", p.router_delay_clocks},
      {"LinkDelay_clocks", p.link_delay_clocks},
      {"CreditDelay_clocks", p.credit_delay_clocks},
      {"NetworkFrequency_hz", p.network_frequency_hz},
      {"RouterFrequency_hz",
       p.router_frequency_hz > 0 ? p.router_frequency_hz : p.network_frequency_hz},
      {"creation_process", p.creation_process == CreationProcess::kPeriodic ? "periodic"
                           : p.creation_process == CreationProcess::kOnOff  ? "on_off"
                                                                            : "bernoulli"},
      {"MessageCreationRate_per_clock", p.creation_rate},
      {"OfferedLoad_flits_per_node_cycle", configuredLoad(p)},
      {"MessageCreationInterval_clocks", p.creation_interval_clocks},
      {"MessageCreationMax", p.creation_max},
      {"MessageLength_bits", {p.message_min_bits, p.message_max_bits}},
      {"MessageMaxCount", p.injection_queue_capacity},
      {"InjectionQueueOverflow", std::string(queueOverflowName(p.queue_overflow))},
      {"VcAllocation", p.atomic_vc_allocation ? "Atomic" : "NonAtomic"},
      {"TrafficPattern", p.pattern == TrafficPattern::kCustom && !p.pattern_name.empty()
                             ? p.pattern_name
                             : std::string(patternName(p.pattern))},
      {"RoutingAlgorithm", std::string(routingName(p))},
      {"Selection", p.selection == Selection::kUser && !p.selection_name.empty()
                        ? p.selection_name
                        : std::string(selectionName(p.selection))},
      {"RecoveryTimeout_clocks", p.recovery_timeout_clocks},
      {"DeadlockHandling", std::string(deadlockName(p.deadlock))},
      {"DeadlockTimeout_clocks", p.deadlock_timeout_clocks},
      {"deadlock_detect_clocks", p.deadlock_detect_clocks},
      {"Seed", p.seed},
      {"WarmupMessages", p.warmup_messages},
      {"MeasuredMessages", p.measured_messages},
      {"SimulationTime_clocks", p.time_limit_clocks},
      {"SimulationInterval_clocks", p.sampling_interval_clocks},
      {"ReportPairs", pairs},
      {"CommunicationPatternFile", p.pattern_file},
      {"ProcessorPerformanceExpandRate", p.expand_rate},
      {"DataOutputFile", p.data_output_file},
      {"ScreenOutputFile", p.screen_output_file},
  };
  // Only with the form, so that the parameters of a program without it keep their bytes:
  // each stage's router clocks (NodeHardwareDelay_clocks is then IB + RC + VA + SA).
  if (!p.router_pipeline.empty()) {
    nlohmann::json stages = nlohmann::json::object();
    std::istringstream in(p.router_pipeline);
    std::string stage;
    int64_t clocks = 0;
    while (in >> stage >> clocks) stages[stage] = clocks;
    out["RouterPipeline_clocks"] = stages;
  }
  // Only where it is not the default, so that other runs' JSON stays as it was.
  if (p.switch_by_output) out["SwitchInputArbitration"] = "ByOutput";
  if (p.switch_hold_packet) out["SwitchHold"] = "Packet";
  if (p.internal_speedup > 1) out["InternalSpeedup"] = p.internal_speedup;
  if (p.creation_process == CreationProcess::kOnOff) {
    out["OnOffBurst_clocks"] = p.on_off_burst_clocks;
    out["OnOffDuty"] = p.on_off_duty;
  }
  // Likewise only with an interface: its name and the host costs, in ps (the stages are in
  // `ndlc info --json`'s interfaces).
  if (p.interface.present()) {
    const InterfaceTiming& f = p.interface;
    out["Interface"] = p.interface_name;
    out["HostWriteTime_ps"] = f.host_write_ps;
    out["HostReadTime_ps"] = f.host_read_ps;
    out["SoftwareOverhead_ps"] = f.overhead_ps;
    out["PollInterval_ps"] = f.poll_interval_ps;
    out["PollPhase_ps"] = f.poll_phase_ps;
    out["Loopback"] = f.external_loop ? "External" : "Internal";
  }
  // Likewise only with a trace: its path and its count of messages.
  if (!p.trace_file.empty()) {
    out["creation_process"] = "trace";
    out["TraceFile"] = p.trace_file;
    out["trace_messages"] = p.trace_messages;
  }
  return out;
}

// The summary: everything but the tables that grow with the network or the ReportPairs
// (result_tables.h), which `files` names.
nlohmann::json toJson(const Results& r, const TableFiles& files) {
  using nlohmann::json;
  const double ns = r.cycle_ns;
  json by_distance = json::array();
  for (const DistanceRow& d : r.by_distance) {
    by_distance.push_back({{"hops", d.hops},
                           {"count", d.count},
                           {"mean_network_latency_ns", d.mean_network_cycles * ns},
                           {"mean_message_latency_ns", d.mean_message_cycles * ns},
                           {"mean_network_latency_cycles", d.mean_network_cycles},
                           {"mean_message_latency_cycles", d.mean_message_cycles},
                           {"packets", d.packets},
                           {"mean_packet_latency_ns", d.mean_packet_cycles * ns},
                           {"mean_packet_latency_cycles", d.mean_packet_cycles}});
  }
  json tables = json::object();
  for (size_t i = 0; i < kResultTables.size(); ++i) {
    // The routers table exists only when endpoints are not one per router: no key otherwise.
    if (kResultTables[i] == ResultTable::kRouters && !hasTable(r, ResultTable::kRouters)) continue;
    if (kResultTables[i] == ResultTable::kChannels && !hasTable(r, ResultTable::kChannels) &&
        r.channel_count == 0)
      continue;
    tables[std::string(tableName(kResultTables[i]))] =
        files.files[i].empty() ? json(nullptr) : json(files.files[i]);
  }
  tables["note"] = files.note.empty() ? json(nullptr) : json(files.note);
  json series = json::array();
  for (const SeriesRow& x : r.series) {
    series.push_back({{"end_cycle", x.end_cycle},
                      {"created", x.created},
                      {"injected", x.injected},
                      {"injected_bits", x.injected_bits},
                      {"arrived", x.arrived},
                      {"arrived_bits", x.arrived_bits},
                      {"in_network", x.in_network},
                      {"in_network_bits", x.in_network_bits},
                      {"flits_in_network", x.flits_in_network},
                      {"delivered_flits", x.delivered_flits}});
  }
  const SteadyState& ss = r.steady_state;
  // null when no deadlock was found; under Drop the first cycle and how many were broken.
  json deadlock = nullptr;
  if (r.deadlock.clock >= 0) {
    deadlock = {{"clock", r.deadlock.clock},
                {"cycle", r.deadlock.cycle},
                {"found", r.deadlocks_found}};
  }
  json topology = {{"name", r.topology_name},
                   {"nodes", r.nodes},
                   {"links", r.links},
                   {"diameter", r.diameter},
                   {"avg_distance", r.avg_distance}};
  // Endpoints apart from routers: how many (throughput is per endpoint).
  if (r.endpoints >= 0) topology["endpoints"] = r.endpoints;
  json out = {
      {"application", application(r.application, ns)},
      {"deadlock", deadlock},
      {"deadlock_searches", r.deadlock_searches},
      {"ndl_version", r.ndl_version},
      {"status", std::string(runStatusName(r.status))},
      {"status_message", r.status_message},
      {"exit_code", exitCodeFor(r)},
      {"config", toJson(r.params)},
      {"topology", topology},
      {"cycles", r.cycles},
      {"simulated_time_ns", r.simulated_time_ns},
      {"wall_seconds", r.wall_seconds},
      {"router_clocks", r.router_clocks},
      {"flit_hops", r.flit_hops},
      {"messages",
       {{"created", r.messages.created},
        {"delivered", r.messages.delivered},
        {"dropped", r.messages.dropped},
        {"refused", r.messages.refused},
        {"in_flight", r.messages.in_flight},
        {"queued", r.messages.queued}}},
      {"packets",
       {{"created", r.packets.created},
        {"delivered", r.packets.delivered},
        {"dropped", r.packets.dropped},
        {"in_flight", r.packets.in_flight}}},
      {"conservation", {{"holds", r.conserved}}},
      {"latency_ns",
       {{"network", latency(r.network_latency, ns)},
        {"message", latency(r.message_latency, ns)},
        {"packet", latency(r.packet_latency, ns)}}},
      {"latency_cycles",
       {{"network", latency(r.network_latency, 1)},
        {"message", latency(r.message_latency, 1)},
        {"packet", latency(r.packet_latency, 1)}}},
      {"latency_histograms",
       {{"network", bins(r.network_bins)},
        {"message", bins(r.message_bins)},
        {"packet", bins(r.packet_bins)}}},
      {"throughput",
       {{"offered_flits_per_node_cycle", r.offered_flits_per_node_cycle},
        {"accepted_flits_per_node_cycle", r.accepted_flits_per_node_cycle},
        {"bandwidth_bytes_per_s", r.bandwidth_bytes_per_s},
        {"window_start_cycle", r.window_start_cycle},
        {"window_end_cycle", r.window_end_cycle},
        {"measured_messages", r.measured_messages}}},
      {"hops", {{"mean", r.hops_mean}}},
      {"channels",
       {{"count", r.channel_count},
        {"flits", r.channel_flits_total},
        {"mean_flits_per_clock",
         r.channel_count > 0 && r.cycles > 0
             ? static_cast<double>(r.channel_flits_total) /
                   static_cast<double>(r.channel_count) / static_cast<double>(r.cycles)
             : 0.0},
        {"max_flits_per_clock",
         r.cycles > 0 ? static_cast<double>(r.channel_flits_max) / static_cast<double>(r.cycles)
                      : 0.0},
        {"busiest", r.channel_busiest}}},
      {"by_distance", by_distance},
      {"collisions",
       {{"total", r.collisions_total},
        {"per_packet_mean", r.collisions_per_packet},
        {"per_message_mean", r.collisions_per_message}}},
      {"tables", tables},
      {"vc_classes", {{"names", r.class_names}, {"grants", r.class_grants}}},
      {"recovery",
       {{"field", r.recovery_field},
        {"recoveries", r.recoveries},
        {"recovery_hops", r.recovery_hops},
        {"token", r.has_token ? nlohmann::json{{"captures", r.token_captures},
                                               {"held_clocks", r.token_held_clocks}}
                              : nlohmann::json(nullptr)}}},
      {"series", {{"interval_cycles", r.sampling_interval_clocks}, {"rows", series}}},
      {"steady_state",
       {{"detected", ss.detected},
        {"samples", ss.samples},
        {"truncated", ss.truncated},
        {"batches", ss.batches},
        {"mean_message_latency_cycles", ss.mean},
        {"ci95_half_width_cycles", ss.ci95_half_width},
        {"mean_message_latency_ns", ss.mean * ns},
        {"ci95_half_width_ns", ss.ci95_half_width * ns}}},
  };
  // Only with a predictor: other programs' results keep their form.
  if (r.has_prediction) out["prediction"] = prediction(r);
  // Only with TrafficClass forms, likewise.
  if (!r.classes.empty()) {
    json classes = json::array();
    for (const ClassRow& c : r.classes) {
      classes.push_back(
          {{"name", c.name},
           {"priority", c.priority},
           {"messages",
            {{"created", c.created},
             {"delivered", c.delivered},
             {"dropped", c.dropped},
             {"refused", c.refused},
             {"measured", c.measured}}},
           {"offered_flits_per_node_cycle", c.offered_flits_per_node_cycle},
           {"accepted_flits_per_node_cycle", c.accepted_flits_per_node_cycle},
           {"latency_cycles",
            {{"network", latency(c.network_latency, 1)}, {"message", latency(c.message_latency, 1)}}},
           {"latency_ns",
            {{"network", latency(c.network_latency, ns)},
             {"message", latency(c.message_latency, ns)}}},
           {"hops_mean", c.hops_mean}});
    }
    out["classes"] = classes;
  }
  // Only in a steady run (docs/runtime.md 3.1); a burst's results keep their form.
  if (const MeasurementReport& m = r.measurement; m.steady) {
    out["config"]["Measurement"] = "Steady";
    auto clock = [](int64_t c) { return c >= 0 ? json(c) : json(nullptr); };
    out["measurement"] = {{"mode", "steady"},
                          {"verdict", std::string(verdictName(m.verdict))},
                          {"converged", m.verdict == Verdict::kConverged},
                          {"saturated", m.verdict == Verdict::kSaturated},
                          {"reason", m.reason},
                          {"period_clocks", m.period_clocks},
                          {"warmup_periods", m.warmup_periods},
                          {"measured_periods", m.measured_periods},
                          {"warmup_end_clock", clock(m.warmup_end_clock)},
                          {"window_end_clock", clock(m.window_end_clock)},
                          {"drain_end_clock", clock(m.drain_end_clock)},
                          {"saturation_latency_clocks", m.saturation_latency_clocks},
                          {"latency_at_stop_clocks", m.latency_at_stop_clocks}};
  }
  return out;
}

bool writeJson(const Results& r, const std::string& path, const TableFiles& tables,
               std::string* error) {
  return writeOutputFile(path, toJson(r, tables).dump(2) + "\n", error);
}

}  // namespace ndl::rt
