// Compiler bugs, as opposed to user errors (Diagnostics.h). An internal
// error is thrown, caught once in the driver and reported as a bug with its
// context; it never goes through the diagnostics engine.
#pragma once

#include <stdexcept>
#include <string>

namespace ndl {

class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

[[noreturn]] inline void internalError(const std::string& what) { throw InternalError(what); }

// Checks an invariant of the compiler itself.
inline void internalAssert(bool ok, const char* what) {
  if (!ok) internalError(what);
}

}  // namespace ndl
