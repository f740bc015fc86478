#include "compiler/parse/Loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <system_error>

#include "compiler/parse/Parser.h"
#include "compiler/parse/TextCheck.h"
#include "compiler/support/EditDistance.h"

namespace ndl::parse {

namespace fs = std::filesystem;

namespace {

bool isPathImport(const std::string& name) {
  return name.find('/') != std::string::npos || name.ends_with(".ndl");
}

}  // namespace

fs::path importTarget(const std::string& name, const fs::path& baseDir, const fs::path& stdlibDir) {
  return isPathImport(name) ? baseDir / name : stdlibDir / (name + ".ndl");
}

Loader::Loader(SourceManager& sources, DiagnosticEngine& diags, LoadOptions options)
    : sources_(sources), diags_(diags), options_(std::move(options)) {}

std::vector<std::string> Loader::stdlibModules() const {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(options_.stdlibDir, ec))
    if (entry.path().extension() == ".ndl") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<FileId> Loader::readFile(const fs::path& path, const std::string& shown,
                                       SourceRange importedAt) {
  auto fail = [&](DiagKind kind, std::string message) -> Diagnostic& {
    return importedAt.valid() ? diags_.report(kind, importedAt, std::move(message))
                              : diags_.reportFile(kind, shown, std::move(message));
  };
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    fail(DiagKind::FileNotFound, fmt::format("cannot open '{}': no such file", shown))
        .withHint("check the path; relative paths are relative to the current directory "
                  "(imports: to the importing file)");
    return std::nullopt;
  }
  if (!fs::is_regular_file(st)) {
    fail(DiagKind::NotARegularFile,
         fmt::format("cannot read '{}': it is {}", shown,
                     fs::is_directory(st) ? "a directory" : "not a regular file"))
        .withHint("give the path of a .ndl file");
    return std::nullopt;
  }
  uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > kMaxFileBytes) {
    fail(DiagKind::FileTooLarge,
         fmt::format("'{}' is {} MB; the limit is {} MB", shown, size >> 20, kMaxFileBytes >> 20))
        .withHint("an NDL program is text of at most a few megabytes; is this the right file?");
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    fail(DiagKind::FileNotFound, fmt::format("cannot read '{}'", shown));
    return std::nullopt;
  }
  fs::path canonical = fs::weakly_canonical(path, ec);
  FileId id = sources_.addBuffer(shown, canonical.string(), bytes);
  sources_.setText(id, sanitizeText(bytes, id, diags_));
  return id;
}

std::optional<Program> Loader::load(const std::string& path) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    return loadText("<stdin>", ss.str());
  }
  std::optional<FileId> file = readFile(path, path, SourceRange{});
  if (!file) return std::nullopt;
  loaded_.clear();
  // A stdlib module checked on its own (ndlc check stdlib/dragonfly.ndl) is the main file,
  // not also a module the prelude imports: its definitions would be given twice.
  loaded_.push_back(sources_.path(*file));
  Program program;
  loadPrelude(program);
  loadModule(*file, program);
  program.mainFile = *file;
  return program;
}

std::optional<FileId> Loader::readSource(const std::string& path) {
  if (path != "-") return readFile(path, path, SourceRange{});
  std::ostringstream ss;
  ss << std::cin.rdbuf();
  FileId file = sources_.addBuffer("<stdin>", "", ss.str());
  sources_.setText(file, sanitizeText(sources_.text(file), file, diags_));
  return file;
}

Program Loader::loadText(std::string displayName, const std::string& text, const fs::path& path) {
  std::error_code ec;
  const std::string canonical = path.empty() ? std::string() : fs::weakly_canonical(path, ec).string();
  FileId file = sources_.addBuffer(std::move(displayName), canonical, text);
  sources_.setText(file, sanitizeText(text, file, diags_));
  loaded_.clear();
  if (!canonical.empty()) loaded_.push_back(canonical);  // a stdlib module edited: not twice
  Program program;
  loadPrelude(program);
  loadModule(file, program);
  program.mainFile = file;
  return program;
}

