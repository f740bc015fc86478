// Owns the text of every file the compiler reads (main files, imports,
// stdin) so that diagnostics can quote source lines long after parsing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/support/SourceRange.h"

namespace ndl {

class SourceManager {
 public:
  SourceManager();

  // Registers a buffer under a display name ("rdt.ndl", "<stdin>") and the
  // canonical path used to detect repeated imports ("" for stdin).
  FileId addBuffer(std::string displayName, std::string canonicalPath, std::string text);

  // Replaces a buffer's text (after encoding checks) and re-indexes lines.
  void setText(FileId id, std::string text);

  const std::string& name(FileId id) const { return files_[id].name; }
  const std::string& path(FileId id) const { return files_[id].path; }
  const std::string& text(FileId id) const { return files_[id].text; }

  // The 1-based line of a file without its line terminator, or "" if the
  // line does not exist.
  std::string_view line(FileId id, uint32_t line) const;

 private:
  struct File {
    std::string name;
    std::string path;
    std::string text;
    std::vector<uint32_t> lineStarts;  // byte offsets
  };
  std::vector<File> files_;
};

}  // namespace ndl
