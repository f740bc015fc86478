// What a simulator needs in memory, known before it allocates anything: `ndlc build`
// refuses a network that cannot fit the machine, and the simulator checks again on the
// machine where it runs. Header-only, so the compiler uses it without linking the runtime;
// network.cpp asserts that the entry sizes below are the runtime's own.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>

namespace ndl::rt {

// Bytes a symbol of a port-state ring takes (prediction.h's PortRings): the narrowest of 1, 2,
// 4 or 8 that holds hi - lo.
inline int ringSymbolBytes(int64_t lo, int64_t hi) {
  const uint64_t span = static_cast<uint64_t>(hi - lo);
  return span < 0x100 ? 1 : span < 0x10000 ? 2 : span < 0x100000000ull ? 4 : 8;
}
// Each ring of a port also keeps its length and newest slot.
inline constexpr int64_t kRingHeadBytes = 4;
inline int64_t ringBytes(int64_t capacity, int64_t lo, int64_t hi) {
  return capacity * ringSymbolBytes(lo, hi) + kRingHeadBytes;
}

struct NetworkShape {
  int64_t routers = 0;
  int64_t ports = 0;  // network ports of all routers (each endpoint's port comes on top)
  int64_t endpoints = -1;  // endpoints of all routers; -1: one per router
  int64_t vcs = 1;
  int64_t injection_vcs = 1;
  int64_t buffer_flits = 1;
  int64_t port_state_bytes = 0;  // a predictor's rings, per input and injection port
  int64_t router_state_bytes = 0;  // and per router (define-router-state)
  bool queue_snapshot = false;  // (port-queue-at R P) is read: the output VCs twice
};

// Bytes per entry of the network's arrays (network.h).
// The entry, the collision and class-grant counters (one class), the active bit; a routing
// with a recovery field adds two counters more (16 bytes), one with token classes a lane
// count (1 byte), traffic classes of different priorities a byte per input VC (and a
// message id per endpoint and priority); none is counted (a few percent at most).
inline constexpr double kRouterEntryBytes = 24 + 8 + 8 + 1.0 / 8;
inline constexpr double kPortEntryBytes = 16 + 2 * 2 + 8;  // entry, in/out codes, flits sent
inline constexpr double kInputVcEntryBytes = 20;
inline constexpr double kFlitSlotBytes = 4;
inline constexpr double kOutputVcEntryBytes = 2;
// The rest per node (statistics rows, sources, the topology index, packets in flight at
// light load), measured on a 64x64 torus with one endpoint per router: about 400 bytes.
// Counted per endpoint (the rows and sources are) and, for the topology index, per router.
inline constexpr double kOtherPerNodeBytes = 512;

// Bytes a simulator of this shape allocates, about (within a few percent where the buffer
// rings dominate, docs/runtime.md). A double: shapes far past any machine stay finite.
inline double estimateSimulatorBytes(const NetworkShape& s) {
  double depth = 1;
  while (depth < static_cast<double>(s.buffer_flits)) depth *= 2;  // rings are powers of 2
  const double routers = static_cast<double>(s.routers);
  const double endpoints = s.endpoints < 0 ? routers : static_cast<double>(s.endpoints);
  const double ports = static_cast<double>(s.ports);
  // Every endpoint has its own injection port with InjectionVirtualChannels VCs.
  const double ivcs =
      ports * static_cast<double>(s.vcs) + endpoints * static_cast<double>(s.injection_vcs);
  const double ovcs = ivcs;  // numbered as the input VCs (network.h)
  return routers * (kRouterEntryBytes + kOtherPerNodeBytes +
                    static_cast<double>(s.router_state_bytes)) +
         std::max(0.0, endpoints - routers) * kOtherPerNodeBytes +
         (ports + endpoints) * (kPortEntryBytes + static_cast<double>(s.port_state_bytes)) +
         ivcs * (kInputVcEntryBytes + depth * kFlitSlotBytes) + ovcs * kOutputVcEntryBytes * (s.queue_snapshot ? 2 : 1);
}

// Physical memory of this machine, or the memory limit of its control group when lower
// (a container's share).
inline uint64_t machineMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  uint64_t bytes = pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page)
                                         : UINT64_MAX;
  std::ifstream cg("/sys/fs/cgroup/memory.max");
  std::string limit;
  if (cg >> limit && !limit.empty() && limit != "max") {
    try {
      const uint64_t l = std::stoull(limit);
      if (l > 0 && l < bytes) bytes = l;
    } catch (const std::exception&) {
    }
  }
  return bytes;
}

}  // namespace ndl::rt
