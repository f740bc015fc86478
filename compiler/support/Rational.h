// Exact rational numbers for quantities. Units convert without floating
// drift: 60nsec at 50MHz is exactly 3 clocks, 1.0% is exactly 1/100.
// Every operation reports overflow instead of wrapping.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ndl {

// 128-bit intermediates make every int64 product exact.
__extension__ typedef __int128 Int128;

class Rational {
 public:
  constexpr Rational() = default;
  constexpr Rational(int64_t n) : num_(n), den_(1) {}  // NOLINT: implicit on purpose

  // num/den reduced to lowest terms with a positive denominator; nullopt if
  // den is 0 or the reduced value does not fit.
  static std::optional<Rational> make(Int128 num, Int128 den);

  // Parses a decimal literal: "-12", "1.5", "2.5e-3", "0x1F". nullopt when it
  // does not fit in 64-bit numerator and denominator.
  static std::optional<Rational> parse(std::string_view text);

  int64_t num() const { return num_; }
  int64_t den() const { return den_; }
  bool isInteger() const { return den_ == 1; }
  bool isZero() const { return num_ == 0; }
  bool isNegative() const { return num_ < 0; }
  double toDouble() const { return static_cast<double>(num_) / static_cast<double>(den_); }

  // Smallest integer >= this, largest integer <= this.
  int64_t ceil() const;
  int64_t floor() const;

  std::optional<Rational> add(const Rational& o) const;
  std::optional<Rational> sub(const Rational& o) const;
  std::optional<Rational> mul(const Rational& o) const;
  std::optional<Rational> div(const Rational& o) const;

  friend bool operator==(const Rational& a, const Rational& b) {
    return a.num_ == b.num_ && a.den_ == b.den_;
  }
  friend bool operator<(const Rational& a, const Rational& b) {
    return static_cast<Int128>(a.num_) * b.den_ < static_cast<Int128>(b.num_) * a.den_;
  }
  friend bool operator<=(const Rational& a, const Rational& b) { return !(b < a); }
  friend bool operator>(const Rational& a, const Rational& b) { return b < a; }
  friend bool operator>=(const Rational& a, const Rational& b) { return !(a < b); }

  // Exact decimal when the denominator has only factors 2 and 5 ("2.5"),
  // else up to 6 significant decimals ("66.6667").
  std::string str() const;

 private:
  int64_t num_ = 0;
  int64_t den_ = 1;
};

}  // namespace ndl
