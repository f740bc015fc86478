#include "compiler/sema/Rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "compiler/sema/Definitions.h"
#include "compiler/sema/Interfaces.h"
#include "compiler/support/EditDistance.h"
#include "ndl/runtime/traffic/message_flits.h"

namespace ndl::sema {
namespace {

class Resolver {
 public:
  Resolver(const FormValues& v, FileId mainFile, DiagnosticEngine& diags, Requirement need)
      : v_(v), mainFile_(mainFile), need_(need), diags_(diags) {}

  std::optional<Parameters> run() {
    for (size_t i = 0; i < kFormCount; ++i)
      if (v_.forms[i].form) p_.where[i] = v_.forms[i].form->range;

    require(FormId::Topology, "(Topology (Torus 8 8))");
    const bool simulation = need_ == Requirement::Simulation;
    if (simulation) {
      require(FormId::NetworkChannelWidth, "(NetworkChannelWidth 32bit)");
      require(FormId::NetworkFrequency, "(NetworkFrequency 50MHz)");
      require(FormId::NetworkPacketSize, "(NetworkPacketSize 256bit)");
    }
    // The expand rate scales a pattern's compute gaps: without a pattern it would do nothing.
    if (given(FormId::ProcessorPerformanceExpandRate) &&
        !given(FormId::CommunicationPatternFile)) {
      error(DiagKind::MissingForm, FormId::ProcessorPerformanceExpandRate,
            "ProcessorPerformanceExpandRate scales the compute gaps of a communication pattern "
            "file, and this program names none")
          .withHint("add (CommunicationPatternFile \"app.cpf\") (docs/workloads.md), or remove "
                    "this form");
    }
    if (ok(FormId::CommunicationPatternFile) && v_[FormId::CommunicationPatternFile].text.empty()) {
      error(DiagKind::OutOfRange, FormId::CommunicationPatternFile,
            "CommunicationPatternFile names no file")
          .withHint("give the path of a .cpf file (docs/workloads.md), or remove this form");
    }
    // A pattern run ends when the application completes, not after a count of messages.
    if (given(FormId::CommunicationPatternFile) && given(FormId::MeasuredMessages)) {
      error(DiagKind::ConflictingForms, FormId::MeasuredMessages,
            "MeasuredMessages ends a run after a count of messages; with a "
            "CommunicationPatternFile the run ends when the application completes")
          .withHint("remove MeasuredMessages; WarmupMessages still leaves the first messages out "
                    "of the latency statistics")
          .note(valueRange(FormId::CommunicationPatternFile), "the pattern file is named here");
    }
    const FormId load = given(FormId::OfferedLoad) ? FormId::OfferedLoad
                                                   : FormId::MessageCreationRate;
    if (simulation && v_.classes.empty() && !given(FormId::MessageCreationRate) &&
        !given(FormId::MessageCreationInterval) && !given(FormId::OfferedLoad) &&
        !given(FormId::CommunicationPatternFile) && !trace() &&
        !(given(FormId::InjectionProcess) && !ok(FormId::InjectionProcess))) {
      // (An InjectionProcess written wrong may have meant a trace: it is reported already.)
      missing("no traffic is given: MessageCreationRate, MessageCreationInterval, OfferedLoad, "
              "CommunicationPatternFile or (InjectionProcess (Trace \"file\")) is required",
              "add (OfferedLoad 10%), (MessageCreationInterval 2usec) or "
              "(MessageCreationRate 1.0%)");
    } else if (simulation && given(load) && !synthetic() &&
               !given(FormId::CommunicationPatternFile) && !trace()) {
      error(DiagKind::MissingForm, load,
            fmt::format("{} 0% switches synthetic traffic off, and there is no "
                        "CommunicationPatternFile: nothing would be sent",
                        name(load)))
          .withHint("give a rate above 0%, or a CommunicationPatternFile whose programs are "
                    "then the whole load");
    }

    if (ok(FormId::Topology)) p_.topology = v_[FormId::Topology].topology;
    if (ok(FormId::FlowControlMethod)) p_.flowControl = v_[FormId::FlowControlMethod].enumValue;
    if (ok(FormId::RoutingAlgorithm)) p_.routingName = v_[FormId::RoutingAlgorithm].text;
    if (ok(FormId::DeadlockHandling)) p_.deadlockHandling = v_[FormId::DeadlockHandling].enumValue;
    if (ok(FormId::VcAllocation)) p_.vcAllocation = v_[FormId::VcAllocation].enumValue;
    if (ok(FormId::SwitchInputArbitration))
      p_.switchInput = v_[FormId::SwitchInputArbitration].enumValue;
    if (ok(FormId::SwitchHold)) p_.switchHold = v_[FormId::SwitchHold].enumValue;
    if (ok(FormId::InjectionQueueOverflow))
      p_.queueOverflow = v_[FormId::InjectionQueueOverflow].enumValue;
    if (ok(FormId::Selection)) {
      if (v_[FormId::Selection].text.empty())
        p_.selection = v_[FormId::Selection].enumValue;
      else
        p_.selectionName = v_[FormId::Selection].text;
    }
    if (ok(FormId::Predictor)) p_.predictorName = v_[FormId::Predictor].text;
    if (ok(FormId::TrafficPattern)) p_.traffic = p_.givenTraffic = v_[FormId::TrafficPattern].traffic;
    p_.virtualChannels = countOr(FormId::VirtualChannels, 1);
    p_.injectionVirtualChannels = countOr(FormId::InjectionVirtualChannels, 1);
    p_.creationMax = countOr(FormId::MessageCreationMax, 10000);
    p_.queueCapacity = countOr(FormId::MessageMaxCount, 10000);
    p_.seed = countOr(FormId::Seed, 1);
    p_.internalSpeedup = countOr(FormId::InternalSpeedup, 1);
    p_.warmupMessages = countOr(FormId::WarmupMessages, 0);
    if (ok(FormId::MeasuredMessages)) p_.measuredMessages = v_[FormId::MeasuredMessages].count;
    p_.dataOutputFile = v_[FormId::DataOutputFile].text;
    p_.screenOutputFile = v_[FormId::ScreenOutputFile].text;
    p_.patternFile = v_[FormId::CommunicationPatternFile].text;
    if (ok(FormId::CommunicationPatternFile))
      p_.patternFileRange = valueRange(FormId::CommunicationPatternFile);
    if (ok(FormId::ProcessorPerformanceExpandRate))
      p_.expandRate = v_[FormId::ProcessorPerformanceExpandRate].quantity.value;
    if (ok(FormId::ReportPairs)) p_.reportPairs = v_[FormId::ReportPairs].pairs;
    p_.sweeps = v_.sweeps;

    sizes();
    clocks();
    if (!resolveInterface(v_, p_, diags_, simulation)) failed_ = true;
    traffic();
    syntheticOnly();
    traceOnly();
    measurement();
    if (p_.measurement == EnumId::Measurement_Burst) windows();
    classes();
    if (failed_) return std::nullopt;
    return p_;
  }

