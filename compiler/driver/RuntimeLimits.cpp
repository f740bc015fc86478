#include "compiler/driver/RuntimeLimits.h"

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "ndl/runtime/net/router_limits.h"
#include "ndl/runtime/sim/param_rules.h"

namespace ndl::driver {
namespace {

using sema::FormId;

bool sameRange(const SourceRange& a, const SourceRange& b) {
  return a.file == b.file && a.line == b.line && a.col == b.col && a.endLine == b.endLine &&
         a.endCol == b.endCol;
}

class LimitChecker {
 public:
  LimitChecker(const FrontEndResult& result, DiagnosticEngine& diags)
      : program_(*result.program),
        p_(result.checked->params),
        graph_(result.network->graph),
        diags_(diags) {}

  void run() {
    delays();
    sizes();
    reportPairs();
  }

 private:
  bool given(FormId id) const { return p_.where[static_cast<size_t>(id)].valid(); }

  // The form's value as written, where it is, and its text ("300clock").
  const ast::Node* value(FormId id) const {
    const SourceRange form = p_.where[static_cast<size_t>(id)];
    if (!form.valid()) return nullptr;
    for (const ast::Module& m : program_.modules)
      for (const ast::Node& n : m.forms)
        if (sameRange(n.range, form) && n.children.size() > 1) return &n.children[1];
    return nullptr;
  }
  SourceRange at(FormId id) const {
    const ast::Node* v = value(id);
    return v ? v->range : p_.where[static_cast<size_t>(id)];
  }
  std::string written(FormId id) const {
    const ast::Node* v = value(id);
    return fmt::format("{} {}", sema::formInfo(id).name, v ? v->text : std::string("?"));
  }

  // `amount` of `rule` beyond its maximum, reported at `id` (given) with why the limit is.
  void above(FormId id, const rt::ParamRule& rule, int64_t amount, std::string_view why,
             std::string hint, std::string what = {}) {
    diags_
        .report(DiagKind::OutOfRange, at(id),
                fmt::format("{} is {} {}; a simulator takes at most {} ({})",
                            what.empty() ? written(id) : what, amount,
                            rule.unit, rule.max, why))
        .withHint(std::move(hint));
  }

  void delays() {
    const rt::ParamRule& link = rt::paramRule("LinkDelayClocks");
    const rt::ParamRule& credit = rt::paramRule("CreditDelayClocks");
    const rt::ParamRule& header = rt::paramRule("HeaderDelayClocks");
    const rt::ParamRule& router = rt::paramRule("RouterDelayClocks");
    const rt::ParamRule& timeout = rt::paramRule("DeadlockTimeoutClocks");
    if (given(FormId::LinkDelay) && p_.linkDelayClocks > link.max) {
      above(FormId::LinkDelay, link, p_.linkDelayClocks, "a port keeps its link's delay in a byte",
            fmt::format("make it at most {}clock", link.max));
    }
    // Not given, CreditDelay is LinkDelay's: reported there.
    if (given(FormId::CreditDelay) && p_.creditDelayClocks > credit.max) {
      above(FormId::CreditDelay, credit, p_.creditDelayClocks,
            "the event wheel spans the longest delay, a link's included",
            fmt::format("make it at most {}clock", credit.max));
    }
    // Switch traversal delays a flit as a wire does: its events share the wheel's span.
    if (given(FormId::RouterPipeline) && p_.pipelineFlitNetworkClocks > link.max) {
      above(FormId::RouterPipeline, link, p_.pipelineFlitNetworkClocks,
            "ST delays each flit as a link does",
            fmt::format("make ST at most {}clock", link.max), "RouterPipeline's ST");
    }
    if (given(FormId::NodeHardwareDelay) || given(FormId::RouterPipeline)) {
      const FormId at = given(FormId::RouterPipeline) ? FormId::RouterPipeline
                                                      : FormId::NodeHardwareDelay;
      const bool routerClocks = p_.routerDelayClocks > router.max;
      if (routerClocks || p_.headerDelayNetworkClocks > header.max) {
        above(at, routerClocks ? router : header,
              routerClocks ? p_.routerDelayClocks : p_.headerDelayNetworkClocks,
              "a header's ready time is kept in 32 bits",
              fmt::format("make it at most {}clock", header.max),
              at == FormId::RouterPipeline ? "RouterPipeline's IB + RC + VA + SA" : "");
      }
    }
    const rt::ParamRule& predicted = rt::paramRule("PredictHeaderClocks");
    if (given(FormId::PredictivePath) && p_.predictHeaderNetworkClocks > predicted.max) {
      above(FormId::PredictivePath, predicted, p_.predictHeaderNetworkClocks,
            "a header's ready time is kept in 32 bits",
            fmt::format("make it at most {}clock", predicted.max), "PredictivePath's IB");
    }
    const rt::ParamRule& latency = rt::paramRule("PredictorLatencyClocks");
    if (given(FormId::PredictorLatency) && p_.predictorLatencyNetworkClocks > latency.max) {
      above(FormId::PredictorLatency, latency, p_.predictorLatencyNetworkClocks,
            "the simulator keeps the latency in 32 bits",
            fmt::format("make it at most {}clock; seed 001's is 4clock", latency.max));
    }
    if (given(FormId::DeadlockTimeout) && p_.deadlockTimeoutNetworkClocks > timeout.max) {
      above(FormId::DeadlockTimeout, timeout, p_.deadlockTimeoutNetworkClocks,
            "the deadlock backstop waits four timeouts, in 64-bit clocks",
            "a header blocked for a few thousand clocks is already suspect: a timeout of "
            "1000clock is the default");
    }
  }

