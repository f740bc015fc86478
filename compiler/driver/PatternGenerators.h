// `ndlc pattern`: writers of .cpf communication patterns (docs/workloads.md) for the
// applications INSIGHT ran (PDE, sort, matrix multiply) and the usual micro-benchmarks
// (ping-pong, barrier, all-to-all). Each writes text only; the command reads its output back
// with the simulators' reader before saving it.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ndl::driver {

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
};

// Writes the pattern; returns "" or what is wrong with the spec.
std::string writePattern(const PatternSpec& spec, std::ostream& out);

}  // namespace ndl::driver
