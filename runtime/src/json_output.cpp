// JSON results (spec 2.4). nlohmann::json objects keep keys sorted, so equal results give
// equal bytes.
#include "ndl/runtime/json_output.h"

#include <fmt/format.h>

#include <cstdio>
#include <functional>
#include <map>

#include "ndl/runtime/output_file.h"

namespace ndl::rt {
namespace {

nlohmann::json latency(const LatencySummary& s, double scale) {
  return {{"mean", s.mean * scale},
          {"p50", static_cast<double>(s.p50) * scale},
          {"p99", static_cast<double>(s.p99) * scale},
          {"max", static_cast<double>(s.max) * scale},
          {"count", s.count}};
}

double ratio(int64_t sum, int64_t count) {
  return count ? static_cast<double>(sum) / static_cast<double>(count) : 0.0;
}

// null without a pattern file. Times in ns and in network clocks.
nlohmann::json application(const ApplicationResult& a, double ns) {
  using nlohmann::json;
  if (!a.present) return nullptr;
  json nodes = json::array();
  int64_t compute = 0, wait = 0;
  for (size_t n = 0; n < a.finish_clock.size(); ++n) {
    const int64_t f = a.finish_clock[n];
    nodes.push_back({{"node", n},
                     {"finish_clock", f},
                     {"finish_time_ns", f >= 0 ? json(static_cast<double>(f) * ns) : json()},
                     {"compute_ns", static_cast<double>(a.compute_clocks[n]) * ns},
                     {"wait_ns", static_cast<double>(a.wait_clocks[n]) * ns}});
    compute += a.compute_clocks[n];
    wait += a.wait_clocks[n];
  }
  json waiting = json::array();
  for (const ApplicationResult::Wait& w : a.waiting) {
    waiting.push_back({{"node", w.node},
                       {"from", w.from},
                       {"tag", w.tag},
                       {"line", w.line},
                       {"since_clock", w.since}});
  }
  json marks = json::array();
  for (const ApplicationResult::Mark& m : a.marks) {
    const int64_t k = m.count - 1;  // intervals
    const double mean = k > 0 ? static_cast<double>(m.interval_sum) / static_cast<double>(k) : 0.0;
    marks.push_back(
        {{"label", m.label},
         {"node", m.node},
         {"line", m.line},
         {"count", m.count},
         {"clocks", m.clocks},
         {"clocks_truncated", m.truncated},
         {"interval_cycles", k > 0 ? json{{"count", k}, {"mean", mean},
                                          {"min", m.interval_min}, {"max", m.interval_max}}
                                   : json()},
         {"interval_ns", k > 0 ? json{{"count", k}, {"mean", mean * ns},
                                      {"min", static_cast<double>(m.interval_min) * ns},
                                      {"max", static_cast<double>(m.interval_max) * ns}}
                               : json()}});
  }
  const double count = a.finish_clock.empty() ? 1.0 : static_cast<double>(a.finish_clock.size());
  return {{"pattern_file", a.pattern_file},
          {"complete", a.complete},
          {"completion_clock", a.completion_clock},
          {"completion_time_ns", a.complete ? json(static_cast<double>(a.completion_clock) * ns)
                                            : json()},
          {"messages_sent", a.messages_sent},
          {"messages_delivered", a.messages_delivered},
          {"messages_dropped", a.messages_dropped},
          {"mean_compute_ns", static_cast<double>(compute) / count * ns},
          {"mean_wait_ns", static_cast<double>(wait) / count * ns},
          {"marks", marks},
          {"nodes", nodes},
          {"waiting", waiting},
          {"waiting_nodes", a.waiting_nodes}};
}

// Row n of the per-node table.
nlohmann::json nodeRow(const Results& r, size_t n) {
  const NodeRow& x = r.per_node[n];
  return {{"node", n},
          {"sent", x.sent},
          {"received", x.received},
          {"refused", x.refused},
          {"collisions", x.collisions},
          {"sent_collisions_per_packet", ratio(x.sent_packet_collisions, x.sent_measured_packets)},
          {"sent_collisions_per_message",
           ratio(x.sent_message_collisions, x.sent_measured_messages)},
          {"dropped_packets", x.dropped_packets},
          {"injected_flits", x.injected_flits},
          {"delivered_flits", x.delivered_flits},
          {"class_grants", x.class_grants},
          {"recoveries", x.recoveries},
          {"recovery_hops", x.recovery_hops}};
}

}  // namespace

nlohmann::json toJson(const SimParams& p) {
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& [a, b] : p.report_pairs) pairs.push_back({a, b});
  return {
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
      {"creation_process",
       p.creation_process == CreationProcess::kPeriodic ? "periodic" : "bernoulli"},
      {"MessageCreationRate_per_clock", p.creation_rate},
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
}

namespace {

// The results; without `tables` the per-node tables are null, for writeJson to fill.
nlohmann::json resultsJson(const Results& r, bool tables) {
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
  json pairs = json::array();
  for (const PairRow& p : r.pairs) {
    pairs.push_back({{"src", p.src},
                     {"dst", p.dst},
                     {"latency_cycles",
                      {{"network", latency(p.network, 1)},
                       {"message", latency(p.message, 1)},
                       {"packet", latency(p.packet, 1)}}},
                     {"latency_ns",
                      {{"network", latency(p.network, ns)},
                       {"message", latency(p.message, ns)},
                       {"packet", latency(p.packet, ns)}}}});
  }
  // The per-node tables: here whole, or null for writeJson to write a row at a time.
  json nodes = nullptr, per_node_collisions = nullptr;
  if (tables) {
    nodes = json::array();
    per_node_collisions = json::array();
    for (size_t n = 0; n < r.per_node.size(); ++n) {
      nodes.push_back(nodeRow(r, n));
      per_node_collisions.push_back(r.per_node[n].collisions);
    }
  }
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
  return {
      {"application", application(r.application, ns)},
      {"deadlock", deadlock},
      {"deadlock_searches", r.deadlock_searches},
      {"ndl_version", r.ndl_version},
      {"status", std::string(runStatusName(r.status))},
      {"status_message", r.status_message},
      {"exit_code", exitCodeFor(r)},
      {"config", toJson(r.params)},
      {"topology",
       {{"name", r.topology_name},
        {"nodes", r.nodes},
        {"links", r.links},
        {"diameter", r.diameter},
        {"avg_distance", r.avg_distance}}},
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
      {"throughput",
       {{"offered_flits_per_node_cycle", r.offered_flits_per_node_cycle},
        {"accepted_flits_per_node_cycle", r.accepted_flits_per_node_cycle},
        {"bandwidth_bytes_per_s", r.bandwidth_bytes_per_s},
        {"window_start_cycle", r.window_start_cycle},
        {"window_end_cycle", r.window_end_cycle},
        {"measured_messages", r.measured_messages}}},
      {"hops", {{"mean", r.hops_mean}}},
      {"by_distance", by_distance},
      {"pairs", pairs},
      {"collisions",
       {{"total", r.collisions_total},
        {"per_packet_mean", r.collisions_per_packet},
        {"per_message_mean", r.collisions_per_message},
        {"per_node", per_node_collisions}}},
      {"nodes", nodes},
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
}

// A table written a row at a time in place of a null member of the document.
struct Table {
  size_t rows;
  std::function<nlohmann::json(size_t)> row;
};

// Writes v exactly as v.dump(2) would at nesting `level`, except that the members named in
// `tables` (by their path, "/collisions/per_node") are written from their tables.
class PrettyWriter {
 public:
  PrettyWriter(std::FILE* f, const std::map<std::string, Table>& tables) : f_(f), tables_(tables) {}

  void value(const nlohmann::json& v, int level, const std::string* path) {
    if (v.is_object() && !v.empty()) {
      put("{\n");
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) put(",\n");
        first = false;
        indent(level + 1);
        put(nlohmann::json(it.key()).dump());
        put(": ");
        if (path == nullptr) {
          value(it.value(), level + 1, nullptr);
          continue;
        }
        const std::string child = *path + "/" + it.key();
        if (auto t = tables_.find(child); t != tables_.end()) {
          table(t->second, level + 1);
        } else {
          value(it.value(), level + 1, &child);
        }
      }
      put("\n");
      indent(level);
      put("}");
    } else if (v.is_array() && !v.empty()) {
      put("[\n");
      for (size_t i = 0; i < v.size(); ++i) {
        if (i > 0) put(",\n");
        indent(level + 1);
        value(v[i], level + 1, nullptr);
      }
      put("\n");
      indent(level);
      put("]");
    } else {
      put(v.dump());
    }
  }

