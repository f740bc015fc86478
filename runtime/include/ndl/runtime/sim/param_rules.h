// The rules of the parameters a built simulator takes with `--param Name=Value`: one row per
// entry of the parameter tables (generated_abi.h) that the command line may change, with its
// kind, its range or the names of its enum's values, and the NDL form the checker converts it
// from. The simulator checks every --param value against this table (abi_params.cpp); the
// compiler writes the tables' enum codes from the same names (compiler/codegen) and reports
// the same limits at the forms (compiler/sema, router_limits.h), so a program `ndlc check`
// accepts is one its simulator runs. Every other entry of the tables shapes the generated
// code or is derived by the compiler with it, and --param refuses it with a rebuild hint.
// `ndlc run` keys its build cache on everything but these entries and passes them, converted.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>

#include "ndl/runtime/net/router_limits.h"
#include "ndl/runtime/sim/generated_abi.h"

namespace ndl::rt {

enum class ParamKind : uint8_t {
  kInteger,   // a decimal int64 in [min, max] (or 0, when `zero` says what 0 means)
  kUnsigned,  // a decimal uint64, the whole range (stored in the int64 table, bit for bit)
  kEnum,      // a code 0..names-1 or one of the names
  kReal,      // a finite number in [min_real, max_real] (or 0, when `zero` says what it means)
  kText,      // any text
};

enum class AbiTable : uint8_t { kI64, kF64, kStr };

struct ParamRule {
  std::string_view name;  // the table's entry, NDL_P_<name>
  AbiTable table;
  int index;
  ParamKind kind;
  std::string_view form;  // the NDL form the checker converts it from
  std::string_view unit;  // of the converted value, for messages ("" none)
  int64_t min = 0;        // kInteger
  int64_t max = std::numeric_limits<int64_t>::max();
  double min_real = 0.0;  // kReal; min_open: the minimum itself is out
  double max_real = std::numeric_limits<double>::max();
  bool min_open = false;
  // Besides the range, 0 is allowed and means this (kInteger, kReal); "" none.
  std::string_view zero = {};
  std::span<const std::string_view> names = {};  // kEnum: by code
};

// The enums' values by code: the order of ndl::rt::FlowControl, CreationProcess,
// QueueOverflow, Measurement and TrafficPattern (tests/runtime/param_rules_test.cpp compares them with
// the runtime's own names). TrafficPattern's Custom is the program's own pattern written in NDL
// (define-pattern), which only a simulator built from such a program has (UserPattern).
inline constexpr std::string_view kFlowControlNames[] = {"StoreAndForward", "VirtualCutThrough",
                                                         "Wormhole"};
inline constexpr std::string_view kCreationProcessNames[] = {"Bernoulli", "Periodic", "OnOff"};
inline constexpr std::string_view kQueueOverflowNames[] = {"Refuse", "Block"};
inline constexpr std::string_view kMeasurementNames[] = {"Burst", "Steady"};
inline constexpr std::string_view kVcAllocationNames[] = {"NonAtomic", "Atomic"};
inline constexpr std::string_view kSwitchInputNames[] = {"ByVc", "ByOutput"};
inline constexpr std::string_view kSwitchHoldNames[] = {"Flit", "Packet"};
inline constexpr std::string_view kMispredictionCheckNames[] = {"HintBits", "None"};
inline constexpr std::string_view kPatternNames[] = {"Uniform",   "BitReversal", "BitComplement",
                                                     "Transpose", "Shuffle",     "Tornado",
                                                     "Neighbor",  "HotSpot",     "AllToAll",
                                                     "Diagonal",  "Asymmetric",  "RandomPermutation",
                                                     "BadDragon", "Custom"};

namespace param_rules_detail {
inline constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
constexpr ParamRule integer(std::string_view name, int index, std::string_view form,
                            std::string_view unit, int64_t min, int64_t max = kI64Max,
                            std::string_view zero = {}) {
  return {.name = name,
          .table = AbiTable::kI64,
          .index = index,
          .kind = ParamKind::kInteger,
          .form = form,
          .unit = unit,
          .min = min,
          .max = max,
          .zero = zero};
}
constexpr ParamRule enumeration(std::string_view name, int index, std::string_view form,
                                std::span<const std::string_view> names) {
  return {.name = name,
          .table = AbiTable::kI64,
          .index = index,
          .kind = ParamKind::kEnum,
          .form = form,
          .max = static_cast<int64_t>(names.size()) - 1,
          .names = names};
}
constexpr ParamRule real(std::string_view name, int index, std::string_view form,
                         std::string_view unit, double min, double max, bool min_open = false,
                         std::string_view zero = {}) {
  return {.name = name,
          .table = AbiTable::kF64,
          .index = index,
          .kind = ParamKind::kReal,
          .form = form,
          .unit = unit,
          .min_real = min,
          .max_real = max,
          .min_open = min_open,
          .zero = zero};
}
constexpr ParamRule text(std::string_view name, int index, std::string_view form) {
  return {.name = name,
          .table = AbiTable::kStr,
          .index = index,
          .kind = ParamKind::kText,
          .form = form};
}
}  // namespace param_rules_detail

inline constexpr double kMaxReal = std::numeric_limits<double>::max();

inline constexpr ParamRule kParamRules[] = {
    param_rules_detail::enumeration("FlowControl", NDL_P_FlowControl, "FlowControlMethod",
                                    kFlowControlNames),
    param_rules_detail::integer("BufferFlits", NDL_P_BufferFlits, "NodeBufferSize", "flits", 1,
                                kMaxBufferFlits),
    // NodeHardwareDelay as written, in router clocks (for the report), and in the network
    // clocks the simulation counts: a pair the compiler converts together.
    param_rules_detail::integer("RouterDelayClocks", NDL_P_RouterDelayClocks, "NodeHardwareDelay",
                                "router clocks", 0, kMaxHeaderDelayClocks),
    param_rules_detail::integer("HeaderDelayClocks", NDL_P_HeaderDelayClocks, "NodeHardwareDelay",
                                "network clocks", 0, kMaxHeaderDelayClocks),
    // PredictivePath's IB and PredictorLatency, in network clocks (docs/prediction.md): a
    // header's ready clock and an update's due clock count in 32 bits, as the header delay's.
    param_rules_detail::integer("PredictHeaderClocks", NDL_P_PredictHeaderClocks,
                                "PredictivePath", "network clocks", 0, kMaxHeaderDelayClocks),
    param_rules_detail::integer("PredictorLatencyClocks", NDL_P_PredictorLatencyClocks,
                                "PredictorLatency", "network clocks", 0, kMaxHeaderDelayClocks),
    param_rules_detail::enumeration("MispredictionCheck", NDL_P_MispredictionCheck,
                                    "MispredictionCheck", kMispredictionCheckNames),
    param_rules_detail::integer("LinkDelayClocks", NDL_P_LinkDelayClocks, "LinkDelay",
                                "network clocks", 1, kMaxLinkDelayClocks),
    param_rules_detail::integer("CreditDelayClocks", NDL_P_CreditDelayClocks, "CreditDelay",
                                "network clocks", 1, kMaxCreditDelayClocks),
    param_rules_detail::enumeration("CreationProcess", NDL_P_CreationProcess, "InjectionProcess",
                                    kCreationProcessNames),
    param_rules_detail::integer("CreationMax", NDL_P_CreationMax, "MessageCreationMax", "messages",
                                1, param_rules_detail::kI64Max, "no limit"),
    param_rules_detail::integer("MessageMinBits", NDL_P_MessageMinBits, "MessageLength", "bits", 1),
    param_rules_detail::integer("MessageMaxBits", NDL_P_MessageMaxBits, "MessageLength", "bits", 1),
    param_rules_detail::integer("QueueCapacity", NDL_P_QueueCapacity, "MessageMaxCount", "messages",
                                1),
    param_rules_detail::enumeration("QueueOverflow", NDL_P_QueueOverflow, "InjectionQueueOverflow",
                                    kQueueOverflowNames),
    param_rules_detail::enumeration("AtomicVcAllocation", NDL_P_AtomicVcAllocation, "VcAllocation",
                                    kVcAllocationNames),
    param_rules_detail::enumeration("SwitchInputByOutput", NDL_P_SwitchInputByOutput,
                                    "SwitchInputArbitration", kSwitchInputNames),
    param_rules_detail::enumeration("SwitchHoldPacket", NDL_P_SwitchHoldPacket, "SwitchHold",
                                    kSwitchHoldNames),
    param_rules_detail::integer("InternalSpeedup", NDL_P_InternalSpeedup, "InternalSpeedup",
                                "passes", 1, kMaxInternalSpeedup),
    param_rules_detail::enumeration("Pattern", NDL_P_Pattern, "TrafficPattern", kPatternNames),
    param_rules_detail::integer("DeadlockTimeoutClocks", NDL_P_DeadlockTimeoutClocks,
                                "DeadlockTimeout", "network clocks", 1, kMaxDeadlockTimeoutClocks),
    {.name = "Seed",
     .table = AbiTable::kI64,
     .index = NDL_P_Seed,
     .kind = ParamKind::kUnsigned,
     .form = "Seed"},
    param_rules_detail::enumeration("Measurement", NDL_P_Measurement, "Measurement",
                                    kMeasurementNames),
    param_rules_detail::integer("WarmupMessages", NDL_P_WarmupMessages, "WarmupMessages",
                                "messages", 0),
    param_rules_detail::integer("MeasuredMessages", NDL_P_MeasuredMessages, "MeasuredMessages",
                                "messages", 1, param_rules_detail::kI64Max,
                                "every message after the warm-up"),
    param_rules_detail::integer("TimeLimitClocks", NDL_P_TimeLimitClocks, "SimulationTime",
                                "network clocks", 1, param_rules_detail::kI64Max,
                                "the default stop"),
    param_rules_detail::integer("SamplingIntervalClocks", NDL_P_SamplingIntervalClocks,
                                "SimulationInterval", "network clocks", 1),
    param_rules_detail::real("NetworkFrequencyHz", NDL_P_NetworkFrequencyHz, "NetworkFrequency",
                             "Hz", 0.0, kMaxReal, /*min_open=*/true),
    param_rules_detail::real("RouterFrequencyHz", NDL_P_RouterFrequencyHz, "RouterFrequency", "Hz",
                             0.0, kMaxReal, /*min_open=*/true, "the network clock"),
    param_rules_detail::real("CreationRate", NDL_P_CreationRate, "MessageCreationRate",
                             "messages per node per network clock", 0.0, 1.0),
    param_rules_detail::real("CreationIntervalClocks", NDL_P_CreationIntervalClocks,
                             "MessageCreationInterval", "network clocks", 1.0, kMaxReal, false,
                             "none: the traffic is given as a rate"),
    // OnOff's mean on period and duty cycle; 0 under the other processes.
    param_rules_detail::real("OnOffBurstClocks", NDL_P_OnOffBurstClocks, "InjectionProcess",
                             "network clocks", 1.0, kMaxReal, false, "not OnOff"),
    param_rules_detail::real("OnOffDuty", NDL_P_OnOffDuty, "InjectionProcess", "", 0.0, 1.0,
                             /*min_open=*/true, "not OnOff"),
    param_rules_detail::real("HotSpotShare", NDL_P_HotSpotShare, "TrafficPattern", "", 0.0, 1.0,
                             /*min_open=*/true, "no hot-spot traffic"),
    param_rules_detail::real("ExpandRate", NDL_P_ExpandRate, "ProcessorPerformanceExpandRate", "",
                             0.0, kMaxReal),
    param_rules_detail::text("DataOutputFile", NDL_P_DataOutputFile, "DataOutputFile"),
    param_rules_detail::text("ScreenOutputFile", NDL_P_ScreenOutputFile, "ScreenOutputFile"),
    // The absolute path of the CommunicationPatternFile, read at start-up.
    param_rules_detail::text("PatternFile", NDL_P_PatternFile, "CommunicationPatternFile"),
    // The absolute path of (InjectionProcess (Trace "file")), read at start-up; its messages
    // join any synthetic load (CreationRate 0: they are the load).
    param_rules_detail::text("TraceFile", NDL_P_TraceFile, "InjectionProcess"),
};

// The rule of a --param entry; nullptr for an entry that shapes the simulator, or no entry.
constexpr const ParamRule* findParamRule(std::string_view name) {
  for (const ParamRule& r : kParamRules)
    if (r.name == name) return &r;
  return nullptr;
}

// The rule of an entry the table must have (for the compiler's limits and enum codes).
// Searched without comparing pointers: GCC under -fsanitize cannot fold a pointer test in a
// constant expression.
constexpr const ParamRule& paramRule(std::string_view name) {
  for (const ParamRule& r : kParamRules)
    if (r.name == name) return r;
  throw std::logic_error("not a --param entry");  // constexpr: no build
}

// The code of an enum value by name, as the simulator's table stores it.
constexpr std::optional<int64_t> paramEnumCode(std::string_view param, std::string_view value) {
  const std::span<const std::string_view> names = paramRule(param).names;
  for (size_t k = 0; k < names.size(); ++k)
    if (names[k] == value) return static_cast<int64_t>(k);
  return std::nullopt;
}

}  // namespace ndl::rt
