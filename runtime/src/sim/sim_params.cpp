// Names and consistency checks of the simulation parameters.
#include "ndl/runtime/sim/sim_params.h"

#include "ndl/runtime/app/pattern.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>

#include "ndl/runtime/net/flow_control.h"
#include "ndl/runtime/net/router_limits.h"

namespace ndl::rt {

std::string_view flowControlName(FlowControl fc) {
  switch (fc) {
    case FlowControl::kStoreAndForward:
      return "StoreAndForward";
    case FlowControl::kVirtualCutThrough:
      return "VirtualCutThrough";
    case FlowControl::kWormhole:
      return "Wormhole";
  }
  return "?";
}

std::string_view deadlockName(DeadlockHandling dh) {
  switch (dh) {
    case DeadlockHandling::kDetect:
      return "Detect";
    case DeadlockHandling::kDrop:
      return "Drop";
    case DeadlockHandling::kAvoid:
      return "Avoid";
    case DeadlockHandling::kDropAfterTimeout:
      return "DropAfterTimeout";
  }
  return "?";
}

std::string_view measurementName(Measurement m) {
  return m == Measurement::kSteady ? "Steady" : "Burst";
}

std::string_view queueOverflowName(QueueOverflow q) {
  return q == QueueOverflow::kBlock ? "Block" : "Refuse";
}

std::string_view routingName(const SimParams& params) {
  return params.routing_name.empty() ? std::string_view("custom") : params.routing_name;
}

std::string_view selectionName(Selection s) {
  switch (s) {
    case Selection::kFirst:
      return "First";
    case Selection::kRandom:
      return "Random";
    case Selection::kMostCredits:
      return "MostCredits";
    case Selection::kStraightFirst:
      return "StraightFirst";
    case Selection::kUser:
      return "user-defined";
  }
  return "?";
}

void syncMessagePackets(SimParams& p) {
  if (!p.packet_per_message || p.channel_width_bits < 1) return;
  const int64_t flits = messagePacketFlits(p, p.message_max_bits);
  p.packet_flits = static_cast<int32_t>(std::min<int64_t>(flits, INT32_MAX));
  p.header_flits = 0;
  p.data_bits_per_packet = p.message_max_bits;
}

std::string validate(const SimParams& p, int32_t nodes) {
  if (p.channel_width_bits < 1) return "channel width must be at least 1 bit";
  if (p.packet_flits < 1 || p.packet_flits > kMaxPacketFlits) {
    return p.packet_per_message ? fmt::format("a message of {} bits is {} flits; one packet "
                                              "holds at most {}",
                                              p.message_max_bits, p.packet_flits,
                                              kMaxPacketFlits)
                                : fmt::format("packet must be 1..{} flits", kMaxPacketFlits);
  }
  if (p.header_flits < 0 || p.header_flits > p.packet_flits) {
    return "header flits must be between 0 and the packet size";
  }
  if (p.data_bits_per_packet < 1) return "data size per packet must be positive";
  if (p.buffer_flits < 1 || p.buffer_flits > kMaxBufferFlits)
    return fmt::format("buffer must be 1..{} flits", kMaxBufferFlits);
  if (p.buffer_flits < minimumBufferFlits(p.flow_control, p.packet_flits)) {
    return fmt::format("{} needs a buffer of at least one packet ({} flits), got {}",
                       flowControlName(p.flow_control), p.packet_flits, p.buffer_flits);
  }
  if (p.virtual_channels < 1 || p.virtual_channels > kMaxVcsPerPort)
    return fmt::format("VCs must be 1..{}", kMaxVcsPerPort);
  if (p.injection_virtual_channels < 1 || p.injection_virtual_channels > kMaxVcsPerPort) {
    return fmt::format("injection VCs must be 1..{}", kMaxVcsPerPort);
  }
  if (p.router_delay_clocks < 0) return "router delay must not be negative";
  if (p.pipeline_flit_clocks < 0 || p.pipeline_flit_clocks > kMaxLinkDelayClocks) {
    return fmt::format("the router pipeline's ST must be 0..{} link clocks",
                       kMaxLinkDelayClocks);
  }
  const bool own_clock = p.router_frequency_hz > 0 && p.router_frequency_hz != p.network_frequency_hz;
  if (p.header_delay_clocks < 0 && own_clock) {
    return "routers on a clock of their own need the header delay in link clocks";
  }
  // Values given in pairs (the compiler converts both; a simulator's --param takes them as
  // given): one changed alone would be reported but not simulated, or the reverse.
  if (p.header_delay_clocks >= 0) {
    const int64_t expected =
        own_clock ? static_cast<int64_t>(std::ceil(p.router_delay_clocks * p.network_frequency_hz /
                                                       p.router_frequency_hz -
                                                   1e-9))
                  : p.router_delay_clocks;
    if (p.header_delay_clocks != expected) {
      return fmt::format("HeaderDelayClocks {} (link clocks) does not match RouterDelayClocks {} "
                         "(router clocks, {} link clocks); change NodeHardwareDelay with ndlc run "
                         "--set, which sets both",
                         p.header_delay_clocks, p.router_delay_clocks, expected);
    }
  }
  // The interval, when there is one, is the rate's inverse under either process: the
  // results report both.
  if (p.creation_interval_clocks > 0 &&
      std::abs(p.creation_rate - std::min(1.0, 1.0 / p.creation_interval_clocks)) >
          1e-9 * p.creation_rate) {
    return fmt::format("CreationIntervalClocks {} does not match CreationRate {}; change "
                       "MessageCreationInterval with ndlc run --set, which sets both",
                       p.creation_interval_clocks, p.creation_rate);
  }
  if (p.link_delay_clocks < 1 || p.link_delay_clocks > kMaxLinkDelayClocks)
    return fmt::format("link delay must be 1..{} clocks", kMaxLinkDelayClocks);
  if (p.credit_delay_clocks < 1 || p.credit_delay_clocks > kMaxCreditDelayClocks)
    return fmt::format("credit delay must be 1..{} clocks", kMaxCreditDelayClocks);
  if (p.network_frequency_hz <= 0) return "network frequency must be positive";
  if (p.router_frequency_hz < 0) return "router frequency must not be negative";
  if (p.creation_rate < 0 || p.creation_rate > 1) return "creation rate must be in [0, 1]";
  if (p.creation_process == CreationProcess::kPeriodic &&
      (p.creation_interval_clocks < 1 ||
       p.creation_interval_clocks != std::floor(p.creation_interval_clocks))) {
    return fmt::format("periodic creation needs a whole number of clocks between messages "
                       "(CreationIntervalClocks), got {}",
                       p.creation_interval_clocks);
  }
  if (p.creation_process == CreationProcess::kOnOff) {
    if (!(p.on_off_burst_clocks >= 1) || !(p.on_off_duty > 0 && p.on_off_duty <= 1))
      return "on/off creation needs a mean on period of 1 clock at least and a duty cycle in (0, 1]";
    if (p.creation_rate > p.on_off_duty * (1 + 1e-12)) {
      return fmt::format("on/off creation at rate {} with duty cycle {} would create more than "
                         "one message per clock while on",
                         p.creation_rate, p.on_off_duty);
    }
    if (p.on_off_duty < 1 &&
        p.on_off_burst_clocks * (1 - p.on_off_duty) / p.on_off_duty < 1 - 1e-12) {
      return fmt::format("on/off creation with a {}-clock burst and duty cycle {} has off periods "
                         "shorter than a clock on average",
                         p.on_off_burst_clocks, p.on_off_duty);
    }
  }
  if (p.message_min_bits < 1 || p.message_max_bits < p.message_min_bits) {
    return "message length range is empty";
  }
  if (!p.packet_per_message &&
      (p.message_max_bits - 1) / p.data_bits_per_packet + 1 > kMaxPacketsPerMessage) {
    return fmt::format("a message of {} bits is more than {} packets of {} data bits",
                       p.message_max_bits, kMaxPacketsPerMessage, p.data_bits_per_packet);
  }
  if (p.injection_queue_capacity < 1) return "injection queue must hold at least 1 message";
  if (p.deadlock_timeout_clocks < 0 || p.deadlock_timeout_clocks > kMaxDeadlockTimeoutClocks)
    return fmt::format("DeadlockTimeout must be 0..{} clocks", kMaxDeadlockTimeoutClocks);
  if (p.deadlock == DeadlockHandling::kDropAfterTimeout && p.deadlock_timeout_clocks < 1) {
    return "DropAfterTimeout needs a positive DeadlockTimeout";
  }
  if (p.route_fn == nullptr) return "no routing function";
  if (p.selection == Selection::kUser && p.select_fn == nullptr)
    return "a user-defined selection needs its function";
  if (!p.vc_class.empty() && static_cast<int32_t>(p.vc_class.size()) != p.virtual_channels) {
    return "the VC class table does not cover the virtual channels";
  }
  if (!p.injection_vc_class.empty() &&
      static_cast<int32_t>(p.injection_vc_class.size()) != p.injection_virtual_channels) {
    return "the injection VC class table does not cover the injection VCs";
  }
  if (p.pattern != TrafficPattern::kCustom && destFnFor(p.pattern) == nullptr)
    return fmt::format("unknown traffic pattern {}", static_cast<int>(p.pattern));
  if (p.pattern == TrafficPattern::kCustom && p.dest_fn == nullptr) {
    return "custom traffic pattern without a destination function";
  }
  const bool power_of_two = nodes > 0 && (nodes & (nodes - 1)) == 0;
  if ((p.pattern == TrafficPattern::kBitReversal || p.pattern == TrafficPattern::kBitComplement ||
       p.pattern == TrafficPattern::kShuffle) &&
      !power_of_two) {
    return fmt::format("{} needs a power-of-two node count, the network has {}",
                       patternName(p.pattern), nodes);
  }
  bool bad_dragon = p.pattern == TrafficPattern::kBadDragon;
  for (const SimParams::TrafficClass& c : p.classes)
    bad_dragon = bad_dragon || c.pattern == TrafficPattern::kBadDragon;
  const int32_t group = p.pattern_params.group_endpoints;
  if (bad_dragon && (group < 1 || nodes % group != 0 || nodes / group < 2)) {
    return fmt::format("BadDragon needs groups of endpoints that make two groups at least; the "
                       "network has {} endpoints in groups of {}",
                       nodes, group);
  }
  if (p.pattern == TrafficPattern::kHotSpot) {
    if (p.pattern_params.hotspot_nodes.empty()) return "HotSpot needs at least one node";
    for (int32_t n : p.pattern_params.hotspot_nodes) {
      if (n < 0 || n >= nodes) return fmt::format("hot-spot node {} out of range", n);
    }
  }
  int64_t last = 0;
  for (const ScriptedMessage& m : p.script) {
    if (m.src < 0 || m.src >= nodes || m.dst < 0 || m.dst >= nodes || m.src == m.dst) {
      return fmt::format("scripted message {} -> {} has a bad endpoint", m.src, m.dst);
    }
    if (m.cycle < last || m.bits < 1) return "scripted messages must be in clock order";
    last = m.cycle;
  }
  if (p.pattern_program) {
    if (p.pattern_program->nodes != nodes)
      return fmt::format("the pattern is for {} nodes, the network has {}",
                         p.pattern_program->nodes, nodes);
    if (p.measured_messages > 0)
      return "MeasuredMessages is not supported with a pattern file: the application's "
             "completion ends the run";
    if (p.expand_rate < 0) return "ProcessorPerformanceExpandRate must not be negative";
  }
  for (const auto& [a, b] : p.report_pairs) {
    if (a < 0 || a >= nodes || b < 0 || b >= nodes) {
      return fmt::format("report pair ({} {}) out of range", a, b);
    }
  }
  if (p.warmup_messages < 0 || p.measured_messages < 0 || p.creation_max < 0 ||
      p.time_limit_clocks < 0 || p.sampling_interval_clocks < 0) {
    return "counts and times must not be negative";
  }
  return {};
}

}  // namespace ndl::rt
