// libFuzzer target: NDL text -> diagnostics through the whole front end that needs no
// network (lexer, parser, AST builder, imports of the stdlib and of files, the checker
// with its forms, units and expression types). Any crash, hang or sanitizer report is
// a finding; an input the front end rejects with diagnostics is a normal outcome.
#include <cstddef>
#include <cstdint>
#include <string>

#include "compiler/parse/Loader.h"
#include "compiler/sema/Check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ndl;
  SourceManager sources;
  DiagnosticEngine diags(sources, DiagOptions{false, 0});
  parse::Loader loader(sources, diags, parse::LoadOptions{NDL_FUZZ_STDLIB_DIR});
  ast::Program program =
      loader.loadText("fuzz.ndl", std::string(reinterpret_cast<const char*>(data), size));
  if (!diags.hasErrors()) (void)sema::check(program, diags, sema::Requirement::Network);
  return 0;
}
