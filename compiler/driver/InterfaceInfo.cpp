#include "compiler/driver/InterfaceInfo.h"

#include <fmt/format.h>

#include "compiler/sema/Interfaces.h"

namespace ndl::driver {
namespace {

using nlohmann::json;
using rt::nsText;

// One path's figures, timed by the runtime's own arithmetic (interface_timing.h): the plain
// sum of its stages' latencies, and the time it takes from a common edge of every clock
// (time 0), each crossing waiting for the receiving clock's next edge.
struct PathFigures {
  int64_t sumPs = 0;
  int64_t alignedPs = 0;
  int64_t networkPs = 0;  // send: when the network's clock takes the message
};

PathFigures figures(const sema::InterfaceSpec& spec, bool send) {
  const rt::InterfaceTiming t = sema::interfaceTiming(spec);
  const std::vector<rt::InterfaceStage>& stages = send ? t.send : t.receive;
  PathFigures f;
  for (const rt::InterfaceStage& s : stages) f.sumPs += s.latency_ps;
  f.alignedPs = rt::pathFromEdge(stages, send ? -1 : 0, t.synchronizer_clocks);
  f.networkPs = send ? rt::crossInto(f.alignedPs, stages.back().domain, 0, t.network_period_ps,
                                     t.synchronizer_clocks)
                     : 0;
  return f;
}

double ns(int64_t ps) { return static_cast<double>(ps) / 1000.0; }

// A time in clocks of every domain, as the number it is (2.25 clocks may be).
json inClocks(const sema::InterfaceSpec& spec, int64_t ps) {
  json o = json::object();
  for (const sema::ClockDomainSpec& d : spec.domains)
    o[d.name] = static_cast<double>(ps) / static_cast<double>(d.periodPs);
  return o;
}

std::string clocksText(const sema::InterfaceSpec& spec, int64_t ps) {
  std::string s;
  for (const sema::ClockDomainSpec& d : spec.domains)
    s += fmt::format("{}{:g} {}", s.empty() ? "" : ", ",
                     static_cast<double>(ps) / static_cast<double>(d.periodPs), d.name);
  return s;
}

}  // namespace

json interfaceJson(const sema::InterfaceSpec& spec) {
  json domains = json::array();
  for (const sema::ClockDomainSpec& d : spec.domains)
    domains.push_back({{"name", d.name},
                       {"period_ps", d.periodPs},
                       {"frequency_mhz", 1e6 / static_cast<double>(d.periodPs)}});
  json paths = json::array();
  int64_t total = 0;
  for (bool send : {true, false}) {
    const sema::InterfacePathSpec& path = send ? spec.send : spec.receive;
    const PathFigures f = figures(spec, send);
    total += f.sumPs;
    json stages = json::array();
    for (const sema::InterfaceStageSpec& s : path.stages) {
      const int64_t period = spec.domains[static_cast<size_t>(s.domain)].periodPs;
      stages.push_back({{"name", s.name},
                        {"domain", spec.domains[static_cast<size_t>(s.domain)].name},
                        {"clocks", s.clocks},
                        {"occupancy_clocks", s.occupancyClocks},
                        {"latency_ps", s.clocks * period},
                        {"latency_ns", ns(s.clocks * period)}});
    }
    json p = {{"direction", send ? "send" : "receive"},
              {"name", path.name},
              {"stages", stages},
              {"sum_ps", f.sumPs},
              {"sum_ns", ns(f.sumPs)},
              {"sum_clocks", inClocks(spec, f.sumPs)},
              {"edge_aligned_ps", f.alignedPs},
              {"edge_aligned_ns", ns(f.alignedPs)}};
    if (send) p["enters_network_ps"] = f.networkPs;
    paths.push_back(std::move(p));
  }
  return {{"name", spec.name},
          {"domains", domains},
          {"synchronizer_clocks", spec.synchronizerClocks},
          {"paths", paths},
          {"send_plus_receive_ps", total},
          {"send_plus_receive_ns", ns(total)},
          {"host",
           {{"write_ps", spec.hostWritePs},
            {"read_ps", spec.hostReadPs},
            {"software_overhead_ps", spec.softwareOverheadPs},
            {"poll_interval_ps", spec.pollIntervalPs},
            {"poll_phase_ps", spec.pollPhasePs}}}};
}

std::string interfaceText(const sema::InterfaceSpec& spec) {
  std::string out;
  std::string domains;
  for (const sema::ClockDomainSpec& d : spec.domains)
    domains += fmt::format("{}{} {} ns", domains.empty() ? "" : ", ", d.name, nsText(d.periodPs));
  out += fmt::format("interface         {} (clocks: {}; synchronizer {} clocks)\n", spec.name,
                     domains, spec.synchronizerClocks);
  int64_t total = 0;
  for (bool send : {true, false}) {
    const sema::InterfacePathSpec& path = send ? spec.send : spec.receive;
    const PathFigures f = figures(spec, send);
    total += f.sumPs;
    out += fmt::format("  {} path {}: {} ns summed ({} clocks), {} ns from a common edge{}\n",
                       send ? "send" : "receive", path.name, nsText(f.sumPs),
                       clocksText(spec, f.sumPs), nsText(f.alignedPs),
                       send ? fmt::format(", in the network at {} ns", nsText(f.networkPs))
                            : std::string());
    for (const sema::InterfaceStageSpec& s : path.stages) {
      const sema::ClockDomainSpec& d = spec.domains[static_cast<size_t>(s.domain)];
      out += fmt::format("    {:<24} {:>3} {} clock{} = {} ns{}\n", s.name, s.clocks, d.name,
                         s.clocks == 1 ? "" : "s", nsText(s.clocks * d.periodPs),
                         s.occupancyClocks == s.clocks
                             ? std::string()
                             : fmt::format(", takes the next after {}", s.occupancyClocks));
    }
  }
  out += fmt::format("  send + receive    {} ns summed\n", nsText(total));
  out += fmt::format("  host              write {} ns, read {} ns, software {} ns per "
                     "message, {}\n",
                     nsText(spec.hostWritePs), nsText(spec.hostReadPs), nsText(spec.softwareOverheadPs),
                     spec.pollIntervalPs == 0
                         ? std::string("polled continuously")
                         : fmt::format("polled every {} ns from {} ns", nsText(spec.pollIntervalPs),
                                       nsText(spec.pollPhasePs)));
  return out;
}

}  // namespace ndl::driver
