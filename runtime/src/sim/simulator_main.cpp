// Command line of the generated simulators.
#include "ndl/runtime/sim/simulator_main.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cctype>
#include <charconv>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>
#include <vector>

#include "ndl/runtime/app/pattern.h"
#include "ndl/runtime/net/endpoints.h"
#include "ndl/runtime/net/memory_estimate.h"
#include "ndl/runtime/sim/simulator.h"
#include "ndl/runtime/stats/json_output.h"
#include "ndl/runtime/stats/report.h"
#include "ndl/runtime/traffic/trace.h"

namespace ndl::rt {
namespace {

volatile int g_interrupted = 0;
void onInterrupt(int) { g_interrupted = 1; }

}  // namespace

std::optional<int> parseSimulatorArgs(int argc, char** argv, const ParamTables* tables,
                                      SimParams& params, SimulatorArgs& args) {
  CLI::App app{"NDL network simulator"};
  app.footer(tables ? "Parameters for --param Name=Value, with their values in this simulator "
                      "(converted: bits, flits, network clocks, Hz, messages per node per "
                      "clock;\nndlc run FILE --set Name=Value sets NDL parameters with units "
                      "and passes them here):\n" +
                          describeAbiParams(tables->values)
                    : std::string("This simulator takes no --param.\n"));
  std::vector<std::string> param_args;
  std::vector<std::string> set_args;
  // Read as text: CLI11's integer options stop at INT64_MAX and name their bounds in
  // hundreds of digits; a seed is any uint64.
  std::string seed_text;
  CLI::Option* json =
      app.add_option("--json", args.json_path, "write the results as JSON to FILE");
  CLI::Option* tables_opt =
      app.add_option("--tables", args.tables_prefix,
                     "write the per-node and per-pair tables as PREFIX.nodes.csv, "
                     "PREFIX.pairs.csv, PREFIX.application.csv (PREFIX ending in '/': in that "
                     "directory), whatever the network's size; by default they are written "
                     "beside the --json file for networks of up to 4096 nodes")
          ->type_name("PREFIX");
  bool no_tables = false;
  app.add_flag("--no-tables", no_tables, "write no tables")->excludes(tables_opt);
  CLI::Option* seed = app.add_option("--seed", seed_text,
                                     "seed of the random streams, 0 to 18446744073709551615");
  app.add_option("--param", param_args,
                 "change a converted parameter: Name=Value (repeatable; see below)");
  app.add_option("--set", set_args)->group("");  // only to say where --set went
  app.add_flag("--quiet", args.quiet, "no report on stdout and no progress line");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "error: %s\n%s", e.what(), app.help().c_str());
    return 2;
  }
  if (tables_opt->count() > 0) {
    if (args.tables_prefix.empty()) {
      std::fprintf(stderr, "error: --tables: empty prefix\nhint: --tables out/run1 writes "
                           "out/run1.nodes.csv, ...\n");
      return 2;
    }
    args.tables = TablesMode::kAlways;
  }
  if (no_tables) args.tables = TablesMode::kNever;
  if (!set_args.empty()) {
    std::fprintf(stderr,
                 "error: --set %s: a simulator takes converted values only (--param, see "
                 "--help)\nhint: ndlc run FILE --set %s -- ARGS checks and converts NDL "
                 "parameters, then runs the simulator\n",
                 set_args.front().c_str(), set_args.front().c_str());
    return 2;
  }
  if (json->count() > 0 && args.json_path.empty()) {
    std::fprintf(stderr, "error: --json needs a file name; '' names none\n");
    return 2;
  }
  std::optional<uint64_t> seed_value;
  if (seed->count() > 0) {
    uint64_t v = 0;
    const char* end = seed_text.data() + seed_text.size();
    auto [stop, ec] = std::from_chars(seed_text.data(), end, v);
    if (ec != std::errc() || stop != end || seed_text.empty()) {
      std::fprintf(stderr,
                   "error: --seed %s: expected an unsigned integer, 0 to "
                   "18446744073709551615\n",
                   seed_text.c_str());
      return 2;
    }
    seed_value = v;
  }
  if (!param_args.empty()) {
    if (!tables) {
      std::fprintf(stderr, "error: this simulator takes no --param\n");
      return 2;
    }
    AbiValues values = tables->values;
    std::string error;
    if (!applyAbiParams(values, param_args, &error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      return 2;
    }
    params = tables->make(values);
  }
  if (seed_value) params.seed = *seed_value;
  return std::nullopt;
}

