#include "compiler/sema/Interfaces.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "compiler/support/EditDistance.h"

namespace ndl::sema {
namespace {

using ast::Node;
using ast::NodeKind;

constexpr std::string_view kDomainExample = "(ClockDomain dimm (Period 15nsec))";
constexpr std::string_view kInterfaceExample =
    "(Interface aotf (SendPath send (Stage tlb dimm 3clock) (Stage swif swif 4clock)) "
    "(ReceivePath recv (Stage swif swif 7clock) (Stage llcm dimm 1clock)))";
constexpr std::string_view kStageExample = "(Stage header-tlb dimm 3clock)";
const Rational kPsPerSecond(1000000000000);
// Bounds that keep every sum of the node side's picoseconds inside 64 bits: a period or a
// host cost of at most a second, a stage or synchronizer of at most 2^20 clocks.
constexpr int64_t kMaxPeriodPs = 1000000000000;
constexpr int64_t kMaxClocks = int64_t{1} << 20;

// The forms an interface makes meaningful; without one each would change nothing.
constexpr FormId kHostForms[] = {FormId::HostWriteTime, FormId::HostReadTime,
                                 FormId::SoftwareOverhead, FormId::PollInterval,
                                 FormId::PollPhase};

class InterfaceReader {
 public:
  InterfaceReader(const FormValues& v, Parameters& p, DiagnosticEngine& diags, bool simulation)
      : v_(v), p_(p), diags_(diags), simulation_(simulation) {}

  bool run() {
    const Node* form = v_[FormId::Interface].form;
    if (!form) {
      withoutInterface();
      return ok_;
    }
    InterfaceSpec spec;
    spec.domains.push_back({"network", {}, networkPeriod(*form)});
    for (const Node* d : v_.clockDomains) domain(*d, spec);
    interfaceForm(*form, spec);
    hostCosts(spec);
    if (v_.ok(FormId::Loopback)) {
      spec.externalLoop = v_[FormId::Loopback].enumValue == EnumId::Loopback_External;
      if (v_.given(FormId::Loopback)) spec.loopbackRange = v_[FormId::Loopback].form->children[1].range;
    }
    if (!v_.given(FormId::NetworkFrequency)) {
      fail(DiagKind::MissingForm, form->children[0].range,
           "an Interface times its stages against the network's clock, and this program gives "
           "no NetworkFrequency")
          .withHint("add (NetworkFrequency 125MHz)");
    }
    if (simulation_ && !v_.given(FormId::CommunicationPatternFile)) {
      // An interface stands between a program's send and receive and the network; synthetic
      // sources have no program, so it would change nothing.
      fail(DiagKind::BadInterface, form->children[0].range,
           "an Interface times the sends and receives of node programs, and this program "
           "runs none: it has no CommunicationPatternFile")
          .withHint("add (CommunicationPatternFile \"pingpong.cpf\") (`ndlc pattern pingpong` writes one), "
                    "or remove the Interface to measure the network alone");
    }
    if (ok_) unusedDomains(spec);  // after other errors a domain may only look unused
    if (ok_) p_.interface = std::move(spec);
    return ok_;
  }

 private:
  Diagnostic& fail(DiagKind kind, SourceRange at, std::string message) {
    ok_ = false;
    return diags_.report(kind, at, std::move(message));
  }

  void withoutInterface() {
    for (const Node* d : v_.clockDomains) {
      fail(DiagKind::MissingForm, d->children[0].range,
           "a ClockDomain clocks the stages of an Interface, and this program declares none")
          .withHint(fmt::format("declare the interface whose stages it clocks: {}",
                                kInterfaceExample));
    }
    for (FormId id : kHostForms) {
      if (!v_.given(id)) continue;
      fail(DiagKind::MissingForm, v_[id].form->children[0].range,
           fmt::format("{} is a host cost a send or receive pays through its network interface, "
                       "and this program declares no Interface",
                       formInfo(id).name))
          .withHint(fmt::format("declare one (docs/interfaces.md): {}", kInterfaceExample));
    }
    if (v_.given(FormId::Loopback)) {
      // Without an interface a node cannot send to itself at all (pattern-node).
      fail(DiagKind::MissingForm, v_[FormId::Loopback].form->children[0].range,
           "Loopback says how a node's message to itself passes its network interface, and "
           "this program declares no Interface")
          .withHint(fmt::format("declare one (docs/interfaces.md): {}", kInterfaceExample));
    }
  }

