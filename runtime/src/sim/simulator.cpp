// The clock loop. Each clock: deliver what links and credit wires bring (commit of earlier
// sends), create messages, then let every active router and its PE evaluate and send into
// later clocks; finally account arrivals and drops in a fixed order so statistics do not
// depend on the order routers were visited.
#include "ndl/runtime/sim/simulator.h"

#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "ndl/runtime/app/application.h"
#include "ndl/runtime/sim/clock_ratio.h"
#include "ndl/runtime/net/network.h"
#include "ndl/runtime/net/router.h"
#include "ndl/runtime/sim/run_messages.h"
#include "ndl/runtime/stats/statistics.h"
#include "ndl/runtime/traffic/traffic_source.h"

// The routing function of a generated simulator, when it defines one under this name (see
// docs/runtime.md). Weak: plain users of the library do not. When params.route_fn is this
// symbol, the router step is instantiated with it known, so linking the runtime's bitcode with
// the generated module lets the optimiser inline routing into the cycle loop.
extern "C" ndl::rt::RouteSet ndl_generated_route(const ndl::rt::RouteContext& ctx)
    __attribute__((weak));

namespace ndl::rt {

// What the results report about the topology; the description itself is not kept.
struct TopologySummary {
  std::string name;
  int64_t links = 0;
  int32_t diameter = 0;
  double avg_distance = 0;
};

struct Simulator::State {
  State(std::unique_ptr<Network> n, SimParams p, TopologySummary t)
      : params(std::move(p)),
        topology(std::move(t)),
        net_owner(std::move(n)),
        net(*net_owner),
        sources(params, net.topology(), net.endpoints()),
        stats(params, net.endpoints()) {
    if (params.pattern_program) {
      app = std::make_unique<Application>(params.pattern_program,
                                          1e12 / params.network_frequency_hz, params.expand_rate,
                                          params.interface);
    }
    // Pools grow to the number of messages in flight; no up-front reservation per node.
    log.arrivals.reserve(net.routers());
    if (net.flitPipe() > 0) ejecting.resize(static_cast<size_t>(net.flitPipe()) + 1);
  }
  template <class Route>
  void loop(const Route& route, const RunOptions& options, Results& out);
  // Records a deadlock found at clock c (the VCs in `cycle`) in the results.
  void noteDeadlock(int64_t c, Results& out) const;
  void account(int64_t c);
  bool routerTick(int64_t c) const;
  bool stalled(int64_t c, int64_t detect, int64_t last_tick, int64_t& since) const;
  HeldCounts held() const;
  Moments heldAges(int64_t c) const;

