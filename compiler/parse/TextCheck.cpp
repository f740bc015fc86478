#include "compiler/parse/TextCheck.h"

#include <fmt/format.h>

namespace ndl::parse {
namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 if it is invalid
// (overlong forms, surrogates and values above U+10FFFF are invalid).
size_t validSequence(const std::string& s, size_t i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

}  // namespace

std::string sanitizeText(const std::string& bytes, FileId file, DiagnosticEngine& diags) {
  std::string out;
  out.reserve(bytes.size());
  uint32_t line = 1, col = 1;
  bool sawNul = false, sawBad = false;
  size_t i = 0;
  if (bytes.compare(0, 3, "\xEF\xBB\xBF") == 0) {
    out += ' ';
    i = 3;
    col = 2;
  }
  while (i < bytes.size()) {
    unsigned char c = static_cast<unsigned char>(bytes[i]);
    if (c == 0) {
      if (!sawNul) {
        diags.report(DiagKind::NulByte, {file, line, col, line, col + 1},
                     "NUL byte in source text")
            .withHint("NDL files are UTF-8 text; is this a binary file?");
        sawNul = true;
      }
      out += ' ';
      ++i;
      ++col;
      continue;
    }
    size_t n = validSequence(bytes, i);
    if (n == 0) {
      if (!sawBad) {
        diags.report(DiagKind::InvalidUtf8, {file, line, col, line, col + 1},
                     fmt::format("invalid UTF-8 byte 0x{:02X} in source text", c))
            .withHint("save the file as UTF-8");
        sawBad = true;
      }
      out += '?';
      ++i;
      ++col;
      continue;
    }
    out.append(bytes, i, n);
    i += n;
    if (c == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return out;
}

}  // namespace ndl::parse
