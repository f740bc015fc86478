// One clock of an input-queued virtual-channel router: a header that reaches the front of
// its VC is routed and waits the header delay; it then competes for an output VC (VC
// allocation) and every VC with a flit and a credit competes for the crossbar (separable
// input-first switch allocation), all with round-robin arbiters. The flow-control rules of
// spec 2.2 decide when a header may route (store-and-forward waits for its tail) and which
// output VC it may take (cut-through and store-and-forward need room for the whole packet).
//
// A template over the routing function so that a constant function (generated code or a
// reference algorithm) inlines into the loop.
#pragma once

#include <string>

#include "ndl/runtime/arbiter.h"
#include "ndl/runtime/flow_control.h"
#include "ndl/runtime/hot.h"
#include "ndl/runtime/network.h"

namespace ndl::rt {

// Wraps a routing function known at compile time so the router step can inline it.
template <RouteFn kFn>
struct StaticRoute {
  RouteResult operator()(const RouteContext& ctx) const { return kFn(ctx); }
};

// Wraps a routing function known only at run time.
struct DynamicRoute {
  RouteFn fn;
  RouteResult operator()(const RouteContext& ctx) const { return fn(ctx); }
};

NDL_HOT void Network::moveFlit(int32_t r, uint32_t gv, int l, const RouterFrame& f, int64_t c,
                              PacketStore& store, CycleLog& log) {
  InputVc& v = ivc_[gv];
  const uint32_t packet = flits_[static_cast<size_t>(gv) * depth_ + v.head];
  v.head = static_cast<uint16_t>((v.head + 1) & depth_mask_);
  if (--v.count == 0) router_[r].nonempty &= ~(uint64_t{1} << l);
  const bool head = v.sent == 0;
  const bool tail = ++v.sent == v.len;
  const int32_t up = ports_[f.pb + v.port].up_ovc;
  if (up >= 0) wheel_.sendCredit(c + credit_delay_, static_cast<uint32_t>(up + v.index), 1);
  log.moved = true;
  const int32_t o = v.out_port;
  if (o == f.deg) {
    --flits_in_network_;
    if (tail) {
      log.arrivals.push_back({r, packet});
      releaseFront(v, c);
    }
    return;
  }
  const int32_t gov = f.ob + o * vcs_ + v.out_vc;
  --out_vc_[gov];  // a credit was there, so the owned bit is untouched
  const Port& port = ports_[f.pb + o];
  wheel_.sendFlit(c + port.link_delay, static_cast<uint32_t>(port.down_vc + v.out_vc), packet,
                  port.down_router);
  ++log.flit_hops;
  if (head) ++store.packets[packet].hops;
  if (tail) {
    out_vc_[gov] &= static_cast<uint16_t>(~kOwned);
    releaseFront(v, c);
  }
}

template <class Route>
NDL_HOT void Network::routeHead(int32_t r, uint32_t gv, InputVc& v, uint32_t since,
                               const Route& route, PacketStore& store) {
  Packet& p = store.packets[frontPacket(gv)];
  const RouteContext ctx{&topo_, r, p.src, p.dst, v.port, v.index, vcs_, deadlock_, &p.header};
  const RouteResult res = route(ctx);
  const int32_t deg = router_[r].degree;
  if (res.port == kEject) {
    v.out_port = static_cast<uint8_t>(deg);
  } else {
    if (res.port < 0 || res.port >= deg || ports_[router_[r].port_begin + res.port].down_vc < 0 ||
        res.vc_hi >= vcs_ || res.vc_lo > res.vc_hi) {
      badRoute(r, res.port);
    }
    v.out_port = static_cast<uint8_t>(res.port);
    v.vc_lo = res.vc_lo;
    v.vc_hi = res.vc_hi;
  }
  v.ready = since + static_cast<uint32_t>(header_delay_);
  v.state = VcState::kRouting;
}

template <class Route>
void Network::stepRouter(int32_t r, int64_t c, const Route& route, PacketStore& store,
                         CycleLog& log) {
  const Router& info = router_[r];
  const uint64_t busy = info.nonempty;
  if (busy == 0) return;
  const uint32_t vb = static_cast<uint32_t>(info.vc_begin);
  const int32_t pb = info.port_begin;
  const int32_t ob = info.ovc_begin;
  const int32_t deg = info.degree;
  const uint32_t now = static_cast<uint32_t>(c);
  const RouterFrame frame{pb, ob, deg};

  uint64_t va_req[kMaxPorts];  // per output port: local VCs asking for an output VC
  uint32_t va_ports = 0;
  uint64_t sa_req[kMaxPorts];  // per input port: local VCs ready to cross the switch
  uint32_t sa_ports = 0;
  uint64_t heads = 0;  // local VCs whose header is ready to leave

  // ---- stage 1: advance each VC's state from what is in the buffers now
  for (uint64_t m = busy; m != 0; m &= m - 1) {
    const int l = __builtin_ctzll(m);
    const uint32_t gv = vb + static_cast<uint32_t>(l);
    InputVc& v = ivc_[gv];
    uint32_t since = now;  // the clock the header's delay starts from
    if (v.state == VcState::kIdle) {
      v.len = store.packets[frontPacket(gv)].len;
      v.sent = 0;
      if (v.flags & InputVc::kQueued) since = v.ready;
      v.flags = 0;
      v.state = VcState::kWaitTail;
    }
    if (v.state == VcState::kWaitTail) {
      // Store-and-forward routes a packet only once all of it is here.
      if (waitsForTail(flow_) && v.count < v.len) continue;
      routeHead(r, gv, v, since, route, store);
    }
    if (v.state == VcState::kRouting) {
      if (static_cast<int32_t>(now - v.ready) < 0) continue;
      v.state = v.out_port == deg ? VcState::kActive : VcState::kVcAlloc;
    }
    if (v.state == VcState::kDiscard) {
      discardFlits(r, gv, c, log);
      continue;
    }
    if (v.sent == 0) heads |= uint64_t{1} << l;
    if (v.state == VcState::kVcAlloc) {
      const uint32_t bit = 1u << v.out_port;
      if (va_ports & bit) {
        va_req[v.out_port] |= uint64_t{1} << l;
      } else {
        va_req[v.out_port] = uint64_t{1} << l;
        va_ports |= bit;
      }
      continue;
    }
    // kActive
    if (v.out_port == deg || (out_vc_[ob + v.out_port * vcs_ + v.out_vc] & kCreditMask) > 0) {
      const uint32_t in = v.port;
      if (sa_ports & (1u << in)) {
        sa_req[in] |= uint64_t{1} << l;
      } else {
        sa_req[in] = uint64_t{1} << l;
        sa_ports |= 1u << in;
      }
    }
  }

  // ---- stage 2: VC allocation, round robin over the requesters of each output port
  for (uint32_t pm = va_ports; pm != 0; pm &= pm - 1) {
    const int o = __builtin_ctz(pm);
    uint64_t req = va_req[o];
    const uint32_t start = ports_[pb + o].va_ptr;
    bool granted = false;
    while (req != 0) {
      const int l = roundRobinPick(req, start);
      req &= ~(uint64_t{1} << l);
      InputVc& v = ivc_[vb + l];
      const int32_t base = ob + o * vcs_;
      for (int32_t k = v.vc_lo; k <= v.vc_hi; ++k) {
        // Not owned: the entry is the credit count itself.
        if (out_vc_[base + k] < kOwned && out_vc_[base + k] >= creditsToAllocate(flow_, v.len)) {
          out_vc_[base + k] |= kOwned;
          v.out_vc = static_cast<uint8_t>(k);
          v.state = VcState::kActive;
          if (!granted) {
            ports_[pb + o].va_ptr = roundRobinNext(l);
            granted = true;
          }
          if ((out_vc_[base + k] & kCreditMask) > 0) {
            const uint32_t in = v.port;
            if (sa_ports & (1u << in)) {
              sa_req[in] |= uint64_t{1} << l;
            } else {
              sa_req[in] = uint64_t{1} << l;
              sa_ports |= 1u << in;
            }
          }
          break;
        }
      }
    }
  }

  // ---- stage 3: switch allocation, input stage then output stage
  if (sa_ports != 0) {
    int chosen[kMaxPorts];
    uint32_t out_req[kMaxPorts];
    uint32_t out_ports = 0;
    for (uint32_t pm = sa_ports; pm != 0; pm &= pm - 1) {
      const int in = __builtin_ctz(pm);
      const int l = roundRobinPick(sa_req[in], ports_[pb + in].sa_in_ptr);
      chosen[in] = l;
      const int o = ivc_[vb + l].out_port;
      if (out_ports & (1u << o)) {
        out_req[o] |= 1u << in;
      } else {
        out_req[o] = 1u << in;
        out_ports |= 1u << o;
      }
    }
    for (uint32_t pm = out_ports; pm != 0; pm &= pm - 1) {
      const int o = __builtin_ctz(pm);
      const int in = roundRobinPick(out_req[o], ports_[pb + o].sa_out_ptr);
      ports_[pb + o].sa_out_ptr = roundRobinNext(in);
      ports_[pb + in].sa_in_ptr = roundRobinNext(chosen[in]);
      moveFlit(r, vb + static_cast<uint32_t>(chosen[in]), chosen[in], frame, c, store, log);
    }
  }

  // ---- stage 4: headers that wanted to leave and could not: collisions, drop timeout
  for (uint64_t m = heads; m != 0; m &= m - 1) {
    const uint32_t gv = vb + static_cast<uint32_t>(__builtin_ctzll(m));
    InputVc& v = ivc_[gv];
    if (v.sent != 0) continue;  // it left
    if (!(v.flags & InputVc::kCollided)) {
      v.flags |= InputVc::kCollided;
      ++collisions_[r];
      ++store.packets[frontPacket(gv)].collisions;
    }
    if (deadlock_ == DeadlockHandling::kDrop &&
        static_cast<int32_t>(now - v.ready) >= drop_timeout_) {
      dropFront(r, gv, c, store, log);
    }
  }
}

}  // namespace ndl::rt