  // The network's clock is a domain too: its period must be whole picoseconds.
  int64_t networkPeriod(const Node& form) {
    if (!v_.ok(FormId::NetworkFrequency) || p_.networkHz.isZero()) return 1;
    std::optional<Rational> ps = kPsPerSecond.div(p_.networkHz);
    if (!ps || !ps->isInteger()) {
      fail(DiagKind::BadInterface, v_[FormId::NetworkFrequency].form->range,
           fmt::format("with an Interface the network's clock is a clock domain, and {} gives "
                       "a period of {} picoseconds, not a whole number",
                       v_[FormId::NetworkFrequency].form->children[1].text,
                       ps ? ps->str() : std::string("too many")))
          .withHint("give a frequency whose period is whole picoseconds, such as 125MHz (8000 "
                    "ps) or 250MHz (4000 ps)")
          .note(form.children[0].range, "the interface is declared here");
      return 1;
    }
    return ps->num();
  }

  // A time quantity of an inner form, exact; `clocksOk`: also a whole number of clocks.
  const Unit* timeUnit(const Node& n, std::string_view what, std::string_view example) {
    const Unit* u = n.kind == NodeKind::Quantity ? findUnit(n.value) : nullptr;
    if (n.kind == NodeKind::Quantity && !u) {
      std::string best = closestMatch(n.value, allUnitNames());
      fail(DiagKind::UnknownUnit, n.unitRange, fmt::format("unknown unit '{}'", n.value))
          .withHint(best.empty() ? std::string("units are listed in docs/language.md")
                                 : fmt::format("did you mean '{}'?", best));
      return nullptr;
    }
    if (!u) {
      fail(n.isNumber() ? DiagKind::MissingUnit : DiagKind::TypeMismatch, n.range,
           fmt::format("{} expects a time, got '{}'", what, ast::quote(n)))
          .withHint(fmt::format("write {}", example));
      return nullptr;
    }
    if (u->dimension != Dimension::Time) {
      fail(DiagKind::WrongDimension, n.range,
           fmt::format("{} expects a time, but '{}' is {}", what, n.text,
                       dimensionName(u->dimension)))
          .withHint(fmt::format("write {}", example));
      return nullptr;
    }
    return u;
  }

  // Whole clocks of the stage's own domain: 3clock.
  std::optional<int64_t> clocks(const Node& n, std::string_view what, int64_t min,
                                std::string_view example) {
    const Unit* u = timeUnit(n, what, example);
    if (!u) return std::nullopt;
    if (u->base != UnitBase::Clocks) {
      fail(DiagKind::WrongDimension, n.range,
           fmt::format("{} is in clocks of its domain, got '{}'", what, n.text))
          .withHint(fmt::format("write it in clocks: {}; the domain's period gives its time",
                                example));
      return std::nullopt;
    }
    std::optional<Rational> c = n.number.mul(u->scale);
    if (!c || !c->isInteger() || c->num() < min) {
      fail(c && c->isInteger() ? DiagKind::NotPositive : DiagKind::NotAnInteger, n.range,
           fmt::format("{} is a whole number of clocks{}, got '{}'", what,
                       min > 0 ? " of at least 1" : ", 0 or more", n.text))
          .withHint(fmt::format("write {}", example));
      return std::nullopt;
    }
    if (c->num() > kMaxClocks) {
      fail(DiagKind::OutOfRange, n.range,
           fmt::format("{} is at most {} clocks, got '{}'", what, kMaxClocks, n.text))
          .withHint("the node side counts picoseconds in 64 bits; a stage of a million clocks "
                    "is not an interface's");
      return std::nullopt;
    }
    return c->num();
  }

