// The .cpf reader (docs/workloads.md): one directive per line, read as a stream twice (count,
// then place) so that a large file costs its operations' 24 bytes each, not its text. Operations go to the programs
// of the nodes the last `node` line named; a repetition opens in a node's program only when
// the node gets an operation inside it.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <fstream>
#include <memory>
#include <sstream>

#include "ndl/runtime/app/line_reader.h"
#include "ndl/runtime/app/pattern.h"

namespace ndl::rt {

// pattern_check.cpp: false if the programs ran past the budget of steps (then unchecked).
bool checkPatternPrograms(const PatternProgram& program, uint64_t budget,
                          std::vector<PatternError>& errors);

namespace {

using lines::editDistance;
using lines::kSizeUnits;
using lines::kTimeUnits;
using lines::Token;

constexpr int64_t kMaxRepeat = 0xffffffffLL;

constexpr std::array<std::string_view, 13> kDirectives = {
    "nodes", "node", "compute", "send", "recv", "repeat", "end",
    "barrier", "alltoall", "broadcast", "reduce", "mark", "wait"};

class Reader : public lines::LineReader {
 public:
  // counts == nullptr: the first pass, which checks every line and counts each node's
  // operations; then a second pass places them into arrays of exactly that size, so the
  // peak memory is the program's 24 bytes per operation, not growing vectors and a copy.
  Reader(const std::string& name, const PatternLimits& limits, std::vector<PatternError>& errors,
         const std::vector<uint64_t>* counts)
      : LineReader(limits, errors), counts_(counts) {
    program_.path = name;
    if (!counts_) return;
    program_.nodes = limits_.nodes;
    program_.start.assign(static_cast<size_t>(limits_.nodes) + 1, 0);
    uint64_t total = 0;
    for (int32_t n = 0; n < limits_.nodes; ++n) {
      program_.start[n] = static_cast<uint32_t>(total);
      total += (*counts_)[n];
    }
    program_.start[limits_.nodes] = static_cast<uint32_t>(total);
    program_.ops.resize(total);
    program_.sites.resize(total);
    fill_.assign(program_.start.begin(), program_.start.end() - 1);
  }

  void line(std::string_view text, uint32_t number) {
    if (tokenize(text, number)) directive();
  }

  // The end of the first pass: false if the pattern has errors.
  bool finishCount() {
    for (const Level& l : levels_)
      error(PatternErrorKind::kSyntax, l.site.line, l.site.col, 6,
            fmt::format("repeat {} has no end", l.count),
            "close every repeat with a line `end`", l.text);
    if (!seen_nodes_ && errors_.empty())
      error(PatternErrorKind::kSyntax, 0, 1, 1, "the pattern has no `nodes N` line",
            fmt::format("begin the file with `nodes {}`", limits_.nodes), "");
    if (!errors_.empty()) return false;
    uint64_t total = 0;
    for (uint64_t c : count_) total += c;
    if (total > 0xffffffffu) {
      error(PatternErrorKind::kSize, 0, 1, 1,
            fmt::format("the pattern has {} operations; at most 2^32 are supported", total),
            "use repeat for iterations instead of writing them out", "");
      return false;
    }
    return true;
  }
  const std::vector<uint64_t>& counts() const { return count_; }

  // The end of the second pass.
  std::optional<PatternProgram> finish() {
    if (!errors_.empty()) return std::nullopt;
    for (int32_t n = 0; n < limits_.nodes; ++n) {
      if (fill_[n] != program_.start[n + 1]) {
        error(PatternErrorKind::kFile, 0, 1, 1, "the pattern file changed while it was read",
              "run again once it is written", "");
        return std::nullopt;
      }
    }
    return std::move(program_);
  }