  // One (TrafficClass ...) resolved on the program's resolved parameters `base`, with this
  // resolver's values being the program's with the class's forms in place of the top-level
  // ones: the same rules read the class's load, pattern and length.
  std::optional<TrafficClassSpec> resolveClass(const Parameters& base, const ClassForm& c) {
    p_ = base;
    p_.creationRate = Rational(0);
    p_.creationIntervalClocks.reset();
    p_.offeredLoad.reset();
    if (given(FormId::MessageLength)) messageLength();
    if (ok(FormId::TrafficPattern)) p_.traffic = v_[FormId::TrafficPattern].traffic;
    SourceRange patternRange;
    for (const auto& [id, value] : c.values) {
      if (id == FormId::TrafficPattern) patternRange = value.form->range;
      if (id != FormId::TrafficPattern || value.traffic.pattern != EnumId::Traffic_HotSpot) continue;
      error(DiagKind::ConflictingForms, id,
            fmt::format("class '{}' sends to hot spots of its own; the hot spots are the "
                        "network's",
                        c.name))
          .withHint("write (TrafficPattern (HotSpot ...)) at top level: a class that gives no "
                    "pattern takes it");
    }
    if (p_.packetPerMessage && p_.messageMaxBits > base.packetBits) {
      error(DiagKind::OutOfRange, FormId::MessageLength,
            fmt::format("class '{}' has messages of up to {}bit, longer than the packets "
                        "((NetworkPacketSize Message) makes them as long as the top-level "
                        "MessageLength, {}bit)",
                        c.name, p_.messageMaxBits, base.packetBits))
          .withHint("give the top-level MessageLength the longest class's length");
    }
    traffic();
    if (failed_) return std::nullopt;
    TrafficClassSpec spec;
    spec.name = c.name;
    spec.range = c.nameRange;
    spec.creationRate = p_.creationRate;
    spec.offeredLoad = p_.offeredLoad;
    spec.messageMinBits = p_.messageMinBits;
    spec.messageMaxBits = p_.messageMaxBits;
    spec.meanMessageFlits = meanMessageFlits().value_or(Rational(0));
    spec.traffic = p_.traffic;
    spec.patternRange = patternRange;
    spec.priority = c.priority;
    // A class with no load of its own is sent only in reply: it has no process (Bernoulli at
    // rate 0 creates nothing, where a periodic one would create every clock).
    if (!spec.creationRate.isZero()) {
      spec.injectionProcess = p_.injectionProcess;
      spec.creationIntervalClocks = p_.creationIntervalClocks;
      spec.onOffBurstClocks = p_.onOffBurstClocks;
      spec.onOffDuty = p_.onOffDuty;
    }
    return spec;
  }

 private:
  // A message's class is a byte (the runtime's Message::cls).
  static constexpr size_t kMaxTrafficClasses = 255;

  // (TrafficClass ...) forms (docs/language.md, "Traffic classes"): each gives its own load
  // (none: it is only sent in reply), pattern and length, the top-level pattern and length
  // being the defaults; the load of the whole network is then the classes'.
  void classes() {
    if (v_.classes.empty()) return;
    for (FormId f : {FormId::OfferedLoad, FormId::MessageCreationRate,
                     FormId::MessageCreationInterval, FormId::CommunicationPatternFile}) {
      if (!given(f)) continue;
      error(DiagKind::ConflictingForms, f,
            fmt::format("{} gives the whole network's traffic, and this program declares "
                        "traffic classes, which give their own",
                        name(f)))
          .withHint("move the load into the classes, e.g. (TrafficClass data (OfferedLoad 10%)); "
                    "TrafficPattern and MessageLength at top level are the classes' defaults")
          .note(v_.classes[0].nameRange, "first class declared here");
    }
    if (v_.classes.size() > kMaxTrafficClasses) {
      diags_.report(DiagKind::OutOfRange, v_.classes[kMaxTrafficClasses].nameRange,
                    fmt::format("a program has at most {} traffic classes", kMaxTrafficClasses))
          .withHint("merge classes that share their pattern and length");
      failed_ = true;
    }
    if (ok(FormId::InjectionQueueOverflow) &&
        v_[FormId::InjectionQueueOverflow].enumValue == EnumId::QueueOverflow_Block) {
      error(DiagKind::ConflictingForms, FormId::InjectionQueueOverflow,
            "a source blocked on its full queue would stop its other classes too; traffic "
            "classes refuse a creation that finds the queue full")
          .withHint("remove (InjectionQueueOverflow Block), or the TrafficClass forms");
    }
    // A top-level process is the classes' default; a trace is a load of its own.
    auto trace = [](const FormValue& v) {
      return v.ok && v.injection.process == EnumId::InjectionProcess_Trace;
    };
    if (ok(FormId::InjectionProcess) && trace(v_[FormId::InjectionProcess])) {
      error(DiagKind::ConflictingForms, FormId::InjectionProcess,
            "a trace gives the whole network's messages, and this program declares traffic "
            "classes, which create their own")
          .withHint("remove the trace, or the TrafficClass forms");
    }
    for (const ClassForm& c : v_.classes) {
      for (const auto& [id, value] : c.values) {
        if (id != FormId::InjectionProcess || !trace(value)) continue;
        diags_.report(DiagKind::ConflictingForms, value.form->range,
                      fmt::format("class '{}' cannot be a trace: a trace gives the whole "
                                  "network's messages",
                                  c.name))
            .withHint("give the class Bernoulli, Periodic or OnOff, or replay the trace "
                      "without classes");
        failed_ = true;
      }
    }
    if (failed_) return;
    std::vector<TrafficClassSpec> specs;
    for (const ClassForm& c : v_.classes) {
      if (!c.ok) {
        failed_ = true;
        continue;
      }
      FormValues overlay = v_;
      overlay.classes.clear();
      overlay.sweeps.clear();
      for (const auto& [id, value] : c.values) overlay[id] = value;
      Resolver sub(overlay, mainFile_, diags_, need_);
      std::optional<TrafficClassSpec> spec = sub.resolveClass(p_, c);
      if (!spec) {
        failed_ = true;
        continue;
      }
      specs.push_back(std::move(*spec));
    }
    if (failed_) return;
    auto find = [&](std::string_view n) -> int32_t {
      for (size_t k = 0; k < specs.size(); ++k)
        if (specs[k].name == n) return static_cast<int32_t>(k);
      return -1;
    };
    for (size_t k = 0; k < specs.size(); ++k) {
      const ClassForm& c = v_.classes[k];
      if (c.reply.empty()) continue;
      specs[k].reply = find(c.reply);
      if (specs[k].reply >= 0) continue;
      std::vector<std::string_view> names;
      for (const TrafficClassSpec& s : specs) names.push_back(s.name);
      std::string best = closestMatch(c.reply, names);
      diags_.report(DiagKind::UnknownName, c.replyRange,
                    fmt::format("no traffic class is named '{}'", c.reply))
          .withHint(best.empty() ? fmt::format("declare it: (TrafficClass {} (MessageLength ...))",
                                               c.reply)
                                 : fmt::format("did you mean '{}'?", best));
      failed_ = true;
    }
    if (failed_) return;
    for (size_t k = 0; k < specs.size(); ++k) {
      const bool answers = std::any_of(specs.begin(), specs.end(), [&](const auto& s) {
        return s.reply == static_cast<int32_t>(k);
      });
      if (specs[k].creationRate.isZero()) {
        // Replies are sent at deliveries, not by a process.
        for (const auto& [id, value] : v_.classes[k].values) {
          if (id != FormId::InjectionProcess) continue;
          diags_.report(DiagKind::NoEffect, value.form->range,
                        fmt::format("class '{}' has no load of its own: it is sent only in "
                                    "reply, at each delivery, and InjectionProcess has no effect",
                                    specs[k].name))
              .withHint("remove it, or give the class a load, e.g. (OfferedLoad 10%)");
        }
      }
      if (!specs[k].creationRate.isZero() || answers) continue;
      diags_.report(DiagKind::MissingForm, specs[k].range,
                    fmt::format("traffic class '{}' has no rate and answers no class: it would "
                                "send nothing",
                                specs[k].name))
          .withHint("give it a load, e.g. (OfferedLoad 10%), or name it in another class's "
                    "(Reply ...)");
      failed_ = true;
    }
    // A reply chain that comes back to a class would answer every delivery for ever.
    for (size_t k = 0; k < specs.size() && !failed_; ++k) {
      std::vector<int32_t> chain;
      for (int32_t at = static_cast<int32_t>(k); at >= 0; at = specs[at].reply) {
        const auto again = std::find(chain.begin(), chain.end(), at);
        if (again == chain.end()) {
          chain.push_back(at);
          continue;
        }
        std::string text;
        for (auto c = again; c != chain.end(); ++c) text += specs[*c].name + " -> ";
        text += specs[at].name;
        diags_.report(DiagKind::ReplyLoop, v_.classes[chain.back()].replyRange,
                      fmt::format("the replies of traffic class '{}' come back to it ({}): "
                                  "every delivery would be answered for ever",
                                  specs[at].name, text))
            .withHint("end the chain with a class that has no (Reply ...)");
        failed_ = true;
        break;
      }
    }
    if (failed_) return;
    noEffectInClasses(specs);
    const TrafficClassSpec& first = specs[0];
    p_.creationRate = first.creationRate;
    p_.offeredLoad = first.offeredLoad;
    p_.meanMessageFlits = first.meanMessageFlits;
    p_.messageMinBits = first.messageMinBits;
    p_.messageMaxBits = first.messageMaxBits;
    p_.traffic = first.traffic;
    // Class 0 is the simulator's main traffic: its process is the main entries'.
    p_.injectionProcess = first.injectionProcess;
    p_.creationIntervalClocks = first.creationIntervalClocks;
    p_.onOffBurstClocks = first.onOffBurstClocks;
    p_.onOffDuty = first.onOffDuty;
    p_.classes = std::move(specs);
  }

