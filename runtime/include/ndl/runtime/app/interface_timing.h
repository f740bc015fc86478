// A network interface's send and receive paths in exact time (docs/interfaces.md): chains of
// stages, each clocked by a domain whose edges fall at whole multiples of its period in
// picoseconds from time 0. The compiler's `ndlc info` and the simulators time a path with
// these same functions, so the figures it prints are the ones a run takes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace ndl::rt {

// Domain 0 is the network's clock; a stage names another or the same.
struct InterfaceStage {
  int32_t domain = 0;
  int64_t period_ps = 1;
  int64_t latency_ps = 0;    // its clocks times the period
  int64_t occupancy_ps = 0;  // from taking one message to being free for the next
};

struct InterfaceTiming {
  int64_t network_period_ps = 0;  // 0: no interface; the node side counts network clocks
  int64_t synchronizer_clocks = 0;  // added on every crossing, in the receiving domain's clocks
  std::vector<InterfaceStage> send, receive;
  int64_t host_write_ps = 0, host_read_ps = 0, overhead_ps = 0;
  int64_t poll_interval_ps = 0, poll_phase_ps = 0;
  // (Loopback External): a node's message to itself is a packet in the network, which leaves
  // by a link from its router back to that router; else it passes from the send path into
  // the receive path (the internal loop).
  bool external_loop = false;

  bool present() const { return network_period_ps > 0; }
};

// The first edge of a clock of period `period` at or after t (t >= 0).
inline int64_t nextEdge(int64_t t, int64_t period) {
  return (t + period - 1) / period * period;
}

// Where a message that reaches a domain's logic at time t, coming from domain `from`, is
// taken: at once within a domain, else at the receiving clock's next edge plus the
// synchronizer's clocks. `from` -1: the host, whose write the first edge takes.
inline int64_t crossInto(int64_t t, int32_t from, int32_t to, int64_t period,
                         int64_t synchronizerClocks) {
  if (from == to) return t;
  const int64_t edge = nextEdge(t, period);
  return from < 0 ? edge : edge + synchronizerClocks * period;
}

// A message entering `stages` at time t from domain `from`: each stage takes it when it is
// there and the stage is free (free[k], updated), holds it for its latency and is free again
// after its occupancy. Returns the time it leaves the last stage.
inline int64_t passStages(const std::vector<InterfaceStage>& stages, int64_t* free, int64_t t,
                          int32_t from, int64_t synchronizerClocks) {
  for (size_t k = 0; k < stages.size(); ++k) {
    const InterfaceStage& s = stages[k];
    const int64_t start =
        std::max(crossInto(t, from, s.domain, s.period_ps, synchronizerClocks), free[k]);
    free[k] = start + s.occupancy_ps;
    t = start + s.latency_ps;
    from = s.domain;
  }
  return t;
}

// The path on its own, entered at time 0 (an edge of every clock) with every stage free.
inline int64_t pathFromEdge(const std::vector<InterfaceStage>& stages, int32_t from,
                            int64_t synchronizerClocks) {
  std::vector<int64_t> free(stages.size(), 0);
  return passStages(stages, free.data(), 0, from, synchronizerClocks);
}

// The first poll at or after t of a host that polls every `interval` from `phase` on
// (interval 0: continuously, so at t itself).
inline int64_t nextPoll(int64_t t, int64_t interval, int64_t phase) {
  if (interval == 0) return t;
  if (t <= phase) return phase;
  return phase + (t - phase + interval - 1) / interval * interval;
}

// Picoseconds (>= 0) as nanoseconds, exactly: 22500 is "22.5", 1234567 is "1234.567".
inline std::string nsText(int64_t ps) {
  std::string s = std::to_string(ps / 1000);
  if (int64_t frac = ps % 1000; frac != 0) {
    std::string f = std::to_string(1000 + frac).substr(1);
    while (f.back() == '0') f.pop_back();
    s += "." + f;
  }
  return s;
}

}  // namespace ndl::rt
