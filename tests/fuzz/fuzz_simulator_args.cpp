// libFuzzer target: a generated simulator's command line. The input is split at newlines
// into arguments (at most 64) and read as `SIM ARGS...` would be: CLI11's options, then
// every --param Name=Value applied to the parameter tables (abi_params.h). The tables hold
// zeros here and the conversion into SimParams is the runtime's default: the target
// searches the parsing, which every simulator shares, not one network's values.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ndl/runtime/generated_abi.h"
#include "ndl/runtime/simulator_main.h"

namespace {

ndl::rt::SimParams makeDefault(const ndl::rt::AbiValues&) { return ndl::rt::SimParams{}; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> words{"sim"};
  std::string word;
  for (size_t i = 0; i < size && words.size() < 64; ++i) {
    if (data[i] == '\n') {
      words.push_back(std::move(word));
      word.clear();
    } else {
      word += static_cast<char>(data[i]);
    }
  }
  if (!word.empty() && words.size() < 64) words.push_back(std::move(word));
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);

  static const std::vector<int64_t> i64(NDL_P_I64_COUNT, 0);
  static const std::vector<double> f64(NDL_P_F64_COUNT, 0.0);
  static const std::vector<const char*> str(NDL_P_STR_COUNT, "");
  ndl::rt::ParamTables tables;
  tables.values = ndl::rt::copyAbiValues(i64.data(), f64.data(), str.data());
  tables.make = makeDefault;
  ndl::rt::SimParams params;
  ndl::rt::SimulatorArgs args;
  (void)ndl::rt::parseSimulatorArgs(static_cast<int>(words.size()), argv.data(), &tables, params,
                                    args);
  return 0;
}
