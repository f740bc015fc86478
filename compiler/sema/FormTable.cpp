#include "compiler/sema/FormTable.h"

namespace ndl::sema {
namespace {

const FormInfo kForms[] = {
#define NDL_FORM(Name, Kind, Default, Summary) \
  {FormId::Name, #Name, ValueKind::Kind, Default, Summary},
#include "compiler/sema/Forms.def"
#undef NDL_FORM
};

const EnumInfo kEnums[] = {
#define NDL_ENUM(Type, Value, Summary) {EnumId::Type##_##Value, #Type, #Value, Summary},
#include "compiler/sema/Enums.def"
#undef NDL_ENUM
};

}  // namespace

const FormInfo& formInfo(FormId id) { return kForms[static_cast<size_t>(id)]; }

std::optional<FormId> findForm(std::string_view name) {
  for (const FormInfo& f : kForms)
    if (f.name == name) return f.id;
  return std::nullopt;
}

std::vector<std::string_view> allFormNames() {
  std::vector<std::string_view> names;
  for (const FormInfo& f : kForms) names.push_back(f.name);
  return names;
}

const EnumInfo& enumInfo(EnumId id) { return kEnums[static_cast<size_t>(id)]; }

std::string_view enumTypeOf(ValueKind kind) {
  switch (kind) {
    case ValueKind::Topology: return "TopologyKind";
    case ValueKind::FlowControl: return "FlowControl";
    case ValueKind::Routing: return "Routing";
    case ValueKind::DeadlockHandling: return "DeadlockHandling";
    case ValueKind::QueueOverflow: return "QueueOverflow";
    case ValueKind::Measurement: return "Measurement";
    case ValueKind::VcAllocation: return "VcAllocation";
    case ValueKind::MispredictionCheck: return "MispredictionCheck";
    case ValueKind::Loopback: return "Loopback";
    case ValueKind::SwitchInput: return "SwitchInput";
    case ValueKind::SwitchHold: return "SwitchHold";
    case ValueKind::Selection: return "Selection";
    case ValueKind::Traffic: return "Traffic";
    case ValueKind::Injection: return "InjectionProcess";
    default: return "";
  }
}

std::vector<const EnumInfo*> enumsNamed(std::string_view name) {
  std::vector<const EnumInfo*> values;
  for (const EnumInfo& e : kEnums)
    if (e.name == name) values.push_back(&e);
  return values;
}

std::vector<const EnumInfo*> enumValues(std::string_view type) {
  std::vector<const EnumInfo*> values;
  for (const EnumInfo& e : kEnums)
    if (e.type == type) values.push_back(&e);
  return values;
}

std::optional<EnumId> findEnum(std::string_view type, std::string_view name) {
  for (const EnumInfo& e : kEnums)
    if (e.type == type && e.name == name) return e.id;
  return std::nullopt;
}

}  // namespace ndl::sema
