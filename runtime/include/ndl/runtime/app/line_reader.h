// The line readers' common ground: the pattern reader (docs/workloads.md) and the message
// trace reader (docs/workloads.md, "Message traces") read one directive per line, split into
// blank-separated tokens with `;` comments, and report positioned errors with the same
// numbers and units (sizes in bits, times in picoseconds, exactly).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ndl/runtime/app/pattern.h"

namespace ndl::rt::lines {

inline constexpr size_t kMaxErrors = 20;
__extension__ using Int128 = __int128;  // exact quantities: mantissa times unit

struct Token {
  std::string_view text;
  uint32_t col = 1;
};

inline size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

struct Unit {
  std::string_view name;
  int64_t scale;  // bits, or picoseconds
};
inline constexpr std::array<Unit, 4> kSizeUnits = {
    {{"bit", 1}, {"byte", 8}, {"Kbyte", 8 * 1024}, {"Mbyte", 8 * 1024 * 1024}}};
inline constexpr std::array<Unit, 10> kTimeUnits = {{{"sec", 1000000000000},
                                             {"s", 1000000000000},
                                             {"msec", 1000000000},
                                             {"ms", 1000000000},
                                             {"usec", 1000000},
                                             {"us", 1000000},
                                             {"nsec", 1000},
                                             {"ns", 1000},
                                             {"psec", 1},
                                             {"ps", 1}}};


class LineReader {
 public:
  bool full() const { return errors_.size() >= kMaxErrors; }

 protected:
  LineReader(const PatternLimits& limits, std::vector<PatternError>& errors)
      : limits_(limits), errors_(errors) {}

  // Splits line `number` into tokens (a UTF-8 byte-order mark on line 1 skipped); false if it
  // holds none (blank, or only a comment).
  bool tokenize(std::string_view text, uint32_t number) {
    if (number == 1 && text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // UTF-8 BOM
    line_ = number;
    text_ = text;
    tokens_.clear();
    size_t i = 0;
    while (i < text.size()) {
      if (text[i] == ';') break;
      if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r') {
        ++i;
        continue;
      }
      const size_t start = i;
      while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != '\r' &&
             text[i] != ';')
        ++i;
      tokens_.push_back({text.substr(start, i - start), static_cast<uint32_t>(start + 1)});
    }
    return !tokens_.empty();
  }

  void error(PatternErrorKind kind, uint32_t line, uint32_t col, size_t length,
             std::string message, std::string hint, std::string_view text) {
    if (errors_.size() >= kMaxErrors) return;
    PatternError e;
    e.kind = kind;
    e.line = line;
    e.col = col;
    e.length = static_cast<uint32_t>(std::max<size_t>(1, length));
    e.message = std::move(message);
    e.hint = std::move(hint);
    e.text = std::string(text);
    errors_.push_back(std::move(e));
  }
  void error(PatternErrorKind kind, const Token& at, std::string message, std::string hint) {
    error(kind, line_, at.col, at.text.size(), std::move(message), std::move(hint), text_);
  }

  bool arity(size_t min, size_t max, std::string_view usage) {
    if (tokens_.size() - 1 >= min && tokens_.size() - 1 <= max) return true;
    const Token& at = tokens_.size() - 1 > max ? tokens_[max + 1] : tokens_[0];
    error(PatternErrorKind::kSyntax, at,
          tokens_.size() - 1 > max ? fmt::format("unexpected '{}' after {}", at.text,
                                                 tokens_[0].text)
                                   : fmt::format("{} needs more operands", tokens_[0].text),
          fmt::format("write `{}`", usage));
    return false;
  }

