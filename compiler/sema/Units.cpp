#include "compiler/sema/Units.h"

#include <string>

namespace ndl::sema {
namespace {

// Decimal multiples by index: 1, 10, 100, 10^3, 10^6, 10^9, 10^12.
constexpr int64_t kPow10[] = {1, 10, 100, 1000, 1000000, 1000000000, 1000000000000};

Rational inverse(int64_t n) { return *Rational::make(1, n); }

// Kbyte and Mbyte are binary (1024) multiples, as memory sizes were in the
// INSIGHT era; MB/s is decimal, as link rates are.
const std::vector<Unit>& table() {
  static const std::vector<Unit> units = {
      {"bit", Dimension::Size, UnitBase::Absolute, 1},
      {"byte", Dimension::Size, UnitBase::Absolute, 8},
      {"Kbyte", Dimension::Size, UnitBase::Absolute, 8 * 1024},
      {"Mbyte", Dimension::Size, UnitBase::Absolute, 8 * 1024 * 1024},
      {"flit", Dimension::Size, UnitBase::Flits, 1},
      {"phit", Dimension::Size, UnitBase::Flits, 1},
      {"sec", Dimension::Time, UnitBase::Absolute, 1},
      {"s", Dimension::Time, UnitBase::Absolute, 1},
      {"msec", Dimension::Time, UnitBase::Absolute, inverse(kPow10[3])},
      {"ms", Dimension::Time, UnitBase::Absolute, inverse(kPow10[3])},
      {"usec", Dimension::Time, UnitBase::Absolute, inverse(kPow10[4])},
      {"us", Dimension::Time, UnitBase::Absolute, inverse(kPow10[4])},
      {"nsec", Dimension::Time, UnitBase::Absolute, inverse(kPow10[5])},
      {"ns", Dimension::Time, UnitBase::Absolute, inverse(kPow10[5])},
      {"psec", Dimension::Time, UnitBase::Absolute, inverse(kPow10[6])},
      {"ps", Dimension::Time, UnitBase::Absolute, inverse(kPow10[6])},
      {"clock", Dimension::Time, UnitBase::Clocks, 1},
      {"cycle", Dimension::Time, UnitBase::Clocks, 1},
      {"Hz", Dimension::Frequency, UnitBase::Absolute, 1},
      {"kHz", Dimension::Frequency, UnitBase::Absolute, kPow10[3]},
      {"MHz", Dimension::Frequency, UnitBase::Absolute, kPow10[4]},
      {"GHz", Dimension::Frequency, UnitBase::Absolute, kPow10[5]},
      {"%", Dimension::Ratio, UnitBase::Absolute, inverse(100)},
      {"bit/clock", Dimension::Bandwidth, UnitBase::BitsPerClock, 1},
      {"byte/clock", Dimension::Bandwidth, UnitBase::BitsPerClock, 8},
      {"Gbps", Dimension::Bandwidth, UnitBase::Absolute, kPow10[5]},
      {"MB/s", Dimension::Bandwidth, UnitBase::Absolute, 8 * kPow10[4]},
  };
  return units;
}

}  // namespace

std::string_view dimensionName(Dimension d) {
  switch (d) {
    case Dimension::Size: return "a size";
    case Dimension::Time: return "a time";
    case Dimension::Frequency: return "a frequency";
    case Dimension::Ratio: return "a ratio";
    case Dimension::Bandwidth: return "a bandwidth";
  }
  return "a quantity";
}

std::string unitList(Dimension d) {
  std::string s;
  for (const Unit& u : table()) {
    if (u.dimension != d) continue;
    if (!s.empty()) s += ", ";
    s += u.name;
  }
  return s;
}

const Unit* findUnit(std::string_view name) {
  for (const Unit& u : table())
    if (u.name == name) return &u;
  return nullptr;
}

std::vector<std::string_view> allUnitNames() {
  std::vector<std::string_view> names;
  for (const Unit& u : table()) names.push_back(u.name);
  return names;
}

}  // namespace ndl::sema
