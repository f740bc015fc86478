// The texts a run reports: status messages, the progress line, debug logging. Out of the
// simulator core on purpose: formatting instantiates much of {fmt} and spdlog, and the core
// is optimized and compiled again by every `ndlc build` (docs/codegen.md), where that code
// was more than half of the module and of the build's time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "ndl/runtime/stats/results.h"

namespace ndl::rt {

std::string deadlockMessage(const DeadlockRecord& d, size_t length);
// No flit moved for `detect` clocks since clock `since`, with nothing on its way, and no
// wait-for cycle was found.
std::string stalledMessage(int64_t detect, int64_t since, int64_t flits);
// A pattern's programs wait for messages that will never come (r: the application's report).
std::string stuckMessage(const ApplicationResult& r);
std::string sourcesStoppedMessage(int64_t creation_max, int64_t measured_messages);
// A run that stopped as it should with no message in the measured window: its latencies and
// throughput are empty, not measurements of zero.
std::string nothingMeasuredMessage(int64_t warmup_messages, int64_t delivered);
std::string timeLimitMessage(int64_t limit, bool application, int64_t delivered, int64_t expected);
std::string interruptedMessage(int64_t clock);
// A steady run's verdict other than converged (docs/runtime.md 3.1).
std::string saturatedMessage(const MeasurementReport& m);
std::string unconvergedMessage(const MeasurementReport& m);
std::string routingFailureMessage(int64_t clock, const char* what);
std::string patternFailureMessage(int64_t clock, const char* what);
std::string refusedMessage(int64_t refused, int64_t capacity);
// "class3": a VC class the routing did not name.
std::string unnamedClass(int32_t c);
// Overwrites the progress line on stderr; `done` is the fraction of the run behind us.
void printProgress(int64_t clock, int64_t delivered, int64_t in_flight, double elapsed,
                   double done);
void logRunStart(int64_t nodes, FlowControl flow, uint64_t seed);
void logRunEnd(int64_t clocks, double wall_seconds, RunStatus status);

}  // namespace ndl::rt
