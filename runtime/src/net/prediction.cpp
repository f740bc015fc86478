// The predictive step of a router with a predictor (docs/prediction.md): a header reaching the
// front of its VC is predicted, and takes the PredictivePath when the prediction is among the
// routing's candidates; a header leaving by its output port queues its port's OnForward
// update, which lands PredictorLatency clocks later. Out of line: a network without a
// predictor only tests that it has none.
#include "ndl/runtime/net/network.h"

namespace ndl::rt {

void Network::predictHead(int32_t r, uint32_t gv, InputVc& v, uint32_t since, uint32_t now,
                          const Packet& p) {
  Prediction& pr = *predict_;
  const int32_t deg = router_[r].degree();
  const int kind = v.port >= deg ? 1 : 0;
  ++pr.counters.heads[kind];
  // One predictor per router: one prediction per router clock. Of the heads routed in the same
  // clock, the first in round robin from the VC after the one served at the previous
  // prediction is served; the router step meets them in VC order, so a later one may take the
  // predictor from an earlier one, whose prediction is then undone. That one has not moved
  // yet unless a delay of 0 let it on at once; then it keeps the predictor.
  Prediction::Served& s = pr.served[r];
  const auto local = static_cast<uint8_t>(gv - static_cast<uint32_t>(router_[r].vc_begin));
  if (s.clock == now + 1) {
    const auto order = [&](uint8_t l) { return (l - s.next) & (kMaxLocalVcs - 1); };
    InputVc& held = vc(s.gv);
    const bool movable = held.state == VcState::kRouting;
    if (order(local) > order(s.local) || !movable) {
      ++pr.counters.busy[kind];
      return;
    }
    ++pr.counters.busy[s.kind];
    if (s.outcome >= 1) --pr.counters.predictions[s.kind];
    if (s.outcome == 2) {
      --pr.counters.hits[s.kind];
      held.ready = s.since + static_cast<uint32_t>(header_delay_);
      held.flags &= static_cast<uint8_t>(~InputVc::kPredicted);
    }
  } else {
    if (s.clock != 0) s.next = static_cast<uint8_t>((s.local + 1) & (kMaxLocalVcs - 1));
    s.clock = now + 1;
  }
  s.gv = gv;
  s.since = since;
  s.local = local;
  s.kind = static_cast<uint8_t>(kind);
  s.outcome = 0;
  const int32_t pb = router_[r].portBegin();
  const RouteContext ctx{&topo_, r,       p.src,   p.dst,  v.port, v.index,
                         vcs_,   v.cls,   in_code_[pb + v.port], 0, p.header};
  const int64_t code = pr.predict(ctx, pr.rings, pb + v.port);
  if (code == -1) return;
  ++pr.counters.predictions[kind];
  s.outcome = 1;
  bool hit = false;
  if (p.dst == r) {
    hit = code == kEjectionCode;
  } else if (code >= 0) {
    // The hint-bit check: the predicted port among the routing's candidates for this header.
    const RouteSet set = pr.route(ctx);
    uint64_t any = 0;
    for (int t = 0; t < kRouteTiers; ++t) any |= set.tier[t];
    for (int32_t o = 0; o < deg; ++o) {
      if (out_code_[pb + o] != code) continue;
      const uint64_t port_bits = (vcs_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << vcs_) - 1)
                                 << (o * vcs_);
      hit = (any & port_bits) != 0;
      break;
    }
  }
  if (!hit) return;
  ++pr.counters.hits[kind];
  s.outcome = 2;
  v.ready = since + static_cast<uint32_t>(pr.header_delay);
  // A header that ejects here needs no output VC, so it has no reservation to lose.
  if (p.dst != r) v.flags |= InputVc::kPredicted;
}

// The tentative reservation failed: a normal request took the output VC in the same clock, or
// none was free. The header goes on as if it had not been predicted, due when the normal
// pipeline's RC, VA and SA would have ended, and then asks at the normal priority.
void Network::lostReservation(int32_t r, InputVc& v) {
  Prediction& pr = *predict_;
  ++pr.counters.lost[v.port >= router_[r].degree() ? 1 : 0];
  v.ready += static_cast<uint32_t>(header_delay_ - pr.header_delay);
  v.state = VcState::kRouting;
  v.out_port = 0xff;  // not an ejection: kRouting then moves it to kVcAlloc
  v.flags &= static_cast<uint8_t>(~(InputVc::kPredicted | InputVc::kBlocked));
}

void Network::forwarded(int32_t r, uint32_t gv, const InputVc& v, int32_t out_code, int64_t c,
                        const PacketStore& store) {
  Prediction& pr = *predict_;
  const Packet& p = store.packets[frontPacket(gv)];
  const int32_t pb = router_[r].portBegin();
  const PendingUpdate u{c + pr.latency,
                        r,
                        p.src,
                        p.dst,
                        pb + v.port,
                        in_code_[pb + v.port],
                        static_cast<int16_t>(v.cls),
                        static_cast<int16_t>(out_code),
                        v.port,
                        static_cast<uint8_t>(v.port >= router_[r].degree())};
  if (pr.latency == 0) {
    applyUpdate(u);
    return;
  }
  if (pr.pending_count == pr.pending.size()) {
    // Grow the ring buffer, keeping its order (rare: the queue holds a latency's updates).
    std::vector<PendingUpdate> bigger(std::max<size_t>(64, pr.pending.size() * 2));
    for (size_t i = 0; i < pr.pending_count; ++i)
      bigger[i] = pr.pending[(pr.pending_head + i) & (pr.pending.size() - 1)];
    pr.pending = std::move(bigger);
    pr.pending_head = 0;
  }
  pr.pending[(pr.pending_head + pr.pending_count) & (pr.pending.size() - 1)] = u;
  ++pr.pending_count;
}

void Network::applyUpdates(int64_t c) {
  Prediction& pr = *predict_;
  while (pr.pending_count > 0) {
    const PendingUpdate& u = pr.pending[pr.pending_head];
    if (u.due > c) break;
    applyUpdate(u);
    pr.pending_head = (pr.pending_head + 1) & (pr.pending.size() - 1);
    --pr.pending_count;
  }
}

void Network::applyUpdate(const PendingUpdate& u) {
  const RouteContext ctx{&topo_, u.router, u.src, u.dst, u.in_port, 0,
                         vcs_,   u.in_class, u.arrived, 0, 0};
  predict_->forward(ctx, predict_->rings, u.port, u.out_code);
}

}  // namespace ndl::rt
