#include "compiler/support/EditDistance.h"

#include <algorithm>
#include <cctype>

namespace ndl {

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

namespace {
bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}
}  // namespace

std::string closestMatch(std::string_view word, const std::vector<std::string_view>& candidates) {
  for (std::string_view c : candidates)
    if (equalsIgnoreCase(word, c)) return std::string(c);
  // Long garbage (a generated file) is never a typo; skip the quadratic work.
  if (word.size() > 64) return "";
  size_t limit = std::max<size_t>(1, word.size() / 3);
  std::string best;
  size_t bestDist = limit + 1;
  for (std::string_view c : candidates) {
    size_t d = editDistance(word, c);
    if (d < bestDist) {
      bestDist = d;
      best = std::string(c);
    }
  }
  return best;
}

}  // namespace ndl