 private:
  void table(const Table& t, int level) {
    if (t.rows == 0) return put("[]");
    put("[\n");
    for (size_t i = 0; i < t.rows; ++i) {
      if (i > 0) put(",\n");
      indent(level + 1);
      value(t.row(i), level + 1, nullptr);
    }
    put("\n");
    indent(level);
    put("]");
  }
  void put(const std::string& s) { std::fwrite(s.data(), 1, s.size(), f_); }
  void indent(int level) { std::fprintf(f_, "%*s", 2 * level, ""); }

  std::FILE* f_;
  const std::map<std::string, Table>& tables_;
};

}  // namespace

nlohmann::json toJson(const Results& r) { return resultsJson(r, true); }

// The per-node tables are written a row at a time: at a million nodes the document is
// hundreds of megabytes, and as one nlohmann tree it took gigabytes, three times the
// simulation's own memory. The bytes are those of toJson(r).dump(2) (tests/runtime).
bool writeJson(const Results& r, const std::string& path, std::string* error) {
  const nlohmann::json doc = resultsJson(r, false);
  const std::map<std::string, Table> tables{
      {"/nodes", {r.per_node.size(), [&](size_t n) { return nodeRow(r, n); }}},
      {"/collisions/per_node",
       {r.per_node.size(), [&](size_t n) { return nlohmann::json(r.per_node[n].collisions); }}}};
  return writeFileAtomically(
      path,
      [&](std::FILE* f) {
        const std::string root;
        PrettyWriter(f, tables).value(doc, 0, &root);
        std::fputc('\n', f);
      },
      error);
}

}  // namespace ndl::rt
