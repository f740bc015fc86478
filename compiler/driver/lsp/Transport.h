// The Language Server Protocol's base layer over two file descriptors: messages framed by a
// `Content-Length` header, read into a buffer of our own so that the server can ask whether
// another message is already waiting (it then handles it before re-checking a document).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ndl::lsp {

class Transport {
 public:
  Transport(int in, int out) : in_(in), out_(out) {}

  enum class Status { Message, Malformed, Closed };
  struct Read {
    Status status;
    std::string body;   // Message: the JSON text
    std::string error;  // Malformed: what was wrong with the header
  };
  // The next message, blocking until one has arrived. A header without a usable
  // Content-Length is Malformed (its bytes up to the blank line are dropped); the end of the
  // input, or a body cut short by it, is Closed.
  Read next();
  // True when next() would not block: a whole message is buffered or bytes are waiting.
  bool pending();
  void send(std::string_view json);

 private:
  bool fill(bool block);  // reads what is available into buffer_; false at the end of input
  int in_, out_;
  std::string buffer_;
  bool closed_ = false;
};

}  // namespace ndl::lsp
