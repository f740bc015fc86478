// `ndlc pattern`: writers of .cpf communication patterns (docs/workloads.md) for the
// applications INSIGHT ran (PDE, sort, matrix multiply) and the usual micro-benchmarks
// (ping-pong, barrier, all-to-all). Each writes text only; the command reads its output back
// with the simulators' reader before saving it.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace ndl::driver {

// The kinds of pattern, and the options of `ndlc pattern` that apply to some kinds only: an
// option given with another kind would change nothing and is refused (a usage error).
inline constexpr std::string_view kPatternKinds[] = {"pde",      "sort",    "matrix",
                                                     "pingpong", "barrier", "alltoall"};
struct PatternOption {
  std::string_view flag;
  std::string_view kinds[3];  // the kinds it applies to; empty: every kind
};
inline constexpr PatternOption kPatternOptions[] = {
    {"--size", {}},
    {"--iterations", {}},
    {"--compute", {"pde", "matrix", "sort"}},
    {"--grid", {"pde"}},
    {"--from", {"pingpong"}},
    {"--to", {"pingpong"}},
    {"--algorithm", {"barrier"}},
};

struct PatternSpec {
  std::string kind;               // pde, sort, matrix, pingpong, barrier, alltoall
  int64_t nodes = 0;
  std::vector<int64_t> grid;      // pde: X,Y or X,Y,Z (default: square 2-D)
  int64_t iterations = 0;         // 0: the kind's default
  std::string size;               // message (block, halo, key set) size as written, "" default
  std::string compute;            // compute time per step as written, "" default
  int64_t from = 0, to = -1;      // pingpong (to -1: the last node)
  std::string algorithm;          // barrier: dissemination (default) or tree
  std::string command;            // the command line, written as the file's first comment
  std::vector<std::string> given;  // the options of kPatternOptions on the command line
};

// Writes the pattern; returns "" or what is wrong with the spec.
std::string writePattern(const PatternSpec& spec, std::ostream& out);

}  // namespace ndl::driver
