// Message creation, injection queues and packetization.
#include "ndl/runtime/traffic/traffic_source.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "ndl/runtime/traffic/message_flits.h"

namespace ndl::rt {
namespace {

// A pattern's per-source state: a slot per endpoint for the patterns with state (AllToAll's
// cursor, a custom function's, RandomPermutation's destination), one shared slot otherwise.
std::vector<uint64_t> initialPatternState(TrafficPattern pattern, int32_t nodes, uint64_t seed) {
  const bool stateful = pattern == TrafficPattern::kAllToAll ||
                        pattern == TrafficPattern::kCustom ||
                        pattern == TrafficPattern::kRandomPermutation;
  std::vector<uint64_t> state(stateful ? static_cast<size_t>(nodes) : 1, 0);
  if (pattern == TrafficPattern::kRandomPermutation) {
    const std::vector<int32_t> perm = randomPermutation(nodes, seed);
    for (int32_t n = 0; n < nodes; ++n) state[n] = static_cast<uint64_t>(perm[n]);
  }
  return state;
}

// Lengths are drawn in whole bytes when the range is given in bytes.
int64_t lengthStep(int64_t lo, int64_t hi) { return messageLengthStep(lo, hi); }

}  // namespace

TrafficSources::TrafficSources(const SimParams& params, const TopologyIndex& topo,
                               const EndpointLayout& endpoints)
    : params_(params),
      endpoints_(endpoints),
      one_each_(endpoints.oneEach()),
      topo_(endpoints.oneEach() ? topo : no_coordinates_),
      dest_fn_(params.pattern == TrafficPattern::kCustom ? params.dest_fn
                                                         : destFnFor(params.pattern)),
      nodes_(endpoints.endpoints()),
      sources_(static_cast<size_t>(nodes_)),
      pending_((static_cast<size_t>(endpoints.routers()) + 63) / 64, 0),
      pattern_state_(initialPatternState(params.pattern, endpoints.endpoints(), params.seed)) {
  const int32_t nodes = nodes_;
  length_step_ = lengthStep(params.message_min_bits, params.message_max_bits);
  length_choices_ = (params.message_max_bits - params.message_min_bits) / length_step_ + 1;
  main_ = Process(params.creation_process, params.creation_rate, params.creation_interval_clocks,
                  params.on_off_burst_clocks, params.on_off_duty);
  const bool on_off = params.creation_process == CreationProcess::kOnOff;
  if (on_off) on_off_.resize(static_cast<size_t>(nodes));
  for (int32_t n = 0; n < nodes; ++n) {
    Source& s = sources_[n];
    s.rng = Rng(params.seed, static_cast<uint64_t>(n));
    const bool active =
        params.creation_process == CreationProcess::kPeriodic ? true : params.creation_rate > 0;
    if (!active) continue;
    due_.push(firstCreation(s.rng, main_, on_off ? &on_off_[static_cast<size_t>(n)] : nullptr),
              n);
  }
  setUpClasses();
}

void TrafficSources::setUpClasses() {
  const size_t count = params_.classes.size();
  if (count == 0) return;
  const int32_t nodes = nodes_;
  if (classPriorities(params_)) {
    std::vector<uint8_t> distinct;
    for (const SimParams::TrafficClass& c : params_.classes) distinct.push_back(c.priority);
    std::sort(distinct.begin(), distinct.end(), std::greater<>());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    levels_ = static_cast<int32_t>(distinct.size());
    for (const SimParams::TrafficClass& c : params_.classes) {
      class_priority_.push_back(c.priority);
      class_level_.push_back(static_cast<uint8_t>(
          std::find(distinct.begin(), distinct.end(), c.priority) - distinct.begin()));
    }
    level_tail_.assign(static_cast<size_t>(nodes) * distinct.size(), kNone);
  }
  class_rng_.resize(count * static_cast<size_t>(nodes));
  for (size_t k = 0; k < count; ++k) {
    const SimParams::TrafficClass& row = params_.classes[k];
    ClassStream cs;
    // Class 0 is the main traffic: its creations are the loop above; --param may have changed
    // its rate, pattern and lengths, so they are read from there.
    const TrafficPattern pattern = k == 0 ? params_.pattern : row.pattern;
    const int64_t lo = k == 0 ? params_.message_min_bits : row.min_bits;
    const int64_t hi = k == 0 ? params_.message_max_bits : row.max_bits;
    cs.rate = k == 0 ? 0.0 : row.rate;
    // Class 0's creations are the main process's (params_.creation_process).
    if (k > 0) {
      cs.process =
          Process(row.process, row.rate, row.interval_clocks, row.on_off_burst_clocks, row.on_off_duty);
      if (row.process == CreationProcess::kOnOff) cs.on_off.resize(static_cast<size_t>(nodes));
    }
    cs.dest = pattern == TrafficPattern::kCustom ? params_.dest_fn : destFnFor(pattern);
    cs.user_pattern = k == 0 ? params_.user_pattern : row.user_pattern;
    cs.min_bits = lo;
    cs.length_step = lengthStep(lo, hi);
    cs.length_choices = (hi - lo) / cs.length_step + 1;
    cs.reply = row.reply;
    replies_ = replies_ || row.reply >= 0;
    cs.pattern_state = initialPatternState(pattern, nodes, params_.seed);
    for (int32_t n = 0; n < nodes; ++n) {
      // Streams apart from the sources' own (stream n): class k's at (k + 1) << 32 | n.
      Rng& rng = classRng(static_cast<int32_t>(k), n);
      rng = Rng(params_.seed, (static_cast<uint64_t>(k) + 1) << 32 | static_cast<uint64_t>(n));
      if (k > 0 && cs.rate > 0)
        due_.push(firstCreation(rng, cs.process, cs.on_off.empty() ? nullptr : &cs.on_off[n]),
                  static_cast<int32_t>(k) * nodes + n);
    }
    classes_.push_back(std::move(cs));
  }
}

TrafficSources::Process::Process(CreationProcess k, double r, double interval_clocks,
                                 double burst_clocks, double d)
    : kind(k), rate(r), log_no_creation(std::log1p(-r)) {
  periodic_gap = std::max<int64_t>(1, std::llround(interval_clocks));
  if (k != CreationProcess::kOnOff) return;
  // A two-state chain switching at the end of a clock: on -> off with probability 1 / burst,
  // off -> on with the probability that makes the share of clocks on the duty cycle
  // (docs/runtime.md 2.7).
  duty = d;
  on_rate = r / d;
  on_end = 1.0 / burst_clocks;
  off_end = d >= 1 ? 1.0 : on_end * d / (1 - d);
  log_no_on_rate = std::log1p(-on_rate);
  log_no_on_end = std::log1p(-on_end);
  log_no_off_end = std::log1p(-off_end);
}

int64_t TrafficSources::firstCreation(Rng& rng, const Process& p, OnOffState* o) {
  if (p.kind == CreationProcess::kPeriodic)
    return static_cast<int64_t>(rng.below(static_cast<uint64_t>(p.periodic_gap)));
  if (p.kind == CreationProcess::kOnOff) {
    // The chain starts in its stationary state: on with probability duty, and then (the
    // periods being geometric) the rest of its period is as long as a whole one.
    if (p.duty >= 1) {
      o->on_end = INT64_MAX / 4;
    } else if (rng.uniform01() < p.duty) {
      o->on_end = rng.geometric(p.on_end, p.log_no_on_end) - 1;
    } else {
      o->on_start = rng.geometric(p.off_end, p.log_no_off_end);
      o->on_end = o->on_start + rng.geometric(p.on_end, p.log_no_on_end) - 1;
    }
  }
  return nextCreation(rng, p, o, -1);
}

int64_t TrafficSources::nextCreation(Rng& rng, const Process& p, OnOffState* o, int64_t c) {
  switch (p.kind) {
    case CreationProcess::kPeriodic: return c + p.periodic_gap;
    case CreationProcess::kOnOff: return nextOnOff(rng, p, *o, c);
    case CreationProcess::kBernoulli: break;
  }
  return c + rng.geometric(p.rate, p.log_no_creation);
}

// One Bernoulli(on_rate_) trial per clock of each on period, drawn as the gap to the first
// success; a gap that passes the period's end draws again in the next period (the gaps are
// memoryless, so this is the same process as one coin per clock). The chain runs on while a
// source is blocked: it creates again in whatever period the clock of its release falls.
int64_t TrafficSources::nextOnOff(Rng& rng, const Process& p, OnOffState& o, int64_t c) {
  int64_t t = c + 1;
  for (;;) {
    while (o.on_end < t) {
      o.on_start = o.on_end + 1 + rng.geometric(p.off_end, p.log_no_off_end);
      o.on_end = o.on_start + rng.geometric(p.on_end, p.log_no_on_end) - 1;
    }
    t = std::max(t, o.on_start);
    const int64_t at = t + rng.geometric(p.on_rate, p.log_no_on_rate) - 1;
    if (at <= o.on_end) return at;
    t = o.on_end + 1;
  }
}

void TrafficSources::createDue(int64_t c, PacketStore& store, Statistics& stats, Network& net) {
  const auto& script = params_.script;
  while (script_next_ < script.size() && script[script_next_].cycle <= c) {
    const ScriptedMessage& m = script[script_next_++];
    enqueue(m.src, m.dst, m.bits, c, store, stats, net);
  }
  for (const int32_t id : due_.take(c)) {
    if (id < nodes_) [[likely]] {
      create(id, c, store, stats, net);
    } else {
      createClass(id / nodes_, id % nodes_, c, store, stats, net);
    }
    if (params_.creation_max > 0 && created_ >= params_.creation_max) {
      due_.clear();  // every source stops; the run drains
      stopped_ = true;
      return;
    }
    if (id >= nodes_) {
      ClassStream& k = classes_[static_cast<size_t>(id / nodes_)];
      const int32_t n = id % nodes_;
      due_.push(nextCreation(classRng(id / nodes_, n), k.process,
                             k.on_off.empty() ? nullptr : &k.on_off[static_cast<size_t>(n)], c),
                id);
    } else if (!sources_[id].blocked) {
      // A blocked source creates again once its queue has room (inject).
      due_.push(nextCreation(id, c), id);
    }
  }
}

void TrafficSources::createClass(int32_t k, int32_t node, int64_t c, PacketStore& store,
                                 Statistics& stats, Network& net) {
  ClassStream& cs = classes_[static_cast<size_t>(k)];
  Rng& rng = classRng(k, node);
  TrafficContext ctx{&topo_, &params_.pattern_params, node, nodes_, &rng,
                     &cs.pattern_state[cs.pattern_state.size() == 1 ? 0 : node], cs.user_pattern};
  const int32_t dest = cs.dest(ctx);
  if (dest == kNoMessage || dest == node) return;
  const int64_t bits = drawBits(rng, cs);
  ++created_;
  enqueue(node, dest, bits, c, store, stats, net, kNoTag, static_cast<uint8_t>(k));
}

void TrafficSources::reply(const Message& m, int64_t c, PacketStore& store, Statistics& stats,
                           Network& net) {
  const int32_t k = classes_[m.cls].reply;
  if (k < 0) return;
  const int64_t bits = drawBits(classRng(k, m.dst), classes_[static_cast<size_t>(k)]);
  enqueue(m.dst, m.src, bits, c, store, stats, net, kNoTag, static_cast<uint8_t>(k), false);
}

void TrafficSources::create(int32_t node, int64_t c, PacketStore& store, Statistics& stats,
                            Network& net) {
  Source& s = sources_[node];
  TrafficContext ctx{&topo_, &params_.pattern_params, node, nodes_, &s.rng, patternState(node),
                     params_.user_pattern};
  const int32_t dest = dest_fn_(ctx);
  if (dest == kNoMessage || dest == node) return;  // the pattern maps this node onto itself
  const int64_t bits =
      params_.message_min_bits +
      length_step_ * static_cast<int64_t>(s.rng.below(static_cast<uint64_t>(length_choices_)));
  ++created_;
  if (params_.queue_overflow == QueueOverflow::kBlock &&
      s.size >= params_.injection_queue_capacity) {
    // The source holds this message (it waits at the tail of the queue, where it would enter)
    // and creates no other until the queue has room.
    s.blocked = true;
    ++blocked_;
  }
  enqueue(node, dest, bits, c, store, stats, net);
}

void TrafficSources::enqueue(int32_t node, int32_t dest, int64_t bits, int64_t c,
                             PacketStore& store, Statistics& stats, Network& net, uint64_t tag,
                             uint8_t cls, bool refusable) {
  Source& s = sources_[node];
  const int64_t packets =
      params_.packet_per_message
          ? 1
          : (bits + params_.data_bits_per_packet - 1) / params_.data_bits_per_packet;
  const int64_t flits = params_.packet_per_message ? messagePacketFlits(params_, bits)
                                                   : packets * params_.packet_flits;
  if (refusable && tag == kNoTag && s.size >= params_.injection_queue_capacity &&
      params_.queue_overflow == QueueOverflow::kRefuse) {
    stats.onRefused(node, flits, cls);
    return;
  }
  const uint32_t id = store.messages.allocate();
  Message& m = store.messages[id];
  m.created = c;
  m.length_bits = bits;
  m.src = node;
  m.dst = dest;
  m.packets = static_cast<uint32_t>(packets);
  m.tag = tag;
  m.cls = cls;
  const int32_t r = endpoints_.routerOf(node);
  if (levels_ > 1) {
    queueByPriority(s, node, id, store);
  } else if (s.tail == kNone) {
    s.head = id;
    s.tail = id;
  } else {
    store.messages[s.tail].next = id;
    s.tail = id;
  }
  ++s.size;
  ++queued_;
  notePending(r, node, s);
  stats.onCreated(m, flits);
  net.activate(r);
}

void TrafficSources::queueByPriority(Source& s, int32_t node, uint32_t id, PacketStore& store) {
  Message& m = store.messages[id];
  const int32_t level = class_level_[m.cls];
  uint32_t* tail = &level_tail_[static_cast<size_t>(node) * static_cast<size_t>(levels_)];
  // After the last message of this priority or, with none queued, of the next higher one.
  uint32_t after = kNone;
  for (int32_t j = level; j >= 0 && after == kNone; --j) after = tail[j];
  if (after == kNone) {
    m.next = s.head;
    s.head = id;
  } else {
    m.next = store.messages[after].next;
    store.messages[after].next = id;
  }
  if (m.next == kNone) s.tail = id;
  tail[level] = id;
}

bool TrafficSources::otherHasWork(int32_t r, int32_t e) const {
  const int32_t first = endpoints_.first(r);
  for (int32_t x = first; x < first + endpoints_.at(r); ++x)
    if (x != e && hasWork(sources_[static_cast<size_t>(x)])) return true;
  return false;
}

void TrafficSources::injectEndpoints(int32_t r, int64_t c, PacketStore& store, Statistics& stats,
                                     Network& net) {
  // Each endpoint has its own injection port: all of them may inject in the same clock.
  const int32_t first = endpoints_.first(r);
  for (int32_t i = 0; i < endpoints_.at(r); ++i) {
    if (hasWork(sources_[static_cast<size_t>(first + i)]))
      injectAt<false>(r, first + i, i, c, store, stats, net);
  }
}

void TrafficSources::inject(int32_t r, int64_t c, PacketStore& store, Statistics& stats,
                            Network& net) {
  if (one_each_) [[likely]]
    return injectAt<true>(r, r, 0, c, store, stats, net);
  injectEndpoints(r, c, store, stats, net);
}

// A new packet's header fields. Their draws come from a hash of (seed, source endpoint, packet
// number at that source): the same for a seed whatever else the run does.
uint64_t TrafficSources::initialHeader(Source& s, int32_t e, const Packet& p) const {
  uint64_t key = (static_cast<uint64_t>(e) << 40) ^ s.packets_made++;
  uint64_t state = params_.seed ^ splitMix64(key);
  const uint64_t random = splitMix64(state);
  return params_.header_init(p.src, p.dst, random);
}

template <bool kOneEach>
void TrafficSources::injectAt(int32_t r, int32_t e, int32_t local, int64_t c,
                                     PacketStore& store, Statistics& stats, Network& net) {
  if (kOneEach) {
    e = r;
    local = 0;
  }
  Source& s = sources_[static_cast<size_t>(e)];
  // A body flit: small enough to inline into the clock loop; the rest is out of line.
  if (s.packet == kNone || s.written == 0) {
    if (kOneEach) return injectHead(r, c, store, stats, net);
    return injectHeadAt(r, e, local, c, store, stats, net);
  }
  const uint32_t gv = net.injectionVc(r, local, s.vc);
  if (net.bufferedFlits(gv) >= net.bufferFlits()) return;
  net.pushInjected(r, gv, s.packet);
  stats.onFlitInjected(e);
  if (++s.written == store.packets[s.packet].len) {
    s.packet = kNone;
    notePending(r, e, s);
  }
}

void TrafficSources::injectHead(int32_t r, int64_t c, PacketStore& store, Statistics& stats,
                                Network& net) {
  injectHeadBody<true>(r, r, 0, c, store, stats, net);
}

void TrafficSources::injectHeadAt(int32_t r, int32_t e, int32_t local, int64_t c,
                                  PacketStore& store, Statistics& stats, Network& net) {
  injectHeadBody<false>(r, e, local, c, store, stats, net);
}

template <bool kOneEach>
void TrafficSources::injectHeadBody(int32_t r, int32_t e, int32_t local, int64_t c,
                                    PacketStore& store, Statistics& stats, Network& net) {
  if (kOneEach) {
    e = r;
    local = 0;
  }
  Source& s = sources_[static_cast<size_t>(e)];
  if (s.packet == kNone) {
    if (s.head == kNone) return;
    // A new packet takes the next empty injection VC (round robin), so a blocked packet does
    // not hold up the next one; with none empty it queues behind the previous packet.
    const int32_t vcs = net.injectionVcs();
    int32_t vc = -1;
    for (int32_t i = 0; i < vcs; ++i) {
      const int32_t j = (s.next_vc + i) % vcs;
      if (net.bufferedFlits(net.injectionVc(r, local, j)) == 0) {
        vc = j;
        break;
      }
    }
    if (vc < 0) {
      if (net.bufferedFlits(net.injectionVc(r, local, s.vc)) >= net.bufferFlits()) return;
      vc = s.vc;
    }
    const uint32_t mid = s.head;
    Message& m = store.messages[mid];
    Packet made;
    made.message = mid;
    // The packet carries routers (what routing reads) and the endpoints at them.
    if (kOneEach) {
      made.src = m.src;
      made.dst = m.dst;
    } else {
      made.src = endpoints_.routerOf(m.src);
      made.dst = endpoints_.routerOf(m.dst);
      made.src_local = static_cast<uint8_t>(local);
      made.dst_local = static_cast<uint8_t>(endpoints_.localOf(m.dst));
    }
    made.len = static_cast<uint16_t>(params_.packet_per_message
                                         ? messagePacketFlits(params_, m.length_bits)
                                         : params_.packet_flits);
    // The header before the record: a routing failure in its initial values (RoutingFailure)
    // then leaves no record behind that its message does not count as made.
    if (!class_priority_.empty()) made.priority = class_priority_[m.cls];
    if (params_.header_init) made.header = initialHeader(s, e, made);
    const uint32_t pid = store.packets.allocate();
    store.packets[pid] = made;
    if (++m.injected == m.packets) {
      if (levels_ > 1) {
        uint32_t& tail = level_tail_[static_cast<size_t>(e) * static_cast<size_t>(levels_) +
                                     class_level_[m.cls]];
        if (tail == mid) tail = kNone;
      }
      s.head = m.next;
      if (s.head == kNone) s.tail = kNone;
      --s.size;
      --queued_;
      if (s.blocked && s.size <= params_.injection_queue_capacity) {
        // The held message is in the queue now: the source creates again.
        s.blocked = false;
        --blocked_;
        if (!stopped_) due_.push(nextCreation(e, c), e);
      }
    }
    s.packet = pid;
    s.written = 0;
    s.vc = static_cast<uint8_t>(vc);
    s.next_vc = static_cast<uint8_t>((vc + 1) % vcs);
  }
  const uint32_t gv = net.injectionVc(r, local, s.vc);
  if (net.bufferedFlits(gv) >= net.bufferFlits()) return;
  net.pushInjected(r, gv, s.packet);
  stats.onFlitInjected(e);
  Packet& p = store.packets[s.packet];
  if (s.written == 0) {
    p.head_entry = c;
    Message& m = store.messages[p.message];
    if (m.first_entry < 0) {
      m.first_entry = c;
      stats.onMessageInjected(m);
    }
  }
  if (++s.written == p.len) {
    s.packet = kNone;
    notePending(r, e, s);
  }
}

}  // namespace ndl::rt
