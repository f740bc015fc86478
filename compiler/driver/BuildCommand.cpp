// `ndlc build`, `ndlc run` and `ndlc emit-llvm` (spec 6): the passes of
// Pipeline.h followed by code generation; `run` keeps built simulators in a
// cache keyed by the content of the program, its imports, the compiler
// version and the build options.
#include <fcntl.h>
#include <fmt/format.h>
#include <pthread.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "compiler/codegen/Codegen.h"
#include "compiler/codegen/NetworkTables.h"
#include "compiler/driver/Commands.h"
#include "compiler/sema/FormTable.h"
#include "ndl/runtime/net/memory_estimate.h"

namespace ndl::driver {
namespace {

namespace fs = std::filesystem;

// One invocation: the sources, the diagnostics and the passes' results.
struct Session {
  explicit Session(const BuildOptions& o) : diags(sources, o.diag) {}
  SourceManager sources;
  DiagnosticEngine diags;
  FrontEndResult result;

  // Runs the passes up to the routing's analysis (RouteTrace); false (with the diagnostics
  // printed) when the input is wrong.
  bool frontEnd(const BuildOptions& o) {
    PipelineOptions pipeline = o.pipeline;
    pipeline.routeAnalysis = false;
    runFrontEnd(o.file, pipeline, sources, diags, result);
    if (result.network && !diags.hasErrors()) return true;
    diags.printText(std::cerr);
    return false;
  }
};

// The routing analysed as `ndlc check` analyses it (its routes traced, its channel
// dependencies followed), so that a program it finds a route error in (no candidate, a port
// the node lacks, a header field set out of range) is not built either; its warnings (a
// possible deadlock, routes not traced) stay with `ndlc check` and `ndlc info`. On a thread
// of its own beside code generation, which needs nothing of it, and within a hundredth of
// the check's budgets (limits()): a network whose analysis would take longer than code
// generation (the 64x64 tori with dateline classes: 20 s) is left to `ndlc check`.
class RouteTrace {
 public:
  RouteTrace(Session& s, const BuildOptions& o)
      : diags_(s.sources, o.diag), evaluator_(s.result.checked->defs, diags_) {
    // The routings run on an evaluator of their own, which reports here: code generation may
    // report to the session's diagnostics meanwhile.
    evaluator_.network() = s.result.evaluator->network();
    session_ = &s;
    // The stack size is set rather than left to the platform (its default follows the stack
    // limit): the evaluator nests up to elab::kMaxCallDepth NDL calls of a few frames each,
    // several times larger under AddressSanitizer, in up to 4 MiB of stack.
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kStackBytes);
    started_ = pthread_create(&thread_, &attr, &RouteTrace::run, this) == 0;
    pthread_attr_destroy(&attr);
    if (!started_) run(this);  // no thread to be had: analysed here, before code generation
  }
  RouteTrace(const RouteTrace&) = delete;
  RouteTrace& operator=(const RouteTrace&) = delete;
  ~RouteTrace() { join(); }
  // Waits for the analysis; false, with the route error printed, when a route fails.
  bool passed() {
    join();
    if (failure_) std::rethrow_exception(failure_);
    if (!diags_.hasErrors()) return true;
    diags_.printText(std::cerr);
    return false;
  }

