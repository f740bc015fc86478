// Command line of the generated simulators.
#include "ndl/runtime/simulator_main.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cctype>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "ndl/runtime/json_output.h"
#include "ndl/runtime/report.h"
#include "ndl/runtime/simulator.h"

namespace ndl::rt {
namespace {

volatile int g_interrupted = 0;
void onInterrupt(int) { g_interrupted = 1; }

// Parameters that change the network, its routers or the compiled routing:
// only a rebuild can change them. The VC counts and DeadlockHandling decide the
// routing's VC classes, which the checker lays out (docs/routing.md).
bool isStructural(std::string_view name) {
  static const char* kNames[] = {"Topology",          "RoutingAlgorithm",
                                 "NetworkChannelWidth", "NetworkPacketSize",
                                 "NetworkDataSize",     "NetworkFrequency",
                                 "RouterFrequency",     "VirtualChannels",
                                 "InjectionVirtualChannels", "DeadlockHandling", "RecoveryTimeout",
                                 "Selection"};
  for (const char* n : kNames)
    if (name == n) return true;
  return false;
}

// The --help footer: what --set accepts, with the built-in values.
std::string overridableList(const SimParams& p) {
  const double hz = p.network_frequency_hz;
  std::string s = "Parameters for --set Param=Value (current values):\n";
  auto row = [&](std::string_view name, const std::string& value) {
    s += fmt::format("  {:<26} {}\n", name, value);
  };
  row("Seed", fmt::format("{}", p.seed));
  row("MessageCreationRate", fmt::format("{}%", p.creation_rate * 100));
  row("MessageCreationInterval",
      p.creation_interval_clocks > 0 ? fmt::format("{}clock", p.creation_interval_clocks) : "-");
  row("MessageCreationMax", fmt::format("{}", p.creation_max));
  row("MessageLength", fmt::format("{}bit to {}bit", p.message_min_bits, p.message_max_bits));
  row("MessageMaxCount", fmt::format("{}", p.injection_queue_capacity));
  row("InjectionQueueOverflow", std::string(queueOverflowName(p.queue_overflow)));
  row("VcAllocation", p.atomic_vc_allocation ? "Atomic" : "NonAtomic");
  row("TrafficPattern", std::string(patternName(p.pattern)));
  row("FlowControlMethod", std::string(flowControlName(p.flow_control)));
  row("NodeBufferSize", fmt::format("{}flit", p.buffer_flits));
  row("NodeHardwareDelay", fmt::format("{}clock", p.router_delay_clocks));
  row("LinkDelay", fmt::format("{}clock", p.link_delay_clocks));
  row("CreditDelay", fmt::format("{}clock", p.credit_delay_clocks));
  row("DeadlockTimeout", fmt::format("{}clock", p.deadlock_timeout_clocks));
  row("WarmupMessages", fmt::format("{}", p.warmup_messages));
  row("MeasuredMessages", fmt::format("{}", p.measured_messages));
  row("SimulationTime", fmt::format("{}clock", p.time_limit_clocks));
  row("SimulationInterval", fmt::format("{}clock", p.sampling_interval_clocks));
  row("DataOutputFile", p.data_output_file.empty() ? "-" : p.data_output_file);
  row("ScreenOutputFile", p.screen_output_file.empty() ? "-" : p.screen_output_file);
  s += fmt::format("Times take clocks or s/ms/us/ns (network clock {} Hz). Topology, routing, "
                   "selection, VCs, deadlock handling, channel width, packet sizes and clocks "
                   "need a rebuild.\n",
                   hz);
  return s;
}

struct Quantity {
  double value = 0;
  std::string unit;
};

bool parseQuantity(std::string_view text, Quantity* q) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  size_t i = 0;
  while (i < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.' || text[i] == '-' ||
          text[i] == '+' ||
          ((text[i] == 'e' || text[i] == 'E') && i > 0 && i + 1 < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '-')))) {
    ++i;
  }
  if (i == 0) return false;
  try {
    size_t used = 0;
    q->value = std::stod(std::string(text.substr(0, i)), &used);
    if (used != i) return false;
  } catch (const std::exception&) {
    return false;
  }
  q->unit = std::string(text.substr(i));
  return std::isfinite(q->value);
}

// A time in clocks of a clock of `hz`; a bare number is already in clocks.
bool toClocks(const Quantity& q, double hz, double* clocks) {
  static const std::pair<const char*, double> kUnits[] = {
      {"s", 1},       {"sec", 1},   {"ms", 1e-3},   {"msec", 1e-3}, {"us", 1e-6},
      {"usec", 1e-6}, {"ns", 1e-9}, {"nsec", 1e-9}, {"ps", 1e-12},  {"psec", 1e-12}};
  if (q.unit.empty() || q.unit == "clock" || q.unit == "cycle" || q.unit == "clocks" ||
      q.unit == "cycles") {
    *clocks = q.value;
    return true;
  }
  for (const auto& [name, scale] : kUnits) {
    if (q.unit == name) {
      *clocks = q.value * scale * hz;
      return true;
    }
  }
  return false;
}

