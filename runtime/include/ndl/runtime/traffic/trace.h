// A message trace (docs/workloads.md, "Message traces"): the timed messages that
// (InjectionProcess (Trace "file")) replays open-loop, one per line, `CLOCK SRC DST SIZE`.
// The reader is shared by `ndlc check` (positioned diagnostics) and the simulators (which read
// the file again at start-up, as they do a pattern file).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ndl/runtime/app/pattern.h"
#include "ndl/runtime/sim/sim_params.h"

namespace ndl::rt {

// Reads a trace for a network of limits.nodes endpoints carrying messages of at most
// limits.max_bits: the messages in clock order, or nothing with `errors` filled (at most 20,
// in file order; errors use the pattern reader's kinds and format, formatPatternError).
std::optional<std::vector<ScriptedMessage>> readTraceFile(const std::string& path,
                                                          const PatternLimits& limits,
                                                          std::vector<PatternError>& errors);
std::optional<std::vector<ScriptedMessage>> readTraceText(std::string_view text,
                                                          const PatternLimits& limits,
                                                          std::vector<PatternError>& errors);

}  // namespace ndl::rt
