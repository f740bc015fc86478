// Result files written whole or not at all: the text goes to a temporary file
// beside the target, which is renamed over it once complete, so a reader (a
// sweep, a plot script) never sees half a JSON file, whatever ends the run.
#pragma once

#include <cstdio>
#include <functional>
#include <string>

namespace ndl::rt {

// False with `error` set ("cannot write 'PATH': REASON"), and nothing left behind,
// when the directory is missing or unwritable or the disk is full.
bool writeFileAtomically(const std::string& path, const std::string& text, std::string* error);
// The same for text too large to hold at once: `write` writes it to the file in parts.
bool writeFileAtomically(const std::string& path, const std::function<void(std::FILE*)>& write,
                         std::string* error);

}  // namespace ndl::rt