  void domain(const Node& form, InterfaceSpec& spec) {
    const bool shaped = form.children.size() == 3 && form.children[1].isSymbol() &&
                        form.children[2].isList() &&
                        (form.children[2].head() == "Period" ||
                         form.children[2].head() == "Frequency") &&
                        form.children[2].children.size() == 2;
    if (!shaped) {
      fail(DiagKind::WrongArity, form.range,
           "ClockDomain takes the domain's name, then (Period t) or (Frequency f)")
          .withHint(fmt::format("write {} or (ClockDomain swif (Frequency 100MHz))",
                                kDomainExample));
      // Declared all the same, so that its stages report nothing more.
      if (form.children.size() >= 2 && form.children[1].isSymbol())
        spec.domains.push_back({form.children[1].text, form.children[1].range, 0});
      return;
    }
    const Node& name = form.children[1];
    if (name.text == "network") {
      fail(DiagKind::BadInterface, name.range,
           "'network' is the network's own clock domain, clocked by NetworkFrequency")
          .withHint("name the domain after the logic it clocks, e.g. dimm or swif");
      return;
    }
    for (const ClockDomainSpec& d : spec.domains) {
      if (d.name != name.text) continue;
      fail(DiagKind::DuplicateForm, name.range,
           fmt::format("clock domain '{}' is declared twice", name.text))
          .withHint("give each domain a name of its own")
          .note(d.range, "first declared here");
      return;
    }
    const Node& value = form.children[2].children[1];
    // A domain whose clock is wrong is still declared, so its stages report nothing more.
    auto bad = [&] { spec.domains.push_back({name.text, name.range, 0}); };
    const bool period = form.children[2].head() == "Period";
    std::optional<Rational> ps;
    if (period) {
      const Unit* u = timeUnit(value, "Period", "(Period 15nsec)");
      if (!u) return bad();
      if (u->base == UnitBase::Clocks) {
        fail(DiagKind::WrongDimension, value.range,
             fmt::format("a domain's Period is a time, got '{}' clocks", value.text))
            .withHint("write (Period 7.5nsec)");
        return bad();
      }
      ps = value.number.mul(u->scale);
      if (ps) ps = ps->mul(kPsPerSecond);
    } else {
      const Unit* u = value.kind == NodeKind::Quantity ? findUnit(value.value) : nullptr;
      if (!u || u->dimension != Dimension::Frequency) {
        fail(u ? DiagKind::WrongDimension : DiagKind::TypeMismatch, value.range,
             fmt::format("Frequency expects a frequency, got '{}'", ast::quote(value)))
            .withHint("write (Frequency 100MHz)");
        return bad();
      }
      std::optional<Rational> hz = value.number.mul(u->scale);
      if (hz && !hz->isZero() && !hz->isNegative()) ps = kPsPerSecond.div(*hz);
      if (hz && hz->isZero()) ps = Rational(0);
      if (hz && !hz->isZero() && ps && !ps->isInteger()) {
        const double exact = static_cast<double>(ps->num()) / static_cast<double>(ps->den());
        const int64_t nearest = std::llround(exact);
        const int64_t roundNs = std::llround(exact / 1000.0);
        // A bus sold as "66 MHz" is often 15 ns exactly: offer the whole nanoseconds when near.
        const bool nsNear = roundNs > 0 && std::abs(static_cast<double>(roundNs) * 1000.0 - exact) <
                                               0.02 * exact;
        fail(DiagKind::BadInterface, value.range,
             fmt::format("clock domain '{}': {} gives a period of {} picoseconds, not a whole "
                         "number",
                         name.text, value.text, ps->str()))
            .withHint(nsNear ? fmt::format("give the period itself: (Period {}nsec) is {:.2f}MHz; "
                                           "(Period {}psec) is the nearest whole picoseconds",
                                           roundNs, 1000.0 / static_cast<double>(roundNs), nearest)
                             : fmt::format("give the period itself: (Period {}psec) is the "
                                           "nearest whole picoseconds",
                                           nearest));
        return bad();
      }
    }
    if (!ps || (!ps->isNegative() && Rational(kMaxPeriodPs) < *ps)) {
      fail(DiagKind::OutOfRange, value.range,
           fmt::format("clock domain '{}': a period is at most 1sec, got '{}'", name.text,
                       value.text))
          .withHint(fmt::format("write {}", kDomainExample));
      return bad();
    }
    if (ps->isNegative() || ps->isZero()) {
      fail(DiagKind::NotPositive, value.range,
           fmt::format("clock domain '{}' needs a positive {}, got '{}'", name.text,
                       period ? "period" : "frequency", value.text))
          .withHint(fmt::format("write {}", kDomainExample));
      return bad();
    }
    if (!ps->isInteger()) {
      fail(DiagKind::NotAnInteger, value.range,
           fmt::format("clock domain '{}': a period of {} is {} picoseconds, not a whole number",
                       name.text, value.text, ps->str()))
          .withHint("periods are whole picoseconds: write (Period 7500psec) for 7.5 ns");
      return bad();
    }
    spec.domains.push_back({name.text, name.range, ps->num()});
  }

