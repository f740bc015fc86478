// Source positions: every AST node and every diagnostic carries one.
#pragma once

#include <cstdint>

namespace ndl {

// Index of a file in the SourceManager. 0 means "no file" (command line).
using FileId = uint32_t;
inline constexpr FileId kNoFile = 0;

// A half-open range of characters in one file. Lines and columns are
// 1-based; columns count Unicode code points, as editors do.
struct SourceRange {
  FileId file = kNoFile;
  uint32_t line = 0;
  uint32_t col = 0;
  uint32_t endLine = 0;
  uint32_t endCol = 0;  // one past the last character

  bool valid() const { return file != kNoFile && line != 0; }

  // The smallest range covering both (same file assumed).
  static SourceRange cover(const SourceRange& a, const SourceRange& b) {
    if (!a.valid()) return b;
    if (!b.valid()) return a;
    SourceRange r = a;
    if (b.line < r.line || (b.line == r.line && b.col < r.col)) {
      r.line = b.line;
      r.col = b.col;
    }
    if (b.endLine > r.endLine || (b.endLine == r.endLine && b.endCol > r.endCol)) {
      r.endLine = b.endLine;
      r.endCol = b.endCol;
    }
    return r;
  }
};

}  // namespace ndl
