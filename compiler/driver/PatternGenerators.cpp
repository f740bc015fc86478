#include "compiler/driver/PatternGenerators.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ndl::driver {
namespace {

std::string orDefault(const std::string& v, const char* fallback) {
  return v.empty() ? fallback : v;
}

std::string offset(int64_t d) { return d >= 0 ? fmt::format("+{}", d) : fmt::format("{}", d); }

void nodes(std::ostream& out, int64_t a, int64_t b) {
  out << (a == b ? fmt::format("node {}\n", a) : fmt::format("node {}..{}\n", a, b));
}

// Nearest-neighbour exchange on a 2-D or 3-D grid without wrap-around (node = x + X*y + X*Y*z,
// a torus's numbering): per iteration every node computes, sends its halo to each neighbour
// and waits for each neighbour's. Nodes of one grid line with the same neighbours share a
// section (relative offsets), so a 64 x 64 grid is about 200 sections, not 4,096.
std::string pde(const PatternSpec& s, std::ostream& out) {
  std::vector<int64_t> g = s.grid;
  if (g.empty()) {
    const auto side = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(s.nodes))));
    if (side * side != s.nodes)
      return fmt::format("{} nodes are no square grid: give --grid X,Y or X,Y,Z", s.nodes);
    g = {side, side};
  }
  if (g.size() != 2 && g.size() != 3) return "--grid takes two or three sizes: X,Y or X,Y,Z";
  int64_t product = 1;
  for (int64_t k : g) {
    if (k < 1 || k > s.nodes) return fmt::format("--grid sizes must be 1 to {}", s.nodes);
    product *= k;  // at most nodes^3 < 2^63
  }
  if (product != s.nodes)
    return fmt::format("--grid {} has {} nodes, not {}", fmt::join(g, ","), product, s.nodes);
  const std::vector<int64_t> dims = g;
  while (g.size() < 3) g.push_back(1);
  const int64_t iterations = s.iterations > 0 ? s.iterations : 100;
  const std::string size = orDefault(s.size, "16byte");
  const std::string compute = orDefault(s.compute, "10usec");
  const int64_t stride[3] = {1, g[0], g[0] * g[1]};
  out << fmt::format("; PDE: {}-D grid {} without wrap-around, {} iterations of compute {} and "
                     "a {} halo to each neighbour\n",
                     dims.size(), fmt::join(dims, "x"),
                     iterations, compute, size);
  out << fmt::format("nodes {}\nrepeat {}\n", s.nodes, iterations);
  auto classes = [](int64_t n) {
    std::vector<std::pair<int64_t, int64_t>> c;  // x ranges with the same neighbours
    if (n == 1) return decltype(c){{0, 0}};
    c.push_back({0, 0});
    if (n > 2) c.push_back({1, n - 2});
    c.push_back({n - 1, n - 1});
    return c;
  };
  for (int64_t z = 0; z < g[2]; ++z) {
    for (int64_t y = 0; y < g[1]; ++y) {
      for (auto [x0, x1] : classes(g[0])) {
        const int64_t base = y * stride[1] + z * stride[2];
        nodes(out, base + x0, base + x1);
        out << "  compute " << compute << "\n";
        const int64_t at[3] = {x0, y, z};
        std::vector<std::pair<int64_t, int>> dirs;  // (offset, tag of the direction sent)
        for (int d = 0; d < 3; ++d) {
          if (at[d] < g[d] - 1) dirs.push_back({stride[d], 2 * d});
          if (at[d] > 0) dirs.push_back({-stride[d], 2 * d + 1});
        }
        for (auto [off, tag] : dirs) out << fmt::format("  send {} {} tag {}\n", offset(off), size, tag);
        // The neighbour at +d sent its -d halo (tag 2d+1), and the one at -d its +d halo.
        for (auto [off, tag] : dirs) out << fmt::format("  recv {} tag {}\n", offset(off), tag ^ 1);
      }
    }
  }
  out << "end\n";
  return "";
}