  void interfaceForm(const Node& form, InterfaceSpec& spec) {
    if (form.children.size() < 2 || !form.children[1].isSymbol()) {
      fail(DiagKind::WrongArity, form.range, "Interface takes the interface's name, then its paths")
          .withHint(fmt::format("write {}", kInterfaceExample));
      return;
    }
    spec.name = form.children[1].text;
    spec.range = form.children[1].range;
    const Node* send = nullptr;
    const Node* receive = nullptr;
    const Node* sync = nullptr;
    bool misplaced = false;  // an unknown form reported: perhaps a path misspelled
    for (size_t i = 2; i < form.children.size(); ++i) {
      const Node& sub = form.children[i];
      if (sub.isError()) {
        ok_ = false;
        continue;
      }
      const std::string_view head = sub.head();
      const Node** slot = head == "SendPath" ? &send
                          : head == "ReceivePath" ? &receive
                          : head == "Synchronizer" ? &sync
                                                   : nullptr;
      if (!slot) {
        misplaced = true;
        std::string best = head.empty() ? std::string()
                                        : closestMatch(head, {"SendPath", "ReceivePath",
                                                              "Synchronizer"});
        fail(head.empty() ? DiagKind::ExpectedForm : DiagKind::UnknownForm,
             head.empty() ? sub.range : sub.children[0].range,
             head.empty() ? fmt::format("an Interface holds forms, got '{}'", ast::quote(sub))
                          : fmt::format("'{}' is not a form of an Interface", head))
            .withHint(best.empty() || best == head
                          ? std::string("an Interface holds (SendPath ...), (ReceivePath ...) "
                                        "and (Synchronizer n clock)")
                          : fmt::format("did you mean '{}'?", best));
        continue;
      }
      if (*slot) {
        fail(DiagKind::DuplicateForm, sub.children[0].range,
             fmt::format("the interface gives {} twice", head))
            .withHint("an interface has one send path and one receive path")
            .note((*slot)->children[0].range, "first given here");
        continue;
      }
      *slot = &sub;
    }
    for (auto [path, node, name] : {std::tuple{&spec.send, send, "SendPath"},
                                    std::tuple{&spec.receive, receive, "ReceivePath"}}) {
      if (!node) {
        if (misplaced) continue;
        fail(DiagKind::MissingForm, form.children[0].range,
             fmt::format("interface '{}' has no {}", spec.name, name))
            .withHint(fmt::format("write {}", kInterfaceExample));
        continue;
      }
      readPath(*node, *path, spec);
    }
    if (sync) {
      if (sync->children.size() != 2) {
        fail(DiagKind::WrongArity, sync->range,
             "Synchronizer takes one value: the clocks a crossing waits after the receiving "
             "clock's edge")
            .withHint("write (Synchronizer 2clock)");
      } else if (auto c = clocks(sync->children[1], "Synchronizer", 0, "(Synchronizer 2clock)")) {
        spec.synchronizerClocks = *c;
      }
    }
  }

