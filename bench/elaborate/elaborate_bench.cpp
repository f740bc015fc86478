// Time and peak memory of the graph analyses on k x k tori: building the
// graph (C++ builder), metrics (degrees, diameter, average distance by one
// BFS), the routing trace (dimension order from the representative) and the
// deadlock check of dimension order over one VC class (the translation
// method; dateline classes depend on absolute coordinates and are explored
// for every destination, which the default budget allows up to about
// 64 x 64). Each size runs in a fresh process so
// that peak RSS is that size's alone. Usage: ndl_elaborate_bench [k ...]
// (default 64 256 1024).
#include <fmt/format.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compiler/elaborate/Deadlock.h"
#include "compiler/elaborate/Metrics.h"
#include "compiler/elaborate/Routing.h"
#include "tests/elaborate/TestGraphs.h"

namespace {

using namespace ndl::elab;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

long peakRssMb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;  // kilobytes on Linux
}

std::string status(AnalysisStatus s) {
  switch (s) {
    case AnalysisStatus::kOk:
      return "ok";
    case AnalysisStatus::kDisconnected:
      return "disconnected";
    case AnalysisStatus::kTooLarge:
      return "too large";
    case AnalysisStatus::kRouteErrors:
      return "route errors";
    case AnalysisStatus::kInvalid:
      return "invalid";
  }
  return "?";
}

void runOne(int64_t k) {
  // The benchmark measures the algorithms, not the default budget (which
  // refuses the 1M-node traces on purpose).
  Limits limits;
  limits.maxRouteSteps = 4'000'000'000ULL;

  auto t0 = Clock::now();
  const Graph g = testing::buildTorus({k, k});
  const double build = since(t0);
  const long rssBuilt = peakRssMb();  // the graph alone

  t0 = Clock::now();
  const DegreeStats deg = degreeStats(g);
  const DistanceStats dist = graphDistances(g, limits);
  const double metrics = since(t0);

  t0 = Clock::now();
  const RoutingStats routing = routingHops(g, testing::dimensionOrder(g, true), limits);
  const double route = since(t0);

  t0 = Clock::now();
  const DeadlockResult dl =
      checkDeadlock(g, testing::dimensionOrder(g, true), DeadlockOptions{}, limits);
  const double deadlock = since(t0);

  fmt::print(
      "{:>9} {:>9} {:>8.3f} {:>9.3f} {:>9.3f} {:>9.3f} {:>9} {:>8} | deg {} diam {} avg {:.4f} "
      "({}); routing {} max {} minimal {}; deadlock {} free {}\n",
      g.nodeCount, g.channels.size(), build, metrics, route, deadlock, rssBuilt, peakRssMb(),
      deg.max, dist.diameter, dist.avgDistance.value(), dist.method, status(routing.status),
      routing.maxHops, routing.minimal, status(dl.status), dl.deadlockFree);
  std::fflush(stdout);
}

}  // namespace

extern char** environ;

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--one") == 0) {
    runOne(std::atoll(argv[2]));
    return 0;
  }
  std::vector<int64_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoll(argv[i]));
  if (sizes.empty()) sizes = {64, 256, 1024};
  fmt::print("{:>9} {:>9} {:>8} {:>9} {:>9} {:>9} {:>9} {:>8}\n", "nodes", "channels", "build s",
             "metrics s", "routing s", "deadlk s", "RSS@build", "RSS MB");
  std::fflush(stdout);
  for (int64_t k : sizes) {
    std::string size = std::to_string(k);
    char one[] = "--one";
    char* args[] = {argv[0], one, size.data(), nullptr};
    pid_t pid = 0;
    if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, args, environ) != 0) {
      fmt::print("{}x{}: cannot start\n", k, k);
      continue;
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) fmt::print("{}x{}: failed\n", k, k);
  }
  return 0;
}
