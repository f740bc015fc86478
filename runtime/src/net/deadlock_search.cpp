// Deadlocks found as they are: blocked virtual channels that wait for each other. A VC
// waits when its front packet cannot move: a header in VC allocation whose candidate output
// VCs are all taken, or a flit with no credit. What it waits for is another input VC: the
// one that owns a taken output VC (at the same router), or the full downstream VC that owes
// the credits. A VC is live when it can move now, when something already in flight will let
// it move, or when anything it waits for is live (an adaptive header needs only one of its
// candidates); the rest can never move again. Those are a deadlock, and following what each
// waits for from one of them gives a cycle. The search runs only when a header has been
// blocked for the deadlock timeout, at most once per timeout, so it costs nothing per flit
// and a saturated network (which always drains somewhere) is never reported.
#include <fmt/format.h>

#include <algorithm>

#include "ndl/runtime/net/flow_control.h"
#include "ndl/runtime/net/network.h"

namespace ndl::rt {

int32_t Network::routerOfVc(uint32_t gv) const {
  const auto it = std::upper_bound(router_.begin(), router_.end(), gv,
                                   [](uint32_t v, const Router& r) {
                                     return v < static_cast<uint32_t>(r.vc_begin);
                                   });
  return static_cast<int32_t>(it - router_.begin()) - 1;
}

bool Network::waitsFor(int32_t r, uint32_t gv, uint32_t now, RouteFn route,
                       const PacketStore& store, std::vector<uint32_t>& targets) const {
  const InputVc& v = vc(gv);
  const Router& info = router_[r];
  const int32_t pb = info.portBegin();
  const int32_t ob = ovcBegin(info);
  // A full downstream VC with no credit in flight (a credit on its way means movement).
  // b: the output VC as a route-mask bit (port * VCs + VC).
  auto full = [&](int32_t o, int32_t b, uint16_t credits) {
    if (ports_[pb + o].down_router < 0) return false;
    const uint32_t d = static_cast<uint32_t>(ports_[pb + o].down_base + b);
    if (vc(d).count + credits < buffer_flits_) return false;
    targets.push_back(d);
    return true;
  };
  if (v.state == VcState::kActive) {
    if (v.out_port >= info.degree()) return false;  // ejecting
    const uint16_t credits = out_vc_[ob + v.out_ovc] & kCreditMask;
    return credits == 0 && full(v.out_port, v.out_ovc, 0);
  }
  if (v.state != VcState::kVcAlloc) return false;  // waiting for its delay or its tail

  // Every candidate of every tier, as routed now and as after a long wait (a routing that
  // reads (blocked-for) may offer more then, e.g. escape VCs).
  const Packet& p = store.packets[frontPacket(gv)];
  RouteContext ctx{&topo_,  r,       p.src, p.dst, v.port, v.index, vcs_,
                   v.cls,   in_code_[pb + v.port], now - v.ready, p.header};
  uint64_t candidates = 0;
  for (uint32_t blocked : {now - v.ready, uint32_t{0x7fffffff}}) {
    ctx.blocked_for = blocked;
    const RouteSet set = route(ctx);
    if (set.bad_port >= 0) return false;  // the step reports it
    for (uint64_t t : set.tier) candidates |= t;
  }
  const int32_t outs = info.degree() * vcs_;
  if (outs < 64) candidates &= (uint64_t{1} << outs) - 1;
  const uint16_t need = static_cast<uint16_t>(allocationCredits(v.len));
  const size_t before = targets.size();
  for (uint64_t m = candidates; m != 0; m &= m - 1) {
    const int b = __builtin_ctzll(m);
    const int32_t o = bit_port_[b];
    const uint16_t e = out_vc_[ob + b];
    if (e < kOwned) {
      if (e >= need) return false;  // free now: it will be taken
      if (!full(o, b, e)) return false;
      continue;
    }
    // Owned: by the local VC whose front packet holds it until its tail leaves.
    uint32_t owner = kNone;
    for (int32_t l = 0; l < localVcs(r); ++l) {
      const InputVc& u = vc(info.vc_begin + l);
      if (u.state == VcState::kActive && u.out_port == o && u.out_ovc == b) {
        owner = static_cast<uint32_t>(info.vc_begin + l);
        break;
      }
    }
    // An empty owner is receiving the rest of its packet: it can move.
    if (owner == kNone || vc(owner).count == 0) return false;
    targets.push_back(owner);
  }
  return targets.size() > before;
}

bool Network::findDeadlock(RouteFn route, int64_t c, const PacketStore& store,
                           std::vector<uint32_t>& cycle) const {
  const uint32_t now = static_cast<uint32_t>(c);
  const size_t n = vc_count_;
  // What each blocked VC waits for, as adjacency lists in one array.
  std::vector<uint32_t> start(n + 1, 0);
  std::vector<uint32_t> targets;
  std::vector<uint8_t> live(n, 1);
  for (int32_t r = 0; r < routers_; ++r) {
    const Router& info = router_[r];
    for (int32_t l = 0; l < localVcs(r); ++l) {
      const uint32_t gv = static_cast<uint32_t>(info.vc_begin + l);
      start[gv] = static_cast<uint32_t>(targets.size());
      if (vc(gv).count > 0 && waitsFor(r, gv, now, route, store, targets)) live[gv] = 0;
    }
  }
  start[n] = static_cast<uint32_t>(targets.size());
  // Liveness flows backwards along the waits: whoever waits for a live VC is live.
  std::vector<uint32_t> waiters_start(n + 1, 0);
  for (uint32_t t : targets) ++waiters_start[t + 1];
  for (size_t i = 0; i < n; ++i) waiters_start[i + 1] += waiters_start[i];
  std::vector<uint32_t> waiters(targets.size());
  {
    std::vector<uint32_t> fill(waiters_start.begin(), waiters_start.end() - 1);
    for (uint32_t gv = 0; gv < n; ++gv) {
      for (uint32_t i = start[gv]; i < start[gv + 1]; ++i) waiters[fill[targets[i]]++] = gv;
    }
  }
  std::vector<uint32_t> work;
  for (uint32_t gv = 0; gv < n; ++gv) {
    if (live[gv] && waiters_start[gv + 1] > waiters_start[gv]) work.push_back(gv);
  }
  while (!work.empty()) {
    const uint32_t x = work.back();
    work.pop_back();
    for (uint32_t i = waiters_start[x]; i < waiters_start[x + 1]; ++i) {
      const uint32_t w = waiters[i];
      if (!live[w]) {
        live[w] = 1;
        work.push_back(w);
      }
    }
  }
  // A dead VC waits only for dead ones: follow the first from a dead header until it repeats.
  uint32_t from = kNone;
  for (uint32_t gv = 0; gv < n && from == kNone; ++gv) {
    if (!live[gv] && vc(gv).sent == 0) from = gv;
  }
  for (uint32_t gv = 0; gv < n && from == kNone; ++gv) {
    if (!live[gv]) from = gv;
  }
  if (from == kNone) return false;
  std::vector<uint32_t> order(n, kNone);
  std::vector<uint32_t> path;
  uint32_t x = from;
  while (order[x] == kNone) {
    order[x] = static_cast<uint32_t>(path.size());
    path.push_back(x);
    x = targets[start[x]];
  }
  cycle.assign(path.begin() + order[x], path.end());
  return true;
}

int64_t Network::progressPendingUntil(int64_t c) const {
  int64_t until = wheel_.lastArrivalAfter(c);
  const uint32_t now = static_cast<uint32_t>(c);
  for (uint32_t gv = 0; gv < vc_count_; ++gv) {
    const InputVc& v = vc(gv);
    if (v.count == 0) continue;
    // A header in its delay moves on when the delay ends, at its router's next clock; one not
    // yet looked at (its router has had no clock since it arrived) at that clock.
    if (v.state == VcState::kRouting) {
      until = std::max<int64_t>(until, c + std::max(1, static_cast<int32_t>(v.ready - now)));
    } else if (v.state == VcState::kIdle) {
      until = std::max(until, c + 1);
    }
  }
  return until;
}

int Network::dropCycle(const std::vector<uint32_t>& cycle, int64_t c, PacketStore& store,
                       CycleLog& log) {
  // Only at a header: a worm cut in the middle would leave its front part waiting forever
  // for a tail. Its flits behind are discarded as they come (kDiscard).
  int dropped = 0;
  for (uint32_t gv : cycle) {
    const InputVc& v = vc(gv);
    if (v.sent != 0 || (v.state != VcState::kVcAlloc && v.state != VcState::kActive)) continue;
    dropFront(routerOfVc(gv), gv, c, store, log);
    ++dropped;
  }
  return dropped;
}

std::string Network::vcName(uint32_t gv) const {
  const int32_t r = routerOfVc(gv);
  const InputVc& v = vc(gv);
  if (v.port >= router_[r].degree()) {
    // An injection VC: "pe" with one endpoint at the router, else "pe" and the endpoint's
    // number among the router's.
    if (endpoints_.at(r) == 1) return fmt::format("n{}:pe vc{}", r, v.index);
    return fmt::format("n{}:pe{} vc{}", r, v.port - router_[r].degree(), v.index);
  }
  // Name the channel by its sending end, as the static check does.
  const int32_t up_ovc = ports_[router_[r].portBegin() + v.port].up_ovc;
  // The sending router: the last one whose output VCs start at or before up_ovc.
  int32_t up = 0;
  for (int32_t hi = routers_; hi - up > 1;) {
    const int32_t mid = up + (hi - up) / 2;
    (ovcBegin(router_[mid]) <= up_ovc ? up : hi) = mid;
  }
  const int32_t port = (up_ovc - ovcBegin(router_[up])) / vcs_;
  return fmt::format("{} vc{}", channelName(up, port), v.index);
}

std::string Network::channelName(int32_t r, int32_t port) const {
  const int32_t code = out_code_[router_[r].portBegin() + port];
  if (code < 0) return fmt::format("n{}:p{}", r, port);
  const int32_t dim = code >> 1;
  const std::string name = dim < static_cast<int32_t>(dim_names_.size())
                               ? dim_names_[dim]
                               : (dim < 3 ? std::string(1, "xyz"[dim]) : fmt::format("d{}", dim));
  return fmt::format("n{}:{}{}", r, name, (code & 1) ? "+" : "-");
}

}  // namespace ndl::rt
