// The parameter tables of a generated simulator (generated_abi.h) as values
// that `--param Name=Value` may change before the entry turns them into
// SimParams. Only the entries of param_rules.h are changeable, each checked
// against its rule; their values are already converted (bits, flits, network
// clocks, Hz, messages per node per clock), as the compiler computes them:
// `ndlc run FILE --set ...` is how a user sets NDL parameters with units.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ndl/runtime/sim/sim_params.h"

namespace ndl::rt {

struct AbiValues {
  std::vector<int64_t> i64;      // indexed by NdlI64Param
  std::vector<double> f64;       // by NdlF64Param
  std::vector<std::string> str;  // by NdlStrParam
};

// A copy of the generated module's tables.
AbiValues copyAbiValues(const int64_t* i64, const double* f64, const char* const* str);

// Applies the command line's `Name=Value` assignments in order (a later one
// wins). False with `error` set, and nothing promised of `values`, for a name
// that is not a --param entry (one that shapes the simulator names the
// rebuild), a value outside its rule (param_rules.h: the range, or the enum's
// codes and names), or a value that would have no effect with the others
// (a HotSpotShare without HotSpot traffic, an ExpandRate without a pattern
// file). An entry that has no effect and was not given is set to its neutral
// value, so that the results do not report it.
bool applyAbiParams(AbiValues& values, const std::vector<std::string>& assignments,
                    std::string* error);

// The runtime entries and their values, one per line, for --help.
std::string describeAbiParams(const AbiValues& values);

// Sets the fields of `p` that come from --param entries, as generated_entry.cpp and the
// command line's fuzz target both convert them; the structural fields are the caller's.
void setRuntimeParams(const AbiValues& values, SimParams& p);

}  // namespace ndl::rt
