// The units of NDL quantities (spec 1.1) and their exact scale factors.
#pragma once

#include <string_view>
#include <vector>

#include "compiler/support/Rational.h"

namespace ndl::sema {

enum class Dimension : uint8_t { Size, Time, Frequency, Ratio, Bandwidth };

std::string_view dimensionName(Dimension d);  // "a size", "a time", ...
// The units of a dimension, for hints: "bit, byte, Kbyte, Mbyte, flit, phit".
std::string unitList(Dimension d);

// What a unit is relative to: absolute units convert to bits, seconds, Hz
// or a fraction; flit/phit count channel widths and clock/cycle count clocks
// of the enclosing clock domain, resolved once those are known.
enum class UnitBase : uint8_t { Absolute, Flits, Clocks, BitsPerClock };

struct Unit {
  std::string_view name;
  Dimension dimension;
  UnitBase base;
  Rational scale;  // value in the base of `base` (bits, s, Hz, 1, flits, clocks)
};

// nullptr for an unknown unit. Case-sensitive: "Mhz" is not "MHz".
const Unit* findUnit(std::string_view name);
std::vector<std::string_view> allUnitNames();

}  // namespace ndl::sema
