// The subcommands of ndlc (spec 6). Each returns the process exit code:
// 0 success, 1 the input is wrong, 2 usage error.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "compiler/driver/PatternGenerators.h"
#include "compiler/driver/Pipeline.h"
#include "compiler/support/Diagnostics.h"

namespace ndl::driver {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInputError = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInternal = 4;

struct CheckOptions {
  std::vector<std::string> files;
  bool json = false;
  bool listForms = false;
  bool listDiagnostics = false;
  DiagOptions diag;
  PipelineOptions pipeline;
};

int runCheck(const CheckOptions& options);

struct InfoOptions {
  std::string file;
  bool json = false;
  DiagOptions diag;
  PipelineOptions pipeline;
};

int runInfo(const InfoOptions& options);

struct BuildOptions {
  std::string file;
  std::string output;       // build: -o
  int optLevel = 2;
  bool unspecialized = false;
  bool noOpt = false;       // emit-llvm --no-opt
  bool moduleOnly = false;  // emit-llvm --module-only: without the simulator core
  std::string coreBitcode;  // emit-llvm --core-bitcode: another simulator core
  bool verbose = false;
  DiagOptions diag;
  PipelineOptions pipeline;
};

int runBuild(const BuildOptions& options);
int runEmitLLVM(const BuildOptions& options);
int runRun(const BuildOptions& options, const std::vector<std::string>& simArgs);

struct FmtOptions {
  std::vector<std::string> files;
  bool check = false;    // --check: report files not in the canonical layout
  bool inPlace = false;  // -i: rewrite them
  DiagOptions diag;
};

int runFmt(const FmtOptions& options);

// Serves the Language Server Protocol on standard input and output until the client's exit
// (driver/lsp/Server.h): 0 after a shutdown request, 1 without one.
int runLsp(const std::filesystem::path& stdlibDir, const std::string& version);

// Generates a communication pattern (docs/workloads.md) into `output` ("" or "-": stdout).
int runPattern(const PatternSpec& spec, const std::string& output);

// Replaces ndlc with the sweep engine (python3 -m ndl.engine --ndlc SELF ARGS), run from
// the package staged beside ndlc.
int runSweep(const std::vector<std::string>& args);

}  // namespace ndl::driver
