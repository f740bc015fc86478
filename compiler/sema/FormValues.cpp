#include "compiler/sema/FormValues.h"

#include <algorithm>

#include <fmt/format.h>

#include "compiler/sema/Definitions.h"
#include "compiler/support/EditDistance.h"

namespace ndl::sema {
namespace {

using ast::Node;
using ast::NodeKind;

// An example value for hints, by kind of form.
std::string_view exampleValue(ValueKind k) {
  switch (k) {
    case ValueKind::Topology: return "(Torus 8 8)";
    case ValueKind::FlowControl: return "Wormhole";
    case ValueKind::Routing: return "DimensionOrder";
    case ValueKind::Predictor: return "LastPort";
    case ValueKind::DeadlockHandling: return "Drop";
    case ValueKind::QueueOverflow: return "Block";
    case ValueKind::Measurement: return "Burst";
    case ValueKind::VcAllocation: return "Atomic";
    case ValueKind::MispredictionCheck: return "None";
    case ValueKind::Loopback: return "External";
    case ValueKind::SwitchInput: return "ByOutput";
    case ValueKind::SwitchHold: return "Packet";
    case ValueKind::Selection: return "MostCredits";
    case ValueKind::Traffic: return "Uniform";
    case ValueKind::Injection: return "(OnOff (Burst 100clock) (Duty 25%))";
    case ValueKind::Size: return "32bit";
    case ValueKind::SizeRange: return "8byte to 32byte";
    case ValueKind::Frequency: return "50MHz";
    case ValueKind::Time: return "2usec";
    case ValueKind::Delay: return "60nsec";
    case ValueKind::Ratio: return "1.0%";
    case ValueKind::Count: return "10000";
    case ValueKind::String: return "\"file.dat\"";
    case ValueKind::NodePairs: return "(0 5) (3 12)";
    case ValueKind::Pipeline: return "(IB 0clock) (RC 1clock) (VA 1clock) (SA 1clock) (ST 1clock)";
    case ValueKind::Sweep: return "MessageCreationInterval 2usec 10usec";
    case ValueKind::TrafficClass: return "request (OfferedLoad 5%) (Reply response)";
    case ValueKind::ClockDomain: return "dimm (Period 15nsec)";
    case ValueKind::Interface: return "aotf (SendPath send (Stage tlb dimm 3clock)) (ReceivePath recv (Stage llcm dimm 1clock))";
    case ValueKind::Override: return "(OfferedLoad 20%)";
    case ValueKind::Import: return "\"insight\"";
  }
  return "...";
}

std::string describe(const Node& n) {
  return fmt::format("{} '{}'", ast::kindName(n.kind), ast::quote(n));
}

std::string joinEnum(std::string_view type) {
  std::string s;
  for (const EnumInfo* e : enumValues(type)) s += (s.empty() ? "" : ", ") + std::string(e->name);
  return s;
}

class Reader {
 public:
  Reader(FormId id, DiagnosticEngine& diags)
      : info_(formInfo(id)), name_(info_.name), diags_(diags) {}

  bool read(const std::vector<const Node*>& args, const Node& where, FormValue& out) {
    for (const Node* a : args)
      if (a->isError()) return false;  // already reported
    switch (info_.kind) {
      case ValueKind::Topology:
        // (Topology (Nodes n) (Link ...) ...): an inline custom network.
        if (!args.empty() && args[0]->head() == "Nodes") {
          out.topology.call = &where;
          out.topology.inlineBody = true;
          out.topology.text = "custom";
          return true;
        }
        return one(args, where) && topology(*args[0], out.topology);
      case ValueKind::Routing:
      case ValueKind::Predictor: return one(args, where) && symbol(*args[0], out.text);
      case ValueKind::Selection:
        // A built-in, or a name bound later to a (define-selection ...).
        if (one(args, where) && args[0]->isSymbol() && !findEnum("Selection", args[0]->text)) {
          out.text = args[0]->text;
          return true;
        }
        return one(args, where) && enumValue(*args[0], std::string(enumTypeOf(info_.kind)), out.enumValue);
      case ValueKind::FlowControl:
      case ValueKind::DeadlockHandling:
      case ValueKind::QueueOverflow:
      case ValueKind::Measurement:
      case ValueKind::VcAllocation:
      case ValueKind::MispredictionCheck:
      case ValueKind::Loopback:
      case ValueKind::SwitchInput:
      case ValueKind::SwitchHold:
        return one(args, where) && enumValue(*args[0], std::string(enumTypeOf(info_.kind)), out.enumValue);
      case ValueKind::Traffic: return one(args, where) && traffic(*args[0], out.traffic);
      case ValueKind::Injection: return one(args, where) && injection(*args[0], out.injection);
      case ValueKind::Size:
        // (NetworkPacketSize Message): every message is one packet of its own length.
        if (name_ == "NetworkPacketSize" && args.size() == 1 && args[0]->isSymbol() &&
            args[0]->text == "Message") {
          out.text = "Message";
          return true;
        }
        return one(args, where) && single(*args[0]) && size(*args[0], out.quantity);
      case ValueKind::SizeRange: return one(args, where) && sizeRange(*args[0], out);
      case ValueKind::Frequency:
        return one(args, where) && single(*args[0]) &&
               quantity(*args[0], Dimension::Frequency, out.quantity) && positive(out.quantity);
      case ValueKind::Time:
      case ValueKind::Delay:
        return one(args, where) && single(*args[0]) && time(*args[0], out.quantity);
      case ValueKind::Ratio:
        return one(args, where) && single(*args[0]) && ratio(*args[0], out.quantity);
      case ValueKind::Count:
        return one(args, where) && single(*args[0]) && count(*args[0], out.count);
      case ValueKind::String:
        return one(args, where) && single(*args[0]) && string(*args[0], out.text);
      case ValueKind::NodePairs: return pairs(args, where, out.pairs);
      case ValueKind::Pipeline:
        // A value of (Sweep RouterPipeline ((IB 0clock) ...) ...) or of --set groups the
        // stages in one list.
        if (args.size() == 1 && args[0]->isList() && !args[0]->children.empty() &&
            args[0]->children[0].isList()) {
          std::vector<const Node*> stages;
          for (const Node& c : args[0]->children) stages.push_back(&c);
          return pipeline(stages, *args[0], out.pipeline);
        }
        return pipeline(args, where, out.pipeline);
      case ValueKind::Sweep:
      case ValueKind::TrafficClass:
      case ValueKind::ClockDomain:
      case ValueKind::Interface:  // read by Interfaces.cpp, which needs the clock domains
      case ValueKind::Override:
      case ValueKind::Import: return true;  // handled by the caller and the loader
    }
    return false;
  }

