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
