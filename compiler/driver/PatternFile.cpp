#include "compiler/driver/PatternFile.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ndl/runtime/app/pattern.h"

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

}  // namespace

void checkPatternFile(FrontEndResult& result, SourceManager& sources, DiagnosticEngine& diags) {
  sema::Parameters& p = result.checked->params;
  if (p.patternFile.empty()) return;
  const SourceRange at = p.patternFileRange;
  // Relative to the file that names it (the working directory for stdin and --set).
  fs::path path(p.patternFile);
  if (path.is_relative() && at.valid() && !sources.path(at.file).empty())
    path = fs::path(sources.path(at.file)).parent_path() / path;
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec).lexically_normal();
  p.patternFile = absolute.string();

  const bool wholePacket = p.flowControl != sema::EnumId::FlowControl_Wormhole;
  const rt::PatternLimits limits = rt::patternLimits(
      static_cast<int32_t>(result.network->graph.endpointCount()), p.packetPerMessage,
      p.channelWidthBits, p.packetPerMessage ? 0 : p.dataBits, wholePacket, p.bufferFlits);
  std::vector<rt::PatternError> errors;
  if (fs::is_directory(absolute, ec)) {
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
  if (errors.empty()) return;
  // The pattern's text joins the sources only now, for the lines the diagnostics quote.
  FileId file = 0;
  bool haveText = false;
  for (const rt::PatternError& e : errors) {
    if (e.line == 0) {
      diags.report(kindOf(e.kind), at, e.message).withHint(e.hint);
      continue;
    }
    if (!haveText) {
      std::ifstream in(p.patternFile, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      file = sources.addBuffer(p.patternFile, p.patternFile, text.str());
      haveText = true;
    }
    diags.report(kindOf(e.kind), SourceRange{file, e.line, e.col, e.line, e.col + e.length},
                 e.message)
        .withHint(e.hint)
        .note(at, "the pattern file is named here");
  }
}

}  // namespace ndl::driver
