// Closed-loop pattern programs against the simulated network.
#include "ndl/runtime/app/application.h"

#include <algorithm>
#include <cmath>

namespace ndl::rt {

Application::Application(std::shared_ptr<const PatternProgram> program, double cycle_ps,
                         double expand_rate, const InterfaceTiming& interface)
    : program_(std::move(program)),
      cursors_(*program_),
      clock_ps_(cycle_ps * (1.0 + expand_rate)),
      expand_rate_(expand_rate),
      iface_(interface),
      exact_(interface.present()),
      period_(exact_ ? interface.network_period_ps : 1),
      send_cost_(interface.overhead_ps + interface.host_write_ps),
      nodes_(program_->nodes),
      state_(static_cast<size_t>(program_->nodes)),
      table_(1024) {
  if (exact_) {
    send_free_.assign(static_cast<size_t>(nodes_) * iface_.send.size(), 0);
    receive_free_.assign(static_cast<size_t>(nodes_) * iface_.receive.size(), 0);
    if (!iface_.send.empty()) last_send_domain_ = iface_.send.back().domain;
  }
  std::vector<Wake> all;
  all.reserve(static_cast<size_t>(nodes_));
  for (int32_t n = 0; n < nodes_; ++n) all.push_back({0, n});
  wakes_ = decltype(wakes_)(std::greater<Wake>(), std::move(all));
}

// A compute gap in whole clocks, rounded up: a gap that is not a whole number of clocks ends
// at the next clock edge (a value within 1e-9 of a whole number is that number, so that
// 10usec at 50MHz stays 500 clocks).
// With an interface the gap stays picoseconds (a speed-up rounds to the nearest).
int64_t Application::computeTime(int64_t ps) const {
  if (exact_) {
    if (expand_rate_ == 0) return ps;
    return std::llround(static_cast<double>(ps) / (1.0 + expand_rate_));
  }
  const double x = static_cast<double>(ps) / clock_ps_;
  const double r = std::round(x);
  if (std::fabs(x - r) <= 1e-9 * std::max(1.0, x)) return static_cast<int64_t>(r);
  return static_cast<int64_t>(std::ceil(x));
}

void Application::advanceDue(int64_t c) {
  sends_.clear();
  if (!exact_) {
    while (!wakes_.empty() && wakes_.top().time <= c) {
      const int32_t n = wakes_.top().node;
      wakes_.pop();
      advance(n, c);
    }
    return;
  }
  // Every time up to this clock's edge, in time order: a message that reaches a host at the
  // same time as its program goes on is there first.
  const int64_t edge = c * period_;
  for (;;) {
    const bool event = !events_.empty() && events_.top().time <= edge;
    const bool wake = !wakes_.empty() && wakes_.top().time <= edge;
    if (event && (!wake || events_.top().time <= wakes_.top().time)) {
      const Event e = events_.top();
      events_.pop();
      handle(e);
    } else if (wake) {
      const Wake w = wakes_.top();
      wakes_.pop();
      advance(w.node, w.time);
    } else {
      break;
    }
  }
  while (!injections_.empty() && injections_.top().clock <= c) {
    sends_.push_back(injections_.top().send);
    injections_.pop();
  }
}

void Application::issue(const AppSend& m, int64_t t) {
  if (!exact_) {
    sends_.push_back(m);
    return;
  }
  events_.push({t, seq_++, m, 0, -1, EventKind::kEnterSend});
}

void Application::handle(const Event& e) {
  const AppSend& m = e.msg;
  switch (e.kind) {
    case EventKind::kEnterSend: {
      const size_t n = static_cast<size_t>(m.src);
      const int64_t out = passStages(iface_.send, send_free_.data() + n * iface_.send.size(),
                                     e.time, -1, iface_.synchronizer_clocks);
      if (m.dst == m.src && !iface_.external_loop) {  // the internal loop: send path to receive path
        events_.push({out, seq_++, m, 0, last_send_domain_, EventKind::kEnterReceive});
      } else {
        injections_.push({nextEdge(out, period_) / period_, seq_++, m});
      }
      return;
    }
    case EventKind::kEnterReceive: {
      const size_t n = static_cast<size_t>(m.dst);
      const int64_t back =
          passStages(iface_.receive, receive_free_.data() + n * iface_.receive.size(), e.time,
                     e.from, iface_.synchronizer_clocks);
      events_.push({back, seq_++, m, 0, 0, EventKind::kArrive});
      return;
    }
    case EventKind::kArrive:
      arrive(m.dst, m.src, m.tag, e.time);
      return;
    case EventKind::kComplete: {
      std::vector<Posted::Post>& posts = posted_[m.dst].posts;
      for (size_t i = 0; i < posts.size(); ++i) {
        if (posts[i].matched && posts[i].name == e.name) {
          completePost(m.dst, i, e.time);
          return;
        }
      }
      return;
    }
  }
}

void Application::advance(int32_t n, int64_t t) {
  NodeState& s = state_[n];
  if (s.pending != 0 || posted_.count(n) != 0) flushDeferred(n, t);
  if (s.finish >= 0 || s.busy_until > t || s.hold_until > t || s.wait_src >= 0)
    return;  // an early wake
  if (s.wait_names != 0) {
    if ((s.wait_names & s.pending) != 0) return;
    s.waiting += t - s.wait_since;
    s.wait_names = 0;
    if (s.at_end) {
      s.finish = t;
      ++finished_;
      return;
    }
    Posted& x = posted_[n];
    if (x.holding) {
      x.holding = false;
      post(n, x.held, t);
    }
  }
  for (;;) {
    const PatternStep step = cursors_.next(n);
    switch (step.kind) {
      case PatternStep::kDone:
        if (s.pending != 0) {  // the program ends once its posted receives completed
          s.wait_names = s.pending;
          s.wait_since = t;
          s.at_end = true;
          return;
        }
        s.finish = t;
        ++finished_;
        return;
      case PatternStep::kCompute: {
        const int64_t k = computeTime(step.value);
        if (k == 0) continue;
        s.compute += k;
        s.busy_until = t + k;
        wakes_.push({t + k, n});
        return;
      }
      case PatternStep::kSend: {
        const AppSend m{n, step.peer, step.value, step.tag};
        if ((step.names & s.pending) != 0) {
          // It goes once those receives completed; the host's costs are paid now.
          Posted& x = posted_[n];
          x.deferred.add({step.names & s.pending, x.seq++, m, t + send_cost_}, step.names,
                         x.posts);
        } else {
          issue(m, t + send_cost_);
          ++in_flight_;
          ++sent_;
        }
        if (send_cost_ == 0) continue;
        s.hold_until = t + send_cost_;
        wakes_.push({s.hold_until, n});
        return;
      }
      case PatternStep::kMark:
        mark(n, static_cast<uint32_t>(step.value), step.op, t);
        continue;
      case PatternStep::kWait:
        if ((step.names & s.pending) == 0) continue;
        s.wait_names = step.names;
        s.wait_since = t;
        return;
      case PatternStep::kRecv:
        if (step.value != 0) {
          const Posted::Post p{step.peer, step.tag, static_cast<uint32_t>(step.value - 1),
                               step.op, {}};
          if ((s.pending >> p.name & 1) != 0) {  // posted again: first the previous one
            Posted& x = posted_[n];
            x.held = p;
            x.holding = true;
            s.wait_names = uint64_t{1} << p.name;
            s.wait_since = t;
            return;
          }
          post(n, p, t);
          continue;
        }
        if (takeArrived(n, step.peer, step.tag)) {
          const int64_t done = detect(t);  // the message is here: the next poll sees it
          if (done == t) continue;
          s.waiting += done - t;
          s.hold_until = s.read_until = done;
          wakes_.push({done, n});
          return;
        }
        s.wait_since = t;
        s.wait_src = step.peer;
        s.wait_tag = step.tag;
        s.wait_op = step.op;
        return;
    }
  }
}

void Application::post(int32_t n, Posted::Post p, int64_t t) {
  p.at = t;
  if (takeArrived(n, p.src, p.tag)) {  // the message is here: complete once it is read
    const int64_t done = detect(t);
    if (done == t) return;
    p.matched = true;
    events_.push({done, seq_++, {p.src, n, 0, p.tag}, p.name, 0, EventKind::kComplete});
  }
  state_[n].pending |= uint64_t{1} << p.name;
  posted_[n].posts.push_back(std::move(p));
}

void Application::flushDeferred(int32_t n, int64_t t) {
  auto it = posted_.find(n);
  if (it == posted_.end() || it->second.ready.empty()) return;
  Posted& x = it->second;
  // Sends released in one clock go in program order.
  std::sort(x.ready.begin(), x.ready.end(),
            [&](uint32_t a, uint32_t b) { return x.deferred[a].seq < x.deferred[b].seq; });
  for (uint32_t slot : x.ready) {
    // Not before the host has written it (the write began as the program passed the line).
    issue(x.deferred[slot].send, std::max(t, x.deferred[slot].written));
    ++in_flight_;
    ++sent_;
    x.deferred.release(slot);
  }
  x.ready.clear();
}

void Application::mark(int32_t n, uint32_t label, uint32_t op, int64_t c) {  // c: its time
  const uint64_t key = uint64_t{label} << 32 | static_cast<uint32_t>(n);
  auto [it, added] = mark_index_.try_emplace(key, marks_.size());
  if (added) {
    ApplicationResult::Mark m;
    m.label = program_->labels[label];
    m.node = n;
    m.line = program_->sites[op].line;
    marks_.push_back(std::move(m));
  }
  ApplicationResult::Mark& m = marks_[it->second];
  if (m.count > 0) {
    const int64_t gap = c - m.last_clock;
    m.interval_min = m.count == 1 ? gap : std::min(m.interval_min, gap);
    m.interval_max = std::max(m.interval_max, gap);
    m.interval_sum += gap;
  }
  ++m.count;
  m.last_clock = c;
  if (mark_clocks_ < ApplicationResult::kMarkClocks) {
    m.clocks.push_back(c);
    ++mark_clocks_;
  } else {
    m.truncated = true;
  }
}

void Application::onDelivered(int32_t dst, int32_t src, uint64_t tag, int64_t c) {
  if (!exact_) {
    arrive(dst, src, tag, c + 1);  // seen as the next clock begins
    return;
  }
  // At the interface as the next clock begins, then through the receive path.
  events_.push({(c + 1) * period_, seq_++, {src, dst, 0, tag}, 0, 0, EventKind::kEnterReceive});
}

void Application::arrive(int32_t dst, int32_t src, uint64_t tag, int64_t t) {
  --in_flight_;
  ++delivered_;
  last_arrival_end_ = std::max(last_arrival_end_, t);
  NodeState& s = state_[dst];
  // Posted receives take their messages first, in the order they were posted; the program
  // sees the completion (and its sends waiting for it go) once the host has read it (without
  // an interface, in the next clock).
  if (s.pending != 0) {
    std::vector<Posted::Post>& posts = posted_[dst].posts;
    for (size_t i = 0; i < posts.size(); ++i) {
      Posted::Post& p = posts[i];
      if (p.matched || p.src != src || p.tag != tag) continue;
      const int64_t done = detect(std::max(t, p.at));
      if (done == t) {
        completePost(dst, i, t);
      } else {
        p.matched = true;
        events_.push({done, seq_++, {src, dst, 0, tag}, p.name, 0, EventKind::kComplete});
      }
      return;
    }
  }
  if (s.wait_src == src && s.wait_tag == tag) {
    const int64_t done = detect(std::max(t, s.wait_since));
    s.waiting += done - s.wait_since;
    s.wait_src = -1;
    s.hold_until = s.read_until = done;  // no other wake goes on before the read has ended
    wakes_.push({done, dst});
    return;
  }
  addArrived(dst, src, tag);
}

void Application::completePost(int32_t n, size_t i, int64_t t) {
  Posted& x = posted_[n];
  const uint64_t bit = uint64_t{1} << x.posts[i].name;
  state_[n].pending &= ~bit;
  for (uint32_t slot : x.posts[i].waiters) {
    if ((x.deferred[slot].names &= ~bit) == 0) x.ready.push_back(slot);
  }
  x.posts.erase(x.posts.begin() + static_cast<std::ptrdiff_t>(i));
  wakes_.push({t, n});
}

size_t Application::slot(int32_t dst, int32_t src, uint64_t tag) const {
  uint64_t h = (static_cast<uint64_t>(static_cast<uint32_t>(dst)) << 32) ^
               static_cast<uint32_t>(src);
  h ^= tag * 0x9e3779b97f4a7c15ULL;
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ULL;
  return static_cast<size_t>(h >> 17) & (table_.size() - 1);
}

void Application::addArrived(int32_t dst, int32_t src, uint64_t tag) {
  if (2 * (table_used_ + 1) > table_.size()) {
    std::vector<Arrived> old(table_.size() * 2);
    old.swap(table_);
    table_used_ = 0;
    for (const Arrived& a : old) {
      if (a.dst < 0) continue;
      size_t i = slot(a.dst, a.src, a.tag);
      while (table_[i].dst >= 0) i = (i + 1) & (table_.size() - 1);
      table_[i] = a;
      ++table_used_;
    }
  }
  size_t i = slot(dst, src, tag);
  while (table_[i].dst >= 0) {
    Arrived& a = table_[i];
    if (a.dst == dst && a.src == src && a.tag == tag) {
      ++a.count;
      return;
    }
    i = (i + 1) & (table_.size() - 1);
  }
  table_[i] = Arrived{dst, src, tag, 1};
  ++table_used_;
}

bool Application::takeArrived(int32_t dst, int32_t src, uint64_t tag) {
  const size_t mask = table_.size() - 1;
  size_t i = slot(dst, src, tag);
  while (table_[i].dst >= 0) {
    Arrived& a = table_[i];
    if (a.dst == dst && a.src == src && a.tag == tag) {
      if (--a.count > 0) return true;
      // Backward-shift deletion keeps every probe chain unbroken.
      size_t hole = i;
      for (size_t j = (i + 1) & mask; table_[j].dst >= 0; j = (j + 1) & mask) {
        const size_t home = slot(table_[j].dst, table_[j].src, table_[j].tag);
        if (((j - home) & mask) >= ((j - hole) & mask)) {
          table_[hole] = table_[j];
          hole = j;
        }
      }
      table_[hole] = Arrived{};
      --table_used_;
      return true;
    }
    i = (i + 1) & mask;
  }
  return false;
}

void Application::report(ApplicationResult& out, int64_t end_clock) const {
  const int64_t end_time = end_clock * period_;  // where the run stopped, in the time unit
  out.present = true;
  out.period_ps = exact_ ? period_ : 0;
  out.pattern_file = program_->path;
  out.complete = complete();
  out.messages_sent = sent_;
  out.messages_delivered = delivered_;
  out.messages_dropped = dropped_;
  int64_t end = last_arrival_end_;
  out.finish_clock.resize(static_cast<size_t>(nodes_));
  out.compute_clocks.resize(static_cast<size_t>(nodes_));
  out.wait_clocks.resize(static_cast<size_t>(nodes_));
  for (int32_t n = 0; n < nodes_; ++n) {
    const NodeState& s = state_[n];
    out.finish_clock[n] = s.finish;
    out.compute_clocks[n] = s.compute - std::max<int64_t>(0, s.busy_until - end_time);
    const bool waits = s.wait_src >= 0 || s.wait_names != 0;
    // A read under way at the end was counted whole: only up to the end.
    out.wait_clocks[n] = s.waiting + (waits ? end_time - s.wait_since : 0) -
                         std::max<int64_t>(0, s.read_until - end_time);
    end = std::max(end, s.finish);
    if (waits) {
      ++out.waiting_nodes;
      if (out.waiting.size() < 64) {
        if (s.wait_src >= 0) {
          out.waiting.push_back({n, s.wait_src, s.wait_tag, program_->sites[s.wait_op].line,
                                 s.wait_since});
        } else {  // the first of its posted receives that it waits for
          for (const Posted::Post& p : posted_.at(n).posts) {
            if ((s.wait_names >> p.name & 1) == 0 || p.matched) continue;
            out.waiting.push_back({n, p.src, p.tag, program_->sites[p.op].line, s.wait_since});
            break;
          }
        }
      }
    }
  }
  out.completion_clock = out.complete ? end : -1;
  out.marks = marks_;
  std::sort(out.marks.begin(), out.marks.end(),
            [](const ApplicationResult::Mark& a, const ApplicationResult::Mark& b) {
              return a.label != b.label ? a.label < b.label : a.node < b.node;
            });
}

}  // namespace ndl::rt
