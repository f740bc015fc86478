// The main function of every generated simulator: command line, run, report, output files
// and exit code (0 ok, 2 usage error, 3 runtime failure with results still written).
//   SIM [--json FILE] [--seed N] [--set Param=Value]... [--quiet] [--help]
#pragma once

#include <string>
#include <string_view>

#include "ndl/runtime/network_desc.h"
#include "ndl/runtime/sim_params.h"

namespace ndl::rt {

int simulatorMain(int argc, char** argv, const NetworkDesc& desc, SimParams params);

// Applies one `--set Param=Value` (NDL parameter names; times take clocks or a time unit,
// see docs/runtime.md). Returns false with `error` set when the name or value is wrong.
bool applySetting(SimParams& params, std::string_view name, std::string_view value,
                  std::string* error);

}  // namespace ndl::rt