 private:
  bool one(const std::vector<const Node*>& args, const Node& where) {
    if (args.size() == 1) return true;
    diags_
        .report(DiagKind::WrongArity, args.size() > 1 ? args[1]->range : where.range,
                fmt::format("{} takes one value, got {}", name_, args.size()))
        .withHint(fmt::format("write ({} {})", name_, exampleValue(info_.kind)));
    return false;
  }

  bool single(const Node& n) {
    if (n.kind != NodeKind::Range) return true;
    diags_.report(DiagKind::RangeNotAllowed, n.range,
                  fmt::format("{} takes a single value, not the range '{}'", name_, ast::quote(n)))
        .withHint("ranges are for MessageLength; to run several values use (Sweep ...)");
    return false;
  }

  const Unit* unitOf(const Node& n) {
    const Unit* u = findUnit(n.value);
    if (u) return u;
    std::string best = closestMatch(n.value, allUnitNames());
    diags_.report(DiagKind::UnknownUnit, n.unitRange, fmt::format("unknown unit '{}'", n.value))
        .withHint(best.empty() ? std::string("units are listed in docs/language.md; identifiers "
                                             "cannot start with a digit")
                               : fmt::format("did you mean '{}'?", best));
    return nullptr;
  }

  bool quantity(const Node& n, Dimension dim, Quantity& q) {
    if (n.kind == NodeKind::Integer || n.kind == NodeKind::Real) {
      diags_.report(DiagKind::MissingUnit, n.range,
                    fmt::format("{} expects {} but '{}' has no unit", name_, dimensionName(dim),
                                n.text))
          .withHint(fmt::format("write it with a unit, e.g. {}{} ({} units: {})", n.text,
                                dim == Dimension::Ratio ? "%" : findFirstUnit(dim), 
                                std::string(dimensionName(dim)).substr(2), unitList(dim)));
      return false;
    }
    if (n.kind != NodeKind::Quantity) {
      diags_.report(DiagKind::TypeMismatch, n.range,
                    fmt::format("{} expects {} such as {}, got {}", name_, dimensionName(dim),
                                exampleValue(info_.kind), describe(n)));
      return false;
    }
    const Unit* u = unitOf(n);
    if (!u) return false;
    if (u->dimension != dim) {
      diags_.report(DiagKind::WrongDimension, n.range,
                    fmt::format("{} expects {}, but '{}' is {}", name_, dimensionName(dim), n.text,
                                dimensionName(u->dimension)))
          .withHint(fmt::format("{} units: {}", std::string(dimensionName(dim)).substr(2),
                                unitList(dim)));
      return false;
    }
    std::optional<Rational> v = n.number.mul(u->scale);
    if (!v) {
      diags_.report(DiagKind::NumberOverflow, n.range,
                    fmt::format("'{}' is too large to represent exactly", n.text));
      return false;
    }
    q = Quantity{*v, u, &n};
    return true;
  }

  static std::string_view findFirstUnit(Dimension d) {
    switch (d) {
      case Dimension::Size: return "bit";
      case Dimension::Time: return "nsec";
      case Dimension::Frequency: return "MHz";
      case Dimension::Ratio: return "%";
      case Dimension::Bandwidth: return "bit/clock";
    }
    return "";
  }

  bool positive(const Quantity& q, bool zeroOk = false) {
    if (q.value.isNegative() || (!zeroOk && q.value.isZero())) {
      diags_.report(DiagKind::NotPositive, q.node->range,
                    fmt::format("{} must be {}, got {}", name_,
                                zeroOk ? "zero or more" : "positive", q.node->text))
          .withHint(fmt::format("write a {} value such as ({} {})",
                                zeroOk ? "non-negative" : "positive", name_,
                                exampleValue(info_.kind)));
      return false;
    }
    return true;
  }

  // Sizes are whole bits (or whole flits), and positive.
  bool size(const Node& n, Quantity& q) {
    if (!quantity(n, Dimension::Size, q) || !positive(q)) return false;
    if (!q.value.isInteger()) {
      diags_.report(DiagKind::NotAnInteger, n.range,
                    fmt::format("{} '{}' is not a whole number of {}s", name_, n.text,
                                q.unit->base == UnitBase::Flits ? "flit" : "bit"))
          .withHint(fmt::format("round it to {}{}", q.value.ceil(),
                                q.unit->base == UnitBase::Flits ? "flit" : "bit"));
      return false;
    }
    return true;
  }

