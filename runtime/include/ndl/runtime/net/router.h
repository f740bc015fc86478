// One clock of an input-queued virtual-channel router: a header that reaches the front of
// its VC waits the header delay (routing and switch set-up); it then competes for an output
// VC (VC allocation) and every VC with a flit and a credit competes for the crossbar
// (separable input-first switch allocation), all with round-robin arbiters (among the
// requests of the highest traffic-class priority, when classes differ in it). While it waits
// for an output VC the header is routed again every router clock: the routing returns
// candidate output VCs in priority tiers (routing.h) and the selection picks a free one of
// the first tier that has any (docs/routing.md). The flow-control rules of spec 2.2 decide
// when a header may route (store-and-forward waits for its tail) and which output VC it may
// take (cut-through and store-and-forward need room for the whole packet).
//
// A template over the routing function so that a constant function (generated code)
// inlines into the loop.
#pragma once

#include <algorithm>
#include <string>
#include <utility>

#include "ndl/runtime/net/arbiter.h"
#include "ndl/runtime/net/flow_control.h"
#include "ndl/runtime/net/hot.h"
#include "ndl/runtime/net/network.h"
#include "ndl/runtime/traffic/rng.h"

#if defined(NDL_GENERATED_CORE)
// Defined by the generated module: whether the program has a predictor. A specialized
// simulator's router step is optimized together with it, so without a predictor the
// predictive step's tests are constants and disappear (docs/prediction.md).
extern "C" const bool ndl_generated_predicts;
// Whether the traffic classes differ in priority: without, the allocators' priority tests
// fold away.
extern "C" const bool ndl_generated_priorities;
#endif

