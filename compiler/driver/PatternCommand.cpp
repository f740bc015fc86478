// ndlc pattern KIND --nodes N [options] [-o FILE]: writes a generated pattern after reading it
// back with the simulators' reader, so that what it writes is what a simulator accepts.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "compiler/driver/Commands.h"
#include "compiler/driver/WriteFile.h"
#include "ndl/runtime/app/pattern.h"

namespace ndl::driver {

int runPattern(const PatternSpec& spec, const std::string& output) {
  std::ostringstream text;
  if (std::string err = writePattern(spec, text); !err.empty()) {
    std::cerr << "ndlc pattern: " << err << "\n";
    return kExitUsage;
  }
  std::vector<rt::PatternError> errors;
  rt::PatternLimits limits;
  limits.nodes = static_cast<int32_t>(spec.nodes);
  limits.max_bits = int64_t{1} << 40;
  limits.max_bits_reason = "a message is at most 2^40 bits";
  if (!rt::readPatternText(text.str(), "<generated>", limits, errors)) {
    // Only what the user wrote can be wrong here: a size or time that is not one (written
    // on several lines of the pattern, reported once).
    std::vector<std::string> seen;
    for (const rt::PatternError& e : errors) {
      std::string msg = fmt::format("ndlc pattern: {}{}\n", e.message,
                                    e.hint.empty() ? "" : "\nhint: " + e.hint);
      if (std::find(seen.begin(), seen.end(), msg) != seen.end()) continue;
      std::cerr << msg;
      seen.push_back(std::move(msg));
    }
    return kExitUsage;
  }
  if (output.empty() || output == "-") {
    std::cout << text.str();
    return kExitOk;
  }
  if (std::string why = writeFileWhole(output, text.str()); !why.empty()) {
    std::cerr << fmt::format("ndlc pattern: cannot write '{}': {}\n", output, why);
    return kExitInputError;
  }
  return kExitOk;
}

}  // namespace ndl::driver
