// Where things are, in the protocol's terms and in the compiler's: LSP positions count lines
// from 0 and characters in UTF-16 code units; SourceRange counts lines and columns from 1 and
// columns in code points (SourceRange.h). Documents are named by URIs; files on disk by paths.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ndl::lsp {

// The UTF-16 length of the first `codePoints` code points of `line` (the whole line if it has
// fewer), and back: the code points covering the first `units` UTF-16 units.
uint32_t utf16Units(std::string_view line, uint32_t codePoints);
uint32_t codePoints(std::string_view line, uint32_t units);

// Line `line` (0-based) of a text without its terminator; "" past the end.
std::string_view lineOf(std::string_view text, uint32_t line);

// The byte offset in `text` of code point `column` (0-based) of line `line` (0-based): the
// line's end if it is shorter, the text's end if there are fewer lines.
size_t byteOffset(std::string_view text, uint32_t line, uint32_t column);

// A file: URI's path, percent-decoded; nullopt for other schemes (untitled:, a client's own).
std::optional<std::filesystem::path> uriToPath(std::string_view uri);
std::string pathToUri(const std::filesystem::path& path);

}  // namespace ndl::lsp
