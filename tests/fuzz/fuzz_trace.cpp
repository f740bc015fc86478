// libFuzzer target: message trace text (docs/workloads.md, "Message traces") -> the reader the
// simulators and ndlc check share, on a 16-node network.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "ndl/runtime/traffic/trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ndl::rt::PatternLimits limits;
  limits.nodes = 16;
  limits.max_bits = int64_t{1} << 20;
  limits.max_bits_reason = "the fuzzed network's largest message";
  limits.network_hz = 66.666e6;  // times to clocks, on a clock that is not whole picoseconds
  std::vector<ndl::rt::PatternError> errors;
  (void)ndl::rt::readTraceText(std::string_view(reinterpret_cast<const char*>(data), size),
                               limits, errors);
  return 0;
}