 private:
  // Class forms that change nothing: priorities that are all alike (the classes are then
  // served as if none had one), a top-level InjectionProcess that every class with a load
  // replaces with its own.
  void noEffectInClasses(const std::vector<TrafficClassSpec>& specs) {
    auto own = [&](size_t k, FormId id) {
      for (const auto& [f, value] : v_.classes[k].values)
        if (f == id) return true;
      return false;
    };
    const bool differ = std::any_of(specs.begin(), specs.end(), [&](const auto& s) {
      return s.priority != specs.front().priority;
    });
    if (!differ) {
      for (size_t k = 0; k < specs.size(); ++k) {
        if (!v_.classes[k].priorityRange.valid()) continue;
        diags_.report(DiagKind::NoEffect, v_.classes[k].priorityRange,
                      specs.size() == 1
                          ? std::string("one traffic class has no other to be served before or "
                                        "after: Priority has no effect")
                          : fmt::format("every class has priority {}: priorities order classes "
                                        "that differ in them, and Priority has no effect",
                                        specs[k].priority))
            .withHint("give the classes different priorities, or remove it");
        break;
      }
    }
    if (given(FormId::InjectionProcess)) {
      bool used = false;
      for (size_t k = 0; k < specs.size(); ++k)
        used = used || (!specs[k].creationRate.isZero() && !own(k, FormId::InjectionProcess));
      if (!used)
        diags_.report(DiagKind::NoEffect, valueRange(FormId::InjectionProcess),
                      "every traffic class with a load gives its own InjectionProcess: the "
                      "top-level one has no effect")
            .withHint("remove it, or the classes' own");
    }
  }

  bool given(FormId id) const { return v_.given(id); }
  // Synthetic traffic: an interval, or a rate above 0% ((MessageCreationRate 0%) switches it
  // off, e.g. with --set on a program whose pattern file is then the only load).
  bool synthetic() const {
    if (given(FormId::OfferedLoad))
      return !(ok(FormId::OfferedLoad) && v_[FormId::OfferedLoad].quantity.value.isZero());
    return given(FormId::MessageCreationInterval) ||
           (given(FormId::MessageCreationRate) &&
            !(ok(FormId::MessageCreationRate) &&
              v_[FormId::MessageCreationRate].quantity.value.isZero()));
  }
  bool ok(FormId id) const { return v_.ok(id); }
  // (InjectionProcess (Trace "file")): the trace's messages are the load.
  bool trace() const {
    return ok(FormId::InjectionProcess) &&
           v_[FormId::InjectionProcess].injection.process == EnumId::InjectionProcess_Trace;
  }
  std::string_view name(FormId id) const { return formInfo(id).name; }
  int64_t countOr(FormId id, int64_t fallback) const {
    return ok(id) ? v_[id].count : fallback;
  }
  const ast::Node& node(FormId id) const { return *v_[id].form; }

  // Cross-form diagnostics point at the value of the form they blame.
  SourceRange valueRange(FormId id) const {
    const ast::Node& form = node(id);
    return form.children.size() > 1 ? form.children[1].range : form.range;
  }
  std::string_view valueText(FormId id) const { return node(id).children[1].text; }

  // "300bit", or "8flit (256bit)" when the text is not in bits.
  std::string sizeText(FormId id, int64_t bits) const {
    std::string_view t = valueText(id);
    if (t.ends_with("bit") && !t.ends_with("flit")) return std::string(t);
    return fmt::format("{} ({}bit)", t, bits);
  }

  Diagnostic& error(DiagKind kind, FormId at, std::string message) {
    failed_ = true;
    return diags_.report(kind, valueRange(at), std::move(message));
  }

  void missing(std::string message, std::string hint) {
    failed_ = true;
    diags_.report(DiagKind::MissingForm, SourceRange{mainFile_, 1, 1, 1, 2}, std::move(message))
        .withHint(std::move(hint));
  }

  void require(FormId id, std::string_view example) {
    if (given(id)) {
      if (!ok(id)) failed_ = true;
      return;
    }
    missing(fmt::format("missing required form ({} ...)", name(id)),
            fmt::format("add {}: {}", example, formInfo(id).summary));
  }

  // A size in bits; flits need the channel width.
  std::optional<int64_t> bits(const Quantity& q) const {
    if (q.unit->base == UnitBase::Absolute) return q.value.num();  // whole bits, checked
    if (p_.channelWidthBits == 0) return std::nullopt;
    std::optional<Rational> b = q.value.mul(p_.channelWidthBits);
    if (!b) return std::nullopt;
    return b->num();
  }