// A size in bits; a bare number is in `bare_unit_bits`.
bool toBits(const Quantity& q, double flit_bits, double bare_unit_bits, double* bits) {
  if (q.unit.empty()) {
    *bits = q.value * bare_unit_bits;
  } else if (q.unit == "bit") {
    *bits = q.value;
  } else if (q.unit == "byte") {
    *bits = q.value * 8;
  } else if (q.unit == "Kbyte") {
    *bits = q.value * 8 * 1024;
  } else if (q.unit == "Mbyte") {
    *bits = q.value * 8 * 1024 * 1024;
  } else if (q.unit == "flit" || q.unit == "phit") {
    *bits = q.value * flit_bits;
  } else {
    return false;
  }
  return true;
}

int64_t ceilClocks(double clocks) { return static_cast<int64_t>(std::ceil(clocks - 1e-9)); }

}  // namespace

bool applySetting(SimParams& p, std::string_view name, std::string_view value, std::string* error) {
  auto fail = [&](std::string_view why) {
    if (error) *error = fmt::format("--set {}={}: {}", name, value, why);
    return false;
  };
  Quantity q;
  auto integer = [&](int64_t* out, int64_t min) {
    if (!parseQuantity(value, &q) || !q.unit.empty() || q.value != std::floor(q.value) ||
        q.value < static_cast<double>(min)) {
      return fail(fmt::format("expected an integer >= {}", min));
    }
    *out = static_cast<int64_t>(q.value);
    return true;
  };
  auto time = [&](double hz, int64_t* out) {
    double clocks = 0;
    if (!parseQuantity(value, &q) || !toClocks(q, hz, &clocks) || clocks < 0) {
      return fail("expected a time (clocks or s/ms/us/ns/ps)");
    }
    *out = ceilClocks(clocks);
    return true;
  };
  const double hz = p.network_frequency_hz;
  const double router_hz = p.router_frequency_hz > 0 ? p.router_frequency_hz : hz;
  int64_t v = 0;
  if (name == "Seed") {
    if (!integer(&v, 0)) return false;
    p.seed = static_cast<uint64_t>(v);
  } else if (name == "WarmupMessages") {
    return integer(&p.warmup_messages, 0);
  } else if (name == "MeasuredMessages") {
    return integer(&p.measured_messages, 0);
  } else if (name == "MessageCreationMax") {
    return integer(&p.creation_max, 0);
  } else if (name == "MessageMaxCount") {
    return integer(&p.injection_queue_capacity, 1);
  } else if (name == "VcAllocation") {
    if (value == "Atomic" || value == "NonAtomic") {
      p.atomic_vc_allocation = value == "Atomic";
    } else {
      return fail("expected Atomic or NonAtomic");
    }
  } else if (name == "InjectionQueueOverflow") {
    if (value == "Refuse") {
      p.queue_overflow = QueueOverflow::kRefuse;
    } else if (value == "Block") {
      p.queue_overflow = QueueOverflow::kBlock;
    } else {
      return fail("expected Refuse or Block");
    }
  } else if (name == "MessageCreationRate") {
    if (!parseQuantity(value, &q) || (!q.unit.empty() && q.unit != "%")) {
      return fail("expected a ratio such as 1.0% or 0.01");
    }
    p.creation_rate = q.unit == "%" ? q.value / 100 : q.value;
    p.creation_process = CreationProcess::kBernoulli;
    if (p.creation_rate < 0 || p.creation_rate > 1) return fail("rate outside [0, 1]");
  } else if (name == "MessageCreationInterval") {
    double clocks = 0;
    if (!parseQuantity(value, &q) || !toClocks(q, hz, &clocks) || clocks <= 0) {
      return fail("expected a positive time");
    }
    p.creation_interval_clocks = clocks;
    p.creation_rate = std::min(1.0, 1.0 / clocks);
  } else if (name == "SimulationTime") {
    return time(hz, &p.time_limit_clocks);
  } else if (name == "SimulationInterval") {
    return time(hz, &p.sampling_interval_clocks);
  } else if (name == "DeadlockTimeout") {
    return time(hz, &p.deadlock_timeout_clocks);
  } else if (name == "NodeHardwareDelay") {
    if (!time(router_hz, &v)) return false;
    p.router_delay_clocks = static_cast<int32_t>(v);
  } else if (name == "LinkDelay" || name == "CreditDelay") {
    if (!time(hz, &v)) return false;
    if (v < 1) return fail("must be at least one clock");
    (name == "LinkDelay" ? p.link_delay_clocks : p.credit_delay_clocks) = static_cast<int32_t>(v);
  } else if (name == "NodeBufferSize") {
    double bits = 0;
    if (!parseQuantity(value, &q) ||
        !toBits(q, p.channel_width_bits, p.channel_width_bits, &bits) || bits <= 0) {
      return fail("expected a size (flits, bit, byte)");
    }
    p.buffer_flits = static_cast<int32_t>(std::ceil(bits / p.channel_width_bits - 1e-9));
  } else if (name == "MessageLength") {
    const std::string text(value);
    const size_t to = text.find(" to ");
    Quantity lo, hi;
    double lo_bits = 0, hi_bits = 0;
    if (!parseQuantity(text.substr(0, to), &lo) || !toBits(lo, p.channel_width_bits, 1, &lo_bits) ||
        (to != std::string::npos && (!parseQuantity(text.substr(to + 4), &hi) ||
                                     !toBits(hi, p.channel_width_bits, 1, &hi_bits)))) {
      return fail("expected a size or 'SIZE to SIZE'");
    }
    if (to == std::string::npos) hi_bits = lo_bits;
    if (lo_bits < 1 || hi_bits < lo_bits) return fail("empty length range");
    p.message_min_bits = static_cast<int64_t>(lo_bits);
    p.message_max_bits = static_cast<int64_t>(hi_bits);
  } else if (name == "TrafficPattern") {
    if (!parsePattern(value, &p.pattern)) return fail("unknown traffic pattern");
  } else if (name == "FlowControlMethod") {
    if (value == "StoreAndForward") {
      p.flow_control = FlowControl::kStoreAndForward;
    } else if (value == "VirtualCutThrough") {
      p.flow_control = FlowControl::kVirtualCutThrough;
    } else if (value == "Wormhole") {
      p.flow_control = FlowControl::kWormhole;
    } else {
      return fail("expected StoreAndForward, VirtualCutThrough or Wormhole");
    }
  } else if (name == "DataOutputFile") {
    p.data_output_file = std::string(value);
  } else if (name == "ScreenOutputFile") {
    p.screen_output_file = std::string(value);
  } else if (isStructural(name)) {
    return fail(fmt::format("{} shapes the simulator itself; rebuild it with the new value "
                            "(ndlc build, or ndlc sweep to vary it)",
                            name));
  } else {
    return fail("not a parameter of NDL simulators (see --help)");
  }
  return true;
}