// Cannon's matrix multiply on a q x q grid of nodes (node = column + q * row), after the
// initial alignment: q steps of a block multiply, then A's block to the left neighbour and
// B's block to the one above, both with wrap-around.
std::string matrix(const PatternSpec& s, std::ostream& out) {
  const auto q = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(s.nodes))));
  if (q * q != s.nodes) return fmt::format("Cannon's algorithm needs a square node count, not {}", s.nodes);
  const std::string size = orDefault(s.size, "256byte");
  const std::string compute = orDefault(s.compute, "100usec");
  const int64_t steps = s.iterations > 0 ? s.iterations : q;
  out << fmt::format("; matrix multiply (Cannon) on a {}x{} node grid: {} steps of a {} block "
                     "multiply and {} blocks shifted left (A) and up (B)\n",
                     q, q, steps, compute, size);
  out << fmt::format("nodes {}\nrepeat {}\n", s.nodes, steps);
  std::vector<std::pair<int64_t, int64_t>> columns = {{0, 0}};  // same neighbours
  if (q > 2) columns.push_back({1, q - 2});
  if (q > 1) columns.push_back({q - 1, q - 1});
  for (int64_t row = 0; row < q; ++row) {
    const int64_t up = row == 0 ? (q - 1) * q : -q;       // the row above, wrapping
    const int64_t below = row == q - 1 ? -(q - 1) * q : q;
    for (auto [c0, c1] : columns) {
      const int64_t left = c0 == 0 ? q - 1 : -1;
      const int64_t right = c1 == q - 1 ? -(q - 1) : 1;
      nodes(out, row * q + c0, row * q + c1);
      out << "  compute " << compute << "\n";
      out << fmt::format("  send {} {} tag 1\n  send {} {} tag 2\n", offset(left), size,
                         offset(up), size);
      // A's block comes from the right neighbour, B's from the one below.
      out << fmt::format("  recv {} tag 1\n  recv {} tag 2\n", offset(right), offset(below));
    }
  }
  out << "end\n";
  return "";
}

// Bitonic sort (Batcher) of a key block per node, N a power of two: a local sort, then
// log2 N (log2 N + 1) / 2 merge-split steps; in the step of bit j every node exchanges its
// block with node n XOR 2^j and keeps one half (a compute of --compute each). The two sides of
// each step are `node mask` sections, so the file has a few lines per step at any size.
std::string sort(const PatternSpec& s, std::ostream& out) {
  if ((s.nodes & (s.nodes - 1)) != 0)
    return fmt::format("bitonic sort needs a power-of-two node count, not {}", s.nodes);
  const std::string size = orDefault(s.size, "128byte");  // one node's keys
  const std::string compute = orDefault(s.compute, "10usec");
  const int64_t rounds = s.iterations > 0 ? s.iterations : 1;
  int log = 0;
  while ((int64_t{1} << log) < s.nodes) ++log;
  out << fmt::format("; bitonic sort on {} nodes: blocks of {}, {} merge-split steps of {} "
                     "after a local sort\n",
                     s.nodes, size, log * (log + 1) / 2, compute);
  out << fmt::format("nodes {}\nrepeat {}\nnode all\n  compute {}\n", s.nodes, rounds, compute);
  int step = 0;
  for (int k = 1; k <= log; ++k) {
    for (int j = k - 1; j >= 0; --j, ++step) {
      const int64_t d = int64_t{1} << j;
      for (int side = 0; side < 2; ++side) {
        const std::string peer = side == 0 ? fmt::format("+{}", d) : fmt::format("-{}", d);
        out << fmt::format("node mask {} {}\n  send {} {} tag {}\n  recv {} tag {}\n  compute {}\n",
                           d, side == 0 ? 0 : d, peer, size, step, peer, step, compute);
      }
    }
  }
  out << "end\n";
  return "";
}

// "a, b or c" (`last` "and": "a, b and c").
std::string joinWords(const std::vector<std::string_view>& words, std::string_view last) {
  std::string s;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) s += i + 1 == words.size() ? fmt::format(" {} ", last) : std::string(", ");
    s += words[i];
  }
  return s;
}

