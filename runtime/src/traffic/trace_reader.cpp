// The message trace reader: a `nodes N` line, then `CLOCK SRC DST SIZE` per message in clock
// order (CLOCK a network clock, or a time such as 120ns), with the pattern reader's tokens,
// sizes, times and error positions (line_reader.h).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "ndl/runtime/app/line_reader.h"
#include "ndl/runtime/traffic/trace.h"

namespace ndl::rt {
namespace {

// Clocks and sizes within the pattern format's range (2^55), so a trace's last clock plus a
// run's drain never overflows the simulator's 64-bit clock.
class TraceReader : public lines::LineReader {
 public:
  TraceReader(const PatternLimits& limits, std::vector<PatternError>& errors)
      : LineReader(limits, errors) {}

  void line(std::string_view text, uint32_t number) {
    if (!tokenize(text, number)) return;
    if (tokens_[0].text == "nodes") {
      nodesLine();
      return;
    }
    if (!seen_nodes_) {
      error(PatternErrorKind::kSyntax, tokens_[0],
            "a trace begins with its node count",
            fmt::format("write `nodes {}` on the first line", limits_.nodes));
      seen_nodes_ = true;  // said once
      return;
    }
    if (tokens_.size() != 4) {
      const lines::Token& at = tokens_.size() > 4 ? tokens_[4] : tokens_.back();
      error(PatternErrorKind::kSyntax, at,
            tokens_.size() > 4 ? fmt::format("unexpected '{}' after the message's size", at.text)
                               : "a message needs a clock, a source, a destination and a size",
            "write `CLOCK SRC DST SIZE`, e.g. `120 3 17 64byte`");
      return;
    }
    int64_t clock = 0, src = 0, dst = 0, bits = 0;
    if (!when(tokens_[0], &clock) || !node(tokens_[1], &src) || !node(tokens_[2], &dst) ||
        !size(tokens_[3], &bits))
      return;
    if (clock < last_clock_) {
      error(PatternErrorKind::kSyntax, tokens_[0],
            fmt::format("clock {} comes after clock {} (line {}): a trace is in clock order",
                        clock, last_clock_, last_line_),
            "sort the trace by its first column (sort -n -s -k1,1 keeps equal clocks in order)");
      return;
    }
    if (src == dst) {
      error(PatternErrorKind::kNode, tokens_[2],
            fmt::format("node {} sends to itself", src),
            "a message crosses the network: give another destination");
      return;
    }
    last_clock_ = clock;
    last_line_ = line_;
    messages_.push_back({clock, static_cast<int32_t>(src), static_cast<int32_t>(dst), bits});
  }

  std::optional<std::vector<ScriptedMessage>> finish() {
    if (!seen_nodes_ && errors_.empty())
      error(PatternErrorKind::kSyntax, 0, 1, 1, "the trace has no `nodes N` line",
            fmt::format("begin the file with `nodes {}`", limits_.nodes), "");
    if (errors_.empty() && messages_.empty())
      error(PatternErrorKind::kSize, 0, 1, 1, "the trace holds no message",
            "write one message per line: `CLOCK SRC DST SIZE`", "");
    if (!errors_.empty()) return std::nullopt;
    return std::move(messages_);
  }

 private:
  void nodesLine() {
    if (seen_nodes_) {
      error(PatternErrorKind::kSyntax, tokens_[0], "a second `nodes` line",
            "give the node count once, on the first line");
      return;
    }
    seen_nodes_ = true;
    if (!arity(1, 1, fmt::format("nodes {}", limits_.nodes))) return;
    int64_t n = 0;
    if (!lines::LineReader::integer(tokens_[1], int64_t{1} << 40, "a node count", &n)) return;
    if (n != limits_.nodes)
      error(PatternErrorKind::kNode, tokens_[1],
            fmt::format("the trace is for {} nodes; the network has {}", n, limits_.nodes),
            "a trace's node numbers are the network's endpoints (ndlc info lists them)");
  }