namespace {

int runMain(int argc, char** argv, NetworkDesc desc, const ParamTables* tables,
            SimParams params) {
  SimulatorArgs args;
  if (std::optional<int> code = parseSimulatorArgs(argc, argv, tables, params, args)) return *code;
  const std::string& json_path = args.json_path;
  const bool quiet = args.quiet;
  // Under (NetworkPacketSize Message) the packets follow the longest message, which --param
  // may have changed: the checks below see the packets the run will have.
  syncMessagePackets(params);
  // Patterns, pattern files, scripts and pairs number endpoints.
  const int32_t endpoints = EndpointLayout(desc).endpoints();
  // Pattern files and traces are read at every start, with the same checks as ndlc check: a
  // file may have changed since the simulator was built.
  PatternLimits file_limits =
      patternLimits(endpoints, params.packet_per_message, params.channel_width_bits,
                    params.data_bits_per_packet, params.flow_control != FlowControl::kWormhole,
                    params.buffer_flits);
  file_limits.network_hz = params.network_frequency_hz;  // a trace's times in clocks
  file_limits.loopback = params.interface.present();
  file_limits.external_loop = params.interface.external_loop;
  if (file_limits.external_loop) file_limits.loop_nodes = loopEndpoints(desc);
  if (!params.trace_file.empty()) {
    std::vector<PatternError> errors;
    std::optional<std::vector<ScriptedMessage>> trace =
        readTraceFile(params.trace_file, file_limits, errors);
    if (!trace) {
      for (const PatternError& e : errors)
        std::fputs(formatPatternError(params.trace_file, e).c_str(), stderr);
      return 1;
    }
    params.trace_messages = static_cast<int64_t>(trace->size());
    params.script = std::move(*trace);
  }
  if (!params.pattern_file.empty()) {
    std::vector<PatternError> errors;
    std::optional<PatternProgram> program =
        readPatternFile(params.pattern_file, file_limits, errors);
    if (!program) {
      for (const PatternError& e : errors)
        std::fputs(formatPatternError(params.pattern_file, e).c_str(), stderr);
      return 1;
    }
    if (!program->fully_checked) {
      std::fprintf(stderr,
                   "ndl: note: the pattern's programs run longer than the checker follows them "
                   "(%llu steps); a receive no send matches after that ends the run as "
                   "application_stuck\n",
                   static_cast<unsigned long long>(PatternLimits{}.check_steps));
    }
    params.pattern_program = std::make_shared<const PatternProgram>(std::move(*program));
  }
  if (std::string err = validate(params, endpoints); !err.empty()) {
    std::fprintf(stderr, "error: %s\n", err.c_str());
    return 2;
  }

  // Checked again where the simulator runs (ndlc build checked the machine it built on).
  NetworkShape shape;
  shape.routers = static_cast<int64_t>(desc.nodes.size());
  shape.endpoints = endpoints;
  for (const NodeDesc& n : desc.nodes) shape.ports += static_cast<int64_t>(n.ports.size());
  shape.vcs = params.virtual_channels;
  shape.injection_vcs = params.injection_virtual_channels;
  shape.buffer_flits = params.buffer_flits;
  if (params.predict_fn)
    for (const RingSpec& ring : params.port_rings)
      (ring.per_router ? shape.router_state_bytes : shape.port_state_bytes) +=
          ringBytes(ring.capacity, ring.lo, ring.hi);
  shape.queue_snapshot = params.global_congestion;
  const double need = estimateSimulatorBytes(shape);
  if (need > static_cast<double>(machineMemoryBytes())) {
    std::fprintf(stderr,
                 "error: this network needs about %.1f GiB of memory; this machine has %.1f "
                 "GiB\nhint: fewer nodes, VCs or a smaller buffer (--param)\n",
                 need / (1 << 30), static_cast<double>(machineMemoryBytes()) / (1 << 30));
    return 2;
  }

  Results results;
  try {
    // Moved: a trace's messages (params.script) are held by the simulator only.
    Simulator sim(std::move(desc), std::move(params));
    RunOptions options;
    options.progress = !quiet;
    // Ctrl-C ends the run at the next check; what was measured is written.
    g_interrupted = 0;
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);  // a job scheduler's stop: the same clean end
    options.stop = &g_interrupted;
    results = sim.run(options);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
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
  // A reader that closed its pipe (--json /dev/stdout | head) is a write error, not a kill.
  std::signal(SIGPIPE, SIG_IGN);
  auto check = [&](bool ok) {
    if (!ok) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      code = 3;
    }
  };
  // Each file is written whatever became of the others.
  const SimParams& ran = results.params;
  if (!ran.screen_output_file.empty()) {
    check(writeReport(results, ran.screen_output_file, &error));
  }
  if (!ran.data_output_file.empty()) {
    check(writeDataOutput(results, ran.data_output_file, &error));
  }
  // The tables before the JSON, which names those written.
  TableFiles table_files;
  std::vector<std::string> table_errors;
  writeTables(results, args.tables, args.tables_prefix, json_path, table_files, table_errors);
  for (const std::string& e : table_errors) {
    error = e;
    check(false);
  }
  if (!table_files.note.empty() && args.tables == TablesMode::kAuto && table_errors.empty()) {
    std::fprintf(stderr, "ndl: note: %s\n", table_files.note.c_str());
  }
  if (!json_path.empty()) check(writeJson(results, json_path, table_files, &error));
  return code;
}

}  // namespace

int simulatorMain(int argc, char** argv, NetworkDesc desc, const ParamTables& tables) {
  return runMain(argc, argv, std::move(desc), &tables, tables.make(tables.values));
}

int simulatorMain(int argc, char** argv, NetworkDesc desc, SimParams params) {
  return runMain(argc, argv, std::move(desc), nullptr, std::move(params));
}

}  // namespace ndl::rt
