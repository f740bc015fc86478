#include "ndl/runtime/abi_params.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "ndl/runtime/generated_abi.h"

namespace ndl::rt {
namespace {

enum class Kind { kI64, kF64, kStr };

struct Entry {
  std::string_view name;
  Kind kind;
  int index;
  bool runtime;
};

// Every entry of the tables, in declaration order; `runtime` from NDL_ABI_RUNTIME_*.
std::vector<Entry> entries() {
  std::vector<Entry> all;
#define NDL_ROW(Name) all.push_back({#Name, Kind::kI64, NDL_P_##Name, false});
  NDL_ABI_I64_PARAMS(NDL_ROW)
#undef NDL_ROW
#define NDL_ROW(Name) all.push_back({#Name, Kind::kF64, NDL_P_##Name, false});
  NDL_ABI_F64_PARAMS(NDL_ROW)
#undef NDL_ROW
#define NDL_ROW(Name) all.push_back({#Name, Kind::kStr, NDL_P_##Name, false});
  NDL_ABI_STR_PARAMS(NDL_ROW)
#undef NDL_ROW
  auto mark = [&](std::string_view name, Kind kind) {
    for (Entry& e : all)
      if (e.name == name && e.kind == kind) e.runtime = true;
  };
#define NDL_ROW(Name) mark(#Name, Kind::kI64);
  NDL_ABI_RUNTIME_I64(NDL_ROW)
#undef NDL_ROW
#define NDL_ROW(Name) mark(#Name, Kind::kF64);
  NDL_ABI_RUNTIME_F64(NDL_ROW)
#undef NDL_ROW
#define NDL_ROW(Name) mark(#Name, Kind::kStr);
  NDL_ABI_RUNTIME_STR(NDL_ROW)
#undef NDL_ROW
  return all;
}

}  // namespace

AbiValues copyAbiValues(const int64_t* i64, const double* f64, const char* const* str) {
  AbiValues v;
  v.i64.assign(i64, i64 + NDL_P_I64_COUNT);
  v.f64.assign(f64, f64 + NDL_P_F64_COUNT);
  for (int k = 0; k < NDL_P_STR_COUNT; ++k) v.str.emplace_back(str[k]);
  return v;
}

namespace {

// A parameter, or a form under another name, that the simulator was compiled for.
std::string shapesSimulator(std::string_view name) {
  return fmt::format("{} shapes the simulator itself; change it in the program and rebuild "
                     "(ndlc run FILE --set ... rebuilds when needed)",
                     name);
}

}  // namespace

bool applyAbiParam(AbiValues& values, std::string_view assignment, std::string* error) {
  const size_t eq = assignment.find('=');
  const std::string_view name = assignment.substr(0, eq);
  const std::string_view text = eq == std::string_view::npos ? "" : assignment.substr(eq + 1);
  auto fail = [&](const std::string& why) {
    if (error) *error = fmt::format("--param {}: {}", assignment, why);
    return false;
  };
  if (eq == std::string_view::npos) return fail("expected Name=Value");
  for (const Entry& e : entries()) {
    if (e.name != name) continue;
    if (!e.runtime) return fail(shapesSimulator(name));
    switch (e.kind) {
      case Kind::kI64: {
        int64_t v = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size())
          return fail("expected an integer (converted values only)");
        values.i64[static_cast<size_t>(e.index)] = v;
        return true;
      }
      case Kind::kF64: {
        const std::string s(text);
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v))
          return fail("expected a number (converted values only)");
        values.f64[static_cast<size_t>(e.index)] = v;
        return true;
      }
      case Kind::kStr:
        values.str[static_cast<size_t>(e.index)] = std::string(text);
        return true;
    }
  }
  // Forms of the program that shape the simulator under other names than its parameters.
  for (std::string_view form : {"DeadlockHandling", "RoutingAlgorithm", "Topology",
                                "RecoveryTimeout"}) {
    if (name == form) return fail(shapesSimulator(name));
  }
  return fail("not a parameter of NDL simulators (see --help)");
}

std::string describeAbiParams(const AbiValues& values) {
  std::string s;
  for (const Entry& e : entries()) {
    if (!e.runtime) continue;
    const size_t k = static_cast<size_t>(e.index);
    const std::string value = e.kind == Kind::kI64   ? fmt::format("{}", values.i64[k])
                              : e.kind == Kind::kF64 ? fmt::format("{}", values.f64[k])
                                                     : fmt::format("\"{}\"", values.str[k]);
    s += fmt::format("  {:<24} {}\n", e.name, value);
  }
  return s;
}

}  // namespace ndl::rt