void Loader::loadPrelude(Program& program) {
  if (!options_.prelude) return;
  fs::path path = options_.stdlibDir / "prelude.ndl";
  std::error_code ec;
  std::string canonical = fs::weakly_canonical(path, ec).string();
  if (std::find(loaded_.begin(), loaded_.end(), canonical) != loaded_.end()) return;
  if (!fs::exists(path, ec)) {
    diags_.reportFile(DiagKind::FileNotFound, path.string(),
                      fmt::format("the stdlib prelude is missing: no {}", path.string()))
        .withHint("point NDL_STDLIB or --stdlib at the stdlib/ directory of NDL");
    return;
  }
  if (std::optional<FileId> file = readFile(path, "<stdlib>/prelude.ndl", SourceRange{}))
    loadModule(*file, program);
}

void Loader::loadModule(FileId file, Program& program) {
  loaded_.push_back(sources_.path(file));
  std::optional<ast::Module> module = parseFile(sources_, file, diags_);
  if (!module) return;
  stack_.push_back(sources_.path(file));
  stackFiles_.push_back(file);
  fs::path base = sources_.path(file).empty() ? fs::current_path() : fs::path(sources_.path(file)).parent_path();
  for (const ast::Node& form : module->forms)
    if (isImport(form)) loadImport(form, base, program);
  stack_.pop_back();
  stackFiles_.pop_back();
  program.modules.push_back(std::move(*module));
}

void Loader::loadImport(const ast::Node& form, const fs::path& baseDir, Program& program) {
  if (form.children.size() != 2) {
    diags_.report(DiagKind::WrongArity, form.range,
                  fmt::format("import takes one module name, got {}", form.children.size() - 1))
        .withHint("write (import \"name\") for a stdlib module or (import \"file.ndl\")");
    return;
  }
  const ast::Node& arg = form.children[1];
  if (arg.isError()) return;
  if (arg.kind != ast::NodeKind::String) {
    diags_.report(DiagKind::TypeMismatch, arg.range,
                  fmt::format("import expects a string, got {} '{}'", ast::kindName(arg.kind),
                              ast::quote(arg)))
        .withHint(fmt::format("write (import \"{}\")", ast::quote(arg)));
    return;
  }
  const std::string& name = arg.value;
  const bool isPath = isPathImport(name);
  const fs::path target = importTarget(name, baseDir, options_.stdlibDir);
  std::error_code ec;
  if (!fs::exists(target, ec)) {
    Diagnostic& d =
        diags_.report(DiagKind::ImportNotFound, arg.range,
                      isPath ? fmt::format("cannot find imported file '{}'", name)
                             : fmt::format("no stdlib module named '{}'", name));
    if (isPath) {
      d.withHint(fmt::format("looked for {}", target.lexically_normal().string()));
    } else {
      std::vector<std::string> mods = stdlibModules();
      std::vector<std::string_view> views(mods.begin(), mods.end());
      std::string best = closestMatch(name, views);
      std::string all;
      for (const auto& m : mods) all += (all.empty() ? "" : ", ") + m;
      d.withHint(best.empty() ? fmt::format("the stdlib has: {}", all)
                              : fmt::format("did you mean '{}'?", best));
    }
    return;
  }
  std::string canonical = fs::weakly_canonical(target, ec).string();
  auto onStack = std::find(stack_.begin(), stack_.end(), canonical);
  if (onStack != stack_.end()) {
    std::string chain;
    for (auto it = onStack; it != stack_.end(); ++it)
      chain += sources_.name(stackFiles_[it - stack_.begin()]) + " -> ";
    chain += name;
    diags_.report(DiagKind::ImportCycle, form.range, fmt::format("import cycle: {}", chain))
        .withHint("move the shared forms into a file that both import");
    return;
  }
  if (std::find(loaded_.begin(), loaded_.end(), canonical) != loaded_.end()) return;
  std::string shown = isPath ? fs::proximate(target, ec).lexically_normal().string()
                             : fmt::format("<stdlib>/{}.ndl", name);
  if (std::optional<FileId> file = readFile(target, shown, arg.range)) loadModule(*file, program);
}

}  // namespace ndl::parse
