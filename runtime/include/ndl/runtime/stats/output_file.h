// Result files (--json, the tables, ScreenOutputFile, DataOutputFile). A regular file or a new
// name is written whole or not at all: the text goes to a temporary file beside it, renamed
// over it once complete, so a reader (a sweep, a plot script) never sees half a file, whatever
// ends the run. A symbolic link is followed and its final target written so. Anything else
// that exists (a FIFO, /dev/null, a terminal, /dev/stdout) is written in place, never
// replaced: there is no whole-or-nothing for a stream.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

namespace ndl::rt {

// How a result file's path is written, once its symbolic links are followed.
struct OutputTarget {
  enum class Way : uint8_t {
    kReplace,     // a regular file or a new name: temporary file, then rename over `path`
    kInPlace,     // a FIFO, a device, a socket: opened and written where it is
    kDescriptor,  // this process's own open descriptor (/dev/stdout, /dev/fd/N): written to it
  };
  Way way = Way::kReplace;
  std::string path;  // kReplace: the link's final target; kInPlace: what to open
  int fd = -1;       // kDescriptor
};

// False with `error` set ("cannot write 'PATH': REASON", a hint on a second line) for a
// directory, a chain of too many links, or a directory of the path that is missing.
bool resolveOutputTarget(const std::string& path, OutputTarget& target, std::string* error);

// False with `error` set, and nothing left behind, when the file cannot be written: the
// directory is missing or unwritable, the disk (or /dev/full) is full, a reader closed the
// pipe. Written in place, what was written before the error stays.
bool writeOutputFile(const std::string& path, const std::string& text, std::string* error);
// The same for text too large to hold at once: `write` writes it to the file in parts.
bool writeOutputFile(const std::string& path, const std::function<void(std::FILE*)>& write,
                     std::string* error);

}  // namespace ndl::rt