namespace ndl::rt {

// Whether this router step may meet a predictor: known at build time in a specialized
// simulator, asked at run time (of `predict_`) elsewhere.
NDL_HOT bool mayPredict() {
#if defined(NDL_GENERATED_CORE)
  return ndl_generated_predicts;
#else
  return true;
#endif
}

NDL_HOT bool Network::prioritized() const {
#if defined(NDL_GENERATED_CORE)
  return ndl_generated_priorities && priorities_;
#else
  return priorities_;
#endif
}

inline int Network::pickPriority(uint64_t req, uint32_t start, uint32_t vb) const {
  uint8_t best = 0;
  uint64_t top = 0;
  for (uint64_t m = req; m != 0; m &= m - 1) {
    const int l = __builtin_ctzll(m);
    const uint8_t q = vc_prio_[vb + static_cast<uint32_t>(l)];
    if (q > best) {
      best = q;
      top = 0;
    }
    if (q == best) top |= uint64_t{1} << l;
  }
  return roundRobinPick(top, start);
}

// (SwitchInputArbitration ByOutput): one of the outputs the input's requests want, round robin
// from its output pointer, then the VC for it round robin from sa_in_ptr (of the highest class
// priority first, as ByVc serves them).
inline int Network::pickByOutput(uint64_t req, int in, int32_t pb, uint32_t vb) const {
  if (prioritized()) {
    uint8_t best = 0;
    uint64_t top = 0;
    for (uint64_t m = req; m != 0; m &= m - 1) {
      const int l = __builtin_ctzll(m);
      const uint8_t q = vc_prio_[vb + static_cast<uint32_t>(l)];
      if (q > best) {
        best = q;
        top = 0;
      }
      if (q == best) top |= uint64_t{1} << l;
    }
    req = top;
  }
  uint64_t outs = 0;
  for (uint64_t m = req; m != 0; m &= m - 1)
    outs |= uint64_t{1} << vc(vb + static_cast<uint32_t>(__builtin_ctzll(m))).out_port;
  const int o = roundRobinPick(outs, sa_in_out_ptr_[static_cast<size_t>(pb + in)]);
  uint64_t for_o = 0;
  for (uint64_t m = req; m != 0; m &= m - 1) {
    const int l = __builtin_ctzll(m);
    if (vc(vb + static_cast<uint32_t>(l)).out_port == o) for_o |= uint64_t{1} << l;
  }
  return roundRobinPick(for_o, ports_[pb + in].sa_in_ptr);
}

// (SwitchHold Packet): moves the held packets' flits, and returns the requests left to
// arbitrate, without those of the held packets' inputs and of those wanting their outputs.
inline uint64_t Network::sendHeld(int32_t r, uint64_t held, uint64_t rest, const RouterFrame& f,
                                  int64_t c, CycleLog& log, uint64_t& moved) {
  const uint32_t vb = static_cast<uint32_t>(router_[r].vc_begin);
  uint32_t ins = 0, outs = 0;
  for (uint64_t m = held; m != 0; m &= m - 1) {
    const InputVc& v = vc(vb + static_cast<uint32_t>(__builtin_ctzll(m)));
    ins |= 1u << v.port;
    outs |= 1u << v.out_port;
  }
  for (uint64_t m = rest; m != 0; m &= m - 1) {
    const InputVc& v = vc(vb + static_cast<uint32_t>(__builtin_ctzll(m)));
    if (((ins >> v.port) | (outs >> v.out_port)) & 1) rest &= ~(uint64_t{1} << __builtin_ctzll(m));
  }
  // In the order of their output ports, as the output stage moves flits.
  for (uint32_t pm = outs; pm != 0; pm &= pm - 1) {
    const int o = __builtin_ctz(pm);
    for (uint64_t m = held; m != 0; m &= m - 1) {
      const int l = __builtin_ctzll(m);
      if (vc(vb + static_cast<uint32_t>(l)).out_port != o) continue;
      moved |= uint64_t{1} << l;
      moveFlit(r, vb + static_cast<uint32_t>(l), l, f, c, log);
      break;
    }
  }
  return rest;
}

inline uint32_t Network::topInputs(uint32_t inputs, const int* chosen, uint32_t vb) const {
  uint8_t best = 0;
  uint32_t top = 0;
  for (uint32_t m = inputs; m != 0; m &= m - 1) {
    const int in = __builtin_ctz(m);
    const uint8_t q = vc_prio_[vb + static_cast<uint32_t>(chosen[in])];
    if (q > best) {
      best = q;
      top = 0;
    }
    if (q == best) top |= 1u << in;
  }
  return top;
}

// Wraps a routing function known at compile time so the router step can inline it.
template <RouteFn kFn>
struct StaticRoute {
  RouteSet operator()(const RouteContext& ctx) const { return kFn(ctx); }
};

// Wraps a routing function known only at run time.
struct DynamicRoute {
  RouteFn fn;
  RouteSet operator()(const RouteContext& ctx) const { return fn(ctx); }
};

NDL_HOT void Network::moveFlit(int32_t r, uint32_t gv, int l, const RouterFrame& f, int64_t c,
                              CycleLog& log) {
  InputVc& v = vc(gv);
  if (mayPredict() && (v.flags & InputVc::kCopyPass)) [[unlikely]] {
    moveCopyFlit(r, gv, l, f, c, log);
    return;
  }
  const uint32_t packet = ring(gv)[v.head];
  v.head = static_cast<uint16_t>((v.head + 1) & depth_mask_);
  router_[r].nonempty &= ~(static_cast<uint64_t>(--v.count == 0) << l);  // no branch
  const bool tail = ++v.sent == v.len;
  // An injection VC's credit goes to the credit sink (up_ovc): no branch on where the flit
  // came from, which goes either way unpredictably.
  EventWheel::append(*credit_bucket_,
                     CreditEvent{static_cast<uint32_t>(ports_[f.pb + v.port].up_ovc + v.index)});
  const int32_t o = v.out_port;
  if (o >= f.deg) {  // ejection, at the port of the endpoint it goes to
    log.moved = true;  // a move over a link is seen in log.flit_hops
    --flits_in_network_;
    // Speedup: the endpoint takes no other flit this clock; its sentinel's credit is back
    // at the next.
    if (sped()) [[unlikely]] {
      --out_vc_[f.ob + v.out_ovc];
      EventWheel::append(wheel_.creditsAt(c + 1), CreditEvent{static_cast<uint32_t>(f.ob + v.out_ovc)});
    }
    if (tail) {
      if (packet == token_holder_) releaseToken(r, c);
      log.arrivals.push_back({r, packet});
      router_[r].owning &= ~(uint64_t{1} << l);
      releaseFront(v, c);
    }
    return;
  }
  const int32_t gov = f.ob + v.out_ovc;
  --out_vc_[gov];  // a credit was there, so the owned bit is untouched
  const Port& port = ports_[f.pb + o];
  const FlitEvent sent{static_cast<uint32_t>(port.down_base + v.out_ovc), packet, port.down_router};
  if (sped()) [[unlikely]] {
    // Through the port's output queue: the channel carries one flit a clock.
    EventWheel::append(wheel_.flitsAt(queueDeparture(f.pb + o, c) + port.link_delay + flit_pipe_),
                       sent);
  } else if (link_delay_ > 0) {
    EventWheel::append(*flit_bucket_, sent);
  } else {
    EventWheel::append(wheel_.flitsAt(c + port.link_delay + flit_pipe_), sent);
  }
  ++log.flit_hops;  // the packet's hop is counted as its head is routed at the next router
  ++port_flits_[f.pb + o];
  if (tail) {
    out_vc_[gov] &= static_cast<uint16_t>(~kOwned);
    router_[r].owning &= ~(uint64_t{1} << l);
    if ((token_bits_ >> v.out_ovc) & 1) --lane_vcs_[r];
    releaseFront(v, c);
  }
}

// A header at the front: it ejects here, or it will ask the routing once its delay is over.
NDL_HOT void Network::routeHead(int32_t r, uint32_t gv, InputVc& v, uint32_t since, uint32_t now,
                                      PacketStore& store) {
  Packet& p = store.packets[frontPacket(gv)];
  const int32_t deg = router_[r].degree();
  // A head that came over a link made a hop (counted here rather than per flit sent: the
  // packet's record is at hand here, and the send then needs no test of whether it is a head).
  p.hops = static_cast<uint16_t>(p.hops + (v.port < deg));
  // Ejecting: the port of endpoint dst_local (its output VC, the sentinel, is set as the
  // header's delay ends: only ejecting heads pay for it).
  v.out_port = ejectsAt(p, r, v.port, deg) ? static_cast<uint8_t>(deg + p.dst_local) : uint8_t{0xff};
  v.ready = since + static_cast<uint32_t>(header_delay_);
  v.state = VcState::kRouting;
  if (mayPredict() && predict_) [[unlikely]] predictHead(r, gv, v, since, now, p);
}

NDL_HOT bool Network::stillBlocked(uint32_t gv, const InputVc& v, const RouterFrame& f,
                                   int32_t r, uint32_t now) const {
  const uint32_t wait = now - v.ready;
  // Breakpoints are below 2^31 (the compiler drops larger ones): past that, route every clock.
  if (wait > 0x7fffffffu) return false;
  const uint32_t before = wait - (now - round_prev_);  // at the previous round
  for (int k = 0; k < wait_break_count_; ++k) {
    if (before < wait_breaks_[k] && wait_breaks_[k] <= wait) return false;
  }
  // The same test as selectRoute's over the same candidates, as the token allows them now
  // (the free token passing this router makes its token-class candidates free).
  uint64_t cand = v.blockedCandidates();
  if (token_vc_ != 0 && !tokenAllows(frontPacket(gv), r, now)) cand &= ~token_bits_;
  const uint16_t need = static_cast<uint16_t>(allocationCredits(v.len));
  for (uint64_t m = cand; m != 0; m &= m - 1) {
    const uint16_t e = out_vc_[f.ob + __builtin_ctzll(m)];
    if (e < kOwned && e >= need) return false;
  }
  return true;
}

// Whether exactly two local VCs ask for the switch (`requests`), from different input ports
// for different output ports, with no recovery lane to favour: switch allocation then grants
// both whatever its pointers say.
NDL_HOT bool Network::twoApart(uint64_t requests, uint32_t vb, int32_t r) const {
  const uint64_t rest = requests & (requests - 1);
  if ((rest & (rest - 1)) != 0) return false;
  const InputVc& a = vc(vb + static_cast<uint32_t>(__builtin_ctzll(requests)));
  const InputVc& b = vc(vb + static_cast<uint32_t>(__builtin_ctzll(rest)));
  return a.port != b.port && a.out_port != b.out_port && (token_vc_ == 0 || lane_vcs_[r] == 0);
}

template <class Route>
NDL_HOT bool Network::selectRoute(int32_t r, int l, InputVc& v, const RouterFrame& f,
                                  uint32_t now, const Route& route, PacketStore& store, int& o,
                                  uint64_t& want, int& first, uint64_t& header) const {
  const uint32_t gv = static_cast<uint32_t>(router_[r].vc_begin + l);
  // A header blocked at the previous round whose answer cannot have changed and none of whose
  // candidates became free stays blocked: asking the routing again would give the same answer
  // (a routing is a function of the header and its wait only; docs/routing.md).
  if ((v.flags & InputVc::kBlocked) && stillBlocked(gv, v, f, r, now)) return false;
  v.flags &= static_cast<uint8_t>(~InputVc::kBlocked);
  const uint32_t id = frontPacket(gv);
  const Packet& p = store.packets[id];
  const RouteContext ctx{&topo_,  r,        p.src,        p.dst,
                         v.port,  v.index,  vcs_,         v.cls,
                         in_code_[f.pb + v.port], now - v.ready, p.header};
  const RouteSet set = route(ctx);
  if (set.bad_port >= 0) badRoute(r, p.dst, set.bad_port);
  if (set.header_error != 0) badHeader(r, p.dst, set.header_error);
  const int outs = f.deg * vcs_;
  const uint64_t valid = outs >= 64 ? ~uint64_t{0} : (uint64_t{1} << outs) - 1;
  const uint16_t need = static_cast<uint16_t>(allocationCredits(v.len));
  uint64_t any = 0;
  // VCs of token classes are candidates only while the token allows this packet them.
  const uint64_t allowed = token_vc_ == 0 || tokenAllows(id, r, now) ? ~uint64_t{0} : ~token_bits_;
  for (int t = 0; t < kRouteTiers; ++t) {
    any |= set.tier[t];
    if (set.tier[t] & ~valid) badRoute(r, p.dst, -1);
    const uint64_t tier = set.tier[t] & allowed;
    // The free candidates: not owned (the entry is then the credit count) and room enough.
    uint64_t free = 0;
    for (uint64_t m = tier; m != 0; m &= m - 1) {
      const int b = __builtin_ctzll(m);
      const uint16_t e = out_vc_[f.ob + b];
      if (e < kOwned && e >= need) free |= uint64_t{1} << b;
    }
    if (free == 0) continue;
    int pick = __builtin_ctzll(free);  // First
    switch (selection_) {
      case Selection::kFirst:
        break;
      case Selection::kRandom: {
        // A hash of (seed, router, VC, clock): deterministic whatever order routers run in.
        uint64_t h = seed_ ^ (static_cast<uint64_t>(r) << 20) ^ (static_cast<uint64_t>(l) << 8) ^
                     (static_cast<uint64_t>(now) << 32);
        h = splitMix64(h);
        // k uniform in [0, count) by a multiply, not a division (Lemire).
        int k = static_cast<int>(((h >> 32) * static_cast<uint64_t>(__builtin_popcountll(free))) >>
                                 32);
        uint64_t m = free;
        while (k-- > 0) m &= m - 1;
        pick = __builtin_ctzll(m);
        break;
      }
      case Selection::kMostCredits: {
        uint16_t best = 0;
        for (uint64_t m = free; m != 0; m &= m - 1) {
          const int b = __builtin_ctzll(m);
          if (out_vc_[f.ob + b] > best) {
            best = out_vc_[f.ob + b];
            pick = b;
          }
        }
        break;
      }
      case Selection::kUser: {
        // The NDL selection scores every free candidate; the highest wins, ties to the lowest.
        int64_t best = INT64_MIN;
        for (uint64_t m = free; m != 0; m &= m - 1) {
          const int b = __builtin_ctzll(m);
          const int port = bit_port_[b];
          int32_t port_free = 0, port_credits = 0;
          for (int k = 0; k < vcs_; ++k) {
            const uint16_t e = out_vc_[f.ob + port * vcs_ + k];
            if (e < kOwned) {
              ++port_free;
              port_credits += e;
            }
          }
          const Candidate cand{out_code_[f.pb + port], out_class_[b - port * vcs_],
                               out_vc_[f.ob + b], port_free, port_credits};
          const int64_t score = select_fn_(ctx, cand);
          if (score > best) {
            best = score;
            pick = b;
          }
        }
        break;
      }
      case Selection::kStraightFirst: {
        const int16_t along = in_code_[f.pb + v.port];
        if (along < 0) break;
        for (uint64_t m = free; m != 0; m &= m - 1) {
          const int b = __builtin_ctzll(m);
          if (out_code_[f.pb + bit_port_[b]] == along) {
            pick = b;
            break;
          }
        }
        break;
      }
    }
    o = bit_port_[pick];
    if (ports_[f.pb + o].down_router < 0) badRoute(r, p.dst, -1);
    const uint64_t port_bits = (vcs_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << vcs_) - 1)
                               << (o * vcs_);
    want = free & port_bits;
    // The header as the chosen candidate writes it; the VC allocator may give another VC of
    // the port only among those that write it the same way.
    header = p.header;
    for (int w = 0; w < set.writes; ++w) {
      const HeaderWrite& hw = set.write[w];
      const uint64_t c = hw.cand[t];
      if ((c >> pick) & 1) {
        header = (header & ~hw.clear) | hw.value;
        want &= c;
      } else {
        want &= ~c;
      }
    }
    first = pick - o * vcs_;
    return true;
  }
  if (any == 0) noCandidate(r, p.dst);
  if (wait_memo_ && outs <= InputVc::kBlockedBits) v.setBlocked(static_cast<uint32_t>(any));
  return false;
}

