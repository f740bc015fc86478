#include "ndl/runtime/output_file.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace ndl::rt {

bool writeFileAtomically(const std::string& path, const std::string& text, std::string* error) {
  return writeFileAtomically(
      path, [&](std::FILE* f) { std::fwrite(text.data(), 1, text.size(), f); }, error);
}

bool writeFileAtomically(const std::string& path, const std::function<void(std::FILE*)>& write,
                         std::string* error) {
  const std::string tmp = fmt::format("{}.tmp-{}", path, ::getpid());
  auto fail = [&](int err) {
    if (error) *error = fmt::format("cannot write '{}': {}", path, std::strerror(err));
    std::remove(tmp.c_str());
    return false;
  };
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) return fail(errno);
  errno = 0;
  write(f);
  int err = std::ferror(f) ? (errno != 0 ? errno : EIO) : 0;
  // Buffered data reaches the file system only here: a full disk shows now, not later.
  if (std::fflush(f) != 0 && err == 0) err = errno;
  if (std::fclose(f) != 0 && err == 0) err = errno;
  if (err != 0) return fail(err);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) return fail(errno);
  return true;
}

}  // namespace ndl::rt
