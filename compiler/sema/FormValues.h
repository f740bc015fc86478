// The values of the forms as written, checked one form at a time (types,
// units, enums, arity, signs) but not yet against each other. Rules.h turns
// them into Parameters.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ast/Ast.h"
#include "compiler/sema/FormTable.h"
#include "compiler/sema/Parameters.h"
#include "compiler/sema/Units.h"
#include "compiler/support/Diagnostics.h"

namespace ndl::sema {

// A quantity as written: the number times the unit's scale, in the unit's
// base (bits, seconds, Hz, fraction; or flits or clocks, resolved later).
struct Quantity {
  Rational value;
  const Unit* unit = nullptr;
  const ast::Node* node = nullptr;
};

// A stage of (RouterPipeline ...) as written.
struct StageValue {
  PipelineStage stage;
  Quantity delay;
  const ast::Node* node = nullptr;  // (RC 3clock)
};

// One form's value. Which fields are set depends on the form's ValueKind.
struct FormValue {
  const ast::Node* form = nullptr;  // null: not given
  bool ok = false;                  // false: given but erroneous (reported)
  Quantity quantity;                // Size, Frequency, Time, Delay, Ratio; range low
  std::optional<Quantity> high;     // SizeRange: high end of a range
  int64_t count = 0;
  EnumId enumValue{};
  std::string text;  // String; Routing: the routing's name
  TopologySpec topology;
  TrafficSpec traffic;
  InjectionSpec injection;
  std::vector<NodePair> pairs;
  std::vector<StageValue> pipeline;  // RouterPipeline: every stage, in order
};

// (TrafficClass name (Form value) ... (Reply other)) as written: each inner form checked as
// the top-level form of its name is (one meaning per parameter); Rules.h resolves them.
struct ClassForm {
  const ast::Node* form = nullptr;
  std::string name;
  SourceRange nameRange;
  std::vector<std::pair<FormId, FormValue>> values;  // the class's own forms, in order
  std::string reply;                                 // (Reply other): "" without
  SourceRange replyRange;
  int32_t priority = 0;  // (Priority n): 0 (the lowest) without
  SourceRange priorityRange;  // its value; invalid without
  bool ok = true;
};

// A class's (Priority n) is at most this: the runtime keeps it in a byte per packet.
inline constexpr int64_t kMaxClassPriority = 255;

// The forms a TrafficClass may hold besides (Reply c) and (Priority n): the load, the pattern, the length.
inline constexpr FormId kClassForms[] = {FormId::OfferedLoad, FormId::MessageCreationRate,
                                         FormId::MessageCreationInterval,
                                         FormId::TrafficPattern, FormId::MessageLength,
                                         FormId::InjectionProcess};

struct FormValues {
  std::array<FormValue, kFormCount> forms;
  std::vector<SweepSpec> sweeps;
  std::vector<ClassForm> classes;  // every (TrafficClass ...), in order
  std::vector<const ast::Node*> clockDomains;  // every (ClockDomain ...), in order (Interfaces.h)

  const FormValue& operator[](FormId id) const { return forms[static_cast<size_t>(id)]; }
  FormValue& operator[](FormId id) { return forms[static_cast<size_t>(id)]; }
  bool given(FormId id) const { return (*this)[id].form != nullptr; }
  bool ok(FormId id) const { return (*this)[id].ok; }
};

// Reads every top-level form of the program's modules: unknown and
// duplicate forms, arity, types, units, enum names and value ranges. The
// returned values keep pointers into `program`.
FormValues readForms(const ast::Program& program, DiagnosticEngine& diags);

// Checks the arguments of one form (also used for each value of a Sweep).
// `args` are the form's elements after its head; `where` is reported when
// the count of arguments is wrong.
bool readValue(FormId id, const std::vector<const ast::Node*>& args, const ast::Node& where,
               FormValue& out, DiagnosticEngine& diags);

}  // namespace ndl::sema