 private:
  using LineReader::size;
  struct Level {
    int64_t count = 0;
    PatternSite site;
    std::string text;
    std::vector<std::pair<int32_t, uint32_t>> entered;  // node, index of its kRepeat
    // Whether the body has a step that may take time (a compute, a receive, a wait, a
    // barrier or all-to-all); if not, the steps one iteration runs in no time.
    bool timed = false;
    uint64_t zero_steps = 0;
  };
  // A step of the innermost repetition: one that may take time, or `steps` that do not.
  void step(bool takes_time, uint64_t steps = 1) {
    if (levels_.empty()) return;
    Level& l = levels_.back();
    if (takes_time) l.timed = true;
    l.zero_steps = std::min(l.zero_steps + steps, kPatternMaxZeroTimeSteps + 1);
  }
  // A node: absolute "5", or "+1"/"-1" relative to the node whose program it is in.
  struct Peer {
    bool relative = false;
    int64_t value = 0;
  };
  bool peer(const Token& t, Peer* out) {
    Token digits = t;
    if (!t.text.empty() && (t.text[0] == '+' || t.text[0] == '-')) {
      out->relative = true;
      digits.text = t.text.substr(1);
      digits.col = t.col + 1;
      if (digits.text.empty()) {
        error(PatternErrorKind::kSyntax, t, fmt::format("'{}' is not a node", t.text),
              "write a node number such as 5, or an offset such as +1 or -1");
        return false;
      }
    }
    int64_t v = 0;
    if (!integer(digits, int64_t{1} << 40, "a node", &v)) return false;
    if (!out->relative && v >= limits_.nodes) {
      error(PatternErrorKind::kNode, t,
            fmt::format("node {} does not exist: the network has {} nodes", v, limits_.nodes),
            fmt::format("nodes are numbered 0 to {}", limits_.nodes - 1));
      return false;
    }
    if (out->relative && t.text[0] == '-') v = -v;
    out->value = v;
    return true;
  }
  int32_t resolve(const Peer& p, int32_t n) const {
    if (!p.relative) return static_cast<int32_t>(p.value);
    const int64_t m = (n + p.value) % limits_.nodes;
    return static_cast<int32_t>(m < 0 ? m + limits_.nodes : m);
  }

  // A name (a mark's label, a posted receive's name): a letter, then letters, digits, '-'
  // or '_'; its index in `table`, added there when new.
  bool name(const Token& t, std::vector<std::string>& table, size_t max, std::string_view what,
            std::string_view example, int64_t* index) {
    const bool ok =
        !t.text.empty() && t.text.size() <= 64 &&
        std::isalpha(static_cast<unsigned char>(t.text[0])) &&
        std::all_of(t.text.begin(), t.text.end(), [](char ch) {
          return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_';
        });
    if (!ok) {
      error(PatternErrorKind::kSyntax, t, fmt::format("'{}' is not a {}", t.text, what),
            fmt::format("a name is a letter then letters, digits, '-' or '_', at most 64 "
                        "characters: {}",
                        example));
      return false;
    }
    auto it = std::find(table.begin(), table.end(), t.text);
    if (it == table.end()) {
      if (table.size() >= max) {
        error(PatternErrorKind::kSize, t, fmt::format("more than {} distinct {}s", max, what),
              &table == &program_.labels
                  ? "marks of one kind share a label; each node's passes are kept apart"
                  : "reuse names: a name may be posted again once its receive has completed");
        return false;
      }
      it = table.insert(table.end(), std::string(t.text));
    }
    *index = it - table.begin();
    return true;
  }
  // The names of posted receives from token `from` on, as a mask.
  bool names(size_t from, uint64_t* mask) {
    *mask = 0;
    for (size_t i = from; i < tokens_.size(); ++i) {
      int64_t index = 0;
      if (!name(tokens_[i], program_.names, kPatternMaxNames, "receive name", "wait left right",
                &index))
        return false;
      *mask |= uint64_t{1} << index;
    }
    return true;
  }

  bool tag(size_t at, uint32_t* out) {
    *out = 0;
    if (tokens_.size() <= at) return true;
    if (tokens_[at].text != "tag" || tokens_.size() != at + 2) {
      const Token& t = tokens_[at].text != "tag" ? tokens_[at] : tokens_.back();
      error(PatternErrorKind::kSyntax, t, fmt::format("unexpected '{}'", t.text),
            "a message's tag is written last: `tag 3`");
      return false;
    }
    int64_t v = 0;
    if (!integer(tokens_[at + 1], 0xffffffffLL, "a tag", &v)) return false;
    *out = static_cast<uint32_t>(v);
    return true;
  }