// "" when every option given applies to the kind, else what is wrong.
std::string checkOptions(const PatternSpec& s) {
  if (std::find(std::begin(kPatternKinds), std::end(kPatternKinds), s.kind) ==
      std::end(kPatternKinds))
    return fmt::format("unknown pattern '{}': {}", s.kind,
                       joinWords({std::begin(kPatternKinds), std::end(kPatternKinds)}, "or"));
  for (const PatternOption& o : kPatternOptions) {
    if (std::find(s.given.begin(), s.given.end(), o.flag) == s.given.end()) continue;
    std::vector<std::string_view> kinds;
    for (std::string_view k : o.kinds)
      if (!k.empty()) kinds.push_back(k);
    if (kinds.empty() || std::find(kinds.begin(), kinds.end(), s.kind) != kinds.end()) continue;
    return fmt::format("{} does not apply to {}: it applies to {} only", o.flag, s.kind,
                       joinWords(kinds, "and"));
  }
  return "";
}

}  // namespace

std::string writePattern(const PatternSpec& s, std::ostream& out) {
  if (std::string why = checkOptions(s); !why.empty()) return why;
  // A network has at most 2^24 nodes (docs/topologies.md).
  if (s.nodes < 2 || s.nodes > (int64_t{1} << 24)) return "--nodes must be 2 to 16777216";
  if (!s.command.empty()) out << "; " << s.command << "\n";
  if (s.kind == "pde") return pde(s, out);
  if (s.kind == "matrix") return matrix(s, out);
  if (s.kind == "sort") return sort(s, out);
  const int64_t rounds = s.iterations > 0 ? s.iterations : 1;
  if (s.kind == "pingpong") {
    const int64_t to = s.to < 0 ? s.nodes - 1 : s.to;
    if (s.from < 0 || s.from >= s.nodes || to >= s.nodes || s.from == to)
      return fmt::format("--from and --to must be two different nodes of 0..{}", s.nodes - 1);
    const std::string size = orDefault(s.size, "64byte");
    out << fmt::format("; ping-pong: {} round trips of {} between nodes {} and {}; node {} "
                       "marks each return: the intervals of its mark round-trip are the round "
                       "trips\n",
                       rounds, size, s.from, to, s.from);
    out << fmt::format("nodes {}\nnode {}\n  mark round-trip\nrepeat {}\nnode {}\n  send {} {} tag 1\n"
                       "  recv {} tag 2\n  mark round-trip\n",
                       s.nodes, s.from, rounds, s.from, to, size, to);
    out << fmt::format("node {}\n  recv {} tag 1\n  send {} {} tag 2\nend\n", to, s.from, s.from,
                       size);
    return "";
  }
  if (s.kind == "barrier") {
    const std::string algorithm = orDefault(s.algorithm, "dissemination");
    const std::string size = orDefault(s.size, "1byte");
    out << fmt::format("; {} barriers ({})\nnodes {}\nnode all\n  repeat {}\n", rounds, algorithm,
                       s.nodes, rounds);
    if (algorithm == "dissemination") {
      out << "    barrier " << size << "\n";
    } else if (algorithm == "tree") {
      // Gather-release on a binomial tree: arrivals combine towards node 0, which releases.
      out << "    reduce 0 " << size << "\n    broadcast 0 " << size << "\n";
    } else {
      return fmt::format("unknown barrier algorithm '{}': dissemination or tree", algorithm);
    }
    out << "  end\n";
    return "";
  }
  if (s.kind == "alltoall") {
    const std::string size = orDefault(s.size, "1Kbyte");
    out << fmt::format("; {} all-to-all exchanges of {}\nnodes {}\nnode all\n  repeat {}\n"
                       "    alltoall {}\n  end\n",
                       rounds, size, s.nodes, rounds, size);
    return "";
  }
  return fmt::format("unknown pattern '{}': pde, sort, matrix, pingpong, barrier or alltoall",
                     s.kind);
}

}  // namespace ndl::driver