  bool sizeRange(const Node& n, FormValue& out) {
    if (n.kind != NodeKind::Range) return size(n, out.quantity);
    Quantity low, high;
    if (!size(n.children[0], low) || !size(n.children[1], high)) return false;
    if (low.unit->base == high.unit->base && high.value < low.value) {
      diags_.report(DiagKind::EmptyRange, n.range,
                    fmt::format("{} range '{}' is empty: its low end is above its high end",
                                name_, ast::quote(n)))
          .withHint(fmt::format("write it low to high: {} to {}", n.children[1].text,
                                n.children[0].text));
      return false;
    }
    out.quantity = low;
    out.high = high;
    return true;
  }

  bool time(const Node& n, Quantity& q) {
    bool zeroOk = info_.id == FormId::NodeHardwareDelay || info_.id == FormId::RouterPipeline ||
                  info_.id == FormId::PredictivePath || info_.id == FormId::PredictorLatency ||
                  info_.id == FormId::HostWriteTime || info_.id == FormId::HostReadTime ||
                  info_.id == FormId::SoftwareOverhead || info_.id == FormId::PollInterval ||
                  info_.id == FormId::PollPhase;
    if (!quantity(n, Dimension::Time, q) || !positive(q, zeroOk)) return false;
    if (q.unit->base == UnitBase::Clocks && !q.value.isInteger()) {
      diags_.report(DiagKind::NotAnInteger, n.range,
                    fmt::format("{} '{}' is not a whole number of clocks", name_, n.text))
          .withHint(fmt::format("write {}clock or give a time such as 60nsec", q.value.ceil()));
      return false;
    }
    return true;
  }

  bool ratio(const Node& n, Quantity& q) {
    if (!quantity(n, Dimension::Ratio, q)) return false;
    // A ratio may be 0: (MessageCreationRate 0%) switches synthetic traffic off (Rules.cpp).
    bool rate = info_.id == FormId::MessageCreationRate;
    if (!positive(q, true)) return false;
    if (rate && Rational(1) < q.value) {
      diags_.report(DiagKind::OutOfRange, n.range,
                    fmt::format("{} is a per-clock probability and cannot exceed 100%, got {}",
                                name_, n.text))
          .withHint("a node creates at most one message per clock; 1.0% is one per 100 clocks");
      return false;
    }
    return true;
  }

  bool count(const Node& n, int64_t& out) {
    if (n.kind == NodeKind::Quantity) {
      diags_.report(DiagKind::UnitOnCount, n.range,
                    fmt::format("{} takes a plain count, but '{}' has the unit '{}'", name_,
                                n.text, n.value))
          .withHint(fmt::format("drop the unit: ({} {})", name_,
                                n.text.substr(0, n.text.size() - n.value.size())));
      return false;
    }
    if (n.kind == NodeKind::Real) {
      diags_.report(DiagKind::NotAnInteger, n.range,
                    fmt::format("{} takes a whole count, got '{}'", name_, n.text))
          .withHint(fmt::format("write a whole number, e.g. ({} {})", name_, n.number.ceil()));
      return false;
    }
    if (n.kind != NodeKind::Integer) {
      diags_.report(DiagKind::TypeMismatch, n.range,
                    fmt::format("{} expects a count such as {}, got {}", name_,
                                exampleValue(info_.kind), describe(n)));
      return false;
    }
    int64_t v = n.number.num();
    auto [lo, hi] = countBounds();
    if (v < lo) {
      diags_.report(DiagKind::NotPositive, n.range,
                    fmt::format("{} must be at least {}, got {}", name_, lo, n.text))
          .withHint(fmt::format("use a value from {} up", lo));
      return false;
    }
    if (v > hi) {
      diags_.report(DiagKind::OutOfRange, n.range,
                    fmt::format("{} must be at most {}, got {}", name_, hi, n.text))
          .withHint(fmt::format("use a value from {} to {}", lo, hi));
      return false;
    }
    out = v;
    return true;
  }

  std::pair<int64_t, int64_t> countBounds() const {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    switch (info_.id) {
      case FormId::Seed:
      case FormId::WarmupMessages: return {0, kMax};
      // Routers keep VC state in small fixed-size tables.
      case FormId::VirtualChannels:
      case FormId::InjectionVirtualChannels: return {1, kMaxVirtualChannels};
      case FormId::InternalSpeedup: return {1, kMaxInternalSpeedup};
      default: return {1, kMax};
    }
  }

  bool string(const Node& n, std::string& out) {
    if (n.kind != NodeKind::String) {
      diags_.report(DiagKind::TypeMismatch, n.range,
                    fmt::format("{} expects a string such as {}, got {}", name_,
                                exampleValue(info_.kind), describe(n)))
          .withHint(n.isSymbol() ? fmt::format("put it in double quotes: \"{}\"", n.text) : "");
      return false;
    }
    out = n.value;
    return true;
  }

  bool enumValue(const Node& n, const std::string& type, EnumId& out) {
    if (!n.isSymbol()) {
      diags_.report(DiagKind::TypeMismatch, n.range,
                    fmt::format("{} expects one of {}, got {}", name_, joinEnum(type),
                                describe(n)));
      return false;
    }
    if (std::optional<EnumId> e = findEnum(type, n.text)) {
      out = *e;
      return true;
    }
    std::vector<std::string_view> names;
    for (const EnumInfo* e : enumValues(type)) names.push_back(e->name);
    std::string best = closestMatch(n.text, names);
    diags_
        .report(DiagKind::UnknownEnum, n.range,
                type == name_ ? fmt::format("unknown {} '{}'", type, n.text)
                              : fmt::format("unknown {} '{}' for {}", type, n.text, name_))
        .withHint(best.empty() ? fmt::format("choose one of {}", joinEnum(type))
                               : fmt::format("did you mean '{}'?", best));
    return false;
  }

