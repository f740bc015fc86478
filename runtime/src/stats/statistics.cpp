// Bookkeeping of spec 2.3's statistics; nothing here runs per flit.
#include "ndl/runtime/stats/statistics.h"

#include <algorithm>

namespace ndl::rt {

Statistics::Statistics(const SimParams& params, const EndpointLayout& endpoints)
    : endpoints_(endpoints),
      warmup_(params.warmup_messages),
      measured_(params.measured_messages),
      interval_(params.sampling_interval_clocks > 0 ? params.sampling_interval_clocks : 1000),
      next_sample_(interval_),
      pair_keys_(params.report_pairs),
      pairs_(params.report_pairs.size()),
      per_node_(static_cast<size_t>(endpoints.endpoints())) {
  if (!endpoints.oneEach()) per_router_.resize(static_cast<size_t>(endpoints.routers()));
  if (params.measurement == Measurement::kSteady) steady_.emplace(interval_);
  window_open_ = !steady_ && warmup_ == 0;
  classes_.resize(params.classes.size());
  for (const SimParams::TrafficClass& c : params.classes) {
    class_names_.push_back(c.name);
    class_priorities_.push_back(c.priority);
  }
  packet_per_message_ = params.packet_per_message;
  packet_flits_ = params.packet_flits;
  width_bits_ = params.channel_width_bits;
}

void Statistics::onCreated(const Message& m, int64_t flits) {
  ++created_;
  packets_created_ += m.packets;
  total_.created_flits += flits;
  ++per_node_[m.src].sent;
  ++current_.created;
  if (steady_ && inCohort(m.created)) ++cohort_created_;
  if (!classes_.empty()) {
    ClassAcc& k = classes_[m.cls];
    ++k.created;
    k.total.created_flits += flits;
  }
}

void Statistics::onRefused(int32_t endpoint, int64_t flits, uint8_t cls) {
  ++created_;
  ++refused_;
  total_.created_flits += flits;
  if (!classes_.empty()) {
    ClassAcc& k = classes_[cls];
    ++k.created;
    ++k.refused;
    k.total.created_flits += flits;
  }
  ++per_node_[endpoint].refused;
  ++current_.created;
}

void Statistics::onMessageInjected(const Message& m) {
  ++in_network_;
  in_network_bits_ += m.length_bits;
  ++current_.injected;
  current_.injected_bits += m.length_bits;
}

void Statistics::onPacketDelivered(const Packet& p, int64_t c, bool completes,
                                   int64_t created) {
  ++packets_delivered_;
  total_.delivered_flits += p.len;
  current_.delivered_flits += p.len;
  const int32_t src = srcEndpoint(p), dst = dstEndpoint(p);
  per_node_[dst].delivered_flits += p.len;
  // The packet that completes the message opening the window is measured with it: with
  // one packet per message, the packets measured are the messages measured.
  if (steady_) {
    if (!inCohort(created)) return;
  } else if (const bool opens = completes && !window_open_ && delivered_ == warmup_;
             !measuring() && !opens) {
    return;
  }
  const int64_t latency = c - p.head_entry;
  packet_.add(latency);
  ++measured_packets_;
  measured_hops_ += p.hops;
  packet_collisions_ += p.collisions;
  NodeRow& sender = per_node_[src];
  sender.sent_packet_collisions += p.collisions;
  ++sender.sent_measured_packets;
  DistanceAcc& d = distance(p.hops);
  ++d.packets;
  d.packet += static_cast<double>(latency);
  for (size_t i = 0; i < pair_keys_.size(); ++i) {
    if (pair_keys_[i].first == src && pair_keys_[i].second == dst) pairs_[i].packet.add(latency);
  }
}

void Statistics::onPacketDropped(const Packet& p, int32_t at_router) {
  ++packets_dropped_;
  if (per_router_.empty()) {
    ++per_node_[at_router].dropped_packets;
  } else {
    ++per_router_[at_router].dropped_packets;
  }
}

void Statistics::onMessageResolved(const Message& m, int64_t c) {
  --in_network_;
  in_network_bits_ -= m.length_bits;
  ClassAcc* cls = classes_.empty() ? nullptr : &classes_[m.cls];
  if (cls) {
    if (m.dropped > 0) {
      ++cls->dropped;
    } else {
      ++cls->delivered;
      cls->total.delivered_flits += packet_per_message_
                                        ? (m.length_bits + width_bits_ - 1) / width_bits_
                                        : static_cast<int64_t>(m.packets) * packet_flits_;
    }
  }
  if (m.dropped > 0) {
    ++dropped_;
    if (steady_ && inCohort(m.created)) {
      ++cohort_resolved_;
      checkDrained(c);
    }
    return;
  }
  const int64_t k = delivered_++;
  ++per_node_[m.dst].received;
  ++current_.arrived;
  current_.arrived_bits += m.length_bits;
  if (!steady_ && !window_open_ && k == warmup_) {
    window_open_ = true;
    window_start_ = c;
    at_open_ = total_;
    openClasses();
  }
  // After the window opens, so that the message opening it is in the window as it is counted.
  total_.delivered_bits += m.length_bits;
  const int64_t msg = c - m.created;
  if (steady_) {
    period_all_.add(static_cast<double>(msg));
    period_network_.add(static_cast<double>(c - m.first_entry));
    if (!inCohort(m.created)) return;
    cohort_latency_.add(static_cast<double>(msg));
    ++cohort_resolved_;
  } else if (!measuring()) {
    return;
  }
  ++measured_count_;
  const int64_t net = c - m.first_entry;
  network_.add(net);
  message_.add(msg);
  batches_.add(static_cast<double>(msg));
  message_collisions_ += m.collisions;
  ++per_node_[m.src].sent_measured_messages;
  per_node_[m.src].sent_message_collisions += m.collisions;
  per_node_[m.src].sent_latency += msg;
  per_node_[m.dst].received_latency += msg;
  ++per_node_[m.dst].received_measured_messages;
  DistanceAcc& d = distance(m.max_hops);
  ++d.count;
  d.network += static_cast<double>(net);
  d.message += static_cast<double>(msg);
  if (cls) {
    ++cls->measured;
    cls->network.add(net);
    cls->message.add(msg);
    cls->hops += m.max_hops;
  }
  for (size_t i = 0; i < pair_keys_.size(); ++i) {
    if (pair_keys_[i].first == m.src && pair_keys_[i].second == m.dst) {
      pairs_[i].network.add(net);
      pairs_[i].message.add(msg);
    }
  }
  if (steady_) checkDrained(c);
  if (measured_ > 0 && measured_count_ == measured_) {
    window_closed_ = true;
    window_end_ = c + 1;
    at_close_ = total_;
    closeClasses();
  }
}

void Statistics::checkDrained(int64_t c) {
  if (steady_->phase() == SteadyMeasurement::Phase::kDrain && cohort_resolved_ == cohort_created_)
    steady_->drained(c + 1);
}

void Statistics::endPeriod(int64_t c, const Moments& held_ages) {
  using Phase = SteadyMeasurement::Phase;
  const int64_t end = c + 1;
  const Phase before = steady_->phase();
  Moments ages = period_all_;
  ages.n += held_ages.n;
  ages.sum += held_ages.sum;
  ages.sq += held_ages.sq;
  const double nodes = static_cast<double>(std::max<size_t>(1, per_node_.size()));
  // The warm-up compares period with period; the measurement, the window so far.
  const bool warm = before == Phase::kWarmup;
  const int64_t flits =
      warm ? current_.delivered_flits : total_.delivered_flits - at_open_.delivered_flits;
  const int64_t clocks = warm ? interval_ : end - window_start_;
  PeriodFigures f;
  f.latency = warm ? period_all_ : cohort_latency_;
  f.accepted = static_cast<double>(flits) / (nodes * static_cast<double>(clocks));
  if (end > span_start_) {
    const double span = nodes * static_cast<double>(end - span_start_);
    f.span_accepted = static_cast<double>(total_.delivered_flits - at_span_.delivered_flits) / span;
    f.span_offered = static_cast<double>(total_.created_flits - at_span_.created_flits) / span;
  }
  f.ages = ages;
  f.network_latency = period_network_.mean();
  f.held = held_ages.n;
  const Phase next = steady_->endPeriod(end, f);
  period_all_ = Moments{};
  period_network_ = Moments{};
  if (warm && next == Phase::kWarmup && steady_->report().warmup_periods == 1) {
    at_span_ = total_;  // the span starts after the period that filled the network
    span_start_ = end;
  }
  if (warm && next != Phase::kWarmup && steady_->report().warmup_end_clock == end) {
    window_open_ = true;
    window_start_ = end;
    at_open_ = at_span_ = total_;
    openClasses();
    span_start_ = end;
    return;
  }
  if (window_open_ && next != Phase::kMeasure && cohort_end_ == INT64_MAX) {
    cohort_end_ = end;  // converged, or saturated while measuring
    window_end_ = end;
    at_close_ = total_;
    closeClasses();
    if (next == Phase::kDrain) checkDrained(c);
  }
}

void Statistics::sample(int64_t end_cycle, int64_t flits_in_network) {
  current_.end_cycle = end_cycle;
  current_.in_network = in_network_;
  current_.in_network_bits = in_network_bits_;
  current_.flits_in_network = flits_in_network;
  series_.push_back(current_);
  current_ = SeriesRow{};
  next_sample_ = end_cycle + interval_;
}

void Statistics::finish(int64_t cycles, int64_t flits_in_network,
                        const std::vector<int64_t>& collisions, const HeldCounts& held,
                        Results& out) {
  if (series_.empty() || series_.back().end_cycle < cycles) sample(cycles, flits_in_network);
  out.sampling_interval_clocks = interval_;
  out.params.sampling_interval_clocks = interval_;  // the effective value, 0 meant "default"
  // In flight is what the simulator holds, not what these counters leave: conservation then
  // compares two counts kept apart, and a message or packet lost or counted twice shows.
  out.messages = {created_, delivered_, dropped_, refused_, held.messages, held.queued_messages};
  out.packets = {packets_created_, packets_delivered_, packets_dropped_, held.packets};
  out.conserved = conserved(out.messages, out.packets);

  const bool closed = steady_ ? cohort_end_ != INT64_MAX : window_closed_;
  Counters end = closed ? at_close_ : total_;
  int64_t start_cycle = window_start_;
  int64_t end_cycle = closed ? window_end_ : cycles;
  Counters start = at_open_;
  if (!window_open_ && steady_) {
    // Saturated before the warm-up ended: the throughput of the whole run.
    start_cycle = 0;
    start = Counters{};
  } else if (!window_open_) {
    start_cycle = end_cycle = cycles;
    start = end;
  }
  if (steady_) out.measurement = steady_->report();
  out.window_start_cycle = start_cycle;
  out.window_end_cycle = end_cycle;
  out.measured_messages = measured_count_;
  // Per endpoint (a row each): what endpoints offer and accept, switches not counted.
  const double node_cycles =
      static_cast<double>(std::max<int64_t>(1, end_cycle - start_cycle)) *
      static_cast<double>(std::max<size_t>(1, per_node_.size()));
  out.offered_flits_per_node_cycle =
      end_cycle > start_cycle ? (end.created_flits - start.created_flits) / node_cycles : 0.0;
  out.accepted_flits_per_node_cycle =
      end_cycle > start_cycle ? (end.delivered_flits - start.delivered_flits) / node_cycles : 0.0;
  // Seed 000's bandwidth: message bytes delivered per second across the whole network.
  out.bandwidth_bytes_per_s =
      end_cycle > start_cycle && out.cycle_ns > 0
          ? static_cast<double>(end.delivered_bits - start.delivered_bits) / 8.0 /
                (static_cast<double>(end_cycle - start_cycle) * out.cycle_ns * 1e-9)
          : 0.0;

  out.network_latency = network_.summary();
  out.message_latency = message_.summary();
  out.packet_latency = packet_.summary();
  out.network_bins = network_.bins(Results::kLatencyBins);
  out.message_bins = message_.bins(Results::kLatencyBins);
  out.packet_bins = packet_.bins(Results::kLatencyBins);
  out.hops_mean = measured_packets_ ? static_cast<double>(measured_hops_) / measured_packets_ : 0;
  out.by_distance.clear();
  for (size_t h = 0; h < by_distance_.size(); ++h) {
    const DistanceAcc& d = by_distance_[h];
    if (d.count == 0 && d.packets == 0) continue;
    out.by_distance.push_back({static_cast<int32_t>(h), d.count,
                               d.count ? d.network / d.count : 0.0,
                               d.count ? d.message / d.count : 0.0, d.packets,
                               d.packets ? d.packet / d.packets : 0.0});
  }
  out.classes.clear();
  for (size_t k = 0; k < classes_.size(); ++k) {
    const ClassAcc& a = classes_[k];
    ClassRow row;
    row.name = class_names_[k];
    row.priority = class_priorities_[k];
    row.created = a.created;
    row.delivered = a.delivered;
    row.dropped = a.dropped;
    row.refused = a.refused;
    row.measured = a.measured;
    const Counters& from = !window_open_ && steady_ ? Counters{} : a.at_open;
    const Counters& to = closed ? a.at_close : a.total;
    if (end_cycle > start_cycle) {
      row.offered_flits_per_node_cycle = (to.created_flits - from.created_flits) / node_cycles;
      row.accepted_flits_per_node_cycle = (to.delivered_flits - from.delivered_flits) / node_cycles;
    }
    row.network_latency = a.network.summary();
    row.message_latency = a.message.summary();
    row.hops_mean = a.measured ? static_cast<double>(a.hops) / static_cast<double>(a.measured) : 0;
    out.classes.push_back(std::move(row));
  }
  out.pairs.clear();
  for (size_t i = 0; i < pair_keys_.size(); ++i) {
    out.pairs.push_back({pair_keys_[i].first, pair_keys_[i].second, pairs_[i].network.summary(),
                         pairs_[i].message.summary(), pairs_[i].packet.summary()});
  }
  out.collisions_total = 0;
  for (size_t n = 0; n < collisions.size(); ++n) {
    (per_router_.empty() ? per_node_[n].collisions : per_router_[n].collisions) = collisions[n];
    out.collisions_total += collisions[n];
  }
  out.collisions_per_packet =
      measured_packets_ ? static_cast<double>(packet_collisions_) / measured_packets_ : 0;
  out.collisions_per_message =
      measured_count_ ? static_cast<double>(message_collisions_) / measured_count_ : 0;
  out.per_node = std::move(per_node_);  // finish() ends the statistics' life
  out.per_router = std::move(per_router_);
  out.series = std::move(series_);
  out.steady_state = batches_.analyse();
}

}  // namespace ndl::rt