// Out of line, so that the steps' values are allocated to registers apart from the cycle
// loop's own state.
template <class Route>
[[gnu::noinline]] uint64_t Network::stepWord(uint64_t word, int32_t base, int64_t c,
                                             const Route& route, PacketStore& store,
                                             CycleLog& log) {
  uint64_t idle = 0;
  for (uint64_t m = word; m != 0; m &= m - 1) {
    const int b = __builtin_ctzll(m);
    idle |= static_cast<uint64_t>(!stepRouter(base + b, c, route, store, log)) << b;
  }
  return idle;
}

template <class Route>
bool Network::stepRouter(int32_t r, int64_t c, const Route& route, PacketStore& store,
                         CycleLog& log) {
  // (InternalSpeedup S): S passes of allocation and traversal a clock, each from the state
  // the one before left (no flit or credit arrives between them: what a pass sends lands at
  // a later clock). One pass, and one copy of it, without the form.
  for (int32_t pass = 1;; ++pass) {
    const bool busy = stepPass(r, c, route, store, log);
    if (pass >= speedup_ || !busy) [[likely]] return busy;
  }
}

template <class Route>
NDL_HOT bool Network::stepPass(int32_t r, int64_t c, const Route& route, PacketStore& store,
                               CycleLog& log) {
  const Router& info = router_[r];
  const uint64_t busy = info.nonempty;
  if (busy == 0) return false;
  const int32_t pb = info.portBegin();
  const int32_t ob = ovcBegin(info);
  const uint32_t vb = static_cast<uint32_t>(info.vc_begin);
  const int32_t deg = info.degree();
  const uint32_t now = static_cast<uint32_t>(c);
  const RouterFrame frame{pb, ob, deg};

  // A lone worm: the only busy VC owns its output VC (or ejects). Most steps at light load
  // are this one; it asks for the switch alone and is granted if it has a credit, as the
  // stages below would do, without their set-up.
  if (busy == info.owning && (busy & (busy - 1)) == 0) {
    const int l = __builtin_ctzll(busy);
    const InputVc& v = vc(vb + static_cast<uint32_t>(l));
    const bool sends = (out_vc_[static_cast<size_t>(ob + v.out_ovc)] & kCreditMask) != 0;
    if (sends) {
      ports_[pb + v.out_port].sa_out_ptr = roundRobinNext(v.port);
      ports_[pb + v.port].sa_in_ptr = roundRobinNext(l);
      grantedOutput(pb, v.port, v.out_port);
      moveFlit(r, vb + static_cast<uint32_t>(l), l, frame, c, log);
    } else if (v.sent == 0) [[unlikely]] {
      headsStayed(r, busy, c, store, log);
    }
    // A packet that sent holds the switch while its tail is still to go.
    if (holding()) [[unlikely]] sa_held_[r] = sends ? busy & info.owning : 0;
    return info.nonempty != 0;
  }

  uint64_t va_req[kMaxPorts];  // per output port: local VCs asking for an output VC
  uint32_t va_ports = 0;
  uint64_t va_want[kMaxLocalVcs];  // per asking VC: the free VCs of its port it may take
  uint8_t va_first[kMaxLocalVcs];  // and the one its selection chose
  uint64_t va_header[kMaxLocalVcs];  // and its packet's header once granted
  // Local VCs ready to cross the switch. A router's VCs are numbered port by port, so one
  // mask holds every input port's requests (stage 3 takes them apart): a request is one OR,
  // with no branch on whether its port asked already (it mispredicts) and nothing to clear.
  uint64_t sa_vcs = 0;
  uint64_t heads = 0;  // local VCs whose header is ready to leave
  uint64_t tentative = 0;  // asking VCs whose header took the predictive path

  // ---- stage 1a: VCs in kActive (worms on their way, owning an output VC or ejecting) only
  // ask for the switch. They are found by their bit, not by a test of their state, and the
  // request is made without a branch: both would go either way about as often, mispredicted.
  const uint64_t owning = busy & info.owning;
  for (uint64_t m = owning; m != 0; m &= m - 1) {
    const int l = __builtin_ctzll(m);
    const InputVc& v = vc(vb + static_cast<uint32_t>(l));
    heads |= static_cast<uint64_t>(v.sent == 0) << l;
    // An ejecting VC reads the router's sentinel output VC, which always has a credit. A VC
    // sending a copy (MispredictionCheck None) sends only flits that have arrived.
    const size_t at = static_cast<size_t>(ob + v.out_ovc);
    const bool flit = !mayPredict() || !(v.flags & InputVc::kCopyPass) || v.sent < v.count;
    sa_vcs |= static_cast<uint64_t>((out_vc_[at] & kCreditMask) != 0 && flit) << l;
  }

  // ---- stage 1b: advance the other VCs' state from what is in the buffers now
  for (uint64_t m = busy & ~owning; m != 0; m &= m - 1) {
    const int l = __builtin_ctzll(m);
    const uint32_t gv = vb + static_cast<uint32_t>(l);
    InputVc& v = vc(gv);
    uint32_t since = now;  // the clock the header's delay starts from
    if (v.state == VcState::kIdle) {
      v.len = store.packets[frontPacket(gv)].len;
      if (prioritized()) [[unlikely]] vc_prio_[gv] = store.packets[frontPacket(gv)].priority;
      v.sent = 0;
      if (v.flags & InputVc::kQueued) since = v.ready;
      v.flags = 0;
      v.state = VcState::kWaitTail;
    }
    if (v.state == VcState::kWaitTail) {
      // Store-and-forward routes a packet only once all of it is here.
      if (waitsForTail(flow_) && v.count < v.len) continue;
      routeHead(r, gv, v, since, now, store);
    }
    if (v.state == VcState::kRouting) {
      if (static_cast<int32_t>(now - v.ready) < 0) continue;
      if (v.out_port != 0xff) {  // routeHead chose an ejection port
        // The endpoint's sentinel, where an output VC would be: it always has a credit.
        v.out_ovc = static_cast<uint8_t>(deg * vcs_ + (v.out_port - deg) * inj_vcs_);
        v.state = VcState::kActive;
        router_[r].owning |= uint64_t{1} << l;
        if (mayPredict() && predict_) [[unlikely]] forwarded(r, gv, v, kEjectionCode, c, store);
      } else {
        v.state = VcState::kVcAlloc;
      }
    }
    if (v.state == VcState::kDiscard) {
      discardFlits(r, gv, c, log);
      continue;
    }
    if (v.sent == 0) heads |= uint64_t{1} << l;
    if (v.state == VcState::kVcAlloc) {
      int o = 0, first = 0;
      uint64_t want = 0;
      // Without hint bits a predicted header asks for its predicted port, not the routing's.
      const bool asks =
          mayPredict() && (v.flags & InputVc::kToPredicted)
              ? predictedRequest(gv, v, frame, store, o, want, first, va_header[l])
              : selectRoute(r, l, v, frame, now, route, store, o, want, first, va_header[l]);
      if (!asks) {
        if (mayPredict() && (v.flags & InputVc::kPredicted)) [[unlikely]]
          lostReservation(r, gv, v, store);
        continue;
      }
      if (mayPredict())
        tentative |= static_cast<uint64_t>((v.flags & InputVc::kPredicted) != 0) << l;
      va_want[l] = want >> (o * vcs_);
      va_first[l] = static_cast<uint8_t>(first);
      v.out_port = static_cast<uint8_t>(o);
      const uint32_t bit = 1u << o;
      if (va_ports & bit) {
        va_req[o] |= uint64_t{1} << l;
      } else {
        va_req[o] = uint64_t{1} << l;
        va_ports |= bit;
      }
      continue;
    }
    // kActive: a header that ejects here, out of its delay. Under InternalSpeedup it asks
    // only if its endpoint took no flit in an earlier pass of this clock (the sentinel's
    // credit, taken by moveFlit until the next clock); without, the sentinel always has one.
    sa_vcs |= static_cast<uint64_t>(!sped() || (out_vc_[ob + v.out_ovc] & kCreditMask) != 0) << l;
  }

  // ---- stage 2: VC allocation, round robin over the requesters of each output port, those
  // of the highest class priority first; the headers on the predictive path after all the
  // others (their reservation is tentative).
  for (uint32_t pm = va_ports; pm != 0; pm &= pm - 1) {
    const int o = __builtin_ctz(pm);
    uint64_t later = va_req[o] & tentative;
    uint64_t req = va_req[o] & ~later;
    const uint32_t start = ports_[pb + o].va_ptr;
    bool granted = false;
    for (;;) {
      if (req == 0) [[likely]] {
        if (later == 0) break;
        req = later;
        later = 0;
      }
      const int l = prioritized() ? pickPriority(req, start, vb) : roundRobinPick(req, start);
      req &= ~(uint64_t{1} << l);
      InputVc& v = vc(vb + l);
      const int32_t base = ob + o * vcs_;
      // The chosen VC first, then the lowest one still free (an earlier grant of this clock
      // may have taken the chosen one).
      int32_t k = va_first[l];
      uint64_t rest = va_want[l] & ~(uint64_t{1} << k);
      for (;; k = __builtin_ctzll(rest), rest &= rest - 1) {
        // Not owned: the entry is the credit count itself.
        if (out_vc_[base + k] < kOwned && out_vc_[base + k] >= allocationCredits(v.len) &&
            // A token class: only the holder, or a packet here as the free token passes (an
            // earlier grant of this clock may have taken it).
            (((token_vc_ >> k) & 1) == 0 ||
             tokenAllows(frontPacket(vb + static_cast<uint32_t>(l)), r, now))) {
          if ((token_vc_ >> k) & 1) {
            takeToken(frontPacket(vb + static_cast<uint32_t>(l)), c);
            ++lane_vcs_[r];
          }
          out_vc_[base + k] |= kOwned;
          v.out_ovc = static_cast<uint8_t>(o * vcs_ + k);
          v.state = VcState::kActive;
          router_[r].owning |= uint64_t{1} << l;
          if (mayPredict() && (v.flags & InputVc::kToPredicted)) [[unlikely]]
            startPredictedMove(r, vb + static_cast<uint32_t>(l), v, store);
          if (mayPredict() && predict_) [[unlikely]]
            forwarded(r, vb + static_cast<uint32_t>(l), v, out_code_[pb + o], c, store);
          ++class_grants_[static_cast<size_t>(r) * classes_ + out_class_[k]];
          // Header fields the routing wrote take effect with the grant.
          if (has_header_) {
            uint64_t& header = store.packets[frontPacket(vb + static_cast<uint32_t>(l))].header;
            if (va_header[l] & recovery_field_) {
              // A recovery when this grant sets the field; a recovery hop either way.
              recoveries_[r] += (header & recovery_field_) == 0;
              ++recovery_hops_[r];
            }
            header = va_header[l];
          }
          if (!granted) {
            ports_[pb + o].va_ptr = roundRobinNext(l);
            granted = true;
          }
          if ((out_vc_[base + k] & kCreditMask) > 0) {
            sa_vcs |= uint64_t{1} << l;
          }
          break;
        }
        if (rest == 0) break;
      }
      if (mayPredict() && (v.flags & InputVc::kPredicted) && v.state != VcState::kActive)
          [[unlikely]]
        lostReservation(r, vb + static_cast<uint32_t>(l), v, store);
    }
  }

  // ---- stage 3: switch allocation, input stage then output stage. Afterwards sa_vcs holds
  // the VCs that sent a flit.
  if (sa_vcs != 0 && (sa_vcs & (sa_vcs - 1)) == 0) {
    // One VC asks (the usual case below saturation): both stages grant it.
    const int l = __builtin_ctzll(sa_vcs);
    const InputVc& v = vc(vb + static_cast<uint32_t>(l));
    ports_[pb + v.out_port].sa_out_ptr = roundRobinNext(v.port);
    ports_[pb + v.port].sa_in_ptr = roundRobinNext(l);
    grantedOutput(pb, v.port, v.out_port);
    moveFlit(r, vb + static_cast<uint32_t>(l), l, frame, c, log);
  } else if (sa_vcs != 0 && twoApart(sa_vcs, vb, r)) {
    // Two VCs ask, from different input ports for different output ports (most steps with
    // more than one request below saturation): both stages grant both, and they move in the
    // order of their output ports, as below.
    int l0 = __builtin_ctzll(sa_vcs);
    int l1 = __builtin_ctzll(sa_vcs & (sa_vcs - 1));
    if (vc(vb + static_cast<uint32_t>(l0)).out_port > vc(vb + static_cast<uint32_t>(l1)).out_port)
      std::swap(l0, l1);
    for (const int l : {l0, l1}) {
      const InputVc& v = vc(vb + static_cast<uint32_t>(l));
      ports_[pb + v.out_port].sa_out_ptr = roundRobinNext(v.port);
      ports_[pb + v.port].sa_in_ptr = roundRobinNext(l);
      grantedOutput(pb, v.port, v.out_port);
      moveFlit(r, vb + static_cast<uint32_t>(l), l, frame, c, log);
    }
  } else if (sa_vcs != 0) {
    int chosen[kMaxPorts];
    uint32_t out_req[kMaxPorts];
    uint32_t out_ports = 0;
    const uint64_t port_vcs = vcs_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << vcs_) - 1;
    const uint64_t inj_port_vcs = inj_vcs_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << inj_vcs_) - 1;
    // The recovery lane (a VC of a token class, the token holder's) wins both stages: DISHA
    // gives its deadlock-free lane priority on the physical channels.
    const bool lane = token_vc_ != 0 && lane_vcs_[r] != 0;
    uint32_t lane_in = 0;  // input ports whose chosen VC feeds the lane
    uint64_t moved = 0;
    uint64_t rest = sa_vcs;
    // (SwitchHold Packet): a packet that holds its connection and can send crosses without
    // arbitration, as BookSim2's held flits do; its input's other VCs and the other inputs'
    // requests for its output wait. A held packet that cannot send has let go (below).
    if (const uint64_t held = holding() ? sa_held_[r] & sa_vcs : 0; held != 0) [[unlikely]]
      rest = sendHeld(r, held, rest, frame, c, log, moved);
    for (; rest != 0;) {
      // The input port of the lowest request, and all of that port's requests: a network
      // port's VCs, or one endpoint's injection VCs (each endpoint is an input of its own).
      const int in = vc(vb + static_cast<uint32_t>(__builtin_ctzll(rest))).port;
      const uint64_t req =
          rest & (in < deg ? port_vcs << (in * vcs_)
                           : inj_port_vcs << (deg * vcs_ + (in - deg) * inj_vcs_));
      rest &= ~req;
      // Round robin among the port's requests of the highest class priority.
      int l = byOutput() ? pickByOutput(req, in, pb, vb)
              : prioritized() ? pickPriority(req, ports_[pb + in].sa_in_ptr, vb)
                              : roundRobinPick(req, ports_[pb + in].sa_in_ptr);
      if (lane) {
        for (uint64_t m = req; m != 0; m &= m - 1) {
          const InputVc& u = vc(vb + __builtin_ctzll(m));
          if (u.out_port < deg && ((token_bits_ >> u.out_ovc) & 1)) {
            l = __builtin_ctzll(m);
            lane_in |= 1u << in;
            break;
          }
        }
      }
      chosen[in] = l;
      const int o = vc(vb + l).out_port;
      if (out_ports & (1u << o)) {
        out_req[o] |= 1u << in;
      } else {
        out_req[o] = 1u << in;
        out_ports |= 1u << o;
      }
    }
    for (uint32_t pm = out_ports; pm != 0; pm &= pm - 1) {
      const int o = __builtin_ctz(pm);
      const int in =
          (out_req[o] & lane_in) != 0 ? __builtin_ctz(out_req[o] & lane_in)
          : prioritized() ? roundRobinPick(topInputs(out_req[o], chosen, vb), ports_[pb + o].sa_out_ptr)
                          : roundRobinPick(out_req[o], ports_[pb + o].sa_out_ptr);
      ports_[pb + o].sa_out_ptr = roundRobinNext(in);
      ports_[pb + in].sa_in_ptr = roundRobinNext(chosen[in]);
      grantedOutput(pb, in, o);
      moved |= uint64_t{1} << chosen[in];
      moveFlit(r, vb + static_cast<uint32_t>(chosen[in]), chosen[in], frame, c, log);
    }
    sa_vcs = moved;
  }
  // The packets that sent and have flits to come hold the switch into the next clock.
  if (holding()) [[unlikely]] sa_held_[r] = sa_vcs & router_[r].owning;

  // ---- stage 4: headers that wanted to leave and could not. Those that left are known
  // without reading their VCs; the rest are few below saturation, and out of line.
  if (const uint64_t stayed = heads & ~sa_vcs; stayed != 0) [[unlikely]] {
    headsStayed(r, stayed, c, store, log);
  }
  return info.nonempty != 0;
}

}  // namespace ndl::rt
