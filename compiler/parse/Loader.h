// Reads the main file and, transitively, every file it imports with
// `(import "name")`: stdlib modules by name, other files by path relative to
// the importing file. Reports unreadable files, missing modules and import
// cycles at the import form that caused them.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ast/Ast.h"
#include "compiler/support/Diagnostics.h"
#include "compiler/support/SourceManager.h"

namespace ndl::parse {

// Largest file the compiler reads; anything bigger is surely not a program.
inline constexpr uintmax_t kMaxFileBytes = 64u << 20;

struct LoadOptions {
  // Where `(import "name")` looks for name.ndl.
  std::filesystem::path stdlibDir;
  // Load stdlib/prelude.ndl (the standard topologies and routings) before
  // the main file, as if imported.
  bool prelude = true;
};

using ast::Program;

class Loader {
 public:
  Loader(SourceManager& sources, DiagnosticEngine& diags, LoadOptions options);

  // Loads a program from a file, or from standard input for "-".
  // Returns nullopt only when the main file could not be read at all.
  std::optional<Program> load(const std::string& path);
  // Loads a program from text in memory (standard input, tests, an editor's unsaved buffer).
  // `path`: the file the text stands for, whose folder relative imports resolve against
  // ("": the current directory).
  Program loadText(std::string displayName, const std::string& text,
                   const std::filesystem::path& path = {});

  // Reads one file ("-": standard input) as text, without its imports or
  // the prelude (ndlc fmt). Returns nullopt when it cannot be read at all.
  std::optional<FileId> readSource(const std::string& path);

  // The names `(import "...")` can find in the stdlib directory.
  std::vector<std::string> stdlibModules() const;

 private:
  std::optional<FileId> readFile(const std::filesystem::path& path, const std::string& shown,
                                 SourceRange importedAt);
  void loadModule(FileId file, Program& program);
  void loadPrelude(Program& program);
  void loadImport(const ast::Node& form, const std::filesystem::path& baseDir, Program& program);

  SourceManager& sources_;
  DiagnosticEngine& diags_;
  LoadOptions options_;
  std::vector<std::string> stack_;  // canonical paths being loaded, for cycles
  std::vector<FileId> stackFiles_;
  std::vector<std::string> loaded_;  // canonical paths of this program's modules
};

// The file `(import "name")` in a file of `baseDir` names: a bare name is the stdlib module
// name.ndl, anything path-like (a '/' or a .ndl ending) a file relative to `baseDir`.
std::filesystem::path importTarget(const std::string& name, const std::filesystem::path& baseDir,
                                   const std::filesystem::path& stdlibDir);

// True for forms the loader handles, which the checker then skips.
inline bool isImport(const ast::Node& form) { return form.head() == "import"; }

}  // namespace ndl::parse
