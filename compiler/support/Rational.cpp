#include "compiler/support/Rational.h"

#include <fmt/format.h>

#include <cctype>
#include <limits>

namespace ndl {
namespace {

Int128 gcd128(Int128 a, Int128 b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    Int128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

bool fits(Int128 v) {
  return v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max();
}

// Multiplies with a bound far above int64 so that intermediate values of
// make() can still be reduced; false on overflow of the bound.
bool mulBounded(Int128 a, Int128 b, Int128& out) {
  constexpr Int128 kBound = static_cast<Int128>(1) << 120;
  if (a != 0 && (b > kBound / (a < 0 ? -a : a) || b < -kBound / (a < 0 ? -a : a))) return false;
  out = a * b;
  return true;
}

}  // namespace

std::optional<Rational> Rational::make(Int128 num, Int128 den) {
  if (den == 0) return std::nullopt;
  if (den < 0) {
    num = -num;
    den = -den;
  }
  Int128 g = gcd128(num, den);
  if (g > 1) {
    num /= g;
    den /= g;
  }
  if (!fits(num) || !fits(den)) return std::nullopt;
  Rational r;
  r.num_ = static_cast<int64_t>(num);
  r.den_ = static_cast<int64_t>(den);
  return r;
}

std::optional<Rational> Rational::parse(std::string_view s) {
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    Int128 v = 0;
    for (char c : s.substr(2)) {
      int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (std::tolower(c) - 'a' + 10);
      v = v * 16 + d;
      if (v > std::numeric_limits<int64_t>::max()) return std::nullopt;
    }
    return make(neg ? -v : v, 1);
  }
  constexpr Int128 kLimit = static_cast<Int128>(1) << 100;
  Int128 num = 0;
  Int128 den = 1;
  size_t i = 0;
  bool fraction = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '.') {
      fraction = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    num = num * 10 + (c - '0');
    if (fraction) den *= 10;
    if (num > kLimit || den > kLimit) return std::nullopt;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
    int exp = 0;
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) {
      exp = exp * 10 + (s[i] - '0');
      if (exp > 40) return std::nullopt;
    }
    for (int k = 0; k < exp; ++k) {
      Int128& target = eneg ? den : num;
      target *= 10;
      if (target > kLimit) return std::nullopt;
    }
  }
  return make(neg ? -num : num, den);
}

int64_t Rational::floor() const {
  int64_t q = num_ / den_;
  if (num_ % den_ != 0 && num_ < 0) --q;
  return q;
}

int64_t Rational::ceil() const {
  int64_t q = num_ / den_;
  if (num_ % den_ != 0 && num_ > 0) ++q;
  return q;
}

std::optional<Rational> Rational::add(const Rational& o) const {
  Int128 a, b, d;
  if (!mulBounded(num_, o.den_, a) || !mulBounded(o.num_, den_, b) ||
      !mulBounded(den_, o.den_, d))
    return std::nullopt;
  return make(a + b, d);
}

std::optional<Rational> Rational::sub(const Rational& o) const {
  Rational neg;
  neg.num_ = -o.num_;  // |num| < 2^63 so negation is safe except INT64_MIN
  neg.den_ = o.den_;
  if (o.num_ == std::numeric_limits<int64_t>::min()) return std::nullopt;
  return add(neg);
}

std::optional<Rational> Rational::mul(const Rational& o) const {
  Int128 n, d;
  if (!mulBounded(num_, o.num_, n) || !mulBounded(den_, o.den_, d)) return std::nullopt;
  return make(n, d);
}

std::optional<Rational> Rational::div(const Rational& o) const {
  if (o.num_ == 0) return std::nullopt;
  Int128 n, d;
  if (!mulBounded(num_, o.den_, n) || !mulBounded(den_, o.num_, d)) return std::nullopt;
  return make(n, d);
}

std::string Rational::str() const {
  if (den_ == 1) return fmt::format("{}", num_);
  int64_t d = den_;
  int twos = 0, fives = 0;
  while (d % 2 == 0) d /= 2, ++twos;
  while (d % 5 == 0) d /= 5, ++fives;
  if (d == 1) {
    int digits = std::max(twos, fives);
    if (digits <= 18) {
      // Scale to an integer numerator over 10^digits and insert the point.
      Int128 scale = 1;
      for (int k = 0; k < digits; ++k) scale *= 10;
      Int128 scaled = static_cast<Int128>(num_) * (scale / den_);
      bool neg = scaled < 0;
      if (neg) scaled = -scaled;
      std::string s;
      while (scaled > 0) {
        s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(scaled % 10)));
        scaled /= 10;
      }
      while (s.size() <= static_cast<size_t>(digits)) s.insert(s.begin(), '0');
      s.insert(s.end() - digits, '.');
      while (s.back() == '0') s.pop_back();
      if (s.back() == '.') s.pop_back();
      return neg ? "-" + s : s;
    }
  }
  return fmt::format("{:.6g}", toDouble());
}

}  // namespace ndl
