#include <fmt/format.h>

#include <iostream>

#include "compiler/driver/Commands.h"
#include "compiler/sema/FormTable.h"

namespace ndl::driver {

namespace {

void listForms() {
  for (std::string_view name : sema::allFormNames()) {
    const sema::FormInfo& f = sema::formInfo(*sema::findForm(name));
    std::cout << fmt::format("{:<32} {}{}\n", f.name, f.summary,
                             f.defaultText.empty() ? "" : fmt::format(" [{}]", f.defaultText));
  }
}

void listDiagnostics() {
  for (DiagKind k : allDiagKinds())
    std::cout << fmt::format("{:<28} {}\n", diagKindName(k),
                             diagKindSeverity(k) == Severity::Warning ? "warning" : "error");
}

}  // namespace

int runCheck(const CheckOptions& options) {
  if (options.listForms) {
    listForms();
    return kExitOk;
  }
  if (options.listDiagnostics) {
    listDiagnostics();
    return kExitOk;
  }
  SourceManager sources;
  DiagnosticEngine diags(sources, options.diag);
  for (const std::string& file : options.files) {
    if (diags.capped()) break;
    FrontEndResult result;
    runFrontEnd(file, options.pipeline, sources, diags, result);
  }
  if (options.json)
    diags.printJson(std::cout);
  else
    diags.printText(std::cerr);
  return diags.hasErrors() ? kExitInputError : kExitOk;
}

}  // namespace ndl::driver
