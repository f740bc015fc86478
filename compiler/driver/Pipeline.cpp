#include "compiler/driver/Pipeline.h"

#include <cstdlib>
#include <iostream>

#include "compiler/parse/Loader.h"
#include "compiler/sema/Check.h"

namespace ndl::driver {

namespace fs = std::filesystem;

FrontEndResult runFrontEnd(const std::string& path, const PipelineOptions& options,
                           SourceManager& sources, DiagnosticEngine& diags) {
  FrontEndResult result;
  uint32_t errorsBefore = diags.errorCount();

  parse::Loader loader(sources, diags, parse::LoadOptions{options.stdlibDir});
  result.program = loader.load(path);
  if (!result.program) return result;
  if (options.dumpAfter == Stage::Parse) {
    for (const ast::Module& m : result.program->modules) {
      std::cout << ";; " << sources.name(m.file) << "\n";
      for (const ast::Node& form : m.forms) std::cout << ast::print(form) << "\n";
    }
  }
  if (diags.errorCount() != errorsBefore) return result;

  result.parameters = sema::check(*result.program, diags);
  if (result.parameters && options.dumpAfter == Stage::Sema)
    std::cout << sema::printParameters(*result.parameters);
  return result;
}

fs::path defaultStdlibDir(const char* argv0) {
  if (const char* env = std::getenv("NDL_STDLIB"); env && *env) return env;
  std::error_code ec;
  fs::path exe = fs::canonical("/proc/self/exe", ec);
  if (ec) exe = fs::absolute(argv0, ec);
  fs::path installed = exe.parent_path().parent_path() / "share" / "ndl" / "stdlib";
  if (fs::is_directory(installed, ec)) return installed;
  return NDL_SOURCE_STDLIB_DIR;
}

}  // namespace ndl::driver
