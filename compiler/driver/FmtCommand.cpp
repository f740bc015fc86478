// ndlc fmt FILE... [--check] [-i]: the canonical layout of NDL source
// (parse/Format.h, docs/fmt.md), printed, checked or written in place.
#include <fmt/format.h>

#include <iostream>

#include "compiler/driver/Commands.h"
#include "compiler/driver/WriteFile.h"
#include "compiler/parse/Format.h"
#include "compiler/parse/Loader.h"

namespace ndl::driver {

namespace {

// The 1-based line where two texts first differ, for --check's message.
size_t firstDifferentLine(const std::string& a, const std::string& b) {
  size_t line = 1;
  for (size_t i = 0; i < a.size() && i < b.size() && a[i] == b[i]; ++i)
    if (a[i] == '\n') ++line;
  return line;
}

}  // namespace

int runFmt(const FmtOptions& options) {
  if (options.files.empty()) {
    std::cerr << "ndlc fmt: no input files\n";
    return kExitUsage;
  }
  if (options.check && options.inPlace) {
    std::cerr << "ndlc fmt: --check and -i exclude each other\n";
    return kExitUsage;
  }
  if (!options.check && !options.inPlace && options.files.size() > 1) {
    std::cerr << "ndlc fmt: formats one file to standard output; give --check or -i for "
                 "several\n";
    return kExitUsage;
  }
  for (const std::string& f : options.files)
    if (f == "-" && options.inPlace) {
      std::cerr << "ndlc fmt: -i cannot rewrite standard input\n";
      return kExitUsage;
    }

  SourceManager sources;
  int status = kExitOk;
  for (const std::string& path : options.files) {
    // Each file has its own diagnostics, so that one file's errors can never
    // hide another's (the error cap) or let it through.
    DiagnosticEngine diags(sources, options.diag);
    parse::Loader loader(sources, diags, parse::LoadOptions{});
    struct Print {
      DiagnosticEngine& d;
      ~Print() { d.printText(std::cerr); }
    } print{diags};
    // A file with a NUL byte or invalid UTF-8 is refused, not written back repaired.
    uint32_t errorsBefore = diags.errorCount();
    std::optional<FileId> file = loader.readSource(path);
    std::optional<std::string> text;
    if (file && diags.errorCount() == errorsBefore)
      text = parse::formatFile(sources, *file, diags);
    if (!text) {
      status = kExitInputError;
      continue;
    }
    const std::string& before = sources.text(*file);
    if (options.check) {
      if (*text != before) {
        std::cerr << fmt::format("{}:{}: not formatted (ndlc fmt -i {} rewrites it)\n", path,
                                 firstDifferentLine(before, *text), path);
        status = kExitInputError;
      }
    } else if (options.inPlace) {
      if (*text == before) continue;
      if (std::string why = writeFileWhole(path, *text); !why.empty()) {
        std::cerr << fmt::format("ndlc fmt: cannot write '{}': {}\n", path, why);
        status = kExitInputError;
      }
    } else {
      std::cout << *text;
    }
  }
  return status;
}

}  // namespace ndl::driver