  // A non-negative integer; false (reported) if it is not one or exceeds max.
  bool integer(const Token& t, int64_t max, std::string_view what, int64_t* out) {
    int64_t v = 0;
    if (t.text.empty()) {
      error(PatternErrorKind::kSyntax, t, fmt::format("{} is missing", what),
            "write a whole number such as 3");
      return false;
    }
    for (char ch : t.text) {
      if (ch < '0' || ch > '9') {
        error(PatternErrorKind::kSyntax, t, fmt::format("'{}' is not {}", t.text, what),
              "write a whole number such as 3");
        return false;
      }
      v = v * 10 + (ch - '0');
      if (v > max) {
        error(PatternErrorKind::kSize, t, fmt::format("{} {} is out of range", what, t.text),
              fmt::format("at most {}", max));
        return false;
      }
    }
    *out = v;
    return true;
  }

  // A quantity "2.5usec": value * scale of its unit, exactly, as an integer.
  template <size_t K>
  bool quantity(const Token& t, const std::array<Unit, K>& units, std::string_view what,
                std::string_view example, int64_t* out) {
    size_t i = 0;
    Int128 mantissa = 0;
    int64_t decimals = 0;
    bool digits = false, point = false, huge = false, inexact = false;
    for (; i < t.text.size(); ++i) {
      const char ch = t.text[i];
      if (ch >= '0' && ch <= '9') {
        digits = true;
        // Past 2^80 (times a unit of at most 2^40, still within 128 bits) the value is too
        // large anyway; past 30 decimals it is not a whole number of the unit's base.
        if (!point && mantissa >= (Int128{1} << 80)) {
          huge = true;
        } else if (point && (decimals >= 30 || mantissa >= (Int128{1} << 80))) {
          inexact = inexact || ch != '0';
        } else {
          mantissa = mantissa * 10 + (ch - '0');
          if (point) ++decimals;
        }
      } else if (ch == '.' && !point) {
        point = true;
      } else {
        break;
      }
    }
    const std::string_view unit = t.text.substr(i);
    const Unit* u = nullptr;
    for (const Unit& c : units)
      if (c.name == unit) u = &c;
    if (!digits || !u) {
      std::string names;
      for (const Unit& c : units) names += fmt::format("{}{}", names.empty() ? "" : ", ", c.name);
      error(PatternErrorKind::kSyntax, t,
            !digits          ? fmt::format("'{}' is not {}", t.text, what)
            : unit.empty()   ? fmt::format("'{}' has no unit", t.text)
                             : fmt::format("'{}' is not a unit of {}", unit, what),
            fmt::format("write {} such as {} (units: {})", what, example, names));
      return false;
    }
    Int128 v = mantissa * u->scale;
    Int128 div = 1;
    for (int64_t d = 0; d < decimals; ++d) div *= 10;
    if (inexact || v % div != 0) {
      error(PatternErrorKind::kSize, t,
            fmt::format("{} is not a whole number of {}", t.text,
                        units.size() == kSizeUnits.size() ? "bits" : "picoseconds"),
            fmt::format("round it to whole {}", units.size() == kSizeUnits.size() ? "bits" : "ps"));
      return false;
    }
    v /= div;
    if (huge || v > kPatternMaxValue) {
      error(PatternErrorKind::kSize, t, fmt::format("{} {} is too large", what, t.text),
            "sizes are at most 2^55 bits and times at most 2^55 ps (10 hours)");
      return false;
    }
    *out = static_cast<int64_t>(v);
    return true;
  }

  bool size(const Token& t, int64_t* bits) {
    if (!quantity(t, kSizeUnits, "a size", "64byte", bits)) return false;
    if (*bits < 1 || *bits > limits_.max_bits) {
      error(PatternErrorKind::kSize, t,
            fmt::format("message size {} is out of range: {} bits", t.text, *bits),
            *bits < 1 ? std::string("a message carries at least 1 bit")
                      : fmt::format("at most {} bits: {}", limits_.max_bits,
                                    limits_.max_bits_reason));
      return false;
    }
    return true;
  }

  const PatternLimits& limits_;
  std::vector<PatternError>& errors_;
  uint32_t line_ = 0;
  std::string_view text_;
  std::vector<Token> tokens_;
};

}  // namespace ndl::rt::lines