  // Appends op to every node the current `node` line selected. A send or receive may name
  // a node only these programs can resolve, so the operation is built per node.
  template <class Make>
  void emit(const Token& at, Make make) {
    if (!seen_section_) {
      error(PatternErrorKind::kSyntax, at,
            fmt::format("'{}' comes before any `node` line", at.text),
            "say whose program it belongs to first: `node all`, `node 3` or `node 0..7`");
      return;
    }
    const PatternSite site{line_, at.col};
    for (int64_t n = from_; n <= to_; ++n) {
      if ((n & mask_) != value_) continue;
      const auto node = static_cast<int32_t>(n);
      std::optional<PatternOp> op = make(node);
      if (!op) return;  // reported
      open(node);
      push(node, *op, site);
    }
  }
  // Opens in node n the repetitions it has not entered yet.
  void open(int32_t n) {
    while (depth_[n] < levels_.size()) {
      Level& l = levels_[depth_[n]++];
      l.entered.push_back({n, static_cast<uint32_t>(size(n))});
      push(n, PatternOp::make(PatternOpKind::kRepeat, 0, 0, static_cast<uint32_t>(l.count)),
           l.site);
    }
  }
  uint64_t size(int32_t n) const {
    return counts_ ? fill_[n] - program_.start[n] : count_[n];
  }
  void push(int32_t n, const PatternOp& op, const PatternSite& site) {
    if (!counts_) {
      ++count_[n];
      return;
    }
    const uint64_t i = fill_[n]++;
    if (i >= program_.start[n + 1]) return;  // the file changed: finish() says so
    program_.ops[i] = op;
    program_.sites[i] = site;
  }