  // Whole flits of a size, rounded as `up` says, with a warning when the
  // size is not a multiple of the channel width.
  int64_t flits(FormId id, int64_t sizeBits, bool up) {
    int64_t w = p_.channelWidthBits;
    int64_t n = up ? (sizeBits + w - 1) / w : sizeBits / w;
    if (sizeBits % w != 0 && given(id)) {
      diags_.report(DiagKind::NotFlitMultiple, valueRange(id),
                    fmt::format("{} {} is not a multiple of the {}bit channel width; it {} {} "
                                "flit{} ({}bit)",
                                name(id), valueText(id), w,
                                up ? "takes" : "holds", n, n == 1 ? "" : "s", n * w))
          .withHint(fmt::format("use a multiple of {}bit", w));
    }
    return n;
  }

  void sizes() {
    if (!ok(FormId::NetworkChannelWidth)) return;
    const Quantity& wq = v_[FormId::NetworkChannelWidth].quantity;
    if (wq.unit->base == UnitBase::Flits) {
      error(DiagKind::WrongDimension, FormId::NetworkChannelWidth,
            "NetworkChannelWidth defines the flit, so it cannot be given in flits")
          .withHint("give it in bits or bytes, e.g. 32bit");
      return;
    }
    p_.channelWidthBits = wq.value.num();
    if (!ok(FormId::NetworkPacketSize)) return;
    if (v_[FormId::NetworkPacketSize].text == "Message") {
      messagePackets();
      return;
    }
    p_.packetBits = *bits(v_[FormId::NetworkPacketSize].quantity);
    p_.packetFlits = flits(FormId::NetworkPacketSize, p_.packetBits, true);

    // Default payload: all but one flit of header (the whole of a one-flit
    // packet).
    p_.dataBits = p_.packetFlits > 1 ? p_.packetBits - p_.channelWidthBits : p_.packetBits;
    if (given(FormId::NetworkDataSize)) {
      if (!ok(FormId::NetworkDataSize)) return;
      p_.dataBits = *bits(v_[FormId::NetworkDataSize].quantity);
      if (p_.dataBits > p_.packetBits) {
        error(DiagKind::DataExceedsPacket, FormId::NetworkDataSize,
              fmt::format("NetworkDataSize {} exceeds NetworkPacketSize {}",
                          sizeText(FormId::NetworkDataSize, p_.dataBits),
                          sizeText(FormId::NetworkPacketSize, p_.packetBits)))
            .withHint("the data is the packet less its header; make it smaller than the packet")
            .note(valueRange(FormId::NetworkPacketSize), "packet size given here");
        return;
      }
    }
    p_.headerBits = p_.packetBits - p_.dataBits;
    bufferSize();
    messageLength();
    if (!given(FormId::MessageLength)) p_.messageMinBits = p_.messageMaxBits = p_.dataBits;
  }

  // (NetworkPacketSize Message): a message travels as one packet, a worm of
  // its own length rounded up to whole flits; its first flit is the head
  // (the routing information travels in it: no header is added). Buffers
  // and the packet limits are checked against the longest message.
  void messagePackets() {
    p_.packetPerMessage = true;
    if (given(FormId::NetworkDataSize)) {
      error(DiagKind::ConflictingForms, FormId::NetworkDataSize,
            "NetworkDataSize has no meaning when every message is one packet")
          .withHint("remove it: (NetworkPacketSize Message) makes each packet as long as its "
                    "message")
          .note(valueRange(FormId::NetworkPacketSize), "one packet per message here");
      return;
    }
    if (!given(FormId::MessageLength)) {
      missing("(NetworkPacketSize Message) needs MessageLength: the packets are as long as "
              "the messages",
              "add (MessageLength 128byte)");
      return;
    }
    messageLength();
    if (failed_) return;
    p_.packetBits = p_.messageMaxBits;
    p_.packetFlits = flits(FormId::MessageLength, p_.packetBits, true);
    p_.dataBits = p_.packetBits;
    p_.headerBits = 0;
    if (p_.packetFlits > kMaxPacketFlits) {
      error(DiagKind::OutOfRange, FormId::MessageLength,
            fmt::format("a message of {}bit is {} flits; one packet holds at most {}",
                        p_.messageMaxBits, p_.packetFlits, kMaxPacketFlits))
          .withHint("shorten the messages or split them into packets with a NetworkPacketSize");
      return;
    }
    bufferSize();
  }

  void bufferSize() {
    p_.bufferFlits = p_.packetFlits;  // default: one (the longest) packet
    if (given(FormId::NodeBufferSize)) {
      if (!ok(FormId::NodeBufferSize)) return;
      int64_t bufferBits = *bits(v_[FormId::NodeBufferSize].quantity);
      p_.bufferFlits = flits(FormId::NodeBufferSize, bufferBits, false);
      bool wholePacket = p_.flowControl != EnumId::FlowControl_Wormhole;
      int64_t need = wholePacket ? p_.packetFlits : 1;
      if (p_.bufferFlits < need) {
        std::string_view fc = enumInfo(p_.flowControl).name;
        error(DiagKind::BufferTooSmall, FormId::NodeBufferSize,
              wholePacket
                  ? fmt::format("NodeBufferSize {} holds {} flit{}, but {} needs a whole {} "
                                "({} flits = {}bit) in each buffer",
                                node(FormId::NodeBufferSize).children[1].text, p_.bufferFlits,
                                p_.bufferFlits == 1 ? "" : "s", fc,
                                p_.packetPerMessage ? "message" : "packet", p_.packetFlits,
                                p_.packetFlits * p_.channelWidthBits)
                  : fmt::format("NodeBufferSize {} holds no whole flit of {}bit",
                                node(FormId::NodeBufferSize).children[1].text,
                                p_.channelWidthBits))
            .withHint(wholePacket ? fmt::format("make it at least {}bit, or use Wormhole",
                                                p_.packetFlits * p_.channelWidthBits)
                                  : fmt::format("make it at least {}bit", p_.channelWidthBits));
      }
    }
  }

  void messageLength() {
    if (!ok(FormId::MessageLength)) return;
    const FormValue& m = v_[FormId::MessageLength];
    p_.messageMinBits = *bits(m.quantity);
    p_.messageMaxBits = m.high ? *bits(*m.high) : p_.messageMinBits;
    if (p_.messageMaxBits < p_.messageMinBits) {
      error(DiagKind::EmptyRange, FormId::MessageLength,
            fmt::format("MessageLength range is empty: {}bit to {}bit", p_.messageMinBits,
                        p_.messageMaxBits))
          .withHint("write the low end first");
    }
  }

  // Converts a time to whole clocks of `hz`, rounding up with a warning when
  // it is not exact. `flight`: the time a flit or credit is on a wire, which is exact: it is
  // there at t + d and the receiving logic, on the edges of `hz`, takes it at the first edge at
  // or after, ceil(d / T) clocks later. Nothing is rounded away, so nothing is warned of.
  int64_t toClocks(FormId id, const Quantity& q, const Rational& hz, std::string_view domain,
                   bool flight = false) {
    if (q.unit->base == UnitBase::Clocks) return q.value.num();
    std::optional<Rational> c = q.value.mul(hz);
    if (!c) {
      error(DiagKind::NumberOverflow, id, fmt::format("{} is too long to count in clocks", name(id)));
      return 0;
    }
    if (!c->isInteger() && !flight) {
      diags_.report(DiagKind::InexactClocks, valueRange(id),
                    fmt::format("{} {} is {} clocks at the {} {}Hz; rounded up to {} clock{}",
                                name(id), valueText(id), c->str(), domain,
                                fmtHz(hz), c->ceil(), c->ceil() == 1 ? "" : "s"))
          .withHint("give it in clocks (e.g. 3clock) or as a whole number of clock periods");
    }
    return c->ceil();
  }

