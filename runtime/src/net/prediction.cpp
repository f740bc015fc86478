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
  // A copy is no packet's hop: the rates are over the packets' own.
  const bool copy = p.mispredicted != 0;
  if (!copy) ++pr.counters.heads[kind];
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
      // Not predicted: RC runs, and finds a copy off its packet's path.
      if (copy) {
        discardCopy(v);
      } else {
        ++pr.counters.busy[kind];
      }
      return;
    }
    if (s.outcome == 4) {
      discardCopy(held);  // the copy loses the predictor: RC finds it
    } else {
      ++pr.counters.busy[s.kind];
      if (s.outcome >= 1) --pr.counters.predictions[s.kind];
      if (s.outcome == 2) --pr.counters.hits[s.kind];
      if (s.outcome >= 2) {
        held.ready = s.since + static_cast<uint32_t>(header_delay_);
        held.flags &= static_cast<uint8_t>(~(InputVc::kPredicted | InputVc::kToPredicted));
        held.out_port = s.restore;
      }
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
  s.restore = v.out_port;
  const int32_t pb = router_[r].portBegin();
  const RouteContext ctx{&topo_, r,       p.src,   p.dst,  v.port, v.index,
                         vcs_,   v.cls,   in_code_[pb + v.port], 0, p.header};
  const int64_t code = pr.predict(ctx, pr.rings, pb + v.port);
  int32_t predicted = -1;  // the predicted network port, if this router has it
  for (int32_t o = 0; code >= 0 && o < deg; ++o) {
    if (out_code_[pb + o] == code) {
      predicted = o;
      break;
    }
  }
  if (copy) {
    // A copy goes where it is predicted to, the router not knowing it is one; where no port
    // is predicted (a detection port), RC runs and finds it. A predicted ejection is found
    // by the interface, which takes no flit of it.
    if (predicted < 0) {
      discardCopy(v);
      return;
    }
    toPredicted(v, since, predicted);
    v.flags |= InputVc::kCopy;
    s.outcome = 4;
    return;
  }
  if (code == -1) return;
  ++pr.counters.predictions[kind];
  s.outcome = 1;
  bool hit = false;
  if (ejectsAt(p, r, v.port, deg)) {
    hit = code == kEjectionCode;
  } else if (predicted >= 0) {
    // The hint-bit check: the predicted port among the routing's candidates for this header.
    const RouteSet set = pr.route(ctx);
    uint64_t any = 0;
    for (int t = 0; t < kRouteTiers; ++t) any |= set.tier[t];
    const uint64_t port_bits = (vcs_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << vcs_) - 1)
                               << (predicted * vcs_);
    hit = (any & port_bits) != 0;
  }
  if (!hit) {
    // Without hint bits the miss is known only after RC: the packet's first flits have
    // left by the predicted port, so a copy of it goes there first (a predicted ejection
    // that is wrong costs nothing: the interface refuses it).
    if (pr.check_none && predicted >= 0) {
      toPredicted(v, since, predicted);
      s.outcome = 3;
    }
    return;
  }
  ++pr.counters.hits[kind];
  s.outcome = 2;
  v.ready = since + static_cast<uint32_t>(pr.header_delay);
  // A header that ejects here needs no output VC, so it has no reservation to lose.
  if (p.dst != r) v.flags |= InputVc::kPredicted;
}

// Without hint bits: the head asks, on the predictive path and at the lowest priority, for
// any free VC of the predicted port.
void Network::toPredicted(InputVc& v, uint32_t since, int32_t port) {
  v.ready = since + static_cast<uint32_t>(predict_->header_delay);
  v.flags |= InputVc::kPredicted | InputVc::kToPredicted;
  v.spare = static_cast<uint8_t>(port);
  v.out_port = 0xff;
}

// A copy at a port that did not predict for it: RC finds it off its packet's path, and its
// flits are thrown away as they come.
void Network::discardCopy(InputVc& v) {
  v.state = VcState::kDiscard;
  v.flags &= static_cast<uint8_t>(~(InputVc::kPredicted | InputVc::kToPredicted));
  ++predict_->counters.found;
  predict_->counters.discarded_flits += v.len;  // the front packet's, set as it reached the front
}

