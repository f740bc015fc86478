#include "compiler/support/SourceManager.h"

namespace ndl {

SourceManager::SourceManager() { files_.push_back(File{"<command line>", "", "", {0}}); }

FileId SourceManager::addBuffer(std::string displayName, std::string canonicalPath,
                                std::string text) {
  files_.push_back(File{std::move(displayName), std::move(canonicalPath), "", {0}});
  FileId id = static_cast<FileId>(files_.size() - 1);
  setText(id, std::move(text));
  return id;
}

void SourceManager::setText(FileId id, std::string text) {
  File& f = files_[id];
  f.text = std::move(text);
  f.lineStarts.assign(1, 0);
  for (uint32_t i = 0; i < f.text.size(); ++i) {
    // Only '\n' ends a line ("\r\n" included), as in ANTLR's lexer.
    if (f.text[i] == '\n') f.lineStarts.push_back(i + 1);
  }
}

std::string_view SourceManager::line(FileId id, uint32_t line) const {
  if (id >= files_.size()) return {};
  const File& f = files_[id];
  if (line == 0 || line > f.lineStarts.size()) return {};
  size_t begin = f.lineStarts[line - 1];
  size_t end = line < f.lineStarts.size() ? f.lineStarts[line] : f.text.size();
  std::string_view s(f.text.data() + begin, end - begin);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace ndl
