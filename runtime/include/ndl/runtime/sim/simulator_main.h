// The main function of every generated simulator: command line, run, report, output files
// and exit code (0 ok, 2 usage error, 3 runtime failure with results still written).
//   SIM [--json FILE] [--tables PREFIX | --no-tables] [--seed N] [--param Name=Value]...
//       [--quiet] [--help]
// --param changes a converted parameter (abi_params.h); NDL parameters with units are set
// through the checker: ndlc run FILE --set Name=Value.
#pragma once

#include <optional>
#include <string>

#include "ndl/runtime/net/network_desc.h"
#include "ndl/runtime/sim/abi_params.h"
#include "ndl/runtime/sim/sim_params.h"
#include "ndl/runtime/stats/result_tables.h"

namespace ndl::rt {

// A generated simulator's parameters: its compiled-in tables and the entry's conversion of
// them (after any --param) into SimParams.
struct ParamTables {
  AbiValues values;
  SimParams (*make)(const AbiValues&) = nullptr;
};

// The description is taken by value: the simulator frees it once the network is built (at a
// million nodes it is a tenth of the memory), so the caller should move it in.
int simulatorMain(int argc, char** argv, NetworkDesc desc, const ParamTables& tables);

// What the command line says besides the parameters.
struct SimulatorArgs {
  std::string json_path;
  TablesMode tables = TablesMode::kAuto;  // --tables PREFIX: kAlways; --no-tables: kNever
  std::string tables_prefix;
  bool quiet = false;
};
// Reads the command line into `args` and applies --param (through `tables`; nullptr: refused)
// and --seed to `params`. Returns the exit code when the simulator must stop here (0 after
// --help, 2 for a usage error, reported on stderr), else nullopt.
std::optional<int> parseSimulatorArgs(int argc, char** argv, const ParamTables* tables,
                                      SimParams& params, SimulatorArgs& args);
// Parameters made in C++ (runtime tests): --param is refused.
int simulatorMain(int argc, char** argv, NetworkDesc desc, SimParams params);

}  // namespace ndl::rt
