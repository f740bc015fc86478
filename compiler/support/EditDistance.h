// "Did you mean ...?" suggestions for misspelled form, enum and unit names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ndl {

// Edit distance counting insertions, deletions, substitutions and adjacent
// transpositions; case-sensitive.
size_t editDistance(std::string_view a, std::string_view b);

// The candidate closest to `word`, or "" if none is close enough to be a
// plausible typo. A case-insensitive exact match always wins ("Mhz" ->
// "MHz"); otherwise the distance may be at most a third of the word.
std::string closestMatch(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace ndl
