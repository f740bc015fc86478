#include "compiler/driver/InputFiles.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ndl/runtime/app/pattern.h"
#include "ndl/runtime/traffic/trace.h"

namespace ndl::driver {
namespace {

namespace fs = std::filesystem;

DiagKind kindOf(rt::PatternErrorKind k) {
  switch (k) {
    case rt::PatternErrorKind::kFile: return DiagKind::PatternFileUnreadable;
    case rt::PatternErrorKind::kSyntax: return DiagKind::PatternSyntax;
    case rt::PatternErrorKind::kNode: return DiagKind::PatternNode;
    case rt::PatternErrorKind::kSize: return DiagKind::PatternSize;
    case rt::PatternErrorKind::kUnmatched: return DiagKind::PatternUnmatched;
    case rt::PatternErrorKind::kCycle: return DiagKind::PatternCycle;
  }
  return DiagKind::PatternSyntax;
}

DiagKind traceKindOf(rt::PatternErrorKind k) {
  switch (k) {
    case rt::PatternErrorKind::kFile: return DiagKind::TraceFileUnreadable;
    case rt::PatternErrorKind::kNode: return DiagKind::TraceNode;
    case rt::PatternErrorKind::kSize: return DiagKind::TraceSize;
    default: return DiagKind::TraceSyntax;
  }
}

// Relative to the file that names it (the working directory for stdin and --set); absolute and
// normal, as the simulator is given it.
std::string resolvePath(const std::string& written, const SourceRange& at,
                        const SourceManager& sources) {
  fs::path path(written);
  if (path.is_relative() && at.valid() && !sources.path(at.file).empty())
    path = fs::path(sources.path(at.file)).parent_path() / path;
  std::error_code ec;
  return fs::absolute(path, ec).lexically_normal().string();
}

rt::PatternLimits limitsOf(const FrontEndResult& result) {
  const sema::Parameters& p = result.checked->params;
  const bool wholePacket = p.flowControl != sema::EnumId::FlowControl_Wormhole;
  rt::PatternLimits limits = rt::patternLimits(
      static_cast<int32_t>(result.network->graph.endpointCount()), p.packetPerMessage,
      p.channelWidthBits, p.packetPerMessage ? 0 : p.dataBits, wholePacket, p.bufferFlits);
  // As the simulator converts a trace's times (its network_frequency_hz, the same double).
  limits.network_hz = p.networkHz.toDouble();
  limits.loopback = p.interface.has_value();
  limits.external_loop = p.interface && p.interface->externalLoop;
  if (limits.external_loop) {
    const elab::Graph& g = result.network->graph;
    for (elab::NodeId r = 0; r < g.nodeCount; ++r)
      limits.loop_nodes.insert(limits.loop_nodes.end(), g.endpointsAt(r), g.selfLinked(r) ? 1 : 0);
  }
  return limits;
}

// The file's errors at their lines in it (its text joins the sources only now, for the lines
// the diagnostics quote), each with a note at the form that names the file.
template <class KindOf>
void reportFileErrors(const std::vector<rt::PatternError>& errors, const std::string& path,
                      const SourceRange& at, std::string_view namedHere, KindOf kindOf,
                      SourceManager& sources, DiagnosticEngine& diags) {
  FileId file = 0;
  bool haveText = false;
  for (const rt::PatternError& e : errors) {
    if (e.line == 0) {
      diags.report(kindOf(e.kind), at, e.message).withHint(e.hint);
      continue;
    }
    if (!haveText) {
      std::ifstream in(path, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      file = sources.addBuffer(path, path, text.str());
      haveText = true;
    }
    diags.report(kindOf(e.kind), SourceRange{file, e.line, e.col, e.line, e.col + e.length},
                 e.message)
        .withHint(e.hint)
        .note(at, std::string(namedHere));
  }
}

}  // namespace

void checkPatternFile(FrontEndResult& result, SourceManager& sources, DiagnosticEngine& diags) {
  sema::Parameters& p = result.checked->params;
  if (p.patternFile.empty()) return;
  const SourceRange at = p.patternFileRange;
  p.patternFile = resolvePath(p.patternFile, at, sources);
  const rt::PatternLimits limits = limitsOf(result);
  std::vector<rt::PatternError> errors;
  std::error_code ec;
  if (fs::is_directory(p.patternFile, ec)) {
    errors.push_back({rt::PatternErrorKind::kFile, 0, 1, 1,
                      fmt::format("the pattern file '{}' is a directory", p.patternFile),
                      "name a .cpf file", ""});
  } else {
    std::optional<rt::PatternProgram> program = rt::readPatternFile(p.patternFile, limits, errors);
    if (program && !program->fully_checked) {
      diags.report(DiagKind::PatternUnchecked, at,
                   fmt::format("the pattern's programs run longer than the {} steps the checker "
                               "follows them for: a receive that no send matches past that point "
                               "shows only when the simulation ends as application_stuck",
                               limits.check_steps))
          .withHint("repeat fewer iterations to have the whole pattern checked");
    }
  }
  reportFileErrors(errors, p.patternFile, at, "the pattern file is named here", kindOf, sources,
                   diags);
}

void checkTraceFile(FrontEndResult& result, SourceManager& sources, DiagnosticEngine& diags) {
  sema::Parameters& p = result.checked->params;
  if (p.traceFile.empty()) return;
  const SourceRange at = p.traceFileRange;
  p.traceFile = resolvePath(p.traceFile, at, sources);
  std::vector<rt::PatternError> errors;
  std::optional<std::vector<rt::ScriptedMessage>> trace =
      rt::readTraceFile(p.traceFile, limitsOf(result), errors);
  reportFileErrors(errors, p.traceFile, at, "the trace is named here", traceKindOf, sources,
                   diags);
  if (!trace) return;
  // The burst's windows count the trace's messages by arrival: they must leave some to measure.
  const int64_t count = static_cast<int64_t>(trace->size());
  using sema::FormId;
  const int64_t need = p.warmupMessages + p.measuredMessages.value_or(1);
  if (need > count) {
    const FormId form = p.measuredMessages ? FormId::MeasuredMessages : FormId::WarmupMessages;
    diags.report(DiagKind::OutOfRange, p.where[static_cast<size_t>(form)],
                 p.measuredMessages
                     ? fmt::format("WarmupMessages {} + MeasuredMessages {} = {} exceeds the "
                                   "trace's {} messages; the run would end before measuring them",
                                   p.warmupMessages, *p.measuredMessages,
                                   p.warmupMessages + *p.measuredMessages, count)
                     : fmt::format("WarmupMessages {} leaves no message to measure: the trace "
                                   "has {} messages",
                                   p.warmupMessages, count))
        .withHint(fmt::format("measure at most the trace's {} messages", count))
        .note(at, "the trace is named here");
  }
}

}  // namespace ndl::driver