  static std::string fmtHz(const Rational& hz) {
    if (hz >= Rational(1000000000) && hz.num() % 1000000000 == 0 && hz.isInteger())
      return fmt::format("{}G", hz.num() / 1000000000);
    if (hz >= Rational(1000000)) return fmt::format("{}M", hz.div(1000000)->str());
    if (hz >= Rational(1000)) return fmt::format("{}k", hz.div(1000)->str());
    return hz.str();
  }

  // A time in seconds in the largest unit that keeps it at least 1.
  static std::string fmtTime(const Rational& sec) {
    static constexpr std::pair<int64_t, std::string_view> kUnits[] = {
        {1, "sec"}, {1000, "msec"}, {1000000, "usec"}, {1000000000, "nsec"}};
    for (auto [scale, unit] : kUnits) {
      Rational v = *sec.mul(scale);
      if (v >= Rational(1) || scale == 1000000000) return fmt::format("{}{}", v.str(), unit);
    }
    return sec.str() + "sec";
  }

  void clocks() {
    if (!ok(FormId::NetworkFrequency)) return;
    p_.networkHz = v_[FormId::NetworkFrequency].quantity.value;
    p_.routerHz = ok(FormId::RouterFrequency) ? v_[FormId::RouterFrequency].quantity.value
                                              : p_.networkHz;
    std::string_view routerClock = given(FormId::RouterFrequency) ? "router clock" : "network clock";
    auto convert = [&](FormId id, const Rational& hz, std::string_view domain, int64_t fallback) {
      return ok(id) ? toClocks(id, v_[id].quantity, hz, domain) : fallback;
    };
    p_.routerDelayClocks = convert(FormId::NodeHardwareDelay, p_.routerHz, routerClock, 1);
    auto flight = [&](FormId id, int64_t fallback) {
      return ok(id) ? toClocks(id, v_[id].quantity, p_.networkHz, "network clock", true)
                    : fallback;
    };
    p_.linkDelayClocks = flight(FormId::LinkDelay, 1);
    p_.creditDelayClocks = flight(FormId::CreditDelay, p_.linkDelayClocks);
    p_.deadlockTimeoutClocks = convert(FormId::DeadlockTimeout, p_.routerHz, routerClock, 1000);
    p_.recoveryTimeoutClocks = convert(FormId::RecoveryTimeout, p_.routerHz, routerClock, 32);
    p_.sampleIntervalClocks = convert(FormId::SimulationInterval, p_.networkHz, "network clock", 1000);
    // Router clocks to network clocks, exactly, rounded up: a router slower than its links
    // acts only on the link clocks in which one of its own edges falls.
    auto toNetwork = [&](int64_t routerClocks) -> int64_t {
      if (p_.routerHz == p_.networkHz || p_.routerHz == Rational(0)) return routerClocks;
      std::optional<Rational> r = Rational(routerClocks).mul(p_.networkHz);
      if (r) r = r->div(p_.routerHz);
      return r ? r->ceil() : std::numeric_limits<int64_t>::max();
    };
    pipeline(routerClock);
    predictivePath(routerClock);
    p_.predictHeaderNetworkClocks = toNetwork(p_.predictHeaderClocks);
    p_.predictorLatencyNetworkClocks =
        convert(FormId::PredictorLatency, p_.networkHz, "network clock", 4);
    p_.headerDelayNetworkClocks = toNetwork(p_.routerDelayClocks);
    p_.pipelineFlitNetworkClocks = toNetwork(p_.pipelineFlitClocks);
    p_.deadlockTimeoutNetworkClocks = toNetwork(p_.deadlockTimeoutClocks);
    p_.recoveryTimeoutNetworkClocks = toNetwork(p_.recoveryTimeoutClocks);
    if (ok(FormId::SimulationTime))
      p_.simulationTimeClocks = convert(FormId::SimulationTime, p_.networkHz, "network clock", 0);
  }

  // (RouterPipeline ...) in place of NodeHardwareDelay: IB + RC + VA + SA hold a header at
  // the front of its VC (the header delay), ST delays every flit after it leaves its VC
  // (docs/pipeline.md).
  void pipeline(std::string_view routerClock) {
    if (!ok(FormId::RouterPipeline)) return;
    if (given(FormId::NodeHardwareDelay)) {
      error(DiagKind::ConflictingForms, FormId::NodeHardwareDelay,
            "NodeHardwareDelay and RouterPipeline both give the router's delay")
          .withHint("keep one: NodeHardwareDelay d is (RouterPipeline (IB 0clock) (RC 0clock) "
                    "(VA dclock) (SA 0clock) (ST 0clock))")
          .note(valueRange(FormId::RouterPipeline), "the pipeline is given here");
      return;
    }
    std::optional<std::vector<int64_t>> clocks = stageClocks(FormId::RouterPipeline, routerClock);
    if (!clocks) return;
    p_.pipelineClocks = std::move(*clocks);
    if (p_.pipelineClocks.size() != kPipelineStages) return;
    auto sum = [&](PipelineStage from, PipelineStage to) {
      int64_t s = 0;
      for (int k = static_cast<int>(from); k <= static_cast<int>(to); ++k)
        s = std::min<int64_t>(s + p_.pipelineClocks[k], INT64_MAX / 4);
      return s;
    };
    p_.routerDelayClocks = sum(PipelineStage::IB, PipelineStage::SA);
    p_.pipelineFlitClocks = sum(PipelineStage::ST, PipelineStage::ST);
  }

  // (Predictor Name) with (PredictivePath (IB d) (ST d)) and (PredictorLatency d): each needs
  // the others' company; the predictive ST is the pipeline's (flits cross the switch alike,
  // docs/prediction.md).
  void predictivePath(std::string_view routerClock) {
    const bool predictor = given(FormId::Predictor);
    for (FormId id : {FormId::PredictivePath, FormId::PredictorLatency, FormId::MispredictionCheck}) {
      if (given(id) && !predictor) {
        error(DiagKind::ConflictingForms, id,
              fmt::format("{} has no effect without a (Predictor ...)", formInfo(id).name))
            .withHint("name a define-predictor with (Predictor LastPort), or remove this form");
      }
    }
    if (!predictor) return;
    if (p_.internalSpeedup > 1) {
      error(DiagKind::ConflictingForms, FormId::InternalSpeedup,
            "InternalSpeedup above 1 is not modelled with a Predictor: a predicted header's "
            "timing assumes one pass a clock")
          .withHint("remove (InternalSpeedup ...) or the (Predictor ...)");
    }
    if (ok(FormId::MispredictionCheck)) mispredictionCheck();
    if (!given(FormId::PredictivePath)) {
      error(DiagKind::MissingForm, FormId::Predictor,
            "a Predictor needs the stages a predicted header takes: PredictivePath is missing")
          .withHint("add (PredictivePath (IB 1clock) (ST 1clock)), seed 001's two-stage path");
      return;
    }
    if (!ok(FormId::PredictivePath)) return;
    std::optional<std::vector<int64_t>> clocks = stageClocks(FormId::PredictivePath, routerClock);
    if (!clocks || clocks->size() != 2) return;
    p_.predictHeaderClocks = (*clocks)[0];
    if ((*clocks)[1] != p_.pipelineFlitClocks) {
      failed_ = true;
      const StageValue& st = v_[FormId::PredictivePath].pipeline[1];
      diags_.report(DiagKind::BadPipeline, st.node->range,
                    fmt::format("the predictive path's ST takes {} clock{}, the router's {}: "
                                "every flit crosses the switch the same way",
                                (*clocks)[1], (*clocks)[1] == 1 ? "" : "s",
                                p_.pipelineFlitClocks))
          .withHint(fmt::format("write (ST {}clock), as in RouterPipeline", p_.pipelineFlitClocks));
    }
  }