int simulatorMain(int argc, char** argv, const NetworkDesc& desc, SimParams params) {
  CLI::App app{"NDL network simulator"};
  app.footer(overridableList(params));
  std::string json_path;
  std::vector<std::string> settings;
  bool quiet = false;
  int64_t seed = -1;
  app.add_option("--json", json_path, "write the results as JSON to FILE");
  app.add_option("--seed", seed, "seed of the random streams")->check(CLI::NonNegativeNumber);
  app.add_option("--set", settings, "override a parameter: Param=Value (repeatable)");
  app.add_flag("--quiet", quiet, "no report on stdout and no progress line");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "error: %s\n%s", e.what(), app.help().c_str());
    return 2;
  }
  for (const std::string& s : settings) {
    const size_t eq = s.find('=');
    std::string error;
    if (eq == std::string::npos) {
      std::fprintf(stderr, "error: --set expects Param=Value, got '%s'\n", s.c_str());
      return 2;
    }
    if (!applySetting(params, std::string_view(s).substr(0, eq), std::string_view(s).substr(eq + 1),
                      &error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      return 2;
    }
  }
  if (seed >= 0) params.seed = static_cast<uint64_t>(seed);
  syncMessagePackets(params);  // packets as long as the messages follow a new MessageLength
  if (std::string err = validate(params, static_cast<int32_t>(desc.nodes.size())); !err.empty()) {
    std::fprintf(stderr, "error: %s\n", err.c_str());
    return 2;
  }

  Results results;
  try {
    Simulator sim(desc, params);
    RunOptions options;
    options.progress = !quiet;
    // Ctrl-C ends the run at the next check; what was measured is written.
    g_interrupted = 0;
    std::signal(SIGINT, onInterrupt);
    options.stop = &g_interrupted;
    results = sim.run(options);
    std::signal(SIGINT, SIG_DFL);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "runtime failure: %s\n", e.what());
    return 3;
  }

  int code = exitCodeFor(results);
  std::string error;
  const std::string report = formatReport(results);
  if (!quiet) std::fputs(report.c_str(), stdout);
  if (results.status != RunStatus::kOk) {
    std::fprintf(stderr, "ndl: %s\n", results.status_message.c_str());
  }
  auto check = [&](bool ok) {
    if (!ok) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      code = 3;
    }
  };
  if (!params.screen_output_file.empty()) {
    check(writeReport(results, params.screen_output_file, &error));
  }
  if (!params.data_output_file.empty()) {
    check(writeDataOutput(results, params.data_output_file, &error));
  }
  if (!json_path.empty()) check(writeJson(results, json_path, &error));
  return code;
}

}  // namespace ndl::rt
