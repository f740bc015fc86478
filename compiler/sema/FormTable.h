// The table of NDL's forms and enumerated values, generated from Forms.def
// and Enums.def (the same files the editor grammars are checked against).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace ndl::sema {

// How the checker reads a form's arguments.
enum class ValueKind : uint8_t {
  Topology,          // (Ring k) (Mesh k...) (Torus k...) (Hypercube n) (RDT n R m kx ky)
  FlowControl,       // enum
  Routing,           // enum
  DeadlockHandling,  // enum
  QueueOverflow,     // enum
  Measurement,       // enum
  VcAllocation,      // enum
  MispredictionCheck,  // enum
  Loopback,          // enum
  SwitchInput,       // enum
  SwitchHold,        // enum
  Selection,         // enum
  Traffic,           // enum, or (HotSpot ratio (Nodes ...))
  Injection,         // enum, or (OnOff (Burst t) (Duty r))
  Size,              // 32bit, 8byte, 2flit
  SizeRange,         // a size, or a size range
  Frequency,         // 50MHz
  Time,              // 2usec, 100clock
  Delay,             // time or clocks, zero allowed where meaningful
  Ratio,             // 1.0%
  Count,             // 10000
  String,            // "file"
  NodePairs,         // (a b) ...
  Pipeline,          // (IB d) (RC d) (VA d) (SA d) (ST d); PredictivePath: (IB d) (ST d)
  Predictor,         // the name of a define-predictor
  Sweep,             // Name v1 v2 ...
  TrafficClass,      // name (OfferedLoad r) (TrafficPattern p) (MessageLength l) (Reply c)
  ClockDomain,       // name (Period t) | name (Frequency f); repeatable
  Interface,         // name (SendPath n (Stage s domain k) ...) (ReceivePath n ...) (Synchronizer k)
  Import,            // "name", handled by the loader
  Override,          // (Form value ...): replaces the form an imported file gives
};

enum class FormId : uint16_t {
#define NDL_FORM(Name, Kind, Default, Summary) Name,
#include "compiler/sema/Forms.def"
#undef NDL_FORM
};
inline constexpr size_t kFormCount = 0
#define NDL_FORM(Name, Kind, Default, Summary) +1
#include "compiler/sema/Forms.def"
#undef NDL_FORM
    ;

struct FormInfo {
  FormId id;
  std::string_view name;
  ValueKind kind;
  std::string_view defaultText;
  std::string_view summary;
};

const FormInfo& formInfo(FormId id);
std::optional<FormId> findForm(std::string_view name);
std::vector<std::string_view> allFormNames();

// Every enumerated value, named Type_Value.
enum class EnumId : uint16_t {
#define NDL_ENUM(Type, Value, Summary) Type##_##Value,
#include "compiler/sema/Enums.def"
#undef NDL_ENUM
};

struct EnumInfo {
  EnumId id;
  std::string_view type;
  std::string_view name;
  std::string_view summary;
};

const EnumInfo& enumInfo(EnumId id);
// The enum type whose values a form of this kind takes ("FlowControl"; "TopologyKind" for the
// heads of Topology's value), "" for a kind without one.
std::string_view enumTypeOf(ValueKind kind);
// Every enumerated value spelled `name`, of whatever type (Random is a Selection and a Traffic).
std::vector<const EnumInfo*> enumsNamed(std::string_view name);
// The values of one enum type ("FlowControl").
std::vector<const EnumInfo*> enumValues(std::string_view type);
std::optional<EnumId> findEnum(std::string_view type, std::string_view name);

}  // namespace ndl::sema