  // (MispredictionCheck None): the packet sends its copy the wrong way from its buffer and then
  // leaves the right way, so the buffer must hold all of it; and a copy is no message, so a
  // deadlock handling that drops packets would have nothing to account it to.
  void mispredictionCheck() {
    p_.mispredictionCheck = v_[FormId::MispredictionCheck].enumValue;
    if (p_.mispredictionCheck != EnumId::MispredictionCheck_None) return;
    if (p_.flowControl == EnumId::FlowControl_Wormhole) {
      Diagnostic& d =
          error(DiagKind::ConflictingForms, FormId::MispredictionCheck,
                "(MispredictionCheck None) needs a buffer that holds the whole packet: a "
                "mispredicted packet's copy leaves from it, then the packet itself; under "
                "Wormhole it may not fit")
              .withHint("use (FlowControlMethod VirtualCutThrough), seed 001's, or keep the hint "
                        "bits");
      if (given(FormId::FlowControlMethod))
        d.note(valueRange(FormId::FlowControlMethod), "the flow control is given here");
    }
    if (p_.deadlockHandling != EnumId::DeadlockHandling_Avoid &&
        p_.deadlockHandling != EnumId::DeadlockHandling_Detect) {
      error(DiagKind::ConflictingForms, FormId::MispredictionCheck,
            fmt::format("(MispredictionCheck None) sends copies of packets that are no message's; "
                        "(DeadlockHandling {}) drops packets and would have to account them",
                        enumInfo(p_.deadlockHandling).name))
          .withHint("write (DeadlockHandling Avoid) with a routing whose VC classes are deadlock "
                    "free, as seed 001's dimension order with dateline classes");
    }
  }

  // The stages of a RouterPipeline or PredictivePath form in router clocks; nullopt after
  // reporting a stage that is not whole clocks.
  std::optional<std::vector<int64_t>> stageClocks(FormId form, std::string_view routerClock) {
    std::vector<int64_t> out;
    bool whole = true;
    for (const StageValue& st : v_[form].pipeline) {
      const Quantity& q = st.delay;
      int64_t clocks = q.value.num();
      if (q.unit->base != UnitBase::Clocks) {
        std::optional<Rational> c = q.value.mul(p_.routerHz);
        if (!c || !c->isInteger()) {
          failed_ = true;
          diags_.report(DiagKind::BadPipeline, st.node->children[1].range,
                        c ? fmt::format("stage {} takes {}, {} clocks at the {} {}Hz: a stage "
                                        "takes whole clocks",
                                        kPipelineStageNames[static_cast<int>(st.stage)],
                                        st.node->children[1].text, c->str(), routerClock,
                                        fmtHz(p_.routerHz))
                          : fmt::format("stage {} is too long to count in clocks",
                                        kPipelineStageNames[static_cast<int>(st.stage)]))
              .withHint(c ? fmt::format("write {}clock, or a time that is a whole number of "
                                        "clock periods",
                                        c->ceil())
                          : std::string("give it in clocks"));
          whole = false;
          continue;
        }
        clocks = c->num();
      }
      out.push_back(clocks);
    }
    if (!whole) return std::nullopt;
    return out;
  }

  void traffic() {
    if (!ok(FormId::NetworkFrequency)) return;
    if (given(FormId::OfferedLoad)) {
      offeredLoad();
      if (ok(FormId::InjectionProcess) && p_.offeredLoad)
        injectionProcess(v_[FormId::InjectionProcess].injection);
      return;
    }
    std::optional<Rational> intervalClocks;
    if (ok(FormId::MessageCreationInterval)) {
      const Quantity& q = v_[FormId::MessageCreationInterval].quantity;
      intervalClocks = q.unit->base == UnitBase::Clocks ? std::optional(q.value)
                                                        : q.value.mul(p_.networkHz);
      if (!intervalClocks || *intervalClocks < Rational(1)) {
        error(DiagKind::OutOfRange, FormId::MessageCreationInterval,
              fmt::format("MessageCreationInterval {} is {} clocks at {}Hz; a node creates at "
                          "most one message per clock",
                          node(FormId::MessageCreationInterval).children[1].text,
                          intervalClocks ? intervalClocks->str() : "less than 1",
                          fmtHz(p_.networkHz)))
            .withHint("make the interval at least one network clock");
        return;
      }
      p_.creationIntervalClocks = intervalClocks;
      p_.creationRate = *Rational(1).div(*intervalClocks);
    }
    if (ok(FormId::MessageCreationRate)) {
      Rational rate = v_[FormId::MessageCreationRate].quantity.value;
      if (intervalClocks) checkAgreement(rate, *intervalClocks);
      p_.creationRate = rate;
    }
    if (ok(FormId::InjectionProcess)) injectionProcess(v_[FormId::InjectionProcess].injection);
  }

