#include "ndl/runtime/stats/output_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ndl::rt {
namespace {

constexpr int kMaxLinks = 40;  // as the kernel's own limit on a path's symbolic links

std::string cannotWrite(const std::string& path, int err) {
  return fmt::format("cannot write '{}': {}", path, std::strerror(err));
}

// N of "/proc/PID/fd/N" with PID this process: a descriptor it holds open, or -1.
int ownDescriptor(const std::string& canonical) {
  const std::string prefix = fmt::format("/proc/{}/fd/", ::getpid());
  if (canonical.compare(0, prefix.size(), prefix) != 0) return -1;
  const std::string n = canonical.substr(prefix.size());
  if (n.empty() || n.size() > 9 || n.find_first_not_of("0123456789") != std::string::npos) {
    return -1;
  }
  return std::atoi(n.c_str());
}

// Writes through `f`, then closes it; the first error, or 0.
int writeAndClose(std::FILE* f, const std::function<void(std::FILE*)>& write) {
  errno = 0;
  write(f);
  int err = std::ferror(f) ? (errno != 0 ? errno : EIO) : 0;
  // Buffered data reaches the file only here: a full disk or a closed pipe shows now.
  if (std::fflush(f) != 0 && err == 0) err = errno;
  if (std::fclose(f) != 0 && err == 0) err = errno;
  return err;
}

bool writeReplacing(const std::string& given, const std::string& target,
                    const std::function<void(std::FILE*)>& write, std::string* error) {
  const std::string tmp = fmt::format("{}.tmp-{}", target, ::getpid());
  auto fail = [&](int err) {
    if (error) *error = cannotWrite(given, err);
    ::unlink(tmp.c_str());
    return false;
  };
  // Made anew (O_EXCL): whatever was left at the temporary name is not written through.
  ::unlink(tmp.c_str());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) return fail(errno);
  // A file replaced keeps its permissions (a results file made read-only for others stays so).
  struct stat old {};
  if (::stat(target.c_str(), &old) == 0) ::fchmod(fd, old.st_mode & 07777);
  std::FILE* f = ::fdopen(fd, "wb");
  if (!f) {
    const int err = errno;
    ::close(fd);
    return fail(err);
  }
  if (const int err = writeAndClose(f, write); err != 0) return fail(err);
  if (std::rename(tmp.c_str(), target.c_str()) != 0) return fail(errno);
  return true;
}

}  // namespace

bool resolveOutputTarget(const std::string& path, OutputTarget& target, std::string* error) {
  auto fail = [&](const std::string& message) {
    if (error) *error = message;
    return false;
  };
  if (path.empty()) return fail("cannot write '': no file name");
  const std::string directory_hint = fmt::format("\nhint: name a file, e.g. '{}{}results.json'",
                                                 path, path.back() == '/' ? "" : "/");
  // "out/" names a directory whatever follows; lstat says which.
  if (path.back() == '/') {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return fail(cannotWrite(path, errno));
    return fail(cannotWrite(path, S_ISDIR(st.st_mode) ? EISDIR : ENOTDIR) +
                (S_ISDIR(st.st_mode) ? directory_hint : ""));
  }
  std::string cur = path;
  for (int links = 0; links <= kMaxLinks; ++links) {
    // The directory made canonical, so that a descriptor link reached through /dev/stdout or
    // /dev/fd shows as /proc/PID/fd/N, and a relative link resolves against it.
    const size_t slash = cur.rfind('/');
    const std::string dir = slash == std::string::npos ? "."
                            : slash == 0               ? "/"
                                                       : cur.substr(0, slash);
    const std::string base = slash == std::string::npos ? cur : cur.substr(slash + 1);
    char buf[PATH_MAX];
    if (::realpath(dir.c_str(), buf) == nullptr) return fail(cannotWrite(path, errno));
    const std::string canonical_dir = buf;
    cur = (canonical_dir == "/" ? "" : canonical_dir) + "/" + base;
    struct stat st {};
    if (::lstat(cur.c_str(), &st) != 0) {
      if (errno != ENOENT) return fail(cannotWrite(path, errno));
      target = {OutputTarget::Way::kReplace, cur, -1};  // a new file (or a dangling link's)
      return true;
    }
    if (S_ISLNK(st.st_mode)) {
      if (const int fd = ownDescriptor(cur); fd >= 0) {
        target = {OutputTarget::Way::kDescriptor, cur, fd};
        return true;
      }
      // Another process's descriptor, or some other /proc entry: its link text ("pipe:[7]")
      // is no path; opening the link itself reaches the file.
      if (cur.compare(0, 6, "/proc/") == 0) {
        target = {OutputTarget::Way::kInPlace, cur, -1};
        return true;
      }
      const ssize_t n = ::readlink(cur.c_str(), buf, sizeof buf - 1);
      if (n < 0) return fail(cannotWrite(path, errno));
      const std::string link(buf, static_cast<size_t>(n));
      cur = link.front() == '/' ? link : canonical_dir + "/" + link;
      continue;
    }
    if (S_ISREG(st.st_mode)) {
      target = {OutputTarget::Way::kReplace, cur, -1};
      return true;
    }
    if (S_ISDIR(st.st_mode)) return fail(cannotWrite(path, EISDIR) + directory_hint);
    target = {OutputTarget::Way::kInPlace, cur, -1};  // FIFO, device, socket
    return true;
  }
  return fail(cannotWrite(path, ELOOP));
}

bool writeOutputFile(const std::string& path, const std::string& text, std::string* error) {
  return writeOutputFile(
      path, [&](std::FILE* f) { std::fwrite(text.data(), 1, text.size(), f); }, error);
}

bool writeOutputFile(const std::string& path, const std::function<void(std::FILE*)>& write,
                     std::string* error) {
  OutputTarget target;
  if (!resolveOutputTarget(path, target, error)) return false;
  if (target.way == OutputTarget::Way::kReplace) {
    return writeReplacing(path, target.path, write, error);
  }
  int fd = -1;
  if (target.way == OutputTarget::Way::kDescriptor) {
    // What this process already wrote there (the report on stdout) comes first.
    std::fflush(nullptr);
    fd = ::fcntl(target.fd, F_DUPFD_CLOEXEC, 0);
  } else {
    // No O_CREAT: the file exists and is not replaced. A FIFO waits here for its reader.
    fd = ::open(target.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  }
  auto fail = [&](int err) {
    if (error) *error = cannotWrite(path, err);
    return false;
  };
  if (fd < 0) return fail(errno);
  std::FILE* f = ::fdopen(fd, "wb");
  if (!f) {
    const int err = errno;
    ::close(fd);
    return fail(err);
  }
  if (const int err = writeAndClose(f, write); err != 0) return fail(err);
  return true;
}

}  // namespace ndl::rt
