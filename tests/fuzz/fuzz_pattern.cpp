// libFuzzer target: communication pattern text (.cpf, docs/workloads.md) -> the reader
// and the checker the simulators and ndlc check share, on a 16-node network.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "ndl/runtime/app/pattern.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ndl::rt::PatternLimits limits;
  limits.nodes = 16;
  limits.max_bits = int64_t{1} << 20;
  limits.max_bits_reason = "the fuzzed network's largest message";
  // The checker's zero-time run at a 256th of its budget: the same stop, reached in a
  // fraction of a second under instrumentation instead of half a minute.
  limits.check_steps = uint64_t{1} << 18;
  std::vector<ndl::rt::PatternError> errors;
  (void)ndl::rt::readPatternText(std::string_view(reinterpret_cast<const char*>(data), size),
                                 "fuzz.cpf", limits, errors);
  return 0;
}