  // The process spaces creations at the mean rate (docs/runtime.md 2.7): Periodic needs a
  // whole number of clocks between them; OnOff creates at rate / duty while on, at most one
  // message per clock, and its off periods, of mean burst (1 - duty) / duty, last a clock
  // at least (the chain switches at most once per clock).
  void injectionProcess(const InjectionSpec& spec) {
    p_.injectionProcess = spec.process;
    if (!synthetic()) return;  // syntheticOnly() says it has no effect
    const FormId rateId = given(FormId::MessageCreationInterval) ? FormId::MessageCreationInterval
                          : given(FormId::OfferedLoad)          ? FormId::OfferedLoad
                                                                : FormId::MessageCreationRate;
    const std::string_view rateForm = name(rateId);
    if (!ok(rateId)) return;
    if (spec.process == EnumId::InjectionProcess_Periodic) {
      std::optional<Rational> interval = Rational(1).div(p_.creationRate);
      if (!interval || !interval->isInteger()) {
        error(DiagKind::OutOfRange, FormId::InjectionProcess,
              fmt::format("(InjectionProcess Periodic) creates a message every whole number of "
                          "clocks, but {} {} is {} clocks apart",
                          rateForm, valueText(rateId),
                          interval ? interval->str() : std::string("infinitely many")))
            .withHint("give a MessageCreationInterval of whole clocks, e.g. "
                      "(MessageCreationInterval 50clock), or a rate of 1/n, or use Bernoulli")
            .note(valueRange(rateId), "the rate is given here");
        return;
      }
      p_.creationIntervalClocks = interval;
      return;
    }
    if (spec.process != EnumId::InjectionProcess_OnOff) return;
    auto percent = [](std::optional<Rational> r) {
      if (!r) return std::string("?");
      std::optional<Rational> pc = r->mul(100);
      return pc ? pc->str() : fmt::format("{:g}", r->toDouble() * 100);
    };
    std::optional<Rational> burst =
        spec.burstInClocks ? std::optional(spec.burst) : spec.burst.mul(p_.networkHz);
    if (!burst || *burst < Rational(1)) {
      error(DiagKind::OutOfRange, FormId::InjectionProcess,
            fmt::format("OnOff's burst is {} clocks at {}Hz; an on period lasts one clock at "
                        "least",
                        burst ? burst->str() : "less than 1", fmtHz(p_.networkHz)))
          .withHint("make (Burst t) at least one network clock");
      return;
    }
    p_.onOffBurstClocks = *burst;
    p_.onOffDuty = spec.duty;
    if (spec.duty < p_.creationRate) {
      error(DiagKind::OutOfRange, FormId::InjectionProcess,
            fmt::format("OnOff with a duty cycle of {}% creates {}% of the clocks while on (the "
                        "mean rate {}% over the duty cycle): more than one message per clock",
                        percent(spec.duty), percent(p_.creationRate.div(spec.duty)),
                        percent(p_.creationRate)))
          .withHint("raise the duty cycle to the rate at least, or lower the rate")
          .note(valueRange(rateId), "the rate is given here");
      return;
    }
    if (spec.duty == Rational(1)) return;  // always on: no off periods
    // Mean off period = burst * (1 - duty) / duty clocks.
    std::optional<Rational> off;
    if (auto b = burst->mul(*Rational(1).sub(spec.duty))) off = b->div(spec.duty);
    if (off && *off < Rational(1)) {
      error(DiagKind::OutOfRange, FormId::InjectionProcess,
            fmt::format("OnOff's off periods would last {} clocks on average (burst {} x (1 - "
                        "duty) / duty); a source switches at most once per clock",
                        off->str(), burst->str()))
          .withHint("lengthen the burst or raise the duty cycle so that an off period lasts a "
                    "clock at least");
    }
  }

  // (OfferedLoad r): the rate that offers r flits per node per clock with the mean message
  // the simulator draws. It is the load, so a rate or an interval beside it would say the same
  // twice (--set and Sweep values of one of the three take the place of the others).
  void offeredLoad() {
    for (FormId other : {FormId::MessageCreationRate, FormId::MessageCreationInterval}) {
      if (!given(other)) continue;
      error(DiagKind::ConflictingForms, FormId::OfferedLoad,
            fmt::format("OfferedLoad and {} both give the load", name(other)))
          .withHint("give one of them: OfferedLoad in flits per node per clock, or the message "
                    "rate")
          .note(valueRange(other), fmt::format("{} given here", name(other)));
      return;
    }
    if (!ok(FormId::OfferedLoad) || p_.messageMinBits < 1 || p_.messageMaxBits < p_.messageMinBits ||
        p_.dataBits < 1 || p_.channelWidthBits < 1)
      return;  // the sizes are reported wrong already
    const Rational load = v_[FormId::OfferedLoad].quantity.value;
    std::optional<Rational> mean = meanMessageFlits();
    std::optional<Rational> rate = mean ? load.div(*mean) : std::nullopt;
    if (!rate) {
      error(DiagKind::NumberOverflow, FormId::OfferedLoad,
            "the creation rate of this load cannot be represented exactly")
          .withHint("give a MessageCreationRate instead");
      return;
    }
    if (Rational(1) < *rate) {
      error(DiagKind::OutOfRange, FormId::OfferedLoad,
            fmt::format("OfferedLoad {} is {} flits per node per clock, and a message has {} "
                        "flits on average: {} messages per clock, and a node creates at most one",
                        valueText(FormId::OfferedLoad), load.str(), mean->str(), rate->str()))
          .withHint(fmt::format("offer at most {} flits per node per clock, or make messages "
                                "longer",
                                mean->str()));
      return;
    }
    p_.offeredLoad = load;
    p_.meanMessageFlits = *mean;
    p_.creationRate = *rate;
  }

  // The mean flits of a message as the simulator makes them (runtime traffic_source.cpp):
  // lengths uniform over [min, max], in whole bytes when both ends are, else in bits; a message
  // of b bits is ceil(b / dataBits) packets of packetFlits flits, or under (NetworkPacketSize
  // Message) one packet of ceil(b / channel width) flits (runtime/traffic/message_flits.h, which
  // the simulators' configured load uses too), summed in closed form.
  std::optional<Rational> meanMessageFlits() const {
    const rt::MessageFlitsMean m = rt::meanMessageFlits(
        p_.messageMinBits, p_.messageMaxBits,
        p_.packetPerMessage ? p_.channelWidthBits : p_.dataBits,
        p_.packetPerMessage ? 1 : p_.packetFlits);
    return Rational::make(m.sum, m.count);
  }

  // Rate and interval must describe the same traffic within 1%.
  void checkAgreement(const Rational& rate, const Rational& intervalClocks) {
    Rational implied = *Rational(1).div(intervalClocks);
    std::optional<Rational> diff = rate.sub(implied);
    if (!diff) return;
    Rational absDiff = diff->isNegative() ? *Rational(0).sub(*diff) : *diff;
    std::optional<Rational> tolerance = implied.mul(*Rational::make(1, 100));
    if (!tolerance || absDiff <= *tolerance) return;
    Rational rateInterval = *Rational(1).div(rate);
    std::optional<Rational> rateIntervalSec = rateInterval.div(p_.networkHz);
    error(DiagKind::RateIntervalMismatch, FormId::MessageCreationRate,
          fmt::format("MessageCreationRate {} means one message every {} clocks ({} at {}Hz), "
                      "but MessageCreationInterval {} is {} clocks (a rate of {}%)",
                      node(FormId::MessageCreationRate).children[1].text, rateInterval.str(),
                      rateIntervalSec ? fmtTime(*rateIntervalSec) : "?", fmtHz(p_.networkHz),
                      node(FormId::MessageCreationInterval).children[1].text, intervalClocks.str(),
                      implied.mul(100)->str()))
        .withHint("give only one of them, or make them agree within 1%")
        .note(valueRange(FormId::MessageCreationInterval), "interval given here");
  }

  // A form that shapes synthetic messages, and why it changes nothing beside another load.
  struct Unused {
    FormId id;
    std::string_view why;
  };
  // `no-effect` at each given form of `unused`: "<form> <context> <why>", with a note at the
  // form that names the load.
  template <size_t N>
  void warnUnused(const Unused (&unused)[N], std::string_view context, std::string_view hint,
                  FormId load, std::string_view namedHere) {
    for (const Unused& u : unused) {
      if (!given(u.id)) continue;
      // Under (NetworkPacketSize Message) the longest message sizes the packets and buffers.
      if (u.id == FormId::MessageLength && p_.packetPerMessage) continue;
      diags_
          .report(DiagKind::NoEffect, valueRange(u.id),
                  fmt::format("{} {} {}", name(u.id), context, u.why))
          .withHint(std::string(hint))
          .note(valueRange(load), std::string(namedHere));
    }
  }

