#include "compiler/driver/lsp/Positions.h"

#include <fmt/format.h>

#include <algorithm>

namespace ndl::lsp {

namespace {

// The byte length of the UTF-8 sequence a lead byte starts (1 for a stray continuation byte,
// which the loader has already replaced in a checked text).
size_t sequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

uint32_t utf16Units(std::string_view line, uint32_t points) {
  uint32_t units = 0;
  for (size_t i = 0; i < line.size() && points > 0; --points) {
    const size_t n = sequenceLength(static_cast<unsigned char>(line[i]));
    units += n == 4 ? 2 : 1;  // outside the basic plane: a surrogate pair
    i += n;
  }
  return units;
}

uint32_t codePoints(std::string_view line, uint32_t units) {
  uint32_t points = 0;
  for (size_t i = 0; i < line.size() && units > 0; ++points) {
    const size_t n = sequenceLength(static_cast<unsigned char>(line[i]));
    units -= std::min<uint32_t>(units, n == 4 ? 2 : 1);
    i += n;
  }
  return points;
}

std::string_view lineOf(std::string_view text, uint32_t line) {
  size_t start = 0;
  for (uint32_t k = 0; k < line; ++k) {
    const size_t eol = text.find('\n', start);
    if (eol == std::string_view::npos) return {};
    start = eol + 1;
  }
  std::string_view rest = text.substr(start);
  rest = rest.substr(0, rest.find('\n'));
  if (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
  return rest;
}

size_t byteOffset(std::string_view text, uint32_t line, uint32_t column) {
  size_t i = 0;
  for (uint32_t k = 0; k < line; ++k) {
    const size_t eol = text.find('\n', i);
    if (eol == std::string_view::npos) return text.size();
    i = eol + 1;
  }
  for (uint32_t p = 0; p < column && i < text.size() && text[i] != '\n'; ++p)
    i += sequenceLength(static_cast<unsigned char>(text[i]));
  return std::min(i, text.size());
}

std::optional<std::filesystem::path> uriToPath(std::string_view uri) {
  constexpr std::string_view kScheme = "file://";
  if (!uri.starts_with(kScheme)) return std::nullopt;
  uri.remove_prefix(kScheme.size());
  if (const size_t slash = uri.find('/'); slash != 0) {
    // file://host/path: only the local host names this machine's files
    if (slash == std::string_view::npos || uri.substr(0, slash) != "localhost") return std::nullopt;
    uri.remove_prefix(slash);
  }
  std::string path;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && hexValue(uri[i + 1]) >= 0 &&
        hexValue(uri[i + 2]) >= 0) {
      path += static_cast<char>(hexValue(uri[i + 1]) * 16 + hexValue(uri[i + 2]));
      i += 2;
    } else if (uri[i] == '?' || uri[i] == '#') {
      break;
    } else {
      path += uri[i];
    }
  }
  return std::filesystem::path(path);
}

std::string pathToUri(const std::filesystem::path& path) {
  std::string uri = "file://";
  for (unsigned char c : path.string()) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        c == '/' || c == '-' || c == '_' || c == '.' || c == '~')
      uri += static_cast<char>(c);
    else
      uri += fmt::format("%{:02X}", c);
  }
  return uri;
}

}  // namespace ndl::lsp