  void sizes() {
    if (p_.channelWidthBits > rt::kMaxChannelWidthBits) {
      diags_
          .report(DiagKind::OutOfRange, at(FormId::NetworkChannelWidth),
                  fmt::format("{} is {} bits; a simulator takes at most {} (a 32-bit count)",
                              written(FormId::NetworkChannelWidth), p_.channelWidthBits,
                              rt::kMaxChannelWidthBits))
          .withHint("a flit is one channel width: give a width of at most 2^31-1 bits");
      return;
    }
    // Under (NetworkPacketSize Message) the checker reports a message too long for a packet.
    if (!p_.packetPerMessage && p_.packetFlits > rt::kMaxPacketFlits) {
      diags_
          .report(DiagKind::OutOfRange, at(FormId::NetworkPacketSize),
                  fmt::format("{} is {} flits of {} bits; a simulator's packet holds at most {} "
                              "(a packet's length is 16 bits)",
                              written(FormId::NetworkPacketSize), p_.packetFlits,
                              p_.channelWidthBits, rt::kMaxPacketFlits))
          .withHint(fmt::format("make it at most {}bit, or widen NetworkChannelWidth",
                                rt::kMaxPacketFlits * p_.channelWidthBits));
      return;
    }
    const rt::ParamRule& buffer = rt::paramRule("BufferFlits");
    if (p_.bufferFlits > buffer.max) {
      // Not given, the buffer is one (the longest) packet.
      const FormId id = given(FormId::NodeBufferSize) ? FormId::NodeBufferSize
                        : p_.packetPerMessage         ? FormId::MessageLength
                                                      : FormId::NetworkPacketSize;
      diags_
          .report(DiagKind::OutOfRange, at(id),
                  fmt::format("{} makes a buffer of {} flits; a simulator's buffer holds at most "
                              "{} (an output VC counts its credits in 15 bits)",
                              written(id), p_.bufferFlits, buffer.max))
          .withHint(id == FormId::NodeBufferSize
                        ? fmt::format("make NodeBufferSize at most {}flit", buffer.max)
                        : fmt::format("the buffer is one packet unless NodeBufferSize is given: "
                                      "use Wormhole with a smaller NodeBufferSize, or shorter "
                                      "packets (at most {}bit)",
                                      buffer.max * p_.channelWidthBits));
    }
    if (!p_.packetPerMessage && p_.dataBits > 0 && given(FormId::MessageLength)) {
      const int64_t packets = (p_.messageMaxBits - 1) / p_.dataBits + 1;
      if (packets > rt::kMaxPacketsPerMessage) {
        diags_
            .report(DiagKind::OutOfRange, at(FormId::MessageLength),
                    fmt::format("{} makes messages of {} packets of {} data bits; a simulator's "
                                "message has at most {} (a 32-bit count)",
                                written(FormId::MessageLength), packets, p_.dataBits,
                                rt::kMaxPacketsPerMessage))
            .withHint("shorten the messages or make the packets longer");
      }
    }
  }

  void reportPairs() {
    // Pairs name endpoints, which are the nodes where every router has one.
    const int64_t n = static_cast<int64_t>(graph_.endpointCount());
    const char* what = graph_.endpoints.empty() ? "node" : "endpoint";
    for (const sema::NodePair& pair : p_.reportPairs) {
      for (int64_t node : {pair.src, pair.dst}) {
        if (node < n) continue;
        diags_
            .report(DiagKind::OutOfRange, pair.range,
                    fmt::format("report pair ({} {}) names {} {}, but {} has {}s 0 to {}",
                                pair.src, pair.dst, what, node, graph_.name, what, n - 1))
            .withHint(fmt::format("name two {}s of this network, source first", what));
        break;
      }
    }
  }

  const ast::Program& program_;
  const sema::Parameters& p_;
  const elab::Graph& graph_;
  DiagnosticEngine& diags_;
};

}  // namespace

void checkRuntimeLimits(const FrontEndResult& result, DiagnosticEngine& diags) {
  LimitChecker(result, diags).run();
}

}  // namespace ndl::driver
