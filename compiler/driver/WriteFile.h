// Writing an output file whole or not at all: a temporary file beside it,
// then a rename, so that an interrupted or failed write never leaves half a
// file where a good one was.
#pragma once

#include <string>

namespace ndl::driver {

// Returns "" on success, else why the file could not be written. The new
// file takes the permissions of the one it replaces, if any.
std::string writeFileWhole(const std::string& path, const std::string& text);

}  // namespace ndl::driver
