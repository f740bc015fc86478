#include "compiler/support/EditDistance.h"

#include <algorithm>
#include <cctype>

namespace ndl {

// Optimal string alignment distance: Levenshtein plus adjacent
// transpositions, the commonest typo ("Torsu" for "Torus").
size_t editDistance(std::string_view a, std::string_view b) {
  const size_t w = b.size() + 1;
  std::vector<size_t> d((a.size() + 1) * w);
  for (size_t i = 0; i <= a.size(); ++i) d[i * w] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      size_t v = std::min({d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1, d[(i - 1) * w + j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        v = std::min(v, d[(i - 2) * w + j - 2] + 1);
      d[i * w + j] = v;
    }
  }
  return d[a.size() * w + b.size()];
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
