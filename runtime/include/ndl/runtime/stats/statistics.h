// The statistics of spec 2.3, fed by the simulator as messages are created, injected and
// resolved: latency distributions in a window of messages by arrival order, throughput,
// hop counts, collisions, per-endpoint and per-router counts, the sampled time series and
// conservation. Rows of what endpoints send and receive are per endpoint; collisions,
// drops, grants and recoveries per router (with one endpoint per router, one row holds both).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ndl/runtime/net/endpoints.h"
#include "ndl/runtime/net/packet.h"
#include "ndl/runtime/sim/sim_params.h"
#include "ndl/runtime/stats/latency_histogram.h"
#include "ndl/runtime/stats/measurement.h"
#include "ndl/runtime/stats/results.h"
#include "ndl/runtime/stats/steady_state.h"

namespace ndl::rt {

// What the simulator holds at the end of a run, counted from its own records apart from the
// statistics' counters (Simulator): the results' in-flight counts.
struct HeldCounts {
  int64_t messages = 0;         // message records not yet resolved
  int64_t packets = 0;          // their packets not delivered or dropped, made or to be made
  int64_t queued_messages = 0;  // of those messages, ones still in a source's queue
};

class Statistics {
 public:
  Statistics(const SimParams& params, const EndpointLayout& endpoints);

  void onCreated(const Message& m, int64_t flits);
  void onRefused(int32_t endpoint, int64_t flits, uint8_t cls = 0);
  void onFlitInjected(int32_t endpoint) { ++per_node_[endpoint].injected_flits; }
  void onMessageInjected(const Message& m);  // its first head entered the network
  // `completes`: the packet is the last of a message that is delivered whole, which is then
  // resolved.
  // `created`: its message's creation clock.
  void onPacketDelivered(const Packet& p, int64_t c, bool completes, int64_t created);
  void onPacketDropped(const Packet& p, int32_t at_router);
  void onMessageResolved(const Message& m, int64_t c);  // all its packets delivered/dropped
  // A steady run (docs/runtime.md 3.1): whether clock c ends a sample period, and then, before
  // endCycle, the ages of the messages the simulator holds at its end.
  bool steady() const { return steady_.has_value(); }
  bool periodEnds(int64_t c) const { return c + 1 >= next_sample_; }
  void endPeriod(int64_t c, const Moments& held_ages);
  bool steadyDone() const { return steady_ && steady_->phase() == SteadyMeasurement::Phase::kDone; }
  void steadyStopped() {
    if (steady_) steady_->stopped();
  }
  // Called after every clock with the flits then in the network.
  void endCycle(int64_t c, int64_t flits_in_network) {
    if (c + 1 >= next_sample_) sample(c + 1, flits_in_network);
  }

  int64_t created() const { return created_; }
  int64_t resolved() const { return delivered_ + dropped_; }
  int64_t delivered() const { return delivered_; }
  int64_t inFlight() const { return created_ - delivered_ - dropped_ - refused_; }
  int64_t refused() const { return refused_; }
  bool windowClosed() const { return window_closed_; }

  // Writes every statistic into `out`; `collisions` are the per-router counters, `held` what
  // the simulator still holds (the in-flight counts, checked against these statistics).
  void finish(int64_t cycles, int64_t flits_in_network, const std::vector<int64_t>& collisions,
              const HeldCounts& held, Results& out);

 private:
  struct Counters {
    int64_t created_flits = 0;
    int64_t delivered_flits = 0;
    int64_t delivered_bits = 0;  // message lengths of the messages delivered
  };
  void sample(int64_t end_cycle, int64_t flits_in_network);
  void checkDrained(int64_t c);  // steady: the measured messages have all resolved
  // The endpoints a packet leaves from and goes to (its src and dst are routers).
  int32_t srcEndpoint(const Packet& p) const {
    return endpoints_.oneEach() ? p.src : endpoints_.first(p.src) + p.src_local;
  }
  int32_t dstEndpoint(const Packet& p) const {
    return endpoints_.oneEach() ? p.dst : endpoints_.first(p.dst) + p.dst_local;
  }
  bool measuring() const { return window_open_ && !window_closed_; }
  // Whether a message created at `created` is measured: in a steady run, created in the
  // window; in a burst, resolved in it (by arrival order).
  bool inCohort(int64_t created) const {
    return window_open_ && created >= window_start_ && created < cohort_end_;
  }

  const EndpointLayout& endpoints_;
  int64_t warmup_;
  int64_t measured_;
  int64_t interval_;
  int64_t next_sample_;
  std::vector<std::pair<int32_t, int32_t>> pair_keys_;

  int64_t created_ = 0, delivered_ = 0, dropped_ = 0, refused_ = 0;
  int64_t packets_created_ = 0, packets_delivered_ = 0, packets_dropped_ = 0;
  int64_t in_network_ = 0;
  int64_t in_network_bits_ = 0;
  Counters total_;
  Counters at_open_;
  Counters at_close_;
  bool window_open_ = false;
  bool window_closed_ = false;
  int64_t window_start_ = 0;
  int64_t window_end_ = 0;
  int64_t measured_count_ = 0;

  LatencyHistogram network_, message_, packet_;
  int64_t measured_packets_ = 0;
  int64_t measured_hops_ = 0;
  int64_t packet_collisions_ = 0;
  int64_t message_collisions_ = 0;
  struct DistanceAcc {
    uint64_t count = 0;  // messages
    double network = 0;
    double message = 0;
    uint64_t packets = 0;
    double packet = 0;
  };
  DistanceAcc& distance(uint32_t hops) {
    if (by_distance_.size() <= hops) by_distance_.resize(hops + 1);
    return by_distance_[hops];
  }
  std::vector<DistanceAcc> by_distance_;
  struct PairAcc {
    LatencyHistogram network, message, packet;
  };
  std::vector<PairAcc> pairs_;
  BatchSeries batches_;
  std::optional<SteadyMeasurement> steady_;
  int64_t cohort_end_ = INT64_MAX;  // steady: the window's end, once converged
  int64_t cohort_created_ = 0, cohort_resolved_ = 0;
  Moments period_latency_;  // steady warm-up: the messages delivered in this period
  Moments cohort_latency_;  // steady: the measured messages delivered so far
  Moments period_all_;      // every message delivered in this period (the saturation test)
  Moments period_network_;  // their network latencies
  Counters at_span_;        // at span_start_: the accepted-against-offered test's span
  int64_t span_start_ = 0;

  // Per traffic class (SimParams::classes; empty without): counts over the run, flits in the
  // window (a delivered message's whole at its resolution), the measured messages' latencies.
  struct ClassAcc {
    int64_t created = 0, delivered = 0, dropped = 0, refused = 0, measured = 0;
    int64_t hops = 0;  // the measured messages' longest packet paths, summed
    Counters total, at_open, at_close;
    LatencyHistogram network, message;
  };
  std::vector<ClassAcc> classes_;
  std::vector<std::string> class_names_;
  std::vector<int32_t> class_priorities_;
  bool packet_per_message_ = false;
  int64_t packet_flits_ = 1, width_bits_ = 1;
  void openClasses() {
    for (ClassAcc& k : classes_) k.at_open = k.total;
  }
  void closeClasses() {
    for (ClassAcc& k : classes_) k.at_close = k.total;
  }

  std::vector<NodeRow> per_node_;  // per endpoint
  std::vector<RouterRow> per_router_;  // unless one endpoint per router (then in per_node_)
  std::vector<SeriesRow> series_;
  SeriesRow current_;
};

}  // namespace ndl::rt