// The tentative reservation failed: a normal request took the output VC in the same clock, or
// none was free. The header goes on as if it had not been predicted, due when the normal
// pipeline's RC, VA and SA would have ended, and then asks at the normal priority. A copy has
// no other way: it asks again for the predicted port, now at the normal priority.
void Network::lostReservation(int32_t r, uint32_t gv, InputVc& v, const PacketStore& store) {
  Prediction& pr = *predict_;
  if (v.flags & InputVc::kCopy) {
    v.flags &= static_cast<uint8_t>(~InputVc::kPredicted);
    return;
  }
  const int32_t deg = router_[r].degree();
  // A miss (kToPredicted) had no reservation of a correct port to lose.
  if (!(v.flags & InputVc::kToPredicted)) ++pr.counters.lost[v.port >= deg ? 1 : 0];
  v.ready += static_cast<uint32_t>(header_delay_ - pr.header_delay);
  v.state = VcState::kRouting;
  const Packet& p = store.packets[frontPacket(gv)];
  // kRouting then moves it to kVcAlloc, or to its ejection
  v.out_port = ejectsAt(p, r, v.port, deg) ? static_cast<uint8_t>(deg + p.dst_local) : uint8_t{0xff};
  v.flags &= static_cast<uint8_t>(
      ~(InputVc::kPredicted | InputVc::kBlocked | InputVc::kToPredicted));
}

bool Network::predictedRequest(uint32_t gv, const InputVc& v, const RouterFrame& f,
                               const PacketStore& store, int& o, uint64_t& want, int& first,
                               uint64_t& header) const {
  o = v.spare;
  const int32_t base = f.ob + o * vcs_;
  const uint16_t need = static_cast<uint16_t>(allocationCredits(v.len));
  uint64_t free = 0;
  for (int k = 0; k < vcs_; ++k) {
    // Not a token class: the recovery token is the routing's, and a copy is not routed.
    if ((token_vc_ >> k) & 1) continue;
    const uint16_t e = out_vc_[base + k];
    free |= static_cast<uint64_t>(e < kOwned && e >= need) << k;
  }
  if (free == 0) return false;
  want = free << (o * vcs_);
  first = __builtin_ctzll(free);
  header = store.packets[frontPacket(gv)].header;
  return true;
}

// A grant on the predicted port. A copy simply goes. A packet whose prediction missed sends
// its copy first, from its buffer, and then goes on at the normal pipeline's due clock.
void Network::startPredictedMove(int32_t r, uint32_t gv, InputVc& v, PacketStore& store) {
  Prediction& pr = *predict_;
  v.flags &= static_cast<uint8_t>(~InputVc::kToPredicted);
  if (v.flags & InputVc::kCopy) return;
  v.flags |= InputVc::kCopyPass;
  const Packet original = store.packets[frontPacket(gv)];  // allocate() may move the pool
  const uint32_t id = store.packets.allocate();
  Packet& copy = store.packets[id];
  copy = original;
  copy.mispredicted = 1;
  copy.hops = 0;
  copy.collisions = 0;
  pr.copy_of[gv] = id;
  const int32_t deg = router_[r].degree();
  ++pr.counters.mispredicted[v.port >= deg ? 1 : 0];
  v.ready += static_cast<uint32_t>(header_delay_ - pr.header_delay);
  v.spare = ejectsAt(original, r, v.port, deg) ? static_cast<uint8_t>(deg + original.dst_local)
                                                : uint8_t{0xff};
}

// A flit of the copy: it crosses the link as any flit does, but stays in the buffer, and no
// credit goes back. After the copy's tail the packet itself is routed again.
void Network::moveCopyFlit(int32_t r, uint32_t gv, int l, const RouterFrame& f, int64_t c,
                           CycleLog& log) {
  InputVc& v = vc(gv);
  const bool tail = ++v.sent == v.len;
  const int32_t gov = f.ob + v.out_ovc;
  --out_vc_[gov];
  const Port& port = ports_[f.pb + v.out_port];
  const FlitEvent sent{static_cast<uint32_t>(port.down_base + v.out_ovc), predict_->copy_of[gv],
                       port.down_router};
  if (link_delay_ > 0) {
    EventWheel::append(*flit_bucket_, sent);
  } else {
    EventWheel::append(wheel_.flitsAt(c + port.link_delay + flit_pipe_), sent);
  }
  ++log.flit_hops;
  ++port_flits_[f.pb + v.out_port];  // a copy loads the channel as a packet does
  ++flits_in_network_;
  if (tail) {
    out_vc_[gov] &= static_cast<uint16_t>(~kOwned);
    router_[r].owning &= ~(uint64_t{1} << l);
    predict_->copy_of[gv] = kNone;
    v.sent = 0;
    v.flags &= static_cast<uint8_t>(~(InputVc::kCopyPass | InputVc::kPredicted));
    v.out_port = v.spare;  // its ejection here, or 0xff: routed at the normal pipeline's clock
    v.state = VcState::kRouting;
  }
}

void Network::forwarded(int32_t r, uint32_t gv, const InputVc& v, int32_t out_code, int64_t c,
                        const PacketStore& store) {
  // The history keeps the port the packet itself leaves by, not its copy's.
  if (v.flags & InputVc::kCopyPass) return;
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