  void directive() {
    const Token& head = tokens_[0];
    const std::string_view d = head.text;
    if (!seen_nodes_ && d != "nodes") {
      error(PatternErrorKind::kSyntax, head,
            fmt::format("the pattern must begin with `nodes N`, not '{}'", d),
            fmt::format("add `nodes {}` as the first line", limits_.nodes));
      seen_nodes_ = true;  // one such message is enough
      return;
    }
    if (d == "nodes") {
      if (seen_nodes_) {
        error(PatternErrorKind::kSyntax, head, "a second `nodes` line",
              "a pattern declares its node count once, first");
        return;
      }
      seen_nodes_ = true;
      if (!arity(1, 1, "nodes N")) return;
      int64_t n = 0;
      if (!integer(tokens_[1], int64_t{1} << 31, "a node count", &n)) return;
      if (n != limits_.nodes) {
        error(PatternErrorKind::kNode, tokens_[1],
              fmt::format("the pattern is for {} nodes; the network has {}", n, limits_.nodes),
              "a pattern runs on a network of its own size: generate it for this network "
              "(ndlc pattern ... --nodes N)");
        return;
      }
      if (!counts_) count_.assign(static_cast<size_t>(limits_.nodes), 0);
      depth_.assign(static_cast<size_t>(limits_.nodes), 0);
      return;
    }
    if (depth_.empty()) return;  // the node count was wrong: nothing can be placed
    if (d == "node") {
      const Token& t = tokens_[1 % tokens_.size()];
      mask_ = 0;
      value_ = 0;
      if (t.text == "mask") {
        // The nodes n with n & M == V: the two sides of a hypercube dimension, say.
        if (!arity(3, 3, "node mask M V")) return;
        int64_t m = 0, v = 0;
        if (!integer(tokens_[2], int64_t{1} << 40, "a mask", &m) ||
            !integer(tokens_[3], int64_t{1} << 40, "a value", &v))
          return;
        if ((v & ~m) != 0 || m == 0 || v >= limits_.nodes) {
          error(PatternErrorKind::kSyntax, tokens_[3],
                fmt::format("no node n has n & {} == {}", m, v),
                "the value's bits must lie within the mask, and name a node");
          return;
        }
        from_ = 0;
        to_ = limits_.nodes - 1;
        mask_ = m;
        value_ = v;
        seen_section_ = true;
        return;
      }
      if (!arity(1, 1, "node all | node N | node A..B | node mask M V")) return;
      if (t.text == "all") {
        from_ = 0;
        to_ = limits_.nodes - 1;
      } else if (size_t dots = t.text.find(".."); dots != std::string_view::npos) {
        Peer a, b;
        Token ta{t.text.substr(0, dots), t.col};
        Token tb{t.text.substr(dots + 2), static_cast<uint32_t>(t.col + dots + 2)};
        if (!absolute(ta, &a) || !absolute(tb, &b)) return;
        if (a.value > b.value) {
          error(PatternErrorKind::kSyntax, t, fmt::format("the range {} is empty", t.text),
                "write the lower node first: node 0..7");
          return;
        }
        from_ = a.value;
        to_ = b.value;
      } else {
        Peer a;
        if (!absolute(t, &a)) return;
        from_ = to_ = a.value;
      }
      seen_section_ = true;
      return;
    }
    if (d == "compute") {
      if (!arity(1, 1, "compute 10usec")) return;
      int64_t ps = 0;
      if (!quantity(tokens_[1], kTimeUnits, "a time", "10usec", &ps)) return;
      emit(head, [&](int32_t) { return PatternOp::make(PatternOpKind::kCompute, ps); });
      step(ps > 0);
      return;
    }
    if (d == "send" || d == "recv") {
      const bool send = d == "send";
      // `send ... after NAME ...` waits for posted receives; `recv ... as NAME` posts one.
      const std::string_view keyword = send ? "after" : "as";
      size_t kw = 1;
      while (kw < tokens_.size() && tokens_[kw].text != keyword) ++kw;
      uint64_t after = 0;
      int64_t posted = 0;  // 1 + the name's index
      if (kw < tokens_.size()) {
        if (kw + 1 == tokens_.size() || (!send && kw + 2 != tokens_.size())) {
          const Token& at = kw + 1 == tokens_.size() ? tokens_[kw] : tokens_[kw + 2];
          error(PatternErrorKind::kSyntax, at,
                kw + 1 == tokens_.size() ? fmt::format("'{}' needs a name", keyword)
                                         : fmt::format("unexpected '{}'", at.text),
                send ? "write `send DEST SIZE [tag T] after NAME [NAME ...]`"
                     : "write `recv SRC [tag T] as NAME`");
          return;
        }
        if (send && !names(kw + 1, &after)) return;
        if (!send) {
          if (!name(tokens_[kw + 1], program_.names, kPatternMaxNames, "receive name",
                    "recv -1 tag 3 as left", &posted))
            return;
          ++posted;
        }
        tokens_.resize(kw);
      }
      if (!arity(send ? 2 : 1, send ? 4 : 3,
                 send ? "send DEST SIZE [tag T] [after NAME ...]" : "recv SRC [tag T] [as NAME]"))
        return;
      Peer p;
      if (!peer(tokens_[1], &p)) return;
      int64_t bits = 0;
      if (send && !size(tokens_[2], &bits)) return;
      uint32_t t = 0;
      if (!tag(send ? 3 : 2, &t)) return;
      if (after != 0) {
        emit(head, [&](int32_t) {
          return PatternOp::make(PatternOpKind::kAfter, static_cast<int64_t>(after));
        });
      }
      emit(head, [&](int32_t n) -> std::optional<PatternOp> {
        const int32_t other = resolve(p, n);
        if (other == n && !limits_.loopback) {
          error(PatternErrorKind::kNode, tokens_[1],
                fmt::format("node {} {} itself", n, send ? "sends to" : "receives from"),
                "a message to its own node loops through the node's network interface: "
                "declare an (Interface ...) (docs/interfaces.md), or name another node");
          return std::nullopt;
        }
        if (other == n && send && limits_.external_loop &&
            (static_cast<size_t>(n) >= limits_.loop_nodes.size() || !limits_.loop_nodes[n])) {
          error(PatternErrorKind::kNode, tokens_[1],
                fmt::format("node {} sends to itself, and under (Loopback External) that "
                            "message leaves by a link from its router back to the same router; "
                            "node {}'s router has none",
                            n, n),
                "add one to the topology, (UnidirectionalLink r r) for router r, or loop it inside the "
                "interface with (Loopback Internal)");
          return std::nullopt;
        }
        return PatternOp::make(send ? PatternOpKind::kSend : PatternOpKind::kRecv,
                               send ? bits : posted, other, t);
      });
      step(!send);  // a receive waits for its message (a posted one, once posted again)
      return;
    }
    if (d == "mark") {
      // Records the clocks at which each node's program passes it (docs/workloads.md).
      if (!arity(1, 1, "mark round-trip")) return;
      int64_t index = 0;
      if (!name(tokens_[1], program_.labels, kPatternMaxLabels, "mark label", "mark round-trip",
                &index))
        return;
      emit(head, [&](int32_t) { return PatternOp::make(PatternOpKind::kMark, index); });
      step(false);
      return;
    }
    if (d == "wait") {
      // Waits for receives posted with `recv SRC as NAME`.
      if (tokens_.size() < 2) {
        arity(1, kPatternMaxNames, "wait NAME [NAME ...]");
        return;
      }
      uint64_t mask = 0;
      if (!names(1, &mask)) return;
      emit(head, [&](int32_t) {
        return PatternOp::make(PatternOpKind::kWait, static_cast<int64_t>(mask));
      });
      step(true);
      return;
    }
    if (d == "repeat") {
      // A bad repeat still opens a level, so that its `end` is not reported again.
      int64_t k = 1;
      if (arity(1, 1, "repeat 100") && integer(tokens_[1], kMaxRepeat, "a repetition count", &k) &&
          k < 1) {
        error(PatternErrorKind::kSize, tokens_[1], "repeat 0 runs nothing",
              "remove the block, or repeat it at least once");
      }
      if (levels_.size() >= static_cast<size_t>(kPatternMaxDepth)) {
        error(PatternErrorKind::kSyntax, head,
              fmt::format("repeat nested deeper than {} levels", kPatternMaxDepth),
              "unroll an inner repetition");
      }
      levels_.push_back(Level{std::max<int64_t>(k, 1), PatternSite{line_, head.col},
                              std::string(text_), {}});
      return;
    }
    if (d == "end") {
      if (!arity(0, 0, "end")) return;
      if (levels_.empty()) {
        error(PatternErrorKind::kSyntax, head, "end without repeat",
              "every `end` closes a `repeat N` line before it");
        return;
      }
      Level& l = levels_.back();
      // A body that takes no time runs all its iterations within one clock: bounded, so that
      // a program cannot spin (or send billions of messages) without the clock advancing.
      const uint64_t zero = l.timed ? 0
                            : l.zero_steps > kPatternMaxZeroTimeSteps / static_cast<uint64_t>(l.count)
                                ? kPatternMaxZeroTimeSteps + 1
                                : l.zero_steps * static_cast<uint64_t>(l.count);
      if (zero > kPatternMaxZeroTimeSteps) {
        error(PatternErrorKind::kSize, l.site.line, l.site.col, 6,
              fmt::format("repeat {} runs more than {} steps that take no time (marks, sends) "
                          "within one clock",
                          l.count, kPatternMaxZeroTimeSteps),
              "put a compute in the body, wait for a receive, or repeat it fewer times", l.text);
      }
      if (levels_.size() >= 2) {
        Level& outer = levels_[levels_.size() - 2];
        outer.timed |= l.timed;
        outer.zero_steps = std::min(outer.zero_steps + zero, kPatternMaxZeroTimeSteps + 1);
      }
      for (auto [n, index] : l.entered) {
        push(n, PatternOp::make(PatternOpKind::kEnd, index), PatternSite{line_, head.col});
        const uint64_t at = program_.start.empty() ? 0 : program_.start[n] + index;
        if (counts_ && at < program_.ops.size())
          program_.ops[at].setValue(static_cast<int64_t>(size(n) - index));
        --depth_[n];
      }
      levels_.pop_back();
      return;
    }
    if (d == "barrier" || d == "alltoall" || d == "broadcast" || d == "reduce") {
      const bool rooted = d == "broadcast" || d == "reduce";
      const CollectiveKind kind = d == "barrier"    ? CollectiveKind::kBarrier
                                  : d == "alltoall" ? CollectiveKind::kAllToAll
                                  : d == "broadcast" ? CollectiveKind::kBroadcast
                                                     : CollectiveKind::kReduce;
      const std::string usage = d == "barrier" ? "barrier [SIZE]"
                                : rooted      ? fmt::format("{} ROOT SIZE", d)
                                              : "alltoall SIZE";
      if (!arity(d == "barrier" ? 0 : rooted ? 2 : 1, rooted ? 2 : 1, usage)) return;
      if (from_ != 0 || to_ != limits_.nodes - 1 || mask_ != 0 || !seen_section_) {
        error(PatternErrorKind::kSyntax, head,
              fmt::format("{} is a collective: every node takes part", d),
              "write it after `node all`");
        return;
      }
      Peer root;
      if (rooted && !absolute(tokens_[1], &root)) return;
      int64_t bits = 8;  // a barrier's messages: one byte unless given
      if (tokens_.size() > (rooted ? 2u : 1u) && !size(tokens_.back(), &bits)) return;
      emit(head, [&](int32_t) {
        return PatternOp::make(PatternOpKind::kCollective, bits,
                               static_cast<int32_t>(root.value), 0, kind);
      });
      // A broadcast's root and a reduce's leaves only send: at most one message per level of
      // the tree.
      step(!rooted, static_cast<uint64_t>(std::bit_width(static_cast<uint64_t>(limits_.nodes))));
      return;
    }
    std::string_view best;
    size_t bestDistance = 3;
    for (std::string_view c : kDirectives) {
      const size_t dist = editDistance(d, c);
      if (dist < bestDistance) {
        bestDistance = dist;
        best = c;
      }
    }
    error(PatternErrorKind::kSyntax, head, fmt::format("unknown directive '{}'", d),
          best.empty() ? std::string("directives: nodes, node, compute, send, recv, repeat, end, "
                                     "barrier, alltoall, broadcast, reduce, mark, wait")
                       : fmt::format("did you mean '{}'?", best));
  }

