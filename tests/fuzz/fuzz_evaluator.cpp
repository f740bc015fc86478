// libFuzzer target: the compile-time evaluator. The input is the body of an Int function
// of two arguments (or anything that closes it and adds definitions) that a small
// topology calls while it is built, so each input is parsed, checked and then run by the
// evaluator with its step, depth and size limits. Evaluation errors are diagnostics, a
// normal outcome; a crash, a hang past the limits or a sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "compiler/elaborate/Elaborate.h"
#include "compiler/elaborate/Evaluator.h"
#include "compiler/parse/Loader.h"
#include "compiler/sema/Check.h"

namespace {

constexpr const char* kBefore = "(define (fz (a Int) (b Int)) Int\n";
constexpr const char* kAfter = R"(
)
(define-topology (FuzzRing)
  (Nodes 8)
  (Radices (list 8))
  (Require (>= (fz 3 5) (- 0 (fz 5 3))) "fz")
  (for (n 0 to 7)
    (Link n (neighbor n 0 1) 0 (= n 7))))
(Topology (FuzzRing))
)";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ndl;
  SourceManager sources;
  DiagnosticEngine diags(sources, DiagOptions{false, 0});
  parse::Loader loader(sources, diags, parse::LoadOptions{NDL_FUZZ_STDLIB_DIR});
  std::string text = kBefore;
  text.append(reinterpret_cast<const char*>(data), size);
  text += kAfter;
  ast::Program program = loader.loadText("fuzz.ndl", text);
  if (diags.hasErrors()) return 0;
  std::optional<sema::CheckedProgram> checked =
      sema::check(program, diags, sema::Requirement::Network);
  if (!checked) return 0;
  elab::Evaluator evaluator(checked->defs, diags);
  (void)elab::elaborate(*checked, evaluator, diags);
  return 0;
}
