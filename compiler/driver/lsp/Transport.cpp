#include "compiler/driver/lsp/Transport.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>

namespace ndl::lsp {

namespace {

// A body larger than this is not an editor's message: refused rather than buffered.
constexpr size_t kMaxBody = 256u << 20;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

bool Transport::fill(bool block) {
  if (closed_) return false;
  pollfd p{in_, POLLIN, 0};
  if (!block && ::poll(&p, 1, 0) <= 0) return true;
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::read(in_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    closed_ = true;
    return false;
  }
}

bool Transport::pending() {
  if (!buffer_.empty()) return true;
  fill(false);
  return !buffer_.empty();
}

Transport::Read Transport::next() {
  for (;;) {
    const size_t end = buffer_.find("\r\n\r\n");
    if (end == std::string::npos) {
      if (!fill(true)) return {Status::Closed, {}, {}};
      continue;
    }
    std::string_view header(buffer_.data(), end);
    std::optional<size_t> length;
    std::string error;
    while (!header.empty()) {
      const size_t eol = header.find("\r\n");
      std::string_view line = header.substr(0, eol);
      header = eol == std::string_view::npos ? std::string_view() : header.substr(eol + 2);
      const size_t colon = line.find(':');
      if (colon == std::string_view::npos) continue;
      std::string_view name = trim(line.substr(0, colon));
      if (name.size() != 14 || !std::equal(name.begin(), name.end(), "Content-Length",
                                           [](char a, char b) { return (a | 0x20) == (b | 0x20); }))
        continue;  // Content-Type and the like carry nothing the server needs
      std::string_view value = trim(line.substr(colon + 1));
      size_t n = 0;
      auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || ptr != value.data() + value.size() || n > kMaxBody)
        error = "Content-Length '" + std::string(value) + "' is not a length";
      else
        length = n;
    }
    if (!length) {
      buffer_.erase(0, end + 4);
      return {Status::Malformed, {}, error.empty() ? "a header without Content-Length" : error};
    }
    const size_t start = end + 4;
    while (buffer_.size() < start + *length)
      if (!fill(true)) return {Status::Closed, {}, {}};
    Read r{Status::Message, buffer_.substr(start, *length), {}};
    buffer_.erase(0, start + *length);
    return r;
  }
}

void Transport::send(std::string_view json) {
  std::string framed = "Content-Length: " + std::to_string(json.size()) + "\r\n\r\n";
  framed.append(json);
  std::string_view rest(framed);
  while (!rest.empty()) {
    const ssize_t n = ::write(out_, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the client has gone; the next read sees the end
    rest.remove_prefix(static_cast<size_t>(n));
  }
}

}  // namespace ndl::lsp