 private:
  // About 0.3 s of routing calls at most: a 16x16 torus is traced and analysed in full.
  static elab::Limits limits() {
    elab::Limits l;
    l.maxRouteSteps /= 100;
    l.maxDrawSteps /= 100;
    l.maxEvalSteps /= 100;
    return l;
  }
  static constexpr size_t kStackBytes = size_t{64} << 20;
  static void* run(void* self) {
    auto* t = static_cast<RouteTrace*>(self);
    try {
      checkDeadlock(t->session_->result, t->diags_, &t->evaluator_, limits());
    } catch (...) {
      t->failure_ = std::current_exception();  // rethrown by passed(), on the main thread
    }
    return nullptr;
  }
  void join() {
    if (started_) pthread_join(thread_, nullptr);
    started_ = false;
  }
  DiagnosticEngine diags_;
  elab::Evaluator evaluator_;
  Session* session_ = nullptr;
  std::exception_ptr failure_;
  pthread_t thread_{};
  bool started_ = false;
};

// A simulator that cannot fit this machine's memory is not built: the estimate
// (runtime/net/memory_estimate.h) is known from the shape before anything is allocated.
bool fitsMemory(Session& s) {
  const sema::Parameters& p = s.result.checked->params;
  const elab::Graph& g = s.result.network->graph;
  const double need = simulatorMemoryBytes(s.result);
  const double have = static_cast<double>(rt::machineMemoryBytes());
  if (need <= have) return true;
  const double gib = 1024.0 * 1024.0 * 1024.0;
  s.diags
      .report(DiagKind::NetworkTooLarge, p.topology.call->range,
              fmt::format("the simulator of {} would need about {:.1f} GiB of memory; this "
                          "machine has {:.1f} GiB",
                          g.name, need / gib, have / gib))
      .withHint(fmt::format("{} nodes x {} VCs per port x {} flits per VC buffer: fewer nodes, "
                            "VCs or a smaller NodeBufferSize (docs/runtime.md, memory)",
                            g.nodeCount, p.virtualChannels, p.bufferFlits));
  s.diags.printText(std::cerr);
  return false;
}

codegen::CodegenOptions codegenOptions(const BuildOptions& o) {
  codegen::CodegenOptions c;
  c.optLevel = o.optLevel;
  c.unspecialized = o.unspecialized;
  c.optimize = !o.noOpt;
  c.linkRuntime = !o.moduleOnly;
  c.coreBitcode = o.coreBitcode;
  return c;
}

fs::path cacheRoot() {
  if (const char* dir = std::getenv("NDL_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "ndl";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "ndl";
  return fs::temp_directory_path() / "ndl-cache";
}

// Where each node of a definition starts: a simulator names the place of a value its routing
// refuses ("division by zero (r.ndl:15:15)"), so a definition moved or reformatted is
// another simulator.
void appendPlaces(const SourceManager& sources, const ast::Node& n, std::string& out) {
  if (n.range.valid())
    out += fmt::format("{}:{}:{} ", sources.name(n.range.file), n.range.line, n.range.col);
  for (const ast::Node& k : n.children) appendPlaces(sources, k, out);
}

// The cache key: everything that can change the simulator's code. That is the program's
// definitions (every form but the parameter forms, as parsed, and where each of their
// expressions stands: a comment or a blank line counts only where it moves a definition) and the tables without the values a simulator takes with --param
// (structuralKey). Parameter forms act only through the tables, and `ndlc run` passes every
// --param value, so runs that differ only there (a load sweep, `--set MessageCreationRate=`,
// the same edit in the file) share one build.
std::string cacheKey(const BuildOptions& o, const SourceManager& sources, const ast::Program& p,
                     const codegen::SimulatorTables& tables) {
  std::string material = fmt::format("ndlc {} O{} unspecialized={} stdlib={}\n", NDL_VERSION,
                                     o.optLevel, o.unspecialized, o.pipeline.stdlibDir.string());
  for (const ast::Module& m : p.modules)
    for (const ast::Node& form : m.forms)
      if (!sema::findForm(form.head())) {
        material += ast::print(form) + "\n";
        appendPlaces(sources, form, material);
        material += "\n";
      }
  material += codegen::structuralKey(tables);
  // The simulator runtime the build links: a rebuilt NDL invalidates the cache.
  for (const std::string& f : codegen::runtimeFiles()) {
    std::error_code ec;
    auto stamp = fs::last_write_time(f, ec).time_since_epoch().count();
    material += fmt::format("{} {} {}\n", f, ec ? 0 : fs::file_size(f, ec), stamp);
  }
  return fmt::format("{:016x}", codegen::contentHash(material));
}

// The --param values a cached simulator was built with, kept beside it (kCompiledParams):
// one `Name=Value` after another, each ended by a NUL (a path may hold a newline).
constexpr const char* kCompiledParams = "runtime-params";

void writeCompiledParams(const fs::path& file, const std::vector<std::string>& args) {
  std::ofstream out(file, std::ios::binary);
  for (size_t k = 1; k < args.size(); k += 2) out << args[k] << '\0';
}

std::vector<std::string> readCompiledParams(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<std::string> values;
  for (std::string v; std::getline(in, v, '\0');) values.push_back(v);
  return values;
}

// The --param arguments for a run of the cached simulator: the checked value of each entry
// that differs from the one the simulator holds (all of them when that is not known).
// Passing only those leaves the simulator free to refuse a value given for nothing (a
// HotSpotShare under another pattern, docs/runtime.md) without refusing the program's own
// values when the user's --param makes them moot.
std::vector<std::string> paramArgsFor(const std::vector<std::string>& all,
                                      const fs::path& compiledFile) {
  const std::vector<std::string> compiled = readCompiledParams(compiledFile);
  if (compiled.size() * 2 != all.size()) return all;
  std::vector<std::string> args;
  for (size_t k = 1; k < all.size(); k += 2) {
    if (all[k] == compiled[k / 2]) continue;
    args.push_back(all[k - 1]);
    args.push_back(all[k]);
  }
  return args;
}

}  // namespace

int runBuild(const BuildOptions& o) {
  Session session(o);
  if (!session.frontEnd(o) || !fitsMemory(session)) return kExitInputError;
  FrontEndResult& r = session.result;
  DiagnosticEngine& diags = session.diags;
  RouteTrace trace(session, o);
  bool ok = codegen::buildSimulator(*r.checked, *r.network, codegenOptions(o), o.output, diags);
  if (!trace.passed()) {
    std::error_code ec;
    if (ok) fs::remove(o.output, ec);  // no simulator of a program with a route error
    return kExitInputError;
  }
  if (diags.errorCount() || diags.warningCount()) diags.printText(std::cerr);
  return ok ? kExitOk : kExitInputError;
}

int runEmitLLVM(const BuildOptions& o) {
  Session session(o);
  if (!session.frontEnd(o) || !RouteTrace(session, o).passed()) return kExitInputError;
  FrontEndResult& r = session.result;
  DiagnosticEngine& diags = session.diags;
  bool ok = codegen::emitLLVM(*r.checked, *r.network, codegenOptions(o), std::cout, diags);
  if (diags.errorCount()) diags.printText(std::cerr);
  return ok ? kExitOk : kExitInputError;
}

int runRun(const BuildOptions& o, const std::vector<std::string>& simArgs) {
  Session session(o);
  if (!session.frontEnd(o) || !fitsMemory(session)) return kExitInputError;
  FrontEndResult& r = session.result;
  DiagnosticEngine& diags = session.diags;
  // Without the distances: they follow from the ports, which the key holds, and --param
  // does not carry them; the build computes its own tables with them.
  const codegen::SimulatorTables tables =
      codegen::makeTables(*r.checked, *r.network, /*distances=*/false);
  const std::string key = cacheKey(o, session.sources, *r.program, tables);
  fs::path dir = cacheRoot() / key;
  fs::path sim = dir / "simulator";
  fs::path done = dir / "complete";  // written last: an entry without it is rebuilt
  std::error_code ec;
  auto usable = [&] {
    return fs::exists(done, ec) && fs::is_regular_file(sim, ec) && ::access(sim.c_str(), X_OK) == 0;
  };
  // Runs started together (a sweep's workers) build a simulator once: the others wait here.
  std::error_code mk;
  fs::create_directories(cacheRoot(), mk);
  const int lock = ::open((cacheRoot() / (key + ".lock")).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock >= 0) ::flock(lock, LOCK_EX);
  bool cached = usable();
  if (!cached) {
    // Build in a private directory and rename it into place, so that runs
    // started together never see (or execute) a half-written simulator.
    fs::path tmp = dir;
    tmp += fmt::format(".build-{}", ::getpid());
    fs::remove_all(tmp, ec);
    fs::create_directories(tmp, ec);
    if (ec) {
      diags.reportFile(DiagKind::BuildFailed, tmp.string(),
                       fmt::format("cannot create the build cache: {}", ec.message()))
          .withHint("set NDL_CACHE_DIR to a writable directory");
      diags.printText(std::cerr);
      return kExitInputError;
    }
    RouteTrace trace(session, o);
    const bool built = codegen::buildSimulator(*r.checked, *r.network, codegenOptions(o),
                                               (tmp / "simulator").string(), diags);
    if (!trace.passed()) {
      fs::remove_all(tmp, ec);
      return kExitInputError;
    }
    if (!built) {
      fs::remove_all(tmp, ec);
      diags.printText(std::cerr);
      return kExitInputError;
    }
    writeCompiledParams(tmp / kCompiledParams, codegen::runtimeParamArgs(tables));
    std::ofstream(tmp / "complete") << "ok\n";
    if (!usable()) fs::remove_all(dir, ec);  // a broken entry
    fs::rename(tmp, dir, ec);
    if (ec) fs::remove_all(tmp, ec);  // another run finished first: use its entry
    if (!usable()) {
      diags.reportFile(DiagKind::BuildFailed, dir.string(), "cannot install the simulator in the build cache")
          .withHint("set NDL_CACHE_DIR to a writable directory");
      diags.printText(std::cerr);
      return kExitInputError;
    }
  }
  if (lock >= 0) ::close(lock);  // releases the lock
  if (o.verbose)
    std::cerr << fmt::format("ndlc run: {} simulator {}\n", cached ? "cached" : "built", sim.string());
  if (diags.warningCount()) diags.printText(std::cerr);
  std::cout.flush();
  std::vector<char*> argv;
  std::string simPath = sim.string();
  argv.push_back(simPath.data());
  // The checked values of the --param entries first: the cached simulator may have been
  // built for other ones. The user's arguments follow (a later --param wins).
  std::vector<std::string> args =
      paramArgsFor(codegen::runtimeParamArgs(tables), dir / kCompiledParams);
  args.insert(args.end(), simArgs.begin(), simArgs.end());
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(simPath.c_str(), argv.data());
  std::cerr << fmt::format("ndlc run: cannot start {}: {}\n", simPath, std::strerror(errno));
  return kExitInputError;
}

int runSweep(const std::vector<std::string>& args) {
  std::error_code ec;
  std::string self = fs::canonical("/proc/self/exe", ec).string();
  // The engine is the package's ndl.engine: its folder goes first on the interpreter's path
  // (a user's PYTHONPATH follows), so an installed `ndl` of another version is not picked up.
  fs::path dir = defaultPythonDir();
  if (dir.empty()) {
    std::cerr << fmt::format(
        "ndlc sweep: error: the ndl Python package is not beside {} (share/ndl/python)\n"
        "  hint: build the ndlc target (it stages the package), or reinstall NDL\n",
        self);
    return kExitUsage;
  }
  std::string path = dir.string();
  if (const char* user = std::getenv("PYTHONPATH"); user && *user) path += std::string(":") + user;
  ::setenv("PYTHONPATH", path.c_str(), 1);
  std::vector<std::string> all = {"python3", "-m", "ndl.engine", "--ndlc", self};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execvp("python3", argv.data());
  std::cerr << fmt::format("ndlc sweep: cannot start python3: {}\n", std::strerror(errno));
  return kExitUsage;
}

}  // namespace ndl::driver
