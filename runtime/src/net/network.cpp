// Wiring of the router/channel arrays and the per-flit operations of the router step that
// are not worth inlining into the allocation loop.
#include "ndl/runtime/net/network.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "ndl/runtime/net/memory_estimate.h"

namespace ndl::rt {

Network::Network(const NetworkDesc& desc, const SimParams& params)
    : topo_(desc), flow_(params.flow_control), deadlock_(params.deadlock) {
  current_ = this;
  // The memory estimate (memory_estimate.h) counts these entries.
  static_assert(sizeof(Router) + sizeof(int64_t) + sizeof(int64_t) + 1.0 / 8 ==
                kRouterEntryBytes);
  static_assert(sizeof(Port) + 2 * sizeof(int16_t) + sizeof(uint64_t) == kPortEntryBytes);
  static_assert(sizeof(InputVc) == kInputVcEntryBytes);
  static_assert(sizeof(uint32_t) == kFlitSlotBytes && sizeof(uint16_t) == kOutputVcEntryBytes);
  if (std::string err = validate(desc); !err.empty()) throw std::invalid_argument(err);
  routers_ = static_cast<int32_t>(desc.nodes.size());
  for (int32_t r = 0; r < routers_; ++r) {
    if (desc.nodes[r].endpoints < 0) {
      throw std::invalid_argument(fmt::format("node {} has {} endpoints; a router has 0 or more",
                                              r, desc.nodes[r].endpoints));
    }
  }
  endpoints_ = EndpointLayout(desc);
  // Patterns, scripts, pairs and pattern files number endpoints.
  if (std::string err = validate(params, endpoints_.endpoints()); !err.empty()) {
    throw std::invalid_argument(err);
  }
  vcs_ = params.virtual_channels;
  inj_vcs_ = params.injection_virtual_channels;
  buffer_flits_ = params.buffer_flits;
  depth_ = 1;
  while (depth_ < buffer_flits_) depth_ *= 2;
  depth_mask_ = static_cast<uint32_t>(depth_ - 1);
  credit_delay_ = params.credit_delay_clocks;
  drop_timeout_ = params.deadlock_timeout_clocks > 0 ? params.deadlock_timeout_clocks : 1000;
  dim_names_ = desc.dim_names;
  // The header delay in link clocks, the clocks the simulation counts.
  header_delay_ =
      params.header_delay_clocks >= 0 ? params.header_delay_clocks : params.router_delay_clocks;
  flit_pipe_ = params.pipeline_flit_clocks;
  selection_ = params.selection;
  seed_ = params.seed;
  has_header_ = params.header_init != nullptr;
  select_fn_ = params.select_fn;
  for (size_t k = 0; k < params.vc_class.size() && k < 64; ++k) out_class_[k] = params.vc_class[k];
  header_fields_ = params.header_fields;
  for (int b = 0; b < 64; ++b) bit_port_[b] = static_cast<uint8_t>(b / vcs_);
  router_.resize(routers_);
  int32_t ports = 0, ivcs = 0, ovcs = 0;
  for (int32_t r = 0; r < routers_; ++r) {
    const int32_t deg = static_cast<int32_t>(desc.nodes[r].ports.size());
    const int32_t eps = desc.nodes[r].endpoints;
    if (eps == 1 && deg + 1 > kMaxPorts) {
      throw std::invalid_argument(
          fmt::format("node {} has {} ports; the runtime supports {}", r, deg, kMaxPorts - 1));
    }
    if (deg + eps > kMaxPorts || deg >= kMaxPorts) {
      throw std::invalid_argument(fmt::format(
          "node {} has {} network ports and {} endpoints, {} ports in all; the runtime supports "
          "{} per router (network ports and endpoints together, at most {} network ports)",
          r, deg, eps, deg + eps, kMaxPorts, kMaxPorts - 1));
    }
    // Each endpoint's injection VCs after the network VCs.
    const int32_t local_vcs = deg * vcs_ + eps * inj_vcs_;
    if (local_vcs > kMaxLocalVcs) {
      throw std::invalid_argument(
          eps == 1 ? fmt::format("node {} needs {} input VCs; the runtime supports {} per router",
                                 r, local_vcs, kMaxLocalVcs)
                   : fmt::format("node {} needs {} input VCs ({} ports x {} VCs + {} endpoints x "
                                 "{} injection VCs); the runtime supports {} per router",
                                 r, local_vcs, deg, vcs_, eps, inj_vcs_, kMaxLocalVcs));
    }
    if (ports >= int32_t{1} << (32 - Router::kDegreeBits)) {
      throw std::invalid_argument(fmt::format(
          "the network has more than {} ports; the runtime supports at most that many",
          int32_t{1} << (32 - Router::kDegreeBits)));
    }
    router_[r].ports = static_cast<uint32_t>(ports) << Router::kDegreeBits | static_cast<uint32_t>(deg);
    router_[r].vc_begin = ivcs;
    ports += deg + eps;
    ivcs += local_vcs;
    // Its network output VCs, then per endpoint its ejection sentinel and, unused, as many
    // entries as it has injection VCs beyond the first: a router's output VCs then start at
    // the number of its first input VC, which the step has at hand (no arithmetic per step).
    ovcs += local_vcs;
  }

  ports_.assign(ports, Port{});
  port_flits_.assign(ports, 0);
  out_code_.assign(ports, -1);
  in_code_.assign(ports, -1);
  for (int32_t r = 0; r < routers_; ++r) {
    for (int32_t p = 0; p < router_[r].degree(); ++p) {
      const PortDesc& port = desc.nodes[r].ports[p];
      const int32_t g = router_[r].portBegin() + p;
      out_code_[g] = static_cast<int16_t>(portCode(port.dim, port.sign));
      if (port.peer_node >= 0 && port.direction != LinkDirection::kOutOnly) {
        const PortDesc& up = desc.nodes[port.peer_node].ports[port.peer_port];
        in_code_[g] = static_cast<int16_t>(portCode(up.dim, up.sign));
      }
    }
  }
  int32_t horizon = credit_delay_;
  for (int32_t r = 0; r < routers_; ++r) {
    for (int32_t p = 0; p < router_[r].degree(); ++p) {
      const PortDesc& port = desc.nodes[r].ports[p];
      if (port.peer_node < 0) continue;
      const int32_t g = router_[r].portBegin() + p;
      if (port.direction != LinkDirection::kInOnly) {
        ports_[g].down_base = router_[port.peer_node].vc_begin + port.peer_port * vcs_ - p * vcs_;
        ports_[g].down_router = port.peer_node;
        const int32_t delay = port.delay_clocks > 0 ? port.delay_clocks : params.link_delay_clocks;
        if (delay > kMaxLinkDelayClocks) {
          throw std::invalid_argument(
              fmt::format("node {} port {}: link delay {} clocks is above "
                          "the runtime's limit of {}",
                          r, p, delay, kMaxLinkDelayClocks));
        }
        ports_[g].link_delay = static_cast<uint8_t>(delay);
        horizon = std::max(horizon, delay + flit_pipe_);
      }
      if (port.direction != LinkDirection::kOutOnly) {
        ports_[g].up_ovc =
            ovcBegin(router_[port.peer_node]) + port.peer_port * vcs_;
        // A link with its own delay returns its credits over the same wire: they take its
        // delay, not CreditDelay.
        const int32_t own = desc.nodes[port.peer_node].ports[port.peer_port].delay_clocks;
        if (own > 0 && own != params.credit_delay_clocks) {
          if (credit_delay_of_.empty()) credit_delay_of_.assign(ports, -1);
          credit_delay_of_[g] = own;
        }
      }
    }
  }
  if (params.internal_speedup > 1) {
    if (params.predict_fn != nullptr)
      throw std::invalid_argument("InternalSpeedup above 1 is not modelled with a Predictor");
    speedup_ = params.internal_speedup;
    queue_free_.assign(ports, 0);
    // A port's queue holds flits that took a credit of the next router's VCs: it waits at
    // most as many clocks as those VCs hold flits.
    horizon += vcs_ * buffer_flits_;
  }
  lateCredits(params.credit_delay_clocks, static_cast<size_t>(ovcs) + std::max(vcs_, inj_vcs_),
              horizon);

  // Records are not padded to a cache line: at 8-flit buffers one is 52 bytes, and padding
  // it to 64 costs a tenth more memory per node for no measured gain (bench/RESULTS.md); a
  // record that straddles two lines is prefetched at both ends (prefetchVc).
  vc_count_ = static_cast<uint32_t>(ivcs);
  vc_stride_ = sizeof(InputVc) + sizeof(uint32_t) * static_cast<size_t>(depth_);
  vc_store_.assign(static_cast<size_t>(ivcs) * vc_stride_ + kCacheLine, std::byte{0});
  vc_base_ = vc_store_.data() +
             (kCacheLine - reinterpret_cast<uintptr_t>(vc_store_.data()) % kCacheLine) % kCacheLine;
  for (uint32_t g = 0; g < vc_count_; ++g) new (&vc(g)) InputVc{};
  for (int32_t r = 0; r < routers_; ++r) {
    const int32_t net_vcs = router_[r].degree() * vcs_;
    for (int32_t l = 0; l < localVcs(r); ++l) {
      const int32_t g = router_[r].vc_begin + l;
      const bool pe = l >= net_vcs;
      // An endpoint's injection VCs form its own input port, degree + the endpoint.
      vc(g).port = static_cast<uint8_t>(pe ? router_[r].degree() + (l - net_vcs) / inj_vcs_
                                           : l / vcs_);
      vc(g).index = static_cast<uint8_t>(pe ? (l - net_vcs) % inj_vcs_ : l % vcs_);
      const auto& classes = pe ? params.injection_vc_class : params.vc_class;
      vc(g).cls = classes.empty() ? 0 : classes[vc(g).index];
    }
  }
  // The credit sink: a port without a sender (the injection port) returns its credits there.
  const int32_t sink = ovcs;
  for (Port& port : ports_) {
    if (port.up_ovc < 0) port.up_ovc = sink;
  }
  out_vc_.assign(static_cast<size_t>(ovcs) + static_cast<size_t>(std::max(vcs_, inj_vcs_)),
                 static_cast<uint16_t>(buffer_flits_));
  // After each router's output VCs, a sentinel per endpoint with a credit that never
  // changes: a VC that ejects to endpoint i has out_port = degree + i and out_ovc =
  // degree * VCs + i * injection VCs, so it finds the sentinel where an output VC would be,
  // and the switch request of a worm needs no branch on where it goes (router.h).
  for (int32_t r = 0; r < routers_; ++r) {
    for (int32_t i = 0; i < endpoints_.at(r); ++i)
      out_vc_[ovcBegin(router_[r]) + router_[r].degree() * vcs_ + i * inj_vcs_] = 1;
  }
  if (params.global_congestion) queue_snapshot_ = out_vc_;
  collisions_.assign(routers_, 0);
  atomic_credits_ = params.atomic_vc_allocation ? buffer_flits_ : 0;
  classes_ = 1;
  for (int32_t k = 0; k < vcs_ && k < 64; ++k)
    classes_ = std::max<int32_t>(classes_, out_class_[k] + 1);
  classes_ = std::max<int32_t>(classes_, static_cast<int32_t>(params.class_names.size()));
  recovery_field_ = params.recovery_field;
  for (int32_t k = 0; k < vcs_ && k < 64; ++k)
    if (out_class_[k] < 64 && ((params.token_classes >> out_class_[k]) & 1))
      token_vc_ |= uint64_t{1} << k;
  for (int32_t b = 0; b < 64; ++b)
    if ((token_vc_ >> (b % vcs_)) & 1) token_bits_ |= uint64_t{1} << b;
  if (params.wait_breaks && params.wait_breaks->size() <= std::size(wait_breaks_)) {
    wait_memo_ = true;
    for (uint32_t b : *params.wait_breaks) wait_breaks_[wait_break_count_++] = b;
  }
  class_grants_.assign(static_cast<size_t>(routers_) * classes_, 0);
  if (token_vc_ != 0) lane_vcs_.assign(routers_, 0);
  priorities_ = classPriorities(params);
  if (params.switch_by_output) sa_in_out_ptr_.assign(ports_.size(), 0);
  if (params.switch_hold_packet) sa_held_.assign(routers_, 0);
  if (priorities_) vc_prio_.assign(vc_count_, 0);
  if (recovery_field_ != 0) {
    recoveries_.assign(routers_, 0);
    recovery_hops_.assign(routers_, 0);
  }
  if (params.predict_fn != nullptr) {
    predict_ = std::make_unique<Prediction>();
    predict_->predict = params.predict_fn;
    predict_->forward = params.forward_fn;
    predict_->route = params.route_fn;
    predict_->header_delay = params.predict_header_clocks;
    predict_->latency = params.predictor_latency_clocks;
    predict_->check_none = params.misprediction_check_none;
    if (predict_->check_none) predict_->copy_of.assign(vc_count_, kNone);
    predict_->rings.init(params.port_rings, ports, routers_);
    predict_->served.assign(routers_, Prediction::Served{});
  }
  active_.assign((static_cast<size_t>(routers_) + 63) / 64, 0);
  wheel_ = EventWheel(horizon);
  // One delay on every link (the usual case): the round's flits go to one bucket.
  link_delay_ = -1;
  for (const Port& p : ports_) {
    if (p.down_router < 0) continue;
    if (link_delay_ < 0) link_delay_ = p.link_delay;
    if (p.link_delay != link_delay_) link_delay_ = 0;
  }
  link_delay_ = std::max(link_delay_, 0);
  // A flit reaches the next router after the switch stages and its link.
  if (link_delay_ > 0) link_delay_ += flit_pipe_;
  // Room for a clock's events in every bucket, within 64 MiB for a long wheel (a speedup's
  // queues make it as long as a port's VCs hold flits).
  wheel_.reserve(std::min<size_t>({static_cast<size_t>(ports), 1024,
                                   (size_t{1} << 21) / (static_cast<size_t>(horizon) + 1)}));
}

template <bool kPrefetch>
void Network::commitFlits(const FlitEvent* begin, const FlitEvent* end) {
  // The receiving VCs are spread over the whole network: on a network larger than the caches
  // their loads are started a few events ahead (see prefetchRouter); on one that fits, that
  // is only instructions.
  constexpr ptrdiff_t kAhead = 8;
  for (const FlitEvent* ev = begin; ev != end; ++ev) {
    if (kPrefetch && end - ev > kAhead) {
      const FlitEvent& later = ev[kAhead];
      prefetchVc(later.vc);
      __builtin_prefetch(&router_[later.router].nonempty, 1);  // the only field written
    }
    pushFlit(ev->vc, ev->packet);
    const int32_t r = ev->router;
    router_[r].nonempty |= uint64_t{1} << (ev->vc - static_cast<uint32_t>(router_[r].vc_begin));
    activate(r);
  }
}

// Credits of different delays (links with their own): every credit is sent credit_delay_
// clocks ahead, the shortest of them, so the router step has one bucket per round as ever;
// a credit that arrives early waits here for its link's extra clocks, marked so that it is
// taken the second time. Out of the step, and not called when every credit takes one delay.
void Network::lateCredits(int32_t uniform, size_t ovcs, int32_t& horizon) {
  if (credit_delay_of_.empty()) return;
  int32_t shortest = INT32_MAX;
  for (int32_t r = 0; r < routers_; ++r)
    for (int32_t p = 0; p < router_[r].degree(); ++p) {
      const int32_t g = router_[r].portBegin() + p;
      if (ports_[g].up_ovc < 0) continue;  // no sender
      shortest = std::min(shortest, credit_delay_of_[g] > 0 ? credit_delay_of_[g] : uniform);
    }
  credit_delay_ = shortest;
  credit_extra_.assign(ovcs, 0);
  for (int32_t r = 0; r < routers_; ++r)
    for (int32_t p = 0; p < router_[r].degree(); ++p) {
      const int32_t g = router_[r].portBegin() + p;
      if (ports_[g].up_ovc < 0) continue;
      const int32_t delay = credit_delay_of_[g] > 0 ? credit_delay_of_[g] : uniform;
      horizon = std::max(horizon, delay);
      for (int32_t k = 0; k < vcs_; ++k)
        credit_extra_[static_cast<size_t>(ports_[g].up_ovc + k)] =
            static_cast<uint8_t>(delay - shortest);
    }
  credit_delay_of_.clear();
  credit_delay_of_.shrink_to_fit();
  // Every credit of one delay after all (each link its own, all equal): no holding.
  if (std::all_of(credit_extra_.begin(), credit_extra_.end(), [](uint8_t e) { return e == 0; }))
    credit_extra_.clear();
}

void Network::holdLateCredits(int64_t c) {
  auto& credits = wheel_.creditsAt(c);
  size_t kept = 0;
  for (size_t i = 0; i < credits.size(); ++i) {
    uint32_t ovc = credits[i].ovc;
    if (ovc & kLateCredit) {
      credits[kept++].ovc = ovc & ~kLateCredit;
    } else if (const uint8_t extra = credit_extra_[ovc]; extra != 0) {
      wheel_.sendCredit(c + extra, ovc | kLateCredit);
    } else {
      credits[kept++].ovc = ovc;
    }
  }
  credits.resize(kept);
}

template <bool kPrefetch>
void Network::deliverCredits(int64_t c) {
  constexpr size_t kAhead = 8;
  if (!credit_extra_.empty()) holdLateCredits(c);
  auto& credits = wheel_.creditsAt(c);
  for (size_t i = 0; i < credits.size(); ++i) {
    if (kPrefetch && i + kAhead < credits.size()) __builtin_prefetch(&out_vc_[credits[i + kAhead].ovc], 1);
    ++out_vc_[credits[i].ovc];
  }
  credits.clear();
}

void Network::deliver(int64_t c) {
  auto& flits = wheel_.flitsAt(c);
  if (!flits.empty() || !wheel_.creditsAt(c).empty()) last_arrival_ = c;
  commitFlits<false>(flits.data(), flits.data() + flits.size());
  flits.clear();
  deliverCredits<false>(c);
}

void Network::stageArrivals(int64_t c) {
  if (!wheel_.flitsAt(c).empty() || !wheel_.creditsAt(c).empty()) last_arrival_ = c;
  deliverCredits<true>(c);
  // The clock's flits are sorted by block where they lie: no second buffer, whose pages would
  // add to the peak memory of the largest networks. The bucket is not written again before
  // deliverRest empties it: every delay is at least one clock.
  std::vector<FlitEvent>& flits = wheel_.flitsAt(c);
  staged_ = &flits;
  const size_t blocks = (static_cast<size_t>(routers_) >> kStageShift) + 1;
  const auto blockOf = [](const FlitEvent& ev) {
    return static_cast<uint32_t>(ev.router) >> kStageShift;
  };
  staged_start_.assign(blocks + 1, 0);
  // Routers are marked active now, so that the stepping, which only visits active routers,
  // reaches every block that receives.
  for (const FlitEvent& ev : flits) {
    ++staged_start_[blockOf(ev) + 1];
    activate(ev.router);
  }
  for (size_t b = 1; b <= blocks; ++b) staged_start_[b] += staged_start_[b - 1];
  // American-flag sort: each misplaced event is swapped into the next free slot of its block
  // until the slot being filled receives one of its own.
  staged_fill_.assign(staged_start_.begin(), staged_start_.end() - 1);
  for (uint32_t b = 0; b < blocks; ++b) {
    const uint32_t end = staged_start_[b + 1];
    for (uint32_t& i = staged_fill_[b]; i < end; ++i) {
      FlitEvent ev = flits[i];
      for (uint32_t t = blockOf(ev); t != b; t = blockOf(ev))
        std::swap(ev, flits[staged_fill_[t]++]);
      flits[i] = ev;
    }
  }
  staged_next_ = 0;
}

void Network::deliverBlocks(uint32_t end) {
  if (end <= staged_next_) return;
  const FlitEvent* events = staged_->data();
  commitFlits<true>(events + staged_start_[staged_next_], events + staged_start_[end]);
  staged_next_ = end;
}

void Network::deliverRest() {
  deliverBlocks(static_cast<uint32_t>(staged_start_.size() - 1));
  staged_->clear();
}

int32_t Network::freeTokenAt(uint32_t now) const {
  const uint64_t since = now - static_cast<uint32_t>(token_since_);
  return static_cast<int32_t>((static_cast<uint64_t>(token_from_) + since) %
                              static_cast<uint64_t>(routers_));
}

void Network::discardFlits(int32_t r, uint32_t gv, int64_t c, CycleLog& log) {
  InputVc& v = vc(gv);
  const int32_t n = std::min<int32_t>(v.count, v.len - v.sent);
  if (n == 0) return;
  const uint32_t packet = frontPacket(gv);
  v.head = static_cast<uint16_t>((v.head + n) & depth_mask_);
  v.count = static_cast<uint16_t>(v.count - n);
  v.sent = static_cast<uint16_t>(v.sent + n);
  if (v.count == 0)
    router_[r].nonempty &= ~(uint64_t{1} << (gv - static_cast<uint32_t>(router_[r].vc_begin)));
  // The discarded flits free buffer space exactly as if they had left: credits go back.
  const auto up = static_cast<uint32_t>(ports_[router_[r].portBegin() + v.port].up_ovc + v.index);
  for (int32_t k = 0; k < n; ++k) wheel_.sendCredit(c + credit_delay_, up);
  flits_in_network_ -= n;
  log.moved = true;
  if (v.sent == v.len) {
    if (packet == token_holder_) releaseToken(r, c);
    log.freed.push_back(packet);
    releaseFront(v, c);
  }
}

// Headers that were ready to leave and did not (local VCs `stayed` of router r): a collision
// counted once per header, and the deadlock timeout.
void Network::headsStayed(int32_t r, uint64_t stayed, int64_t c, PacketStore& store,
                          CycleLog& log) {
  const uint32_t vb = static_cast<uint32_t>(router_[r].vc_begin);
  const uint32_t now = static_cast<uint32_t>(c);
  for (uint64_t m = stayed; m != 0; m &= m - 1) {
    const uint32_t gv = vb + static_cast<uint32_t>(__builtin_ctzll(m));
    InputVc& v = vc(gv);
    if (!(v.flags & InputVc::kCollided)) {
      v.flags |= InputVc::kCollided;
      ++collisions_[r];
      ++store.packets[frontPacket(gv)].collisions;
    }
    if (static_cast<int32_t>(now - v.ready) >= drop_timeout_) {
      if (deadlock_ == DeadlockHandling::kDropAfterTimeout) {
        dropFront(r, gv, c, store, log);
      } else {
        log.suspect = true;
      }
    }
  }
}

void Network::dropFront(int32_t r, uint32_t gv, int64_t c, PacketStore& store, CycleLog& log) {
  InputVc& v = vc(gv);
  const uint32_t packet = frontPacket(gv);
  store.packets[packet].dropped = 1;
  log.drops.push_back({r, packet});
  if (v.state == VcState::kActive && v.out_port < router_[r].degree()) {
    out_vc_[ovcBegin(router_[r]) + v.out_ovc] &= static_cast<uint16_t>(~kOwned);
    if ((token_bits_ >> v.out_ovc) & 1) --lane_vcs_[r];
  }
  router_[r].owning &= ~(uint64_t{1} << (gv - static_cast<uint32_t>(router_[r].vc_begin)));
  // A dropped packet's connection through the switch is not its lane's next packet's.
  if (holding()) sa_held_[r] &= ~(uint64_t{1} << (gv - static_cast<uint32_t>(router_[r].vc_begin)));
  v.state = VcState::kDiscard;
  discardFlits(r, gv, c, log);
}

void Network::badRoute(int32_t r, int32_t dest, int32_t port) const {
  if (port == 0x7fffffff) {
    throw RoutingFailure(fmt::format(
        "routing at node {} for destination {} takes a port of a dimension the network does not "
        "have",
        r, dest));
  }
  if (port >= 0) {
    throw RoutingFailure(
        fmt::format("routing at node {} for destination {} takes port (port {} {}), which node {} "
                    "does not have",
                    r, dest, port >> 1, (port & 1) ? 1 : -1, r));
  }
  throw RoutingFailure(fmt::format(
      "routing at node {} for destination {} offers an output VC outside its {} connected ports "
      "x {} VCs",
      r, dest, router_[r].degree(), vcs_));
}

void Network::badHeader(int32_t r, int32_t dest, int32_t error) const {
  const size_t f = static_cast<size_t>(error & 0xff);
  const std::string name = f < header_fields_.size() ? header_fields_[f].name : std::to_string(f);
  if ((error >> 8) == kHeaderTwoValues) {
    throw RoutingFailure(fmt::format(
        "routing at node {} for destination {} writes two values into header field '{}' in one "
        "route",
        r, dest, name));
  }
  throw RoutingFailure(fmt::format(
      "routing at node {} for destination {} sets header field '{}' outside its range {}..{}", r,
      dest, name, f < header_fields_.size() ? header_fields_[f].lo : 0,
      f < header_fields_.size() ? header_fields_[f].hi : 0));
}

void Network::noCandidate(int32_t r, int32_t dest) const {
  throw RoutingFailure(
      fmt::format("routing at node {} offers no candidate route for destination {}", r, dest));
}

size_t Network::stateBytes() const {
  auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  return bytes(router_) + bytes(collisions_) + bytes(active_) + bytes(ports_) + bytes(vc_store_) +
         bytes(out_vc_) + bytes(queue_snapshot_);
}

}  // namespace ndl::rt