  SimParams params;
  ClockRatio router_clock{params.router_frequency_hz, params.network_frequency_hz};
  TopologySummary topology;
  std::unique_ptr<Network> net_owner;
  Network& net;
  TrafficSources sources;
  Statistics stats;
  std::unique_ptr<Application> app;  // a pattern file's programs, if any
  PacketStore store;
  CycleLog log;
  // With a router pipeline, tails ejected at clock c reach their endpoint at c + ST:
  // held here by the clock they arrive, modulo the pipeline's length (empty without one).
  std::vector<std::vector<CycleLog::Arrival>> ejecting;
  std::vector<uint32_t> cycle;  // scratch of the deadlock search
  int64_t flit_hops = 0;
  int64_t router_ticks = 0;
  int64_t copies_freed = 0;  // mispredicted copies whose last flit was discarded
  bool ran = false;
};

// A slower router acts on the link clocks in which one of its own edges falls (clock_ratio.h).
bool Simulator::State::routerTick(int64_t c) const { return router_clock.acts(c); }

// Whether a network in which no flit has moved since clock `since`, at least `detect` clocks
// before c, is stalled: nothing arrived since, nothing is still on its way, and the routers
// have had a clock in which to act on what arrived last. Time on a wire or in a header's delay
// is no stall: when something is under way `since` moves to when it lands (the window counts
// again from there), so a real stall is reported once the last of it has landed and `detect`
// clocks have passed without a move. Runs at most a few times per window, never per flit.
bool Simulator::State::stalled(int64_t c, int64_t detect, int64_t last_tick, int64_t& since) const {
  since = std::max(since, net.lastArrival());
  if (c - since < detect) return false;
  if (last_tick <= since) {
    // Routers on a slower clock have had none since: wait for one.
    since = c;
    return false;
  }
  since = std::max(since, net.progressPendingUntil(c));
  return c - since >= detect;
}

// Counted from the records themselves, apart from the statistics: a message is held until all
// its packets are delivered or dropped (queued at its source, in the network, partly
// delivered); a packet until it is delivered or dropped, as a record (at the source, in VCs, on
// links) or still to be made from its message's queue entry. A dropped packet's record lives on
// while its flits are discarded, but it is dropped, not held.
HeldCounts Simulator::State::held() const {
  HeldCounts h;
  store.messages.forEachLive([&](const Message& m) {
    ++h.messages;
    h.packets += m.packets - m.injected;
  });
  // A mispredicted copy is no message's packet (docs/prediction.md).
  store.packets.forEachLive(
      [&](const Packet& p) { h.packets += p.dropped == 0 && p.mispredicted == 0; });
  h.queued_messages = sources.queuedMessages();
  return h;
}

// The ages at clock c of the messages held (queued, in the network, partly delivered): with
// the period's latencies, BookSim2's test of saturation. Once per sample period.
Moments Simulator::State::heldAges(int64_t c) const {
  Moments ages;
  store.messages.forEachLive([&](const Message& m) { ages.add(static_cast<double>(c - m.created)); });
  return ages;
}

void Simulator::State::account(int64_t c) {
  for (const auto& drop : log.drops) {
    Packet& p = store.packets[drop.packet];
    stats.onPacketDropped(p, drop.node);
    Message& m = store.messages[p.message];
    ++m.dropped;
    m.collisions += p.collisions;
    if (++m.resolved == m.packets) {
      stats.onMessageResolved(m, c);
      if (m.tag != kNoTag) app->onDropped();
      store.messages.release(p.message);
    }
  }
  std::vector<CycleLog::Arrival>* arrivals = &log.arrivals;
  if (!ejecting.empty()) {
    const size_t n = ejecting.size();
    auto& later = ejecting[static_cast<size_t>(c + net.flitPipe()) % n];
    later.insert(later.end(), log.arrivals.begin(), log.arrivals.end());
    log.arrivals.clear();
    arrivals = &ejecting[static_cast<size_t>(c) % n];
  }
  // Same-clock arrivals in (endpoint, packet id) order, whatever order routers ran in. The
  // routers log where packets left; the endpoint is the router's first plus dst_local (with
  // one endpoint per router, the router's id itself).
  if (const EndpointLayout& eps = net.endpoints(); !eps.oneEach()) {
    for (auto& arrival : *arrivals)
      arrival.node = eps.first(arrival.node) + store.packets[arrival.packet].dst_local;
  }
  std::sort(arrivals->begin(), arrivals->end(), [](const auto& a, const auto& b) {
    return a.node != b.node ? a.node < b.node : a.packet < b.packet;
  });
  for (const auto& arrival : *arrivals) {
    Packet& p = store.packets[arrival.packet];
    Message& m = store.messages[p.message];
    stats.onPacketDelivered(p, c, m.resolved + 1 == m.packets && m.dropped == 0, m.created);
    m.collisions += p.collisions;
    m.max_hops = std::max<uint32_t>(m.max_hops, p.hops);
    if (++m.resolved == m.packets) {
      stats.onMessageResolved(m, c);
      if (sources.replies() && m.dropped == 0 && m.tag == kNoTag) [[unlikely]] {
        // The reply may grow the message pool, moving m: it is read no more after it.
        const Message done = m;
        sources.reply(done, c, store, stats, net);
        store.messages.release(p.message);
        store.packets.release(arrival.packet);
        continue;
      }
      if (m.tag != kNoTag) {
        if (m.dropped > 0) {
          app->onDropped();
        } else {
          app->onDelivered(m.dst, m.src, m.tag, c);
        }
      }
      store.messages.release(p.message);
    }
    store.packets.release(arrival.packet);
  }
  if (arrivals != &log.arrivals) arrivals->clear();
  for (uint32_t id : log.freed) {
    copies_freed += store.packets[id].mispredicted;
    store.packets.release(id);
  }
  flit_hops += log.flit_hops;
  log.flit_hops = 0;
}

void Simulator::State::noteDeadlock(int64_t c, Results& out) const {
  ++out.deadlocks_found;
  if (out.deadlock.clock >= 0) return;  // the first one is the one reported
  out.deadlock.clock = c;
  for (uint32_t gv : cycle) out.deadlock.cycle.push_back(net.vcName(gv));
}

namespace {

// Walks the set bits of the active words (Network::activeWords) in memory order, or in
// reverse. A word's bits are copied when the walk reaches it, so clearing a router's bit
// after its step does not disturb the walk.
class ActiveRouters {
 public:
  ActiveRouters(const std::vector<uint64_t>& words, bool reverse)
      : words_(words), reverse_(reverse), w_(reverse ? words.size() : 0), fresh_(!reverse) {}
  // The next active router, or -1.
  int32_t next() {
    while (bits_ == 0) {
      if (reverse_) {
        if (w_ == 0) return -1;
        --w_;
      } else {
        if (!fresh_) ++w_;
        fresh_ = false;
        if (w_ >= words_.size()) return -1;
      }
      bits_ = words_[w_];
    }
    const int b = reverse_ ? 63 - __builtin_clzll(bits_) : __builtin_ctzll(bits_);
    bits_ &= ~(uint64_t{1} << b);
    return static_cast<int32_t>(w_ * 64 + static_cast<size_t>(b));
  }