  void readPath(const Node& form, InterfacePathSpec& path, const InterfaceSpec& spec) {
    const std::string_view kind = form.head();
    if (form.children.size() < 2 || !form.children[1].isSymbol()) {
      fail(DiagKind::WrongArity, form.range,
           fmt::format("{} takes the path's name, then its stages in order", kind))
          .withHint(fmt::format("write ({} aotf {} ...)", kind, kStageExample));
      return;
    }
    path.name = form.children[1].text;
    if (form.children.size() == 2) {
      fail(DiagKind::BadInterface, form.range,
           fmt::format("{} '{}' has no stages", kind, path.name))
          .withHint(fmt::format("give its stages in order: {}", kStageExample));
      return;
    }
    for (size_t i = 2; i < form.children.size(); ++i) {
      const Node& st = form.children[i];
      if (st.isError()) {
        ok_ = false;
        continue;
      }
      if (st.head() != "Stage" || st.children.size() < 4 || st.children.size() > 5 ||
          !st.children[1].isSymbol() || !st.children[2].isSymbol()) {
        fail(st.head() == "Stage" ? DiagKind::WrongArity : DiagKind::ExpectedForm, st.range,
             fmt::format("a path's stage is (Stage name domain latency), got '{}'",
                         ast::quote(st)))
            .withHint(fmt::format("write {}, or with its throughput "
                                  "(Stage header-tlb dimm 3clock (Occupancy 1clock))",
                                  kStageExample));
        continue;
      }
      InterfaceStageSpec s;
      s.name = st.children[1].text;
      s.range = st.range;
      const Node& dom = st.children[2];
      auto d = std::find_if(spec.domains.begin(), spec.domains.end(),
                            [&](const ClockDomainSpec& x) { return x.name == dom.text; });
      if (d == spec.domains.end()) {
        std::vector<std::string_view> names;
        for (const ClockDomainSpec& x : spec.domains) names.push_back(x.name);
        std::string best = closestMatch(dom.text, names);
        fail(DiagKind::UnknownName, dom.range,
             fmt::format("stage '{}' is in the clock domain '{}', which is not declared", s.name,
                         dom.text))
            .withHint(best.empty() || best == dom.text
                          ? fmt::format("declare it: (ClockDomain {} (Period 10nsec)); "
                                        "`network` is the network's clock",
                                        dom.text)
                          : fmt::format("did you mean '{}'?", best));
        continue;
      }
      s.domain = static_cast<int32_t>(d - spec.domains.begin());
      std::optional<int64_t> latency =
          clocks(st.children[3], fmt::format("the latency of stage '{}'", s.name), 1, "3clock");
      if (!latency) continue;
      if (*latency * d->periodPs > kMaxPeriodPs) {
        fail(DiagKind::OutOfRange, st.children[3].range,
             fmt::format("stage '{}' takes {} clocks of {} ps, more than a second", s.name,
                         *latency, d->periodPs))
            .withHint("a stage of an interface takes nanoseconds to microseconds");
        continue;
      }
      s.clocks = s.occupancyClocks = *latency;
      if (st.children.size() == 5) {
        const Node& occ = st.children[4];
        if (occ.head() != "Occupancy" || occ.children.size() != 2) {
          fail(DiagKind::UnknownForm, occ.range,
               fmt::format("a stage's fifth element is (Occupancy n clock), got '{}'",
                           ast::quote(occ)))
              .withHint("write (Stage header-tlb dimm 3clock (Occupancy 1clock)): the stage "
                        "takes the next message 1 clock after this one");
          continue;
        }
        std::optional<int64_t> o =
            clocks(occ.children[1], fmt::format("the occupancy of stage '{}'", s.name), 1, "1clock");
        if (!o) continue;
        s.occupancyClocks = *o;
      }
      path.stages.push_back(std::move(s));
    }
  }