  bool integerArg(const Node& n, std::string_view what, int64_t min, int64_t& out) {
    if (n.isError()) return false;
    if (n.kind != NodeKind::Integer) {
      if (n.kind == NodeKind::Quantity) {
        diags_.report(DiagKind::UnitOnCount, n.range,
                      fmt::format("{} takes a plain number, but '{}' has the unit '{}'", what,
                                  n.text, n.value));
      } else {
        diags_.report(DiagKind::TypeMismatch, n.range,
                      fmt::format("{} must be an integer, got {}", what, describe(n)));
      }
      return false;
    }
    if (n.number.num() < min) {
      diags_.report(DiagKind::NotPositive, n.range,
                    fmt::format("{} must be at least {}, got {}", what, min, n.text))
          .withHint(fmt::format("use a value from {} up", min));
      return false;
    }
    out = n.number.num();
    return true;
  }

  // (Topology (Torus 64 64)) names a topology definition, checked against
  // the definitions later (bindNetwork); (Topology (Nodes 16) (Link ...))
  // is an inline custom network.
  bool topology(const Node& n, TopologySpec& out) {
    if (!n.isList() || n.head().empty()) {
      diags_.report(DiagKind::TypeMismatch, n.range,
                    fmt::format("Topology expects a network such as (Torus 8 8), got {}",
                                describe(n)))
          .withHint("networks: (Ring k), (Mesh k1 ... kn), (Torus k1 ... kn), (Hypercube n), "
                    "(RDT n R m kx ky), or a custom network from (Nodes n) and (Link a b dim)");
      return false;
    }
    out.call = &n;
    out.text = ast::print(n);
    if (out.text.size() > 2) out.text = out.text.substr(1, out.text.size() - 2);
    return true;
  }

  bool symbol(const Node& n, std::string& out) {
    if (!n.isSymbol()) {
      diags_.report(DiagKind::TypeMismatch, n.range,
                    fmt::format("{} expects a name such as {}, got {}", name_,
                                exampleValue(info_.kind), describe(n)));
      return false;
    }
    out = n.text;
    return true;
  }

  bool traffic(const Node& n, TrafficSpec& out) {
    // A built-in, or a name bound later to a (define-pattern ...).
    if (n.isSymbol() && !findEnum("Traffic", n.text)) {
      out.userPattern = n.text;
      out.userPatternRange = n.range;
      return true;
    }
    if (!n.isList()) return enumValue(n, "Traffic", out.pattern);
    if (n.head() != "HotSpot") {
      diags_.report(DiagKind::TypeMismatch, n.range,
                    fmt::format("TrafficPattern expects a pattern name or (HotSpot ratio (Nodes "
                                "...)), got {}",
                                describe(n)));
      return false;
    }
    out.pattern = EnumId::Traffic_HotSpot;
    if (n.children.size() != 3 || n.children[2].head() != "Nodes") {
      diags_.report(DiagKind::WrongArity, n.range, "HotSpot takes a ratio and a node list")
          .withHint("write (TrafficPattern (HotSpot 10% (Nodes 0 27)))");
      return false;
    }
    // The share is the probability that a message goes to a hot node: above 100% it would
    // act as 100%, at 0% the hot nodes would be ordinary ones.
    Quantity share;
    if (!quantity(n.children[1], Dimension::Ratio, share)) return false;
    if (share.value.isNegative() || share.value.isZero() || Rational(1) < share.value) {
      diags_
          .report(DiagKind::OutOfRange, n.children[1].range,
                  fmt::format("HotSpot share {} is out of range: the share of the messages "
                              "sent to the hot nodes is more than 0% and at most 100%",
                              n.children[1].text))
          .withHint(
              "write e.g. (TrafficPattern (HotSpot 10% (Nodes 0 27))); for no hot spot, "
              "use Uniform");
      return false;
    }
    out.hotSpotShare = share.value;
    const Node& nodes = n.children[2];
    if (nodes.children.size() < 2) {
      diags_.report(DiagKind::WrongArity, nodes.range, "HotSpot needs at least one hot node");
      return false;
    }
    for (size_t i = 1; i < nodes.children.size(); ++i) {
      int64_t v = 0;
      if (!integerArg(nodes.children[i], "a hot-spot node", 0, v)) return false;
      out.hotSpotNodes.push_back(v);
    }
    return true;
  }

