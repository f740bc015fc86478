// The parameter tables of a generated simulator (generated_abi.h) as values
// that `--param Name=Value` may change before the entry turns them into
// SimParams. Only the entries of NDL_ABI_RUNTIME_* are changeable; their
// values are already converted (bits, flits, network clocks, Hz, messages per
// node per clock), as the compiler computes them: `ndlc run FILE --set ...`
// is how a user sets NDL parameters with units.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ndl::rt {

struct AbiValues {
  std::vector<int64_t> i64;      // indexed by NdlI64Param
  std::vector<double> f64;       // by NdlF64Param
  std::vector<std::string> str;  // by NdlStrParam
};

// A copy of the generated module's tables.
AbiValues copyAbiValues(const int64_t* i64, const double* f64, const char* const* str);

// Applies `Name=Value` to a runtime entry. False with `error` set for a name
// that is not one (a structural entry names the rebuild), or a value that is
// not a number of the entry's type.
bool applyAbiParam(AbiValues& values, std::string_view assignment, std::string* error);

// The runtime entries and their values, one per line, for --help.
std::string describeAbiParams(const AbiValues& values);

}  // namespace ndl::rt
