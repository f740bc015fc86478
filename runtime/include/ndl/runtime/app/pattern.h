// A communication pattern (docs/workloads.md): every node's program of compute gaps, sends,
// receives, repetitions and collectives, as read from a .cpf file. The reader is shared by
// `ndlc check` (which turns its errors into positioned diagnostics) and the simulators (which
// read the file named by CommunicationPatternFile at start-up and run it closed-loop).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ndl::rt {

enum class PatternOpKind : uint8_t {
  kCompute,     // value: picoseconds as read; clocks once Application converted them
  kSend,        // peer: destination, tag, value: bits
  kRecv,        // peer: source, tag; value: 0 (waits), or 1 + the name it is posted as
  kRepeat,      // tag: iterations, value: ops in the body (the matching kEnd included)
  kEnd,         // value: index of its kRepeat
  kCollective,  // coll, peer: root, value: bits
  kMark,        // value: index of its label in PatternProgram::labels
  kAfter,       // value: mask of names (PatternProgram::names) the next op, a send, waits for
  kWait,        // value: mask of names the program waits for
};

enum class CollectiveKind : uint8_t { kBarrier, kAllToAll, kBroadcast, kReduce };
std::string_view collectiveName(CollectiveKind kind);

// 16 bytes: a 100 MB file of explicit sends is about 5 M operations.
struct PatternOp {
  uint64_t word = 0;  // kind (4 bits) | collective (4 bits) | value << 8
  int32_t peer = 0;
  uint32_t tag = 0;

  PatternOpKind kind() const { return static_cast<PatternOpKind>(word & 0xf); }
  CollectiveKind coll() const { return static_cast<CollectiveKind>((word >> 4) & 0xf); }
  int64_t value() const { return static_cast<int64_t>(word >> 8); }
  void setValue(int64_t v) { word = (word & 0xff) | (static_cast<uint64_t>(v) << 8); }
  static PatternOp make(PatternOpKind k, int64_t value, int32_t peer = 0, uint32_t tag = 0,
                        CollectiveKind c = CollectiveKind::kBarrier) {
    PatternOp op;
    op.word = static_cast<uint64_t>(k) | (static_cast<uint64_t>(c) << 4) |
              (static_cast<uint64_t>(value) << 8);
    op.peer = peer;
    op.tag = tag;
    return op;
  }
};
inline constexpr int64_t kPatternMaxValue = (int64_t{1} << 55) - 1;
// Distinct `mark` labels in a pattern.
inline constexpr size_t kPatternMaxLabels = 1024;
// Distinct names of posted receives in a pattern: a mask of them fits an operation's value.
inline constexpr size_t kPatternMaxNames = 48;
// Repetitions nest at most this deep.
inline constexpr int kPatternMaxDepth = 8;
// Steps a repetition whose body takes no time (marks, sends, a zero compute, the sends of a
// broadcast's or reduce's tree) may run in one go: a program runs them within one clock.
inline constexpr uint64_t kPatternMaxZeroTimeSteps = uint64_t{1} << 24;

// Where an operation was written, for messages about it.
struct PatternSite {
  uint32_t line = 0;
  uint32_t col = 0;
};

struct PatternProgram {
  std::string path;
  int32_t nodes = 0;
  std::vector<PatternOp> ops;     // node 0's program, then node 1's, ...
  std::vector<uint32_t> start;    // nodes + 1 offsets into ops
  std::vector<PatternSite> sites;  // parallel to ops
  std::vector<std::string> labels;  // of `mark` lines, in order of first appearance
  std::vector<std::string> names;   // of posted receives (`recv ... as NAME`), likewise
  // The checker runs the programs for at most PatternLimits::check_steps steps: false when
  // they ran longer, so that a receive nobody sends would show only at run time (as an
  // application_stuck status).
  bool fully_checked = true;
};

enum class PatternErrorKind : uint8_t {
  kFile,       // cannot be read
  kSyntax,     // a malformed line
  kNode,       // a node outside the network, or a node count that differs from it
  kSize,       // a size or time out of range
  kUnmatched,  // a receive with no send, or a send nobody receives
  kCycle,      // programs that wait for each other
};

struct PatternError {
  PatternErrorKind kind = PatternErrorKind::kSyntax;
  uint32_t line = 0;  // 0: the file as a whole
  uint32_t col = 1;
  uint32_t length = 1;
  std::string message;
  std::string hint;
  std::string text;  // the line, without its terminator
};

struct PatternLimits {
  int32_t nodes = 0;            // the network's node count
  int64_t max_bits = 0;         // largest message the network carries
  std::string max_bits_reason;  // why, for the hint
  uint64_t check_steps = uint64_t{1} << 26;  // budget of the checker's zero-time run
  // A trace's times ("120ns") become clocks of this frequency; 0: a trace gives clocks only.
  double network_hz = 0;
  // An interface is declared: a node may send to itself (the internal loop, docs/interfaces.md).
  bool loopback = false;
  // (Loopback External): such a message leaves by a link from the node's router back to it, and
  // only the nodes marked here (1 per node) have one.
  bool external_loop = false;
  std::vector<uint8_t> loop_nodes;
};

// The largest message a network carries: under (NetworkPacketSize Message) one packet of at
// most 65,535 flits that (under cut-through and store-and-forward, whole_packet_buffer) fits
// in buffer_flits; else at most 2^32 - 1 packets (and 2^40 bits).
PatternLimits patternLimits(int32_t nodes, bool packet_per_message, int64_t channel_width_bits,
                            int64_t data_bits_per_packet, bool whole_packet_buffer,
                            int64_t buffer_flits);

// Reads and checks a pattern: syntax, nodes, sizes, then every receive matched by one send
// and no programs that wait for each other (by running the programs in zero time). On failure
// returns nothing and fills `errors` (at most 20, in file order).
std::optional<PatternProgram> readPatternFile(const std::string& path, const PatternLimits& limits,
                                              std::vector<PatternError>& errors);
std::optional<PatternProgram> readPatternText(std::string_view text, const std::string& name,
                                              const PatternLimits& limits,
                                              std::vector<PatternError>& errors);

// "file:line:col: error: message", the line, a caret and the hint, as the compiler prints.
std::string formatPatternError(const std::string& path, const PatternError& e);

}  // namespace ndl::rt
