// The data a generated simulator module carries (generated_abi.h), computed
// from the elaborated network and the parameters: plain vectors, no LLVM.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/codegen/PortTable.h"
#include "compiler/elaborate/Elaborate.h"
#include "compiler/sema/Check.h"

namespace ndl::codegen {

struct SimulatorTables {
  std::vector<int64_t> i64;  // indexed by NdlI64Param
  std::vector<double> f64;   // indexed by NdlF64Param
  std::vector<std::string> str;  // indexed by NdlStrParam
  PortTable ports;  // compact: runs of nodes that share a signature
  std::vector<int32_t> radices;
  std::vector<int32_t> hotNodes;
  std::vector<int32_t> reportPairs;
  std::vector<double> trafficClasses;  // NDL_TRAFFIC_CLASS_FIELDS per class
  std::vector<int32_t> endpointRuns;  // (endpoints per router, routers) pairs
  std::vector<int32_t> vcClass;     // per network VC
  std::vector<int32_t> injVcClass;  // per injection VC
  std::vector<int64_t> classVcs;    // per network class: its VCs as a bit mask
  std::vector<int64_t> headerFields;  // per header field: offset, bits, lo, hi
  std::vector<int64_t> waitBreaks;    // elab::Network::waitBreaks
  std::vector<int64_t> portStates;    // per state: capacity, lowest, highest symbol, per router
  std::vector<int64_t> interfaceStages;  // NDL_INTERFACE_STAGE_FIELDS per stage, send first
};

// Needs: an elaborated network whose routing is resolved. `distances`: compute the
// network's diameter and mean distance for the report (all-pairs searches, the costly
// part on large networks); without, they are -1, as for a network too large to search.
SimulatorTables makeTables(const sema::CheckedProgram& program, const elab::Network& network,
                           bool distances = true);

// The tables as text, without the values of the entries a built simulator's --param may
// change (the rows of runtime/sim/param_rules.h): together with the program's definitions,
// everything that shapes the generated code. `ndlc run` keys its build cache on it.
std::string structuralKey(const SimulatorTables& tables);

// `--param Name=Value` for every row of runtime/sim/param_rules.h, as the simulator's
// command line takes them: a cached simulator built for other values of these
// entries then runs with exactly these.
std::vector<std::string> runtimeParamArgs(const SimulatorTables& tables);

}  // namespace ndl::codegen