  // A clock ("120"), or a time ("1.5us"): the first network clock at or after it, exactly for a
  // frequency of whole Hz; otherwise a time within a billionth of a clock of an edge is that
  // edge (the frequency is a double).
  bool when(const lines::Token& t, int64_t* out) {
    // A number with a unit; anything else is read (and refused) as a clock.
    const bool time =
        !t.text.empty() && std::isdigit(static_cast<unsigned char>(t.text[0])) &&
        std::any_of(t.text.begin(), t.text.end(),
                    [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
    if (!time) return lines::LineReader::integer(t, kPatternMaxValue, "a clock", out);
    int64_t ps = 0;
    if (!quantity(t, lines::kTimeUnits, "a time", "120ns", &ps)) return false;
    if (limits_.network_hz <= 0) {
      error(PatternErrorKind::kSyntax, t, fmt::format("'{}' is a time, and no clock is known here", t.text),
            "give the message's network clock instead");
      return false;
    }
    const double hz = limits_.network_hz;
    double clock = 0;
    if (hz == std::floor(hz) && hz < 0x1p62) {
      __extension__ typedef unsigned __int128 Wide;
      const Wide num = static_cast<Wide>(ps) * static_cast<Wide>(static_cast<uint64_t>(hz));
      const Wide ps_per_s = 1000000000000;
      clock = static_cast<double>((num + ps_per_s - 1) / ps_per_s);
    } else {
      const double x = static_cast<double>(ps) * hz / 1e12;
      clock = std::ceil(x - (1e-9 + 4 * std::numeric_limits<double>::epsilon() * x));
    }
    if (clock > static_cast<double>(kPatternMaxValue)) {
      error(PatternErrorKind::kSize, t, fmt::format("{} is too late: clock {:.0f}", t.text, clock),
            "a trace's clocks are at most 2^55");
      return false;
    }
    *out = static_cast<int64_t>(clock);
    return true;
  }

  bool node(const lines::Token& t, int64_t* out) {
    if (!lines::LineReader::integer(t, int64_t{1} << 40, "a node", out)) return false;
    if (*out < limits_.nodes) return true;
    error(PatternErrorKind::kNode, t,
          fmt::format("node {} does not exist: the network has {} nodes", *out, limits_.nodes),
          fmt::format("nodes are numbered 0 to {}", limits_.nodes - 1));
    return false;
  }

  bool seen_nodes_ = false;
  int64_t last_clock_ = 0;
  uint32_t last_line_ = 0;
  std::vector<ScriptedMessage> messages_;
};

template <class NextLine>
std::optional<std::vector<ScriptedMessage>> read(const PatternLimits& limits,
                                                 std::vector<PatternError>& errors,
                                                 NextLine next) {
  TraceReader reader(limits, errors);
  std::string text;
  uint32_t number = 0;
  while (!reader.full() && next(text)) {
    ++number;
    if (text.size() > 65536) {
      errors.push_back(PatternError{PatternErrorKind::kSyntax, number, 1, 1,
                                    "a line longer than 64 KiB", "write one message per line",
                                    text.substr(0, 80)});
      return std::nullopt;
    }
    reader.line(text, number);
  }
  return reader.finish();
}

}  // namespace

std::optional<std::vector<ScriptedMessage>> readTraceFile(const std::string& path,
                                                          const PatternLimits& limits,
                                                          std::vector<PatternError>& errors) {
  // A directory opens as a stream that reads nothing: named here, for ndlc check and the
  // simulators alike.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    errors.push_back(PatternError{PatternErrorKind::kFile, 0, 1, 1,
                                  fmt::format("the trace file '{}' is a directory", path),
                                  "name a trace file (docs/workloads.md, \"Message traces\")", ""});
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    errors.push_back(PatternError{
        PatternErrorKind::kFile, 0, 1, 1, fmt::format("cannot read the trace file '{}'", path),
        "check the path: a relative one is taken from the directory of the .ndl file that names "
        "it (from the working directory when given with --set)",
        ""});
    return std::nullopt;
  }
  return read(limits, errors,
              [&in](std::string& line) { return static_cast<bool>(std::getline(in, line)); });
}

std::optional<std::vector<ScriptedMessage>> readTraceText(std::string_view text,
                                                          const PatternLimits& limits,
                                                          std::vector<PatternError>& errors) {
  size_t pos = 0;
  return read(limits, errors, [&](std::string& line) {
    if (pos >= text.size()) return false;
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    line.assign(text.substr(pos, end - pos));
    pos = end + 1;
    return true;
  });
}

}  // namespace ndl::rt