  // Bernoulli, Periodic, (OnOff (Burst t) (Duty r)) with both parts once, in any order, or
  // (Trace "file").
  bool injection(const Node& n, InjectionSpec& out) {
    static constexpr std::string_view kExample = "(InjectionProcess (OnOff (Burst 100clock) (Duty 25%)))";
    static constexpr std::string_view kTraceExample = "(InjectionProcess (Trace \"app.trace\"))";
    if (!n.isList()) {
      if (!enumValue(n, "InjectionProcess", out.process)) return false;
      if (out.process == EnumId::InjectionProcess_Trace) {
        diags_.report(DiagKind::WrongArity, n.range, "Trace needs the file of its messages")
            .withHint(fmt::format("write {} (docs/workloads.md, \"Message traces\")",
                                  kTraceExample));
        return false;
      }
      if (out.process != EnumId::InjectionProcess_OnOff) return true;
      diags_.report(DiagKind::WrongArity, n.range,
                    "OnOff needs the mean length of its bursts and its duty cycle")
          .withHint(fmt::format("write {}", kExample));
      return false;
    }
    if (n.head() == "Trace") {
      if (n.children.size() != 2 || n.children[1].kind != NodeKind::String) {
        diags_.report(n.children.size() < 2 ? DiagKind::WrongArity : DiagKind::TypeMismatch,
                      n.children.size() == 2 ? n.children[1].range : n.range,
                      n.children.size() < 2 ? std::string("Trace needs the file of its messages")
                      : n.children.size() > 2
                          ? std::string("Trace takes one file")
                          : fmt::format("Trace expects the file's name as a string, got {}",
                                        describe(n.children[1])))
            .withHint(fmt::format("write {}", kTraceExample));
        return false;
      }
      if (!string(n.children[1], out.traceFile)) return false;
      if (out.traceFile.empty()) {
        diags_.report(DiagKind::OutOfRange, n.children[1].range, "Trace names no file")
            .withHint(fmt::format("write {}", kTraceExample));
        return false;
      }
      out.process = EnumId::InjectionProcess_Trace;
      out.traceRange = n.children[1].range;
      return true;
    }
    if (n.head() != "OnOff") {
      diags_.report(DiagKind::TypeMismatch, n.range,
                    fmt::format("InjectionProcess expects {}, (OnOff (Burst t) (Duty r)) or "
                                "(Trace \"file\"), got {}",
                                joinEnum("InjectionProcess"), describe(n)))
          .withHint(fmt::format("write {}", kExample));
      return false;
    }
    out.process = EnumId::InjectionProcess_OnOff;
    const Node* burst = nullptr;
    const Node* duty = nullptr;
    for (size_t i = 1; i < n.children.size(); ++i) {
      const Node& part = n.children[i];
      const std::string_view head = part.isList() ? part.head() : std::string_view();
      const Node** slot = head == "Burst" ? &burst : head == "Duty" ? &duty : nullptr;
      if (slot == nullptr || part.children.size() != 2) {
        diags_.report(DiagKind::TypeMismatch, part.range,
                      fmt::format("OnOff takes (Burst t) and (Duty r), got {}", describe(part)))
            .withHint(fmt::format("write {}", kExample));
        return false;
      }
      if (*slot != nullptr) {
        diags_.report(DiagKind::DuplicateForm, part.range,
                      fmt::format("OnOff gives ({} ...) twice", head))
            .withHint("give each part once");
        return false;
      }
      *slot = &part;
    }
    if (burst == nullptr || duty == nullptr) {
      diags_.report(DiagKind::WrongArity, n.range,
                    fmt::format("OnOff needs {}", burst == nullptr ? "(Burst t), the mean length "
                                                                     "of an on period"
                                                                   : "(Duty r), the share of the "
                                                                     "time a source is on"))
          .withHint(fmt::format("write {}", kExample));
      return false;
    }
    Quantity b, d;
    if (!single(burst->children[1]) || !time(burst->children[1], b)) return false;
    out.burst = b.value;
    out.burstInClocks = b.unit->base == UnitBase::Clocks;
    if (!single(duty->children[1]) || !quantity(duty->children[1], Dimension::Ratio, d))
      return false;
    if (d.value.isNegative() || d.value.isZero() || Rational(1) < d.value) {
      diags_.report(DiagKind::OutOfRange, duty->children[1].range,
                    fmt::format("OnOff's duty cycle {} is out of range: a source is on more than "
                                "0% and at most 100% of the time",
                                duty->children[1].text))
          .withHint("write e.g. (Duty 25%); at 100% the process is Bernoulli");
      return false;
    }
    out.duty = d.value;
    return true;
  }

  bool pairs(const std::vector<const Node*>& args, const Node& where, std::vector<NodePair>& out) {
    if (args.empty()) {
      diags_.report(DiagKind::WrongArity, where.range, "ReportPairs needs at least one pair")
          .withHint("write (ReportPairs (0 5) (3 12))");
      return false;
    }
    bool ok = true;
    for (const Node* p : args) {
      if (!p->isList() || p->children.size() != 2) {
        diags_.report(DiagKind::TypeMismatch, p->range,
                      fmt::format("ReportPairs expects node pairs such as (0 5), got {}",
                                  describe(*p)));
        ok = false;
        continue;
      }
      NodePair pair{0, 0, p->range};
      if (!integerArg(p->children[0], "a node number", 0, pair.src) ||
          !integerArg(p->children[1], "a node number", 0, pair.dst)) {
        ok = false;
        continue;
      }
      if (pair.src == pair.dst) {
        diags_.report(DiagKind::SelfPair, p->range,
                      fmt::format("pair {} names node {} twice; a node never sends to itself",
                                  ast::quote(*p), pair.src))
            .withHint("name two different nodes, source first: (0 5)");
        ok = false;
        continue;
      }
      out.push_back(pair);
    }
    return ok;
  }

