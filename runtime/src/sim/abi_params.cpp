#include "ndl/runtime/sim/abi_params.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include "ndl/runtime/net/routing.h"
#include "ndl/runtime/sim/generated_abi.h"
#include "ndl/runtime/sim/param_rules.h"

namespace ndl::rt {

AbiValues copyAbiValues(const int64_t* i64, const double* f64, const char* const* str) {
  AbiValues v;
  v.i64.assign(i64, i64 + NDL_P_I64_COUNT);
  v.f64.assign(f64, f64 + NDL_P_F64_COUNT);
  for (int k = 0; k < NDL_P_STR_COUNT; ++k) v.str.emplace_back(str[k]);
  return v;
}

namespace {

// Every entry of the tables, --param entries or not: a name that is one shapes the simulator.
bool isTableEntry(std::string_view name) {
#define NDL_ROW(Name) \
  if (name == #Name) return true;
  NDL_ABI_I64_PARAMS(NDL_ROW)
  NDL_ABI_F64_PARAMS(NDL_ROW)
  NDL_ABI_STR_PARAMS(NDL_ROW)
#undef NDL_ROW
  // Forms of the program that shape the simulator under other names than its entries.
  for (std::string_view form :
       {"DeadlockHandling", "RoutingAlgorithm", "Topology", "RecoveryTimeout",
        "NetworkChannelWidth", "NetworkPacketSize", "NetworkDataSize"}) {
    if (name == form) return true;
  }
  return false;
}

// A parameter, or a form under another name, that the simulator was compiled for.
std::string shapesSimulator(std::string_view name) {
  return fmt::format(
      "{} shapes the simulator itself; change it in the program and rebuild "
      "(ndlc run FILE --set ... rebuilds when needed)",
      name);
}

std::string enumList(const ParamRule& r) {
  std::string s;
  for (size_t k = 0; k < r.names.size(); ++k) {
    const char* sep = k == 0 ? "" : k + 1 == r.names.size() ? " or " : ", ";
    s += fmt::format("{}{} {}", sep, k, r.names[k]);
  }
  return s;
}

// "1 to 255 network clocks", "0 (no limit) or at least 1 network clocks", ...
std::string allowed(const ParamRule& r) {
  const std::string unit = r.unit.empty() ? "" : fmt::format(" {}", r.unit);
  const std::string zero = r.zero.empty() ? "" : fmt::format("0 ({}) or ", r.zero);
  switch (r.kind) {
    case ParamKind::kInteger:
      if (r.max == std::numeric_limits<int64_t>::max())
        return fmt::format("{}at least {}{}", zero, r.min, unit);
      return fmt::format("{}{} to {}{}", zero, r.min, r.max, unit);
    case ParamKind::kUnsigned:
      return fmt::format("0 to {}", std::numeric_limits<uint64_t>::max());
    case ParamKind::kEnum:
      return enumList(r) + " (the code or the name)";
    case ParamKind::kReal: {
      const std::string low = fmt::format("{} {}", r.min_open ? "above" : "at least", r.min_real);
      if (r.max_real == kMaxReal) return fmt::format("{}{}{}", zero, low, unit);
      return fmt::format("{}{} and at most {}{}", zero, low, r.max_real, unit);
    }
    case ParamKind::kText:
      return "any text";
  }
  return "";
}

std::string formNote(const ParamRule& r) {
  return r.form.empty() ? std::string() : fmt::format(" (the program's {})", r.form);
}

// Reads `text` under `r` into the tables; an error message otherwise.
std::optional<std::string> setValue(AbiValues& values, const ParamRule& r, std::string_view text) {
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const size_t k = static_cast<size_t>(r.index);
  const auto outOfRange = [&] {
    return fmt::format("out of range: {} is {}{}", r.name, allowed(r), formNote(r));
  };
  switch (r.kind) {
    case ParamKind::kInteger: {
      int64_t v = 0;
      auto [end, ec] = std::from_chars(first, last, v);
      if (ec == std::errc::result_out_of_range && end == last) return outOfRange();
      if (ec != std::errc() || end != last || text.empty())
        return std::string("expected an integer (converted values only)");
      if (!(v == 0 && !r.zero.empty()) && (v < r.min || v > r.max)) return outOfRange();
      values.i64[k] = v;
      return std::nullopt;
    }
    case ParamKind::kUnsigned: {
      uint64_t v = 0;
      auto [end, ec] = std::from_chars(first, last, v);
      if (ec != std::errc() || end != last || text.empty())
        return fmt::format("expected an unsigned integer, {}", allowed(r));
      values.i64[k] = static_cast<int64_t>(v);  // the seed's bits
      return std::nullopt;
    }
    case ParamKind::kEnum: {
      int64_t v = 0;
      auto [end, ec] = std::from_chars(first, last, v);
      if (ec == std::errc() && end == last && !text.empty()) {
        if (v >= 0 && v < static_cast<int64_t>(r.names.size())) {
          values.i64[k] = v;
          return std::nullopt;
        }
      } else {
        for (size_t c = 0; c < r.names.size(); ++c) {
          if (r.names[c] == text) {
            values.i64[k] = static_cast<int64_t>(c);
            return std::nullopt;
          }
        }
      }
      return fmt::format("not a {}: expected {}{}", r.name, allowed(r), formNote(r));
    }
    case ParamKind::kReal: {
      double v = 0;
      auto [end, ec] = std::from_chars(first, last, v, std::chars_format::general);
      if (ec == std::errc::result_out_of_range && end == last) return outOfRange();
      if (ec != std::errc() || end != last || text.empty() || !std::isfinite(v))
        return std::string("expected a number (converted values only)");
      const bool zero = v == 0 && !r.zero.empty();
      if (!zero && (v < r.min_real || (r.min_open && v == r.min_real) || v > r.max_real))
        return outOfRange();
      values.f64[k] = v == 0 ? 0.0 : v;  // no -0
      return std::nullopt;
    }
    case ParamKind::kText:
      values.str[k] = std::string(text);
      return std::nullopt;
  }
  return std::string("unknown kind of entry");
}

std::string patternText(int64_t code) {
  return code >= 0 && code < static_cast<int64_t>(std::size(kPatternNames))
             ? std::string(kPatternNames[code])
             : fmt::format("{}", code);
}

}  // namespace

bool applyAbiParams(AbiValues& values, const std::vector<std::string>& assignments,
                    std::string* error) {
  // The last assignment of each entry, to name in a message about the entries together.
  std::vector<std::string_view> given(std::size(kParamRules));
  auto fail = [&](std::string_view assignment, const std::string& why) {
    if (error) *error = fmt::format("--param {}: {}", assignment, why);
    return false;
  };
  for (const std::string& assignment : assignments) {
    const size_t eq = assignment.find('=');
    if (eq == std::string::npos) return fail(assignment, "expected Name=Value");
    const std::string_view name = std::string_view(assignment).substr(0, eq);
    const std::string_view text = std::string_view(assignment).substr(eq + 1);
    const ParamRule* rule = findParamRule(name);
    if (rule == nullptr) {
      return fail(assignment, isTableEntry(name) ? shapesSimulator(name)
                                                 : "not a parameter of NDL simulators (see "
                                                   "--help)");
    }
    if (std::optional<std::string> why = setValue(values, *rule, text))
      return fail(assignment, *why);
    given[static_cast<size_t>(rule - kParamRules)] = assignment;
  }
  auto wasGiven = [&](std::string_view name) {
    return !given[static_cast<size_t>(findParamRule(name) - kParamRules)].empty();
  };
  // The assignment to blame: the one given, else the compiled value.
  auto named = [&](std::string_view name, const std::string& value) {
    const std::string_view g = given[static_cast<size_t>(findParamRule(name) - kParamRules)];
    return g.empty() ? fmt::format("{}={} (compiled in)", name, value) : std::string(g);
  };

  // Entries that act only with others: one given with nothing to act on is refused, one
  // compiled in is set to its neutral value.
  static constexpr int64_t kHotSpot = *paramEnumCode("Pattern", "HotSpot");
  const int64_t pattern = values.i64[NDL_P_Pattern];
  if (pattern == *paramEnumCode("Pattern", "BadDragon") && values.i64[NDL_P_GroupEndpoints] < 1) {
    return fail(named("Pattern", "BadDragon"),
                "this simulator's network declares no groups of endpoints: BadDragon sends to "
                "the next group, as the topology states with (Groups n) (the stdlib's "
                "Dragonfly does)");
  }
  if (pattern == *paramEnumCode("Pattern", "Custom") && values.i64[NDL_P_UserPattern] < 0) {
    return fail(named("Pattern", "Custom"),
                "Custom is the program's own pattern written in NDL (define-pattern), and this "
                "simulator's program gives its main traffic (its first class) none: it is "
                "compiled in");
  }
  double& share = values.f64[NDL_P_HotSpotShare];
  if (pattern == kHotSpot) {
    if (values.i64[NDL_P_HotSpotCount] < 1) {
      return fail(named("Pattern", "HotSpot"),
                  "this simulator has no hot-spot nodes: they are compiled in; write "
                  "(TrafficPattern (HotSpot 10% (Nodes ...))) in the program and rebuild "
                  "(ndlc run FILE --set ... rebuilds when needed)");
    }
    if (share == 0) {
      return fail(named("HotSpotShare", "0"),
                  "HotSpot traffic needs a HotSpotShare above 0 (0 sends no message to the "
                  "hot spots: that is Pattern=Uniform)");
    }
  } else if (share != 0) {
    if (wasGiven("HotSpotShare")) {
      return fail(named("HotSpotShare", ""),
                  fmt::format("has no effect: it is the share of HotSpot traffic, and the "
                              "pattern is {}",
                              patternText(pattern)));
    }
    share = 0.0;
  }
  double& expand = values.f64[NDL_P_ExpandRate];
  if (values.str[NDL_P_PatternFile].empty() && expand != 0) {
    if (wasGiven("ExpandRate")) {
      return fail(named("ExpandRate", ""),
                  "has no effect: it scales the compute gaps of a communication pattern file, "
                  "and this run has none (PatternFile)");
    }
    expand = 0.0;
  }
  // The checker's rule for (Measurement ...): a burst entry given a count selects the burst
  // unless Steady is given too (then it is refused); 0, a steady run's value of each (as
  // `ndlc run` passes them to a simulator built for another program), selects nothing. Under
  // Steady the burst's entries are 0; under a Burst chosen here without a count,
  // MessageCreationMax's default.
  static constexpr int64_t kSteady = *paramEnumCode("Measurement", "Steady");
  static constexpr std::pair<std::string_view, int> kBurstEntries[] = {
      {"CreationMax", NDL_P_CreationMax},
      {"WarmupMessages", NDL_P_WarmupMessages},
      {"MeasuredMessages", NDL_P_MeasuredMessages}};
  int64_t& measurement = values.i64[NDL_P_Measurement];
  for (const auto& [name, index] : kBurstEntries) {
    if (!wasGiven(name) || values.i64[index] == 0) continue;
    if (wasGiven("Measurement") && measurement == kSteady) {
      return fail(named(name, ""),
                  "belongs to a burst run, and Measurement=Steady warms up, measures and ends by "
                  "itself; give Measurement=Burst");
    }
    measurement = *paramEnumCode("Measurement", "Burst");
  }
  const bool trace = !values.str[NDL_P_TraceFile].empty();
  if (measurement == kSteady) {
    if (!values.str[NDL_P_PatternFile].empty()) {
      return fail(named("Measurement", "Steady"),
                  "a pattern file's run ends when its application completes; it has no steady "
                  "state to measure");
    }
    if (trace) {
      return fail(named("Measurement", "Steady"),
                  "a trace's run (TraceFile) ends when its last message has arrived; it has no "
                  "steady state to measure: give Measurement=Burst");
    }
    values.i64[NDL_P_CreationMax] = 0;
    values.i64[NDL_P_WarmupMessages] = 0;
    values.i64[NDL_P_MeasuredMessages] = 0;
  } else if (values.i64[NDL_P_CreationMax] == 0 && !wasGiven("CreationMax") &&
             values.str[NDL_P_PatternFile].empty() && !trace) {
    values.i64[NDL_P_CreationMax] = 10000;  // MessageCreationMax's default
  }
  // OnOff's burst and duty act only under OnOff, and it needs both.
  static constexpr int64_t kOnOff = *paramEnumCode("CreationProcess", "OnOff");
  double& burst = values.f64[NDL_P_OnOffBurstClocks];
  double& duty = values.f64[NDL_P_OnOffDuty];
  if (values.i64[NDL_P_CreationProcess] == kOnOff) {
    if (burst == 0 || duty == 0) {
      return fail(named("CreationProcess", "OnOff"),
                  "OnOff needs OnOffBurstClocks (the mean on period, at least 1) and OnOffDuty "
                  "(the share of the time on, above 0 and at most 1)");
    }
  } else if (burst != 0 || duty != 0) {
    for (std::string_view name : {"OnOffBurstClocks", "OnOffDuty"}) {
      if (wasGiven(name)) {
        return fail(named(name, ""),
                    "has no effect: it shapes the OnOff process, and CreationProcess is not "
                    "OnOff");
      }
    }
    burst = 0.0;
    duty = 0.0;
  }
  // The predictive path's timings act only with a predictor, which is compiled in.
  if (values.i64[NDL_P_Predictor] == 0) {
    for (std::string_view name :
         {"PredictHeaderClocks", "PredictorLatencyClocks", "MispredictionCheck"}) {
      if (wasGiven(name)) {
        return fail(named(name, ""),
                    "has no effect: this simulator has no predictor; write (Predictor Name) "
                    "and (PredictivePath ...) in the program and rebuild (docs/prediction.md)");
      }
    }
  }
  // MispredictionCheck=None: the copy and then the packet leave from one buffer, which must hold
  // the whole packet (the checker's rule, docs/prediction.md).
  if (values.i64[NDL_P_MispredictionCheck] == 1 &&
      values.i64[NDL_P_FlowControl] ==
          *paramEnumCode("FlowControl", "Wormhole")) {
    return fail(named("MispredictionCheck", "None"),
                "needs a buffer that holds the whole packet (a mispredicted packet's copy leaves "
                "from it, then the packet itself); FlowControl is Wormhole: give "
                "FlowControl=VirtualCutThrough, or MispredictionCheck=HintBits");
  }
  // A copy is no message's packet: a compiled-in deadlock handling that drops packets would
  // have nothing to account it to (the checker's rule for the form).
  const int64_t deadlock = values.i64[NDL_P_Deadlock];
  if (values.i64[NDL_P_MispredictionCheck] == 1 &&
      deadlock != static_cast<int64_t>(DeadlockHandling::kAvoid) &&
      deadlock != static_cast<int64_t>(DeadlockHandling::kDetect)) {
    return fail(named("MispredictionCheck", "None"),
                "sends copies of packets that are no message's, and this simulator drops "
                "packets in deadlocks (DeadlockHandling Drop or DropAfterTimeout, compiled in): "
                "write (DeadlockHandling Avoid) in the program and rebuild");
  }
  // A trace is the load (the checker's rule): no synthetic traffic beside it, nor programs.
  if (trace && values.f64[NDL_P_CreationRate] != 0) {
    return fail(named("TraceFile", ""),
                "a trace is the load, and this run also creates synthetic messages "
                "(CreationRate above 0): give CreationRate=0 too");
  }
  if (trace && !values.str[NDL_P_PatternFile].empty()) {
    return fail(named("TraceFile", ""),
                "a trace is the load, and this run also has a pattern file (PatternFile)");
  }
  // A rate of 0 switches synthetic traffic off; then a pattern file or a trace must be the load.
  if (values.f64[NDL_P_CreationRate] == 0 && values.str[NDL_P_PatternFile].empty() && !trace) {
    return fail(named("CreationRate", "0"),
                "synthetic traffic is off (CreationRate 0) and this run has no pattern file "
                "(PatternFile): nothing would be sent");
  }
  return true;
}

std::string describeAbiParams(const AbiValues& values) {
  std::string s;
  for (const ParamRule& r : kParamRules) {
    const size_t k = static_cast<size_t>(r.index);
    std::string value;
    switch (r.table) {
      case AbiTable::kI64:
        value = r.kind == ParamKind::kUnsigned
                    ? fmt::format("{}", static_cast<uint64_t>(values.i64[k]))
                : r.kind == ParamKind::kEnum && values.i64[k] >= 0 &&
                        values.i64[k] < static_cast<int64_t>(r.names.size())
                    ? fmt::format("{} ({})", values.i64[k], r.names[values.i64[k]])
                    : fmt::format("{}", values.i64[k]);
        break;
      case AbiTable::kF64:
        value = fmt::format("{}", values.f64[k]);
        break;
      case AbiTable::kStr:
        value = fmt::format("\"{}\"", values.str[k]);
        break;
    }
    s += fmt::format("  {:<24} {:<22} {}\n", r.name, value, allowed(r));
  }
  return s;
}

void setRuntimeParams(const AbiValues& values, SimParams& p) {
  const int64_t* i = values.i64.data();
  const double* f = values.f64.data();
  p.flow_control = static_cast<FlowControl>(i[NDL_P_FlowControl]);
  p.buffer_flits = static_cast<int32_t>(i[NDL_P_BufferFlits]);
  p.router_delay_clocks = static_cast<int32_t>(i[NDL_P_RouterDelayClocks]);
  p.header_delay_clocks = static_cast<int32_t>(i[NDL_P_HeaderDelayClocks]);
  p.link_delay_clocks = static_cast<int32_t>(i[NDL_P_LinkDelayClocks]);
  p.credit_delay_clocks = static_cast<int32_t>(i[NDL_P_CreditDelayClocks]);
  p.network_frequency_hz = f[NDL_P_NetworkFrequencyHz];
  p.router_frequency_hz = f[NDL_P_RouterFrequencyHz];
  p.creation_process = static_cast<CreationProcess>(i[NDL_P_CreationProcess]);
  p.creation_rate = f[NDL_P_CreationRate];
  p.creation_interval_clocks = f[NDL_P_CreationIntervalClocks];
  p.on_off_burst_clocks = f[NDL_P_OnOffBurstClocks];
  p.on_off_duty = f[NDL_P_OnOffDuty];
  p.creation_max = i[NDL_P_CreationMax];
  p.message_min_bits = i[NDL_P_MessageMinBits];
  p.message_max_bits = i[NDL_P_MessageMaxBits];
  p.injection_queue_capacity = i[NDL_P_QueueCapacity];
  p.queue_overflow = static_cast<QueueOverflow>(i[NDL_P_QueueOverflow]);
  p.measurement = static_cast<Measurement>(i[NDL_P_Measurement]);
  p.atomic_vc_allocation = i[NDL_P_AtomicVcAllocation] != 0;
  p.switch_by_output = i[NDL_P_SwitchInputByOutput] != 0;
  p.switch_hold_packet = i[NDL_P_SwitchHoldPacket] != 0;
  p.internal_speedup = static_cast<int32_t>(i[NDL_P_InternalSpeedup]);
  p.pattern = static_cast<TrafficPattern>(i[NDL_P_Pattern]);
  p.pattern_params.hotspot_ratio = f[NDL_P_HotSpotShare];
  p.deadlock_timeout_clocks = i[NDL_P_DeadlockTimeoutClocks];
  p.seed = static_cast<uint64_t>(i[NDL_P_Seed]);
  p.warmup_messages = i[NDL_P_WarmupMessages];
  p.measured_messages = i[NDL_P_MeasuredMessages];
  p.time_limit_clocks = i[NDL_P_TimeLimitClocks];
  p.sampling_interval_clocks = i[NDL_P_SamplingIntervalClocks];
  p.data_output_file = values.str[NDL_P_DataOutputFile];
  p.screen_output_file = values.str[NDL_P_ScreenOutputFile];
  p.pattern_file = values.str[NDL_P_PatternFile];  // read by simulatorMain
  p.trace_file = values.str[NDL_P_TraceFile];      // likewise
  p.expand_rate = f[NDL_P_ExpandRate];
}

}  // namespace ndl::rt