 private:
  const std::vector<uint64_t>& words_;
  bool reverse_;
  size_t w_;
  bool fresh_;  // forward: word w_ has not been read yet
  uint64_t bits_ = 0;
};

// The application's report at clock c, for the message of a stuck run.
ApplicationResult appReport(const Application& app, int64_t c) {
  ApplicationResult r;
  app.report(r, c + 1);
  return r;
}

}  // namespace

template <class Route>
void Simulator::State::loop(const Route& route, const RunOptions& options, Results& out) {
  // An application runs to completion (or until it is stuck) unless a time limit is given.
  // A steady run ends by its own measurement (docs/runtime.md 3.1).
  const int64_t time_limit =
      params.time_limit_clocks > 0
          ? params.time_limit_clocks
          : (params.creation_max == 0 && params.measured_messages == 0 && !app &&
                     !stats.steady() && params.script.empty()
                 ? options.default_time_limit_clocks
                 : INT64_MAX);
  const int64_t detect = params.deadlock_detect_clocks > 0
                             ? params.deadlock_detect_clocks
                             : std::max<int64_t>(10000, 4 * params.deadlock_timeout_clocks);
  out.params.deadlock_detect_clocks = detect;  // report the effective window
  const int64_t suspect_after =
      params.deadlock_timeout_clocks > 0 ? params.deadlock_timeout_clocks : 1000;
  out.params.deadlock_timeout_clocks = suspect_after;
  int64_t next_search = 0;
  const bool show_progress = options.progress && isatty(STDERR_FILENO);
  const auto wall_start = std::chrono::steady_clock::now();
  auto last_progress = wall_start;
  bool progress_shown = false;
  // The backstop's window counts from stall_since, the last clock of progress: a flit moved,
  // the network was empty (idle time is no stall), or (found when the window runs out)
  // something arrived or is still on its way. last_tick: the last clock the routers stepped.
  int64_t stall_since = 0;
  int64_t last_tick = -1;
  int64_t c = 0;
  // Ctrl-C, SIGTERM and the progress line are polled by work done, not by clocks: every
  // kPollWork router steps or clocks, so a network whose clock takes seconds still stops
  // within milliseconds (a router step costs well under 1 us; at 256 of them a poll is
  // far below 100 ms apart).
  constexpr int64_t kPollWork = 256;
  int64_t work = 0, next_poll = kPollWork;
  bool stopped = false;
  // Prefetch the next routers' state only when it does not stay in the caches anyway: on
  // this machine a 64x64 torus (2.6 MB of state) ran 37% faster without, a 128x128 one
  // (10.6 MB) 19% slower.
  constexpr size_t kPrefetchAbove = size_t{4} << 20;
  const bool prefetch = options.prefetch == RunOptions::Prefetch::kAuto
                            ? net.stateBytes() > kPrefetchAbove
                            : options.prefetch == RunOptions::Prefetch::kAlways;
  // The messages (or clocks) the run is heading for: the estimate of the time left.
  const int64_t goal_messages =
      params.measured_messages > 0 ? params.warmup_messages + params.measured_messages
                                   : params.creation_max;
  auto poll = [&] {
    next_poll = work + kPollWork;
    if (options.stop && *options.stop) return true;
    if (!show_progress) return false;
    const auto now = std::chrono::steady_clock::now();
    if (now - wall_start < std::chrono::seconds(2) ||
        now - last_progress < std::chrono::milliseconds(500)) {
      return false;
    }
    last_progress = now;
    progress_shown = true;
    const double elapsed = std::chrono::duration<double>(now - wall_start).count();
    // Done so far as a fraction of the messages to deliver, else of the time limit.
    double done = 0;
    if (goal_messages > 0) done = static_cast<double>(stats.delivered()) / goal_messages;
    if (time_limit != INT64_MAX) done = std::max(done, static_cast<double>(c) / time_limit);
    printProgress(c, stats.delivered(), stats.inFlight(), elapsed, done);
    return false;
  };
  out.status = RunStatus::kOk;
  // A routing failure stops the run at clock c; what was measured is kept.
  try {
  for (;; ++c) {
    // With prefetching (a network larger than the caches) the flits are committed router
    // block by router block as the stepping reaches them (Network::stageArrivals).
    const bool tick = routerTick(c);
    const bool staged = prefetch && tick;
    if (staged) {
      net.stageArrivals(c);
    } else {
      net.deliver(c);
    }
    if (app) {
      app->advanceDue(c);
      for (const AppSend& m : app->sends())
        sources.enqueueApp(m.src, m.dst, m.bits, m.tag, c, store, stats, net);
    }
    sources.createDue(c, store, stats, net);
    if (tick) {
      last_tick = c;
      router_ticks += net.routers();
      net.beginRound(c);
      // The active routers in memory order (reversed only to test that the order does not
      // matter). On a network larger than the caches a router's state is asked for three
      // steps before its own (one step is too short to hide a memory access: the loads that
      // follow the state then wait for it), its entry, which says where the rest is, five,
      // and the packets at the front of its VCs, found through that state, one; on a small
      // network that costs more than it saves.
      std::vector<uint64_t>& active = net.activeWords();
      ActiveRouters order(active, options.reverse_router_order);
      // One router's clock; false when a stop was asked for part way through the clock (the
      // routers not stepped stay active).
      auto step = [&](int32_t r) {
        if (++work >= next_poll && poll()) return false;
        if (sources.pending(r)) sources.inject(r, c, store, stats, net);
        net.stepRouter(r, c, route, store, log);
        if (!net.routerBusy(r) && !sources.pending(r)) active[r >> 6] &= ~(uint64_t{1} << (r & 63));
        return true;
      };
      if (!prefetch && !options.reverse_router_order) {
        // The common case, word by word: the stop is polled before a word (at most 64 steps
        // apart), and a router's bit is cleared from the word as a whole once it is stepped.
        // The sources first, in a pass of their own: an injection writes only its router's
        // injection VCs, which no other router's step reads or writes, so injecting every
        // source before any router steps is the same as injecting each just before its
        // router, and the steps then carry no test of whether their source injects (a branch
        // that goes either way, mispredicted).
        const std::vector<uint64_t>& pending = sources.pendingWords();
        for (size_t w = 0; w < pending.size(); ++w) {
          for (uint64_t m = pending[w]; m != 0; m &= m - 1) {
            sources.inject(static_cast<int32_t>(w * 64) + __builtin_ctzll(m), c, store, stats,
                           net);
          }
        }
        for (size_t w = 0; w < active.size() && !stopped; ++w) {
          const uint64_t word = active[w];
          if (word == 0) continue;
          work += __builtin_popcountll(word);
          if (work >= next_poll && poll()) {
            stopped = true;
            break;
          }
          const uint64_t idle =
              net.stepWord(word, static_cast<int32_t>(w * 64), c, route, store, log);
          active[w] &= ~(idle & ~pending[w]);
        }
      } else if (!prefetch) {
        for (int32_t r = order.next(); r >= 0; r = order.next()) {
          if (!step(r)) {
            stopped = true;
            break;
          }
        }
      } else {
        constexpr int kDepth = 6;  // q[0] is stepped now, q[1..5] next
        int32_t q[kDepth];
        for (int32_t& r : q) r = order.next();
        for (int i = 1; i < kDepth - 1; ++i) {
          if (q[i] >= 0) net.prefetchEntry(q[i]);
        }
        for (int i = 1; i <= 3; ++i) {
          if (q[i] >= 0) net.prefetchRouter(q[i]);
        }
        for (; q[0] >= 0; q[0] = q[1], q[1] = q[2], q[2] = q[3], q[3] = q[4], q[4] = q[5],
                          q[5] = order.next()) {
          if (q[5] >= 0) {
            net.prefetchEntry(q[5]);
            sources.prefetch(q[5]);
          }
          if (q[3] >= 0) net.prefetchRouter(q[3]);
          if (q[1] >= 0) net.prefetchPackets(q[1], store);
          net.deliverThrough(q[0]);
          if (!step(q[0])) {
            stopped = true;
            break;
          }
        }
        net.deliverRest();
      }
    }
    if (log.moved || log.flit_hops != 0 || net.flitsInNetwork() == 0) stall_since = c;
    bool deadlocked = false;
    if (log.suspect && c >= next_search && params.deadlock != DeadlockHandling::kDropAfterTimeout) {
      next_search = c + suspect_after;
      ++out.deadlock_searches;
      if (net.findDeadlock(params.route_fn, c, store, cycle)) {
        noteDeadlock(c, out);
        // Drop breaks the cycle and looks again next clock: others may be left.
        if (params.deadlock == DeadlockHandling::kDrop && net.dropCycle(cycle, c, store, log) > 0) {
          next_search = c + 1;
        } else {
          deadlocked = true;
        }
      }
    }
    account(c);
    log.clear();
    if (stats.steady() && stats.periodEnds(c)) stats.endPeriod(c, heldAges(c));
    stats.endCycle(c, net.flitsInNetwork());
    if (deadlocked) {
      out.status = RunStatus::kDeadlock;
      out.status_message = deadlockMessage(out.deadlock, cycle.size());
      break;
    }

    if (app) {
      if (app->complete()) break;
      if (app->stuck()) {
        out.status = RunStatus::kApplicationStuck;
        out.status_message = stuckMessage(appReport(*app, c));
        break;
      }
    } else if (stats.windowClosed() || stats.steadyDone()) {
      break;
    }
    if (!app && sources.exhausted() && stats.inFlight() == 0 &&
        (params.creation_max > 0 || !params.script.empty() || time_limit == INT64_MAX)) {
      if (params.measured_messages > 0) {
        out.status = RunStatus::kTimeLimit;
        out.status_message = sourcesStoppedMessage(params.creation_max, params.measured_messages);
      }
      break;
    }
    if (net.flitsInNetwork() > 0 && c - stall_since >= detect &&
        stalled(c, detect, last_tick, stall_since)) {
      // The backstop: nothing moves at all. Name the cycle when there is one.
      out.status = RunStatus::kDeadlock;
      if (net.findDeadlock(params.route_fn, c, store, cycle)) {
        noteDeadlock(c, out);
        out.status_message = deadlockMessage(out.deadlock, cycle.size());
      } else {
        out.status_message = stalledMessage(detect, stall_since, net.flitsInNetwork());
      }
      break;
    }
    if (c + 1 >= time_limit) {
      if (app || params.measured_messages > 0 || params.creation_max > 0 || stats.steady()) {
        out.status = RunStatus::kTimeLimit;
        out.status_message = timeLimitMessage(time_limit, app != nullptr, stats.delivered(),
                                              goal_messages);
      }
      break;
    }
    if (stopped || (++work >= next_poll && poll())) {
      out.status = RunStatus::kInterrupted;
      out.status_message = interruptedMessage(c);
      break;
    }
  }
  } catch (const RoutingFailure& e) {
    out.status = RunStatus::kRoutingError;
    out.status_message = routingFailureMessage(c, e.what());
    account(c);
    log.clear();
  } catch (const PatternFailure& e) {
    out.status = RunStatus::kPatternError;
    out.status_message = patternFailureMessage(c, e.what());
    // What the clock did before the failure (tails ejected, packets dropped) is counted, as
    // the records already say.
    account(c);
    log.clear();
  }
  if (progress_shown) std::fprintf(stderr, "\n");
  out.cycles = c + 1;
  stats.steadyStopped();  // a steady run that stopped for another reason has no verdict
}

Simulator::Simulator(NetworkDesc desc, SimParams params) {
  if (std::string err = validate(desc); !err.empty()) throw std::invalid_argument(err);
  syncMessagePackets(params);
  // Patterns number endpoints; coordinates serve only with one endpoint per router.
  int64_t nodes = 0;
  bool one_each = true;
  for (const NodeDesc& n : desc.nodes) {
    nodes += std::max(n.endpoints, 0);
    one_each = one_each && n.endpoints == 1;
  }
  if (params.pattern == TrafficPattern::kTranspose && (nodes & (nodes - 1)) != 0 &&
      !(one_each && desc.dims.size() == 2 && desc.dims[0] == desc.dims[1])) {
    throw std::invalid_argument(
        "Transpose needs a square 2-D network or a power-of-two node count");
  }
  completeDistances(desc);
  TopologySummary topology{desc.topology_name, countLinks(desc), desc.diameter, desc.avg_distance};
  auto net = std::make_unique<Network>(desc, params);
  // The network has what it needs; free the description before the sources and statistics
  // are allocated, so that the peak memory is the network's, not network plus description.
  desc = NetworkDesc{};
#if defined(__GLIBC__)
  malloc_trim(0);  // hand the description's many small blocks back to the system
#endif
  state_ = std::make_unique<State>(std::move(net), std::move(params), std::move(topology));
}

Simulator::~Simulator() = default;

size_t Simulator::networkStateBytes() const { return state_->net.stateBytes(); }

Results Simulator::run(const RunOptions& options) {
  if (state_->ran) throw std::logic_error("Simulator::run may be called once");
  State& s = *state_;
  s.ran = true;
  Results out;
  out.topology_name = s.topology.name;
  out.nodes = s.net.routers();
  if (!s.net.endpoints().oneEach()) out.endpoints = s.net.endpoints().endpoints();
  out.links = s.topology.links;
  out.diameter = s.topology.diameter;
  out.avg_distance = s.topology.avg_distance;
  {
    // The results need the script's size only (params.trace_messages); a trace may hold
    // millions of messages, which are not copied.
    std::vector<ScriptedMessage> script = std::move(s.params.script);
    out.params = s.params;
    s.params.script = std::move(script);
  }
  out.cycle_ns = 1e9 / s.params.network_frequency_hz;
  logRunStart(out.nodes, s.params.flow_control, s.params.seed);

  const auto start = std::chrono::steady_clock::now();
  const RouteFn fn = s.params.route_fn;
#if defined(NDL_GENERATED_CORE)
  // The core of a specialized simulator (docs/codegen.md) always routes with
  // the generated function; other instantiations of the cycle loop would
  // only cost compile time in every `ndlc build`.
  if (ndl_generated_route == nullptr || fn != ndl_generated_route) {
    throw std::logic_error("a generated simulator's core runs only its generated routing");
  }
  s.loop(StaticRoute<ndl_generated_route>{}, options, out);
#else
  // The generated routing is instantiated with the function known, so it inlines.
  if (ndl_generated_route != nullptr && fn == ndl_generated_route) {
    s.loop(StaticRoute<ndl_generated_route>{}, options, out);
  } else {
    s.loop(DynamicRoute{fn}, options, out);
  }
#endif
  out.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  out.simulated_time_ns = out.cycles * out.cycle_ns;
  out.router_clocks = s.router_ticks;
  out.flit_hops = s.flit_hops;
  {
    int32_t busiest_router = -1, busiest_port = 0;
    const bool rows = s.net.routers() <= Results::kChannelRowLimit;
    s.net.forEachChannel([&](int32_t r, int32_t p, int32_t to, uint64_t flits) {
      ++out.channel_count;
      out.channel_flits_total += flits;
      if (busiest_router < 0 || flits > out.channel_flits_max) {
        out.channel_flits_max = flits;
        busiest_router = r;
        busiest_port = p;
      }
      if (rows) out.channels.push_back({r, p, to, flits});
    });
    if (busiest_router >= 0) out.channel_busiest = s.net.channelName(busiest_router, busiest_port);
  }
  s.stats.finish(out.cycles, s.net.flitsInNetwork(), s.net.collisions(), s.held(), out);
  {
    const int32_t k = s.net.classes();
    for (int32_t c = 0; c < k; ++c) {
      out.class_names.push_back(c < static_cast<int32_t>(s.params.class_names.size())
                                    ? s.params.class_names[c]
                                    : unnamedClass(c));
    }
    out.recovery_field = s.params.recovery_field_name;
    out.has_token = s.params.token_classes != 0;
    out.token_captures = s.net.tokenCaptures();
    if (const Prediction* pr = s.net.prediction()) {
      out.has_prediction = true;
      out.predictor = s.params.predictor_name;
      out.predictive_path = s.params.predictive_path;
      out.prediction = pr->counters;
      out.port_state_bytes = static_cast<int64_t>(pr->rings.bytes());
      out.misprediction_check_none = pr->check_none;
      // Counted apart from the network's counters: from the records freed and still held.
      out.copies_freed = s.copies_freed;
      s.store.packets.forEachLive([&](const Packet& p) { out.copies_in_flight += p.mispredicted; });
    }
    out.token_held_clocks = s.net.tokenHeldClocks(out.cycles);
    out.class_grants.assign(k, 0);
    // Router figures: in the node rows with one endpoint per router, else in router rows.
    auto fill = [&](size_t n, auto& row) {
      row.class_grants.assign(s.net.classGrants().begin() + static_cast<ptrdiff_t>(n * k),
                              s.net.classGrants().begin() + static_cast<ptrdiff_t>((n + 1) * k));
      row.recoveries = s.net.recoveries(static_cast<int32_t>(n));
      row.recovery_hops = s.net.recoveryHops(static_cast<int32_t>(n));
      for (int32_t c = 0; c < k; ++c) out.class_grants[c] += row.class_grants[c];
      out.recoveries += row.recoveries;
      out.recovery_hops += row.recovery_hops;
    };
    if (out.per_router.empty()) {
      for (size_t n = 0; n < out.per_node.size(); ++n) fill(n, out.per_node[n]);
    } else {
      for (size_t n = 0; n < out.per_router.size(); ++n) fill(n, out.per_router[n]);
    }
  }
  if (s.app) s.app->report(out.application, out.cycles);
  if (out.status == RunStatus::kOk && out.measurement.verdict == Verdict::kSaturated) {
    out.status = RunStatus::kSaturated;
    out.status_message = saturatedMessage(out.measurement);
  } else if (out.status == RunStatus::kOk && out.measurement.verdict == Verdict::kUnconverged) {
    out.status_message = unconvergedMessage(out.measurement);
  }
  if (out.status == RunStatus::kOk && out.messages.refused > 0) {
    out.status = RunStatus::kInjectionQueueFull;
    out.status_message = refusedMessage(out.messages.refused, s.params.injection_queue_capacity);
  }
  // The run ended as it should but its statistics cover nothing: say so beside "ok", so that
  // zeros are not read as latencies (the checker refuses a warm-up it can see takes every
  // message; drops, a pattern's few messages or a warm-up set with --param may leave none).
  if (out.status == RunStatus::kOk && out.measured_messages == 0)
    out.status_message = nothingMeasuredMessage(s.params.warmup_messages, out.messages.delivered);
  logRunEnd(out.cycles, out.wall_seconds, out.status);
  return out;
}

Results simulate(const NetworkDesc& desc, const SimParams& params, const RunOptions& options) {
  Simulator sim(desc, params);
  return sim.run(options);
}

std::string_view runStatusName(RunStatus status) {
  switch (status) {
    case RunStatus::kOk:
      return "ok";
    case RunStatus::kDeadlock:
      return "deadlock";
    case RunStatus::kTimeLimit:
      return "time_limit";
    case RunStatus::kInjectionQueueFull:
      return "injection_queue_full";
    case RunStatus::kInterrupted:
      return "interrupted";
    case RunStatus::kRoutingError:
      return "routing_error";
    case RunStatus::kApplicationStuck:
      return "application_stuck";
    case RunStatus::kSaturated:
      return "saturated";
    case RunStatus::kPatternError:
      return "pattern_error";
  }
  return "?";
}

}  // namespace ndl::rt