  // (RouterPipeline (IB d) (RC d) (VA d) (SA d) (ST d)): every stage once, in that order, a
  // delay each (zero allowed). Whole clocks are checked where the clock is known (Rules).
  bool pipeline(const std::vector<const Node*>& args, const Node& where,
                std::vector<StageValue>& out) {
    // The predictive path has IB and ST only: a predicted header skips RC, VA and SA.
    const bool predictive = info_.id == FormId::PredictivePath;
    const std::string example =
        predictive ? fmt::format("write ({} (IB 1clock) (ST 1clock))", name_)
                   : fmt::format("write ({} {})", name_, exampleValue(info_.kind));
    auto inPath = [&](int k) {
      return !predictive || k == static_cast<int>(PipelineStage::IB) ||
             k == static_cast<int>(PipelineStage::ST);
    };
    bool ok = true;
    int next = 0;  // the stage expected next
    bool seen[kPipelineStages] = {};
    bool given[kPipelineStages] = {};  // anywhere: one given out of order is not also missing
    bool malformed = false;
    for (const Node* a : args) {
      if (!a->isList() || a->children.empty() || !a->children[0].isSymbol()) continue;
      for (int k = 0; k < kPipelineStages; ++k)
        given[k] |= a->children[0].text == kPipelineStageNames[k];
    }
    for (const Node* a : args) {
      if (!a->isList() || a->children.size() != 2 || !a->children[0].isSymbol()) {
        diags_.report(DiagKind::BadPipeline, a->range,
                      fmt::format("{} expects stages such as (RC 1clock), got {}", name_,
                                  describe(*a)))
            .withHint(example);
        ok = false;
        malformed = true;
        continue;
      }
      const std::string& kind = a->children[0].text;
      const auto* at = std::find(std::begin(kPipelineStageNames), std::end(kPipelineStageNames),
                                 kind);
      if (at == std::end(kPipelineStageNames)) {
        diags_.report(DiagKind::BadPipeline, a->children[0].range,
                      fmt::format("'{}' is not a router stage", kind))
            .withHint("the stages are IB (input buffering), RC (routing), VA (VC allocation), "
                      "SA (switch allocation) and ST (switch traversal), in that order");
        ok = false;
        malformed = true;
        continue;
      }
      const int k = static_cast<int>(at - std::begin(kPipelineStageNames));
      if (!inPath(k)) {
        diags_.report(DiagKind::BadPipeline, a->children[0].range,
                      fmt::format("{} is not a stage of the predictive path", kind))
            .withHint("a correctly predicted header skips RC, VA and SA: " + example);
        ok = false;
        malformed = true;
        continue;
      }
      if (k < next) {
        diags_.report(DiagKind::BadPipeline, a->range,
                      seen[k] ? fmt::format("stage {} is given twice", kind)
                              : fmt::format("stage {} comes after {}", kind,
                                            kPipelineStageNames[next - 1]))
            .withHint("give each of IB, RC, VA, SA and ST once, in that order");
        ok = false;
        continue;
      }
      seen[k] = true;
      for (int missing = next; missing < k; ++missing) {
        if (given[missing] || !inPath(missing)) continue;  // reported where it comes
        diags_.report(DiagKind::BadPipeline, a->range,
                      fmt::format("stage {} is missing before {}", kPipelineStageNames[missing],
                                  kind))
            .withHint(fmt::format("give every stage, ({} 0clock) for one that takes no time",
                                  kPipelineStageNames[missing]));
        ok = false;
      }
      next = k + 1;
      StageValue v{static_cast<PipelineStage>(k), {}, a};
      if (!single(a->children[1]) || !time(a->children[1], v.delay)) {
        ok = false;
        continue;
      }
      out.push_back(v);
    }
    if (next < kPipelineStages && !malformed) {
      std::string missing;
      for (int k = next; k < kPipelineStages; ++k)
        if (inPath(k))
          missing += fmt::format("{}{}", missing.empty() ? "" : ", ", kPipelineStageNames[k]);
      diags_.report(DiagKind::BadPipeline, args.empty() ? where.range : args.back()->range,
                    fmt::format("{} lacks stage{} {}", name_,
                                missing.find(',') != std::string::npos ? "s" : "", missing))
          .withHint(example);
      ok = false;
    }
    return ok;
  }

