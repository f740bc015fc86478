#include "compiler/driver/WriteFile.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace ndl::driver {

namespace fs = std::filesystem;

std::string writeFileWhole(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  std::error_code ec;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return std::strerror(errno);
    out << text;
    out.close();
    if (!out) {
      fs::remove(tmp, ec);
      return "the write failed (is the disk full?)";
    }
  }
  fs::file_status old = fs::status(path, ec);
  if (!ec && fs::exists(old)) fs::permissions(tmp, old.permissions(), ec);
  fs::rename(tmp, path, ec);
  if (ec) {
    std::string why = ec.message();
    fs::remove(tmp, ec);
    return why;
  }
  return "";
}

}  // namespace ndl::driver