  // A host cost in picoseconds: a time, or network clocks.
  int64_t cost(FormId id, const InterfaceSpec& spec) {
    if (!v_.ok(id)) return 0;
    const Quantity& q = v_[id].quantity;
    std::optional<Rational> ps = q.unit->base == UnitBase::Clocks
                                     ? q.value.mul(Rational(spec.domains[0].periodPs))
                                     : q.value.mul(kPsPerSecond);
    if (!ps || Rational(kMaxPeriodPs) < *ps) {
      fail(DiagKind::OutOfRange, v_[id].form->children[1].range,
           fmt::format("{} is at most 1sec, got {}", formInfo(id).name,
                       v_[id].form->children[1].text))
          .withHint("a host cost is what one send or receive takes");
      return 0;
    }
    if (!ps->isInteger()) {
      fail(DiagKind::NotAnInteger, v_[id].form->children[1].range,
           fmt::format("{} {} is {} picoseconds, not a whole number", formInfo(id).name,
                       v_[id].form->children[1].text, ps->str()))
          .withHint("times of the node side are whole picoseconds");
      return 0;
    }
    return ps->num();
  }

  void hostCosts(InterfaceSpec& spec) {
    spec.hostWritePs = cost(FormId::HostWriteTime, spec);
    spec.hostReadPs = cost(FormId::HostReadTime, spec);
    spec.softwareOverheadPs = cost(FormId::SoftwareOverhead, spec);
    spec.pollIntervalPs = cost(FormId::PollInterval, spec);
    spec.pollPhasePs = cost(FormId::PollPhase, spec);
    if (!v_.ok(FormId::PollPhase) || (v_.given(FormId::PollInterval) && !v_.ok(FormId::PollInterval)))
      return;
    if (spec.pollIntervalPs == 0) {
      fail(DiagKind::ConflictingForms, v_[FormId::PollPhase].form->children[0].range,
           "PollPhase places the polls of a PollInterval, and without one the host polls "
           "continuously")
          .withHint("give (PollInterval 100nsec) too, or remove PollPhase");
    } else if (spec.pollPhasePs >= spec.pollIntervalPs) {
      fail(DiagKind::OutOfRange, v_[FormId::PollPhase].form->children[1].range,
           fmt::format("PollPhase is below PollInterval ({} ps), got {} ps", spec.pollIntervalPs,
                       spec.pollPhasePs))
          .withHint("the phase is the time of the first poll within an interval");
    }
  }

  void unusedDomains(const InterfaceSpec& spec) {
    for (size_t d = 1; d < spec.domains.size(); ++d) {
      bool used = false;
      for (const InterfacePathSpec* path : {&spec.send, &spec.receive})
        for (const InterfaceStageSpec& s : path->stages) used = used || s.domain == int32_t(d);
      if (used) continue;
      fail(DiagKind::BadInterface, spec.domains[d].range,
           fmt::format("clock domain '{}' clocks no stage of interface '{}'",
                       spec.domains[d].name, spec.name))
          .withHint("name it in a (Stage name domain latency), or remove it");
    }
  }

  const FormValues& v_;
  Parameters& p_;
  DiagnosticEngine& diags_;
  bool simulation_;
  bool ok_ = true;
};

}  // namespace

bool resolveInterface(const FormValues& v, Parameters& p, DiagnosticEngine& diags,
                      bool simulation) {
  return InterfaceReader(v, p, diags, simulation).run();
}

rt::InterfaceTiming interfaceTiming(const InterfaceSpec& spec) {
  rt::InterfaceTiming t;
  t.network_period_ps = spec.domains[0].periodPs;
  t.synchronizer_clocks = spec.synchronizerClocks;
  for (auto [from, to] : {std::pair{&spec.send, &t.send}, std::pair{&spec.receive, &t.receive}}) {
    for (const InterfaceStageSpec& s : from->stages) {
      const int64_t period = spec.domains[static_cast<size_t>(s.domain)].periodPs;
      to->push_back({s.domain, period, s.clocks * period, s.occupancyClocks * period});
    }
  }
  t.host_write_ps = spec.hostWritePs;
  t.host_read_ps = spec.hostReadPs;
  t.overhead_ps = spec.softwareOverheadPs;
  t.poll_interval_ps = spec.pollIntervalPs;
  t.poll_phase_ps = spec.pollPhasePs;
  t.external_loop = spec.externalLoop;
  return t;
}

}  // namespace ndl::sema