  const FormInfo& info_;
  std::string_view name_;
  DiagnosticEngine& diags_;
};

std::vector<const Node*> argsOf(const Node& form) {
  std::vector<const Node*> args;
  args.reserve(form.children.size());
  for (size_t i = 1; i < form.children.size(); ++i) args.push_back(&form.children[i]);
  return args;
}

void readSweep(const Node& form, FormValues& values, DiagnosticEngine& diags,
               std::vector<const Node*>& sweepForms) {
  if (form.children.size() < 3 || !form.children[1].isSymbol()) {
    diags.report(DiagKind::WrongArity, form.range,
                 "Sweep takes a parameter name and at least one value")
        .withHint("write (Sweep MessageCreationInterval 2usec 10usec 50usec 100usec)");
    return;
  }
  const Node& param = form.children[1];
  std::optional<FormId> id = findForm(param.text);
  ValueKind kind = id ? formInfo(*id).kind : ValueKind::Import;
  if (!id || kind == ValueKind::Sweep || kind == ValueKind::Import ||
      kind == ValueKind::NodePairs || kind == ValueKind::TrafficClass ||
      kind == ValueKind::ClockDomain || kind == ValueKind::Interface ||
      kind == ValueKind::Override) {
    std::string best = closestMatch(param.text, allFormNames());
    diags.report(DiagKind::UnknownForm, param.range,
                 fmt::format("Sweep cannot vary '{}': it is not a parameter", param.text))
        .withHint(best.empty() || best == param.text ? "name a parameter form such as "
                                                       "MessageCreationInterval"
                                                     : fmt::format("did you mean '{}'?", best));
    return;
  }
  for (const Node* other : sweepForms) {
    if (other->children[1].text == param.text) {
      diags.report(DiagKind::DuplicateForm, form.range,
                   fmt::format("{} is swept twice", param.text))
          .withHint("put all its values in one (Sweep ...) form")
          .note(other->range, "first swept here");
      return;
    }
  }
  sweepForms.push_back(&form);
  // The values that pass the form's own checks go on to the rules between forms
  // (SweepValues.h).
  SweepSpec sweep{*id, form.range, {}};
  for (size_t i = 2; i < form.children.size(); ++i) {
    FormValue scratch;
    if (readValue(*id, {&form.children[i]}, form.children[i], scratch, diags))
      sweep.values.push_back(&form.children[i]);
  }
  if (!sweep.values.empty()) values.sweeps.push_back(std::move(sweep));
}

void readClass(const Node& form, FormValues& values, DiagnosticEngine& diags) {
  static constexpr std::string_view kExample =
      "(TrafficClass request (OfferedLoad 5%) (MessageLength 1flit) (Reply response))";
  if (form.children.size() < 2 || !form.children[1].isSymbol()) {
    diags.report(DiagKind::WrongArity, form.range,
                 "TrafficClass takes the class's name, then its forms")
        .withHint(fmt::format("write {}", kExample));
    return;
  }
  ClassForm c;
  c.form = &form;
  c.name = form.children[1].text;
  c.nameRange = form.children[1].range;
  for (const ClassForm& other : values.classes) {
    if (other.name != c.name) continue;
    diags.report(DiagKind::DuplicateForm, c.nameRange,
                 fmt::format("traffic class '{}' is declared twice", c.name))
        .withHint("give each class a name of its own")
        .note(other.nameRange, "first declared here");
    return;
  }
  std::vector<std::string_view> seen;
  for (size_t i = 2; i < form.children.size(); ++i) {
    const Node& sub = form.children[i];
    if (sub.isError()) {
      c.ok = false;
      continue;
    }
    std::string_view head = sub.isList() ? sub.head() : std::string_view();
    std::optional<FormId> id = head.empty() ? std::nullopt : findForm(head);
    const bool allowed =
        head == "Reply" || head == "Priority" ||
        (id && std::find(std::begin(kClassForms), std::end(kClassForms), *id) != std::end(kClassForms));
    if (!allowed) {
      std::string names = "Reply, Priority";
      for (FormId f : kClassForms) names += fmt::format(", {}", formInfo(f).name);
      diags.report(head.empty() ? DiagKind::ExpectedForm : DiagKind::UnknownForm,
                   head.empty() ? sub.range : sub.children[0].range,
                   head.empty() ? fmt::format("a traffic class holds forms, got {}", describe(sub))
                                : fmt::format("'{}' is not a form of a traffic class", head))
          .withHint(fmt::format("a TrafficClass holds {}; the other forms are the whole "
                                "network's, written at top level",
                                names));
      c.ok = false;
      continue;
    }
    if (std::find(seen.begin(), seen.end(), head) != seen.end()) {
      diags.report(DiagKind::DuplicateForm, sub.children[0].range,
                   fmt::format("class '{}' gives {} twice", c.name, head))
          .withHint("keep one");
      c.ok = false;
      continue;
    }
    seen.push_back(head);
    if (head == "Reply") {
      if (sub.children.size() != 2 || !sub.children[1].isSymbol()) {
        diags.report(DiagKind::WrongArity, sub.range,
                     "Reply takes the name of the class that answers this one")
            .withHint(fmt::format("write {}", kExample));
        c.ok = false;
        continue;
      }
      c.reply = sub.children[1].text;
      c.replyRange = sub.children[1].range;
      continue;
    }
    if (head == "Priority") {
      if (sub.children.size() != 2) {
        diags.report(DiagKind::WrongArity, sub.range,
                     "Priority takes one whole number, the class's priority")
            .withHint("write (Priority 1): a class of higher priority is served first");
        c.ok = false;
        continue;
      }
      const Node& n = sub.children[1];
      if (n.kind != NodeKind::Integer || !n.number.isInteger() || n.number.num() < 0 ||
          n.number.num() > kMaxClassPriority) {
        diags.report(DiagKind::OutOfRange, n.range,
                     fmt::format("a class's priority is a whole number from 0 to {}, got {}",
                                 kMaxClassPriority, describe(n)))
            .withHint("higher is served first; classes without Priority have 0");
        c.ok = false;
        continue;
      }
      c.priority = static_cast<int32_t>(n.number.num());
      c.priorityRange = n.range;
      continue;
    }
    FormValue v;
    v.form = &sub;
    v.ok = readValue(*id, argsOf(sub), sub, v, diags);
    c.ok = c.ok && v.ok;
    c.values.emplace_back(*id, std::move(v));
  }
  values.classes.push_back(std::move(c));
}

// (override (Form value ...)) forms: each replaces the form of its name that another file
// (one the program imports) gives.
struct Override {
  FormId id;
  const Node* outer;
  const Node* inner;
  FileId file;
  bool used = false;
};

std::vector<Override> collectOverrides(const ast::Program& program, DiagnosticEngine& diags) {
  std::vector<Override> out;
  for (const ast::Module& module : program.modules) {
    for (const Node& form : module.forms) {
      if (!form.isList() || form.head() != "override") continue;
      const Node* inner = form.children.size() == 2 ? &form.children[1] : nullptr;
      std::optional<FormId> id =
          inner && inner->isList() && !inner->head().empty() ? findForm(inner->head())
                                                             : std::nullopt;
      const ValueKind kind = id ? formInfo(*id).kind : ValueKind::Import;
      if (!inner || !inner->isList() || inner->head().empty()) {
        diags.report(DiagKind::WrongArity, form.range, "override takes one form")
            .withHint("write (override (OfferedLoad 20%))");
        continue;
      }
      if (!id || kind == ValueKind::Import || kind == ValueKind::Override ||
          kind == ValueKind::Sweep || kind == ValueKind::TrafficClass ||
          kind == ValueKind::ClockDomain) {
        std::string best = id ? std::string() : closestMatch(inner->head(), allFormNames());
        diags.report(DiagKind::UnknownForm, inner->children[0].range,
                     id ? fmt::format("override replaces a parameter form, not {}", inner->head())
                        : fmt::format("unknown form '{}'", inner->head()))
            .withHint(id ? std::string("edit the file that has it")
                         : best.empty() ? std::string("the forms are listed by `ndlc check "
                                                      "--list-forms`")
                                        : fmt::format("did you mean '{}'?", best));
        continue;
      }
      auto twice = std::find_if(out.begin(), out.end(), [&](const Override& o) { return o.id == *id; });
      if (twice != out.end()) {
        diags.report(DiagKind::DuplicateForm, form.range,
                     fmt::format("{} is overridden twice", inner->head()))
            .withHint("keep one")
            .note(twice->outer->range, "first overridden here");
        continue;
      }
      out.push_back({*id, &form, inner, module.file});
    }
  }
  return out;
}

}  // namespace

bool readValue(FormId id, const std::vector<const Node*>& args, const Node& where,
               FormValue& out, DiagnosticEngine& diags) {
  return Reader(id, diags).read(args, where, out);
}

FormValues readForms(const ast::Program& program, DiagnosticEngine& diags) {
  FormValues values;
  std::vector<const Node*> sweepForms;
  std::vector<Override> overrides = collectOverrides(program, diags);
  for (const ast::Module& module : program.modules) {
    bool previousWasAtom = false;
    for (const Node& form : module.forms) {
      if (diags.capped()) return values;
      if (form.isError()) continue;
      if (!form.isList()) {
        // One message for a run of stray atoms: `NetworkFrequency 50MHz`.
        if (previousWasAtom) continue;
        previousWasAtom = true;
        bool known = form.isSymbol() && findForm(form.text);
        diags.report(DiagKind::ExpectedForm, form.range,
                     fmt::format("expected a form such as (NetworkFrequency 50MHz), got {}",
                                 describe(form)))
            .withHint(known ? fmt::format("put the form in parentheses: ({} ...)", form.text)
                            : "every top-level element is a parenthesized form: (Name value ...)");
        continue;
      }
      previousWasAtom = false;
      if (!form.children.empty() && form.children[0].kind == NodeKind::Range &&
          form.children[0].children[0].isSymbol()) {
        const Node& range = form.children[0];
        diags.report(DiagKind::StrayTo, range.range,
                     fmt::format("'to' needs a value on each side, but '{}' is a name",
                                 range.children[0].text))
            .withHint(fmt::format("write a range as ({} 8byte to 32byte)", range.children[0].text));
        continue;
      }
      if (form.head().empty()) {
        const Node* at = form.children.empty() ? &form : &form.children[0];
        diags.report(DiagKind::ExpectedForm, at->range,
                     form.children.empty()
                         ? std::string("empty form '()'")
                         : fmt::format("a form starts with its name, got {}", describe(*at)))
            .withHint("write (Name value ...), e.g. (NetworkFrequency 50MHz)");
        continue;
      }
      std::string_view head = form.head();
      if (isDefinitionForm(form)) continue;  // checkDefinitions reads them
      std::optional<FormId> id = findForm(head);
      if (!id) {
        std::string best = closestMatch(head, allFormNames());
        diags.report(DiagKind::UnknownForm, form.children[0].range,
                     fmt::format("unknown form '{}'", head))
            .withHint(best.empty() ? "the forms are listed by `ndlc check --list-forms`"
                                   : fmt::format("did you mean '{}'?", best));
        continue;
      }
      ValueKind kind = formInfo(*id).kind;
      if (kind == ValueKind::Import) continue;  // the loader read it
      const Node* value = &form;
      if (kind == ValueKind::Override) {
        auto o = std::find_if(overrides.begin(), overrides.end(),
                              [&](const Override& x) { return x.outer == &form; });
        if (o == overrides.end()) continue;  // malformed: reported
        value = o->inner;
        id = o->id;
      } else if (auto o = std::find_if(overrides.begin(), overrides.end(),
                                       [&](const Override& x) { return x.id == *id; });
                 o != overrides.end()) {
        if (o->file == module.file) {
          diags.report(DiagKind::ConflictingForms, form.children[0].range,
                       fmt::format("{} is given and overridden in the same file", head))
              .withHint("change the form itself; override replaces a form of an imported file")
              .note(o->outer->range, "overridden here");
        }
        o->used = true;
        continue;  // the override's value takes its place
      }
      if (kind == ValueKind::Sweep) {
        readSweep(form, values, diags, sweepForms);
        continue;
      }
      if (kind == ValueKind::TrafficClass) {
        readClass(form, values, diags);
        continue;
      }
      if (kind == ValueKind::ClockDomain) {
        values.clockDomains.push_back(&form);
        continue;
      }
      FormValue& slot = values[*id];
      if (slot.form) {
        diags.report(DiagKind::DuplicateForm, form.children[0].range,
                     fmt::format("{} is given twice", head))
            .withHint(fmt::format("keep one; to run several values use (Sweep ...) or `ndlc "
                                  "sweep`; to change a value an imported file gives, "
                                  "(override ({} ...))",
                                  head))
            .note(slot.form->range, "first given here");
        continue;
      }
      slot.form = value;
      slot.ok = readValue(*id, argsOf(*value), *value, slot, diags);
    }
  }
  for (const Override& o : overrides) {
    if (o.used) continue;
    const std::string_view name = formInfo(o.id).name;
    diags.report(DiagKind::MissingForm, o.outer->range,
                 fmt::format("override replaces the {} an imported file gives, and none gives it",
                             name))
        .withHint(fmt::format("write ({} ...) itself", name));
  }
  return values;
}

}  // namespace ndl::sema