  // A pattern file without synthetic traffic is the whole load: its programs create every
  // message, name its destination and size, and are never refused; the forms that shape
  // synthetic messages would change nothing.
  void syntheticOnly() {
    // Beside a trace the pattern file is refused, and traceOnly() warns of the forms.
    if (!given(FormId::CommunicationPatternFile) || synthetic() || trace()) return;
    static constexpr Unused kUnused[] = {
        {FormId::MessageCreationMax, "the pattern's programs create every message"},
        {FormId::TrafficPattern, "the pattern's sends name each destination"},
        {FormId::MessageLength, "the pattern's sends give each message's size"},
        {FormId::MessageMaxCount, "a pattern's messages are never refused"},
        {FormId::InjectionQueueOverflow, "a pattern's messages are never refused"},
        {FormId::InjectionProcess, "the pattern's programs decide when each message is sent"},
    };
    warnUnused(kUnused, "has no effect: with a CommunicationPatternFile and no synthetic traffic,",
               "remove it, or give a MessageCreationRate above 0% or a MessageCreationInterval "
               "for synthetic background traffic, which it shapes",
               FormId::CommunicationPatternFile, "the pattern file is named here");
  }

  // A trace gives every message's clock, source, destination and size (docs/workloads.md,
  // "Message traces"): a rate beside it, or a pattern file's programs, would be a second load;
  // the forms that shape synthetic messages would change nothing.
  void traceOnly() {
    if (!trace()) return;
    const InjectionSpec& spec = v_[FormId::InjectionProcess].injection;
    p_.traceFile = spec.traceFile;
    p_.traceFileRange = spec.traceRange;
    p_.creationRate = Rational(0);
    p_.creationIntervalClocks.reset();
    p_.creationMax = 0;  // the trace's end ends the creation
    for (FormId id : {FormId::OfferedLoad, FormId::MessageCreationRate,
                      FormId::MessageCreationInterval, FormId::CommunicationPatternFile}) {
      if (!given(id)) continue;
      error(DiagKind::ConflictingForms, id,
            fmt::format("{} gives a load of its own, and the trace gives every message{}",
                        name(id),
                        id == FormId::CommunicationPatternFile
                            ? ": a trace cannot run beside a pattern file's programs"
                            : ""))
          .withHint(id == FormId::CommunicationPatternFile
                        ? "write the trace's messages as the pattern's sends, or drop one of "
                          "the two"
                        : "remove it: the trace is the load")
          .note(valueRange(FormId::InjectionProcess), "the trace is named here");
    }
    static constexpr Unused kUnused[] = {
        {FormId::MessageCreationMax, "the trace's messages are all created"},
        {FormId::TrafficPattern, "each line of the trace names its destination"},
        {FormId::MessageLength, "each line of the trace gives its message's size"},
    };
    warnUnused(kUnused, "has no effect with (InjectionProcess (Trace ...)):", "remove it",
               FormId::InjectionProcess, "the trace is named here");
  }

  // Steady state by default (docs/runtime.md 3.1). The forms of INSIGHT's finite burst select
  // the burst, as does a pattern file (its application's completion ends the run); with an
  // explicit (Measurement Steady) they would have no effect and are errors.
  void measurement() {
    static constexpr FormId kBurstForms[] = {FormId::MessageCreationMax, FormId::WarmupMessages,
                                             FormId::MeasuredMessages};
    if (given(FormId::Measurement)) {
      if (!ok(FormId::Measurement)) return;
      p_.measurement = v_[FormId::Measurement].enumValue;
      if (p_.measurement != EnumId::Measurement_Steady) return;
      for (FormId id : kBurstForms) {
        if (!given(id)) continue;
        error(DiagKind::ConflictingForms, id,
              fmt::format("{} belongs to a burst run; (Measurement Steady) warms up, measures and "
                          "ends by itself",
                          name(id)))
            .withHint("remove it, or write (Measurement Burst) for INSIGHT's finite run")
            .note(valueRange(FormId::Measurement), "steady-state measurement chosen here");
      }
      if (given(FormId::CommunicationPatternFile)) {
        error(DiagKind::ConflictingForms, FormId::Measurement,
              "a CommunicationPatternFile's run ends when its application completes; it has no "
              "steady state to measure")
            .withHint("remove (Measurement Steady), or the pattern file")
            .note(valueRange(FormId::CommunicationPatternFile), "the pattern file is named here");
      }
      if (trace()) {
        error(DiagKind::ConflictingForms, FormId::Measurement,
              "a trace's run ends when its last message has arrived; it has no steady state to "
              "measure")
            .withHint("remove (Measurement Steady), or the trace")
            .note(valueRange(FormId::InjectionProcess), "the trace is named here");
      }
    } else if (given(FormId::CommunicationPatternFile)) {
      p_.measurement = EnumId::Measurement_Burst;
      p_.measurementFrom = FormId::CommunicationPatternFile;
    } else if (trace()) {
      p_.measurement = EnumId::Measurement_Burst;
      p_.measurementFrom = FormId::InjectionProcess;
    } else {
      for (FormId id : kBurstForms) {
        if (!given(id)) continue;
        p_.measurement = EnumId::Measurement_Burst;
        p_.measurementFrom = id;
        break;
      }
    }
    if (p_.measurement == EnumId::Measurement_Steady) {
      p_.creationMax = 0;  // the sources run until the measurement ends
      p_.warmupMessages = 0;
      p_.measuredMessages.reset();
    }
  }

  void windows() {
    if (trace()) return;  // the driver counts the trace's messages (checkTraceFile)
    if (!p_.measuredMessages) {
      // All messages after the warm-up are measured; a run that creates no more than the
      // warm-up (synthetic traffic stops at MessageCreationMax) would measure none.
      if (given(FormId::WarmupMessages) && !given(FormId::CommunicationPatternFile) &&
          p_.warmupMessages >= p_.creationMax) {
        Diagnostic& d =
            error(DiagKind::OutOfRange, FormId::WarmupMessages,
                  fmt::format("WarmupMessages {} leaves no message to measure: the sources stop "
                              "after MessageCreationMax {} messages{} and the statistics leave out "
                              "the first {} to arrive",
                              p_.warmupMessages, p_.creationMax,
                              given(FormId::MessageCreationMax) ? "" : " (the default)",
                              p_.warmupMessages));
        d.withHint(fmt::format("make WarmupMessages less than {}, or raise MessageCreationMax",
                               p_.creationMax));
        if (given(FormId::MessageCreationMax))
          d.note(valueRange(FormId::MessageCreationMax), "MessageCreationMax given here");
      }
      return;
    }
    int64_t need = p_.warmupMessages + *p_.measuredMessages;
    if (need > p_.creationMax) {
      error(DiagKind::OutOfRange, FormId::MeasuredMessages,
            fmt::format("WarmupMessages {} + MeasuredMessages {} = {} exceeds MessageCreationMax "
                        "{}; the run would end before measuring them",
                        p_.warmupMessages, *p_.measuredMessages, need, p_.creationMax))
          .withHint("raise MessageCreationMax or measure fewer messages");
    }
  }

  const FormValues& v_;
  FileId mainFile_;
  Requirement need_;
  DiagnosticEngine& diags_;
  Parameters p_;
  bool failed_ = false;
};

}  // namespace

std::optional<Parameters> resolve(const FormValues& values, FileId mainFile,
                                  DiagnosticEngine& diags, Requirement need) {
  return Resolver(values, mainFile, diags, need).run();
}

}  // namespace ndl::sema
