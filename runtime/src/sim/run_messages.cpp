#include "ndl/runtime/sim/run_messages.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cstdio>

#include "ndl/runtime/app/pattern_cursor.h"

namespace ndl::rt {

std::string deadlockMessage(const DeadlockRecord& d, size_t length) {
  std::string names;
  for (size_t i = 0; i < d.cycle.size() && i < 8; ++i) names += d.cycle[i] + " -> ";
  names += d.cycle.size() > 8 ? "..." : d.cycle.front();
  return fmt::format("deadlock at clock {}: a cycle of {} blocked virtual channels, each waiting "
                     "for the next: {}",
                     d.clock, length, names);
}

std::string stalledMessage(int64_t detect, int64_t since, int64_t flits) {
  return fmt::format(
      "deadlock: no flit moved for {} clocks (since clock {}) with {} flits in the network "
      "and nothing on its way to them (no flit or credit on a link, no header delay running)",
      detect, since, flits);
}

std::string stuckMessage(const ApplicationResult& r) {
  std::string waits;
  for (size_t i = 0; i < r.waiting.size() && i < 4; ++i) {
    const ApplicationResult::Wait& w = r.waiting[i];
    waits += fmt::format("{}node {} (line {}) for node {} {}", i ? ", " : "", w.node, w.line,
                         w.from,
                         w.tag >= kCollectiveTag ? fmt::format("collective #{}",
                                                               w.tag - kCollectiveTag + 1)
                                                 : fmt::format("tag {}", w.tag));
  }
  // Drops, or (in a pattern too long for the checker to follow) a receive nobody sends.
  const std::string why =
      r.messages_dropped > 0
          ? fmt::format("{} dropped message{} will never arrive", r.messages_dropped,
                        r.messages_dropped == 1 ? "" : "s")
          : std::string("no message is on its way");
  return fmt::format("the application cannot finish: {}, and {} program{} wait{}: {}{}", why,
                     r.waiting_nodes, r.waiting_nodes == 1 ? "" : "s",
                     r.waiting_nodes == 1 ? "s" : "", waits, r.waiting_nodes > 4 ? ", ..." : "");
}

std::string sourcesStoppedMessage(int64_t creation_max, int64_t measured_messages) {
  return fmt::format(
      "the sources stopped (MessageCreationMax {}) before {} measured messages arrived",
      creation_max, measured_messages);
}

std::string nothingMeasuredMessage(int64_t warmup_messages, int64_t delivered) {
  if (delivered == 0)
    return "no message was measured: none was delivered; the latencies and throughput are empty";
  return fmt::format(
      "no message was measured: WarmupMessages {} leaves out all {} messages delivered; the "
      "latencies and throughput are empty",
      warmup_messages, delivered);
}

std::string timeLimitMessage(int64_t limit, bool application, int64_t delivered,
                             int64_t expected) {
  if (expected == 0 && !application) {
    return fmt::format("time limit of {} clocks (SimulationTime) reached before the steady-state "
                       "measurement ended, with {} messages delivered (docs/runtime.md 3.1)",
                       limit, delivered);
  }
  if (application)
    return fmt::format("time limit of {} clocks reached before the application completed", limit);
  return fmt::format("time limit of {} clocks reached with {} messages delivered of {} expected",
                     limit, delivered, expected);
}

std::string saturatedMessage(const MeasurementReport& m) {
  return fmt::format("saturated: {}; the network does not accept the offered load (the "
                     "throughput is what it accepted, the latencies those of the messages "
                     "measured)",
                     m.reason);
}

std::string unconvergedMessage(const MeasurementReport& m) {
  return fmt::format("{}: the figures cover the periods measured; a longer SimulationInterval "
                     "(the sample period, now {} clocks) gives each period more messages",
                     m.reason, m.period_clocks);
}

std::string interruptedMessage(int64_t clock) {
  return fmt::format("interrupted at clock {}; the results cover the run so far", clock);
}

std::string routingFailureMessage(int64_t clock, const char* what) {
  return fmt::format("routing failure at clock {}: {}", clock, what);
}

std::string patternFailureMessage(int64_t clock, const char* what) {
  return fmt::format("traffic pattern failure at clock {}: {}", clock, what);
}

std::string refusedMessage(int64_t refused, int64_t capacity) {
  return fmt::format(
      "{} message creations were refused because an injection queue was full "
      "(MessageMaxCount {})",
      refused, capacity);
}

std::string unnamedClass(int32_t c) { return fmt::format("class{}", c); }

void printProgress(int64_t clock, int64_t delivered, int64_t in_flight, double elapsed,
                   double done) {
  std::string left = "time left unknown";
  if (done > 0.001 && done < 1)
    left = fmt::format("about {:.0f} s left", elapsed * (1 - done) / done);
  std::fprintf(stderr, "\rndl: clock %lld, %lld messages delivered, %lld in flight, %s   ",
               static_cast<long long>(clock), static_cast<long long>(delivered),
               static_cast<long long>(in_flight), left.c_str());
}

void logRunStart(int64_t nodes, FlowControl flow, uint64_t seed) {
  spdlog::debug("ndl runtime: {} nodes, {}, seed {}", nodes, flowControlName(flow), seed);
}

void logRunEnd(int64_t clocks, double wall_seconds, RunStatus status) {
  spdlog::debug("ndl runtime: {} clocks in {:.3f} s, status {}", clocks, wall_seconds,
                runStatusName(status));
}

}  // namespace ndl::rt
