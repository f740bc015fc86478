// Result files written whole or not at all: the text goes to a temporary file
// beside the target, which is renamed over it once complete, so a reader (a
// sweep, a plot script) never sees half a JSON file, whatever ends the run.
#pragma once

#include <string>

namespace ndl::rt {

// False with `error` set ("cannot write 'PATH': REASON"), and nothing left behind,
// when the directory is missing or unwritable or the disk is full.
bool writeFileAtomically(const std::string& path, const std::string& text, std::string* error);

}  // namespace ndl::rt