  bool absolute(const Token& t, Peer* out) {
    if (!t.text.empty() && (t.text[0] == '+' || t.text[0] == '-')) {
      error(PatternErrorKind::kSyntax, t, fmt::format("'{}' is relative here", t.text),
            "name the node by its number");
      return false;
    }
    return peer(t, out);
  }

  PatternProgram program_;
  bool seen_nodes_ = false;
  bool seen_section_ = false;
  int64_t from_ = 0, to_ = -1;
  int64_t mask_ = 0, value_ = 0;  // node mask M V
  const std::vector<uint64_t>* counts_;  // the second pass: from the first
  std::vector<uint64_t> count_;          // the first pass: operations per node
  std::vector<uint64_t> fill_;           // the second pass: next index per node
  std::vector<uint8_t> depth_;  // repetitions open in each node's program
  std::vector<Level> levels_;
};

// Fills in the text of errors found after reading (by line number).
template <class NextLine>
void attachLines(std::vector<PatternError>& errors, NextLine next) {
  std::vector<PatternError*> want;
  for (PatternError& e : errors)
    if (e.text.empty() && e.line > 0) want.push_back(&e);
  if (want.empty()) return;
  std::sort(want.begin(), want.end(),
            [](const PatternError* a, const PatternError* b) { return a->line < b->line; });
  std::string text;
  uint32_t number = 0;
  size_t i = 0;
  while (i < want.size() && next(text)) {
    ++number;
    while (i < want.size() && want[i]->line == number) want[i++]->text = text;
  }
}

template <class NextLine>
void feed(Reader& reader, std::vector<PatternError>& errors, NextLine next) {
  std::string text;
  uint32_t number = 0;
  while (next(text)) {
    ++number;
    if (text.size() > 65536) {
      errors.push_back(PatternError{PatternErrorKind::kSyntax, number, 1, 1,
                                    "a line longer than 64 KiB",
                                    "write one directive per line", text.substr(0, 80)});
      break;
    }
    reader.line(text, number);
    if (reader.full()) break;
  }
}

// open() gives a fresh line source each time: the text is read twice (see Reader).
template <class Open>
std::optional<PatternProgram> read(const std::string& name, const PatternLimits& limits,
                                   std::vector<PatternError>& errors, Open open) {
  std::vector<uint64_t> counts;
  {
    Reader counter(name, limits, errors, nullptr);
    feed(counter, errors, open());
    if (!counter.finishCount()) return std::nullopt;
    counts = counter.counts();
  }
  Reader filler(name, limits, errors, &counts);
  feed(filler, errors, open());
  std::optional<PatternProgram> program = filler.finish();
  if (!program) return std::nullopt;
  program->fully_checked = checkPatternPrograms(*program, limits.check_steps, errors);
  if (!errors.empty()) return std::nullopt;
  return program;
}

}  // namespace

std::optional<PatternProgram> readPatternFile(const std::string& path, const PatternLimits& limits,
                                              std::vector<PatternError>& errors) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    errors.push_back(PatternError{PatternErrorKind::kFile, 0, 1, 1,
                                  fmt::format("cannot read the pattern file '{}'", path),
                                  "check the path: a relative one is taken from the directory of the .ndl file that names it (from the working directory when given with --set)", ""});
    return std::nullopt;
  }
  in.close();
  // Each pass opens the file anew; the stream lives in the line source.
  auto open = [&path]() {
    auto stream = std::make_shared<std::ifstream>(path, std::ios::binary);
    return [stream](std::string& line) { return static_cast<bool>(std::getline(*stream, line)); };
  };
  std::optional<PatternProgram> program = read(path, limits, errors, open);
  if (!errors.empty()) {
    std::ifstream again(path, std::ios::binary);
    attachLines(errors, [&](std::string& line) { return static_cast<bool>(std::getline(again, line)); });
  }
  return program;
}

