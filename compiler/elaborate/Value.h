// Values of the expression language at compile time. One 16-byte shape for
// every type keeps the evaluator's frames flat arrays.
#pragma once

#include <cstdint>

#include "compiler/support/Rational.h"

namespace ndl::elab {

struct Value {
  int64_t a = 0;  // Int, Bool, Node; Real numerator; Port dim*2+(dir>0); Coord list index
  int64_t b = 1;  // Real denominator

  static Value integer(int64_t v) { return {v, 1}; }
  static Value real(const Rational& r) { return {r.num(), r.den()}; }
  static Value port(int64_t dim, int64_t dir) { return {dim * 2 + (dir > 0 ? 1 : 0), 1}; }
  Rational rational() const { return *Rational::make(a, b); }
  int64_t portDim() const { return a >> 1; }
  int8_t portDir() const { return (a & 1) ? +1 : -1; }
};

}  // namespace ndl::elab
