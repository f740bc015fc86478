// ndlc: compiles NDL network descriptions (spec 6). This file only parses
// the command line and dispatches to the commands.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <iostream>

#include "compiler/codegen/HostTarget.h"
#include "compiler/driver/Commands.h"
#include "compiler/support/InternalError.h"

using namespace ndl::driver;

namespace {

int runVersion() {
  ndl::codegen::HostTarget host = ndl::codegen::hostTarget();
  std::cout << fmt::format("ndlc {} (LLVM {}, target {}, cpu {})\n", NDL_VERSION,
                           host.llvmVersion, host.triple, host.cpu);
  return kExitOk;
}

int run(int argc, char** argv) {
  CLI::App app{"ndlc: the NDL network description compiler"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("ndlc ") + NDL_VERSION);

  CheckOptions check;
  std::string dumpAfter;
  std::string stdlibDir;
  // --set Name=Value: a parameter form in place of the program's (parse/Overrides.h).
  std::vector<std::string> overrides;
  auto setOption = [&](CLI::App* cmd) {
    cmd->add_option("--set", overrides,
                    "set a parameter form as if written in the program: Name=Value (repeatable)")
        ->allow_extra_args(false);
  };
  CLI::App* checkCmd = app.add_subcommand("check", "check files and print diagnostics");
  checkCmd->add_option("files", check.files, "NDL files to check ('-' reads standard input)");
  checkCmd->add_flag("--json", check.json, "print diagnostics as JSON on standard output");
  checkCmd->add_flag("--werror", check.diag.warningsAsErrors, "treat warnings as errors");
  checkCmd->add_option("--max-errors", check.diag.maxErrors, "stop after N errors (0: no limit)")
      ->default_val(20);
  checkCmd->add_option("--stdlib", stdlibDir, "directory of the stdlib modules");
  setOption(checkCmd);
  checkCmd->add_option("--dump-after", dumpAfter, "print the program after a stage")
      ->check(CLI::IsMember({"parse", "sema", "elaborate"}));
  checkCmd->add_flag("--list-forms", check.listForms, "list the forms NDL knows");
  checkCmd->add_flag("--list-diagnostics", check.listDiagnostics,
                     "list every diagnostic kind");
  bool checkNoTrace = false;
  checkCmd->add_flag("--no-route-trace", checkNoTrace,
                     "skip tracing every route (the static deadlock check): the front end's "
                     "diagnostics and dumps only");

  InfoOptions info;
  CLI::App* infoCmd = app.add_subcommand("info", "describe the network: size, diameter, routing, deadlock");
  infoCmd->add_option("file", info.file, "the NDL file ('-' reads standard input)")->required();
  infoCmd->add_flag("--json", info.json, "print the figures as JSON");
  infoCmd->add_option("--stdlib", stdlibDir, "directory of the stdlib modules");
  setOption(infoCmd);
  bool noDeadlock = false;
  infoCmd->add_flag("--no-route-trace", noDeadlock,
                    "skip tracing every route (the deadlock analysis and traced hop counts of a "
                    "routing that gives a hop formula)");

  // build, run, emit-llvm share their options.
  BuildOptions build;
  std::vector<std::string> simArgs;
  auto buildFlags = [&](CLI::App* cmd) {
    cmd->add_option("file", build.file, "the NDL file")->required();
    cmd->add_option("--stdlib", stdlibDir, "directory of the stdlib modules");
    cmd->add_option("-O", build.optLevel, "optimization level 0 to 3 (default -O2)")
        ->check(CLI::Range(0, 3));
    setOption(cmd);
    cmd->add_flag("--unspecialized", build.unspecialized,
                  "build without specializing: the core compiled alone, the routing reading the network as data (for comparisons)");
  };
  CLI::App* buildCmd = app.add_subcommand("build", "compile the network into a simulator");
  buildFlags(buildCmd);
  buildCmd->add_option("-o", build.output, "the simulator executable to write")->required();
  CLI::App* runCmd = app.add_subcommand("run", "build (cached by content) and run: ndlc run FILE -- ARGS");
  buildFlags(runCmd);
  runCmd->add_option("args", simArgs, "arguments for the simulator, after --");
  runCmd->add_flag("-v,--verbose", build.verbose, "say whether the simulator was built or cached");
  CLI::App* emitCmd = app.add_subcommand("emit-llvm", "print the simulator's LLVM module");
  buildFlags(emitCmd);
  emitCmd->add_flag("--no-opt", build.noOpt, "the module as generated, before optimization");
  emitCmd->add_flag("--module-only", build.moduleOnly, "without the simulator core");
  emitCmd
      ->add_option("--core-bitcode", build.coreBitcode,
                   "link this simulator core bitcode instead of the built one (the build's "
                   "profile training links an instrumented core)")
      ->check(CLI::ExistingFile)
      ->excludes("--module-only")
      ->excludes("--unspecialized");

  // ndlc sweep: the sweep engine is the Python package's ndl.engine (python/ndl); every
  // argument after `sweep` goes to it unchanged.
  CLI::App* sweepCmd = app.add_subcommand(
      "sweep", "run a program over parameter values in parallel; writes a CSV and a plot");
  sweepCmd->prefix_command();
  sweepCmd->set_help_flag();

  PatternSpec pattern;
  std::string patternOut;
  std::string grid;
  CLI::App* patternCmd = app.add_subcommand(
      "pattern", "write a communication pattern file (.cpf, docs/workloads.md)");
  patternCmd->add_option("kind", pattern.kind, "pde, sort, matrix, pingpong, barrier or alltoall")
      ->required();
  patternCmd->add_option("--nodes", pattern.nodes, "node count of the network")->required();
  patternCmd->add_option("-o", patternOut, "the .cpf file to write (default: standard output)");
  patternCmd->add_option("--size", pattern.size,
                         "message size: halo (pde), block (matrix), bucket (sort), message "
                         "(pingpong, alltoall, barrier), e.g. 1Kbyte");
  patternCmd->add_option("--compute", pattern.compute,
                         "compute time per step (pde, matrix, sort), e.g. 10usec");
  patternCmd->add_option("--iterations", pattern.iterations,
                         "iterations (pde), steps (matrix), rounds (the others)")
      ->check(CLI::PositiveNumber);
  patternCmd->add_option("--grid", grid, "pde: the grid X,Y or X,Y,Z (default: square 2-D)");
  patternCmd->add_option("--from", pattern.from, "pingpong: one node (default 0)");
  patternCmd->add_option("--to", pattern.to, "pingpong: the other (default the last)");
  patternCmd->add_option("--algorithm", pattern.algorithm,
                         "barrier: dissemination (default) or tree (gather-release)");

  FmtOptions fmtOptions;
  CLI::App* fmtCmd =
      app.add_subcommand("fmt", "print NDL source in the canonical layout (docs/fmt.md)");
  fmtCmd->add_option("files", fmtOptions.files, "NDL files ('-' reads standard input)");
  fmtCmd->add_flag("--check", fmtOptions.check,
                   "print nothing; exit 1 and name each file that is not formatted");
  fmtCmd->add_flag("-i", fmtOptions.inPlace, "rewrite the files in place");

  app.add_subcommand("version", "print the version and the LLVM target");

  CLI::App* lspCmd = app.add_subcommand(
      "lsp", "serve the Language Server Protocol over standard input and output (docs/editors.md)");
  lspCmd->add_option("--stdlib", stdlibDir, "directory of the stdlib modules");
  // Clients name the transport (vscode-languageclient adds --stdio); it is the only one.
  bool stdioTransport = true;
  lspCmd->add_flag("--stdio", stdioTransport,
                   "talk over standard input and output (the only transport)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }

  if (app.got_subcommand("version")) return runVersion();
  if (app.got_subcommand("fmt")) return runFmt(fmtOptions);
  if (app.got_subcommand("lsp"))
    return runLsp(stdlibDir.empty() ? defaultStdlibDir(argv[0]) : std::filesystem::path(stdlibDir),
                  NDL_VERSION);
  if (app.got_subcommand("sweep")) return runSweep(sweepCmd->remaining());
  if (app.got_subcommand("pattern")) {
    // Every option but the node count and the output is in the table of what applies where.
    for (const CLI::Option* o : patternCmd->get_options()) {
      const std::string flag = o->get_name();
      if (!o->nonpositional() || flag == "--help" || flag == "--nodes" || flag == "-o") continue;
      const bool listed = std::any_of(std::begin(kPatternOptions), std::end(kPatternOptions),
                                      [&](const PatternOption& p) { return p.flag == flag; });
      if (!listed)
        throw ndl::InternalError("ndlc pattern option " + flag + " is not in kPatternOptions");
      if (o->count() > 0) pattern.given.push_back(flag);
    }
    for (size_t at = 0; !grid.empty() && at <= grid.size();) {
      const size_t comma = std::min(grid.find(',', at), grid.size());
      try {
        pattern.grid.push_back(std::stoll(grid.substr(at, comma - at)));
      } catch (const std::exception&) {
        std::cerr << "ndlc pattern: --grid " << grid << ": expected sizes such as 64,64\n";
        return kExitUsage;
      }
      at = comma + 1;
    }
    pattern.command = "ndlc";  // how the file was made, without -o
    for (int i = 1; i < argc; ++i) {
      if (std::string_view(argv[i]) == "-o" && i + 1 < argc) {
        ++i;
        continue;
      }
      pattern.command += std::string(" ") + argv[i];
    }
    return runPattern(pattern, patternOut);
  }

  for (const char* name : {"build", "run", "emit-llvm"}) {
    if (!app.got_subcommand(name)) continue;
    build.pipeline.stdlibDir =
        stdlibDir.empty() ? defaultStdlibDir(argv[0]) : std::filesystem::path(stdlibDir);
    build.pipeline.overrides = overrides;
    if (std::string_view(name) == "build") return runBuild(build);
    if (std::string_view(name) == "run") return runRun(build, simArgs);
    return runEmitLLVM(build);
  }

  if (app.got_subcommand("info")) {
    info.pipeline.stdlibDir =
        stdlibDir.empty() ? defaultStdlibDir(argv[0]) : std::filesystem::path(stdlibDir);
    info.pipeline.routeAnalysis = !noDeadlock;
    info.pipeline.overrides = overrides;
    info.pipeline.requirement = ndl::sema::Requirement::Network;  // a topology alone will do
    return runInfo(info);
  }

  check.pipeline.stdlibDir =
      stdlibDir.empty() ? defaultStdlibDir(argv[0]) : std::filesystem::path(stdlibDir);
  check.pipeline.overrides = overrides;
  check.pipeline.routeAnalysis = !checkNoTrace;
  // A file of definitions alone checks as a library (docs/language.md, Libraries).
  check.pipeline.requirement = ndl::sema::Requirement::SimulationOrLibrary;
  if (dumpAfter == "parse") check.pipeline.dumpAfter = Stage::Parse;
  if (dumpAfter == "sema") check.pipeline.dumpAfter = Stage::Sema;
  if (dumpAfter == "elaborate") check.pipeline.dumpAfter = Stage::Elaborate;
  if (check.files.empty() && !check.listForms && !check.listDiagnostics) {
    std::cerr << "ndlc check: no input files\n" << checkCmd->help();
    return kExitUsage;
  }
  return runCheck(check);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const ndl::InternalError& e) {
    std::cerr << "ndlc: internal error: " << e.what()
              << "\nThis is a bug in ndlc, not in your program; please report it with the "
                 "input that caused it.\n";
  } catch (const std::exception& e) {
    std::cerr << "ndlc: internal error: unexpected exception: " << e.what() << "\n";
  }
  return kExitInternal;
}