std::optional<PatternProgram> readPatternText(std::string_view text, const std::string& name,
                                              const PatternLimits& limits,
                                              std::vector<PatternError>& errors) {
  auto lines = [text](size_t* pos) {
    return [text, pos](std::string& line) {
      if (*pos >= text.size()) return false;
      size_t end = text.find('\n', *pos);
      if (end == std::string_view::npos) end = text.size();
      line.assign(text.substr(*pos, end - *pos));
      *pos = end + 1;
      return true;
    };
  };
  size_t pos = 0;
  auto open = [&]() {
    pos = 0;
    return lines(&pos);
  };
  std::optional<PatternProgram> program = read(name, limits, errors, open);
  size_t again = 0;
  attachLines(errors, lines(&again));
  return program;
}

PatternLimits patternLimits(int32_t nodes, bool packet_per_message, int64_t channel_width_bits,
                            int64_t data_bits_per_packet, bool whole_packet_buffer,
                            int64_t buffer_flits) {
  PatternLimits l;
  l.nodes = nodes;
  if (packet_per_message) {
    const int64_t flits = whole_packet_buffer ? std::min<int64_t>(65535, buffer_flits) : 65535;
    l.max_bits = flits * channel_width_bits;
    l.max_bits_reason =
        whole_packet_buffer && buffer_flits < 65535
            ? fmt::format("under (NetworkPacketSize Message) a message is one packet, and under "
                          "cut-through a packet fits in a VC buffer of {} flits of {} bits",
                          buffer_flits, channel_width_bits)
            : fmt::format("under (NetworkPacketSize Message) a message is one packet of at most "
                          "65535 flits of {} bits",
                          channel_width_bits);
  } else {
    l.max_bits = std::min<int64_t>(int64_t{1} << 40, data_bits_per_packet * 0xffffffffLL);
    l.max_bits_reason = "a message is split into at most 2^32 - 1 packets, 2^40 bits";
  }
  return l;
}

std::string formatPatternError(const std::string& path, const PatternError& e) {
  std::string out = e.line > 0 ? fmt::format("{}:{}:{}: error: {}\n", path, e.line, e.col, e.message)
                               : fmt::format("{}: error: {}\n", path, e.message);
  if (e.line > 0 && !e.text.empty()) {
    out += e.text + "\n";
    std::string caret;
    for (uint32_t i = 1; i < e.col && i <= e.text.size(); ++i)
      caret += e.text[i - 1] == '\t' ? '\t' : ' ';
    out += caret + "^" + std::string(e.length > 1 ? e.length - 1 : 0, '~') + "\n";
  }
  if (!e.hint.empty()) out += "hint: " + e.hint + "\n";
  return out;
}

}  // namespace ndl::rt
