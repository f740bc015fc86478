// Runs a simulation: builds the network from a description and parameters, drives the
// clock (deliver, create, inject, route) until the stop condition, and returns the Results.
#pragma once

#include <functional>
#include <memory>

#include "ndl/runtime/net/network_desc.h"
#include "ndl/runtime/sim/sim_params.h"
#include "ndl/runtime/stats/results.h"

namespace ndl::rt {

struct RunOptions {
  // A progress line on stderr (a terminal only) once the run takes over 2 s, every 0.5 s:
  // clock, messages delivered, in flight, and the time left when the run has a goal.
  bool progress = false;
  // Stop condition used when none of creation_max, measured_messages and
  // time_limit_clocks is set.
  int64_t default_time_limit_clocks = 100000;
  // Visit active routers in the reverse order. Results must not change: the cycle is
  // two-phase. For tests of exactly that.
  bool reverse_router_order = false;
  // Ask for the next routers' state ahead of their steps: on a network whose state is larger
  // than the caches this hides memory latency, on a small one it only costs time (measured
  // in bench/RESULTS.md). kAuto: when the network state exceeds 4 MB. Results never change.
  enum class Prefetch : uint8_t { kAuto, kAlways, kNever };
  Prefetch prefetch = Prefetch::kAuto;
  // Polled every 256 router steps or clocks, whichever come first (so also within a
  // long clock); when it becomes non-zero the run stops and reports what it measured
  // (the simulators point it at their SIGINT and SIGTERM flag).
  const volatile int* stop = nullptr;
};

class Simulator {
 public:
  // Throws std::invalid_argument if the description or parameters are unusable.
  Simulator(NetworkDesc desc, SimParams params);
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  // Runs the simulation to its stop condition. Once per Simulator.
  Results run(const RunOptions& options = {});
  // Bytes of network state (routers, buffers, channels), for the memory figures.
  size_t networkStateBytes() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Convenience: build and run once.
Results simulate(const NetworkDesc& desc, const SimParams& params, const RunOptions& options = {});

}  // namespace ndl::rt
