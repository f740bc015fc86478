"""set_equivalence.py NDLC DIR: one meaning per parameter. For every form
NDL has (`ndlc check --list-forms`), a value given with `ndlc run FILE --set
Form=Value` gives the same JSON, bit for bit but the wall time, as the same
value written in the file; and the value has an effect (the JSON differs
from the base program's), or the same error. Runtime values reach a cached
simulator through --param, structural ones make a new build: both paths are
covered. A form NDL gains must be added here (or to EXCLUDED with the
reason), else this test fails.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_tables import with_tables  # noqa: E402

ndlc, out = sys.argv[1], os.path.abspath(sys.argv[2])
os.makedirs(out, exist_ok=True)
os.chdir(out)  # DataOutputFile and ScreenOutputFile are written here

COMMON = """(FlowControlMethod Wormhole)
(NetworkChannelWidth 32bit)
(NetworkFrequency 100MHz)
(NetworkPacketSize 128bit)
(NodeBufferSize 4flit)
(MessageCreationMax 600)
(MessageMaxCount 50)
"""
# An adaptive routing (selection matters), dateline escape classes (VC counts
# and deadlock handling matter), synthetic load given as a rate.
BASES = {
    # A closed-loop application (docs/workloads.md) with compute gaps.
    "pattern": "(Topology (Torus 4 4))\n(RoutingAlgorithm DimensionOrder)\n(VirtualChannels 2)\n"
               "(DeadlockHandling Avoid)\n(CommunicationPatternFile \"app.cpf\")\n" + COMMON,
    "rate": "(Topology (Torus 4 4))\n(RoutingAlgorithm MinimalAdaptive)\n(VirtualChannels 3)\n"
            "(DeadlockHandling Avoid)\n(MessageCreationRate 4%)\n" + COMMON,
    "interval": "(Topology (Torus 4 4))\n(RoutingAlgorithm DimensionOrder)\n"
                "(VirtualChannels 2)\n(DeadlockHandling Avoid)\n"
                "(MessageCreationInterval 40clock)\n" + COMMON,
    # The load in flits per node per clock.
    "load": "(Topology (Torus 4 4))\n(RoutingAlgorithm MinimalAdaptive)\n(VirtualChannels 3)\n"
            "(DeadlockHandling Avoid)\n(OfferedLoad 10%)\n" + COMMON,
    # A steady run (docs/runtime.md 3.1): no burst form.
    "steady": "(Topology (Torus 4 4))\n(RoutingAlgorithm MinimalAdaptive)\n(VirtualChannels 3)\n"
              "(DeadlockHandling Avoid)\n(OfferedLoad 10%)\n"
              + COMMON.replace("(MessageCreationMax 600)\n", ""),
    # A predictor (docs/prediction.md) reads the predictive path and its history's latency.
    "predict": "(Topology (Torus 4 4))\n(RoutingAlgorithm DimensionOrder)\n(VirtualChannels 2)\n"
               "(DeadlockHandling Avoid)\n(MessageCreationRate 4%)\n(import \"predictors\")\n"
               "(RouterPipeline (IB 1clock) (RC 3clock) (VA 1clock) (SA 1clock) (ST 1clock))\n"
               "(Predictor LastPort)\n(PredictivePath (IB 1clock) (ST 1clock))\n"
               "(PredictorLatency 4clock)\n" + COMMON,
    # Without hint bits a packet's copy leaves from its buffer first: cut-through.
    "predict-vct": "(Topology (Torus 4 4))\n(RoutingAlgorithm DimensionOrder)\n(VirtualChannels 2)\n"
                   "(DeadlockHandling Avoid)\n(MessageCreationRate 4%)\n(import \"predictors\")\n"
                   "(Predictor LastPort)\n(PredictivePath (IB 1clock) (ST 0clock))\n"
                   + COMMON.replace("Wormhole", "VirtualCutThrough"),
    # A network interface (docs/interfaces.md) with the host's costs, under the pattern's programs.
    "iface": "(Topology (Torus 4 4))\n(RoutingAlgorithm DimensionOrder)\n(VirtualChannels 2)\n"
             "(DeadlockHandling Avoid)\n(CommunicationPatternFile \"app.cpf\")\n"
             "(ClockDomain dimm (Period 15nsec))\n"
             "(Interface aotf (SendPath s (Stage tlb dimm 3clock)) "
             "(ReceivePath r (Stage llcm dimm 1clock)))\n"
             "(HostWriteTime 71nsec)\n(HostReadTime 184nsec)\n(SoftwareOverhead 214nsec)\n"
             "(PollInterval 40nsec)\n(PollPhase 10nsec)\n" + COMMON,
    # An interface whose node 0 has a cable back to itself, which node 0's messages to itself
    # take under (Loopback External).
    "iface-loop": "(define-topology (CabledLine) (Nodes 16) (for (i 0 to 14) (Link i (+ i 1) 0))\n"
                  "  (UnidirectionalLink 0 0 1))\n(Topology (CabledLine))\n"
                  "(define-routing (LineOrCable)\n"
                  "  (if (and (injected) (= current dest)) (port 1 1)\n"
                  "      (port 0 (if (< current dest) 1 -1))))\n(RoutingAlgorithm LineOrCable)\n"
                  "(CommunicationPatternFile \"loop.cpf\")\n"
                  "(ClockDomain dimm (Period 15nsec))\n"
                  "(Interface aotf (SendPath s (Stage tlb dimm 3clock)) "
                  "(ReceivePath r (Stage llcm dimm 1clock)))\n" + COMMON,
    # A recovery routing reads RecoveryTimeout.
    "recovery": "(Topology (Torus 4 4))\n(RoutingAlgorithm RecoverX)\n(VirtualChannels 3)\n"
                "(DeadlockHandling Detect)\n(MessageCreationRate 30%)\n"
                "(MessageLength 512bit)\n(NetworkPacketSize Message)\n"
                "(InjectionQueueOverflow Block)\n(FlowControlMethod Wormhole)\n"
                "(NetworkChannelWidth 32bit)\n(NetworkFrequency 100MHz)\n"
                "(NodeBufferSize 4flit)\n(MessageCreationMax 1500)\n",
}

# (form, value, base): the value differs from the base's.
CASES = [
    ("Topology", "(Mesh 4 4)", "rate"),
    ("FlowControlMethod", "VirtualCutThrough", "rate"),
    ("NetworkChannelWidth", "64bit", "rate"),
    ("NetworkFrequency", "200MHz", "rate"),
    ("NetworkPacketSize", "256bit", "rate"),
    ("NetworkDataSize", "64bit", "rate"),
    ("NodeHardwareDelay", "3clock", "rate"),
    ("RouterPipeline", "(IB 0clock) (RC 1clock) (VA 1clock) (SA 1clock) (ST 1clock)", "rate"),
    ("NodeBufferSize", "8flit", "rate"),
    ("MessageCreationMax", "300", "rate"),
    ("MessageCreationInterval", "25clock", "interval"),
    ("MessageCreationRate", "8%", "rate"),
    ("MessageLength", "64bit to 128bit", "rate"),
    ("MessageMaxCount", "1", "rate"),
    ("InjectionQueueOverflow", "Block", "rate"),
    ("SimulationInterval", "50clock", "rate"),
    ("DataOutputFile", '"out.dof"', "rate"),
    ("ScreenOutputFile", '"out.sof"', "rate"),
    ("RoutingAlgorithm", "DimensionOrder", "rate"),
    ("VirtualChannels", "4", "rate"),
    ("InjectionVirtualChannels", "2", "rate"),
    ("VcAllocation", "NonAtomic", "rate"),
    ("SwitchInputArbitration", "ByOutput", "rate"),
    ("SwitchHold", "Packet", "rate"),
    ("InternalSpeedup", "2", "rate"),
    ("Selection", "Random", "rate"),
    ("Predictor", "StaticStraight", "predict"),
    ("PredictivePath", "(IB 0clock) (ST 1clock)", "predict"),
    ("PredictorLatency", "0clock", "predict"),
    ("MispredictionCheck", "None", "predict-vct"),
    ("DeadlockHandling", "Detect", "interval"),
    ("RecoveryTimeout", "4clock", "recovery"),
    ("DeadlockTimeout", "500clock", "rate"),
    ("InjectionProcess", "(OnOff (Burst 50clock) (Duty 25%))", "rate"),
    ("OfferedLoad", "30%", "load"),
    ("InjectionProcess", "Periodic", "interval"),
    ("TrafficPattern", "Transpose", "rate"),
    ("TrafficPattern", "(HotSpot 20% (Nodes 5 6))", "rate"),
    ("RouterFrequency", "50MHz", "rate"),
    ("LinkDelay", "2clock", "rate"),
    ("CreditDelay", "3clock", "rate"),
    ("Seed", "7", "rate"),
    ("Measurement", "Burst", "steady"),
    ("WarmupMessages", "100", "rate"),
    ("MeasuredMessages", "300", "rate"),
    ("SimulationTime", "2000clock", "rate"),
    ("ReportPairs", "(0 5) (3 9)", "rate"),
    # Relative paths: from the .ndl file's directory when written, from the working directory
    # when set; both are `out` here.
    ("CommunicationPatternFile", '"app2.cpf"', "pattern"),
    ("ProcessorPerformanceExpandRate", "50%", "pattern"),
    ("Interface", "aotf (SendPath s (Stage tlb dimm 5clock)) (ReceivePath r (Stage llcm dimm 1clock))",
     "iface"),
    ("HostWriteTime", "50nsec", "iface"),
    ("HostReadTime", "100nsec", "iface"),
    ("SoftwareOverhead", "0nsec", "iface"),
    ("PollInterval", "70nsec", "iface"),
    ("PollPhase", "3nsec", "iface"),
    ("Loopback", "External", "iface-loop"),
]
EXCLUDED = {
    "Sweep": "read by ndlc sweep only, which passes each value with --set",
    "import": "not a parameter form: --set refuses it (checked below)",
    "TrafficClass": "repeatable: --set refuses it (diagnostics/fail_traffic_class.ndl)",
    "override": "not a parameter form: --set refuses it (diagnostics/fail_override.ndl)",
    "ClockDomain": "repeatable: --set refuses it, as it does TrafficClass",
}
VOLATILE = {"wall_seconds"}


def listed_forms():
    r = subprocess.run([ndlc, "check", "--list-forms"], capture_output=True, text=True, check=True)
    return [line.split()[0] for line in r.stdout.splitlines() if line.strip()]


def replace_form(text, form, value):
    """The program with (form ...) replaced by (form value), or appended."""
    pattern = re.compile(r"^\(" + re.escape(form) + r" .*\)$", re.M)
    line = f"({form} {value})"
    return pattern.sub(lambda _: line, text, count=1) if pattern.search(text) else text + line + "\n"


def run(name, text, sets=()):
    src = os.path.join(out, f"{name}.ndl")
    with open(src, "w") as f:
        f.write(text)
    js = os.path.join(out, f"{name}.json")
    if os.path.exists(js):
        os.remove(js)
    cmd = [ndlc, "run", "-O", "0", src]  # -O0 builds fastest; results are the same at every level
    for s in sets:
        cmd += ["--set", s]
    cmd += ["--", "--quiet", "--json", js]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode in (0, 3) and os.path.exists(js):
        with open(js) as f:
            data = with_tables(json.load(f), js)  # the tables' rows, not their names
        for k in VOLATILE:
            data.pop(k, None)
        return ("json", data)
    # An input error: its kinds, without positions (the file and <--set> differ).
    return ("error", r.returncode, sorted(set(re.findall(r"\[([a-z-]+)\]", r.stderr))))


with open(os.path.join(out, "app.cpf"), "w") as f:
    f.write("nodes 16\nnode all\n  repeat 3\n    compute 2usec\n    send +1 64byte\n"
            "    recv -1\n  end\n")
with open(os.path.join(out, "loop.cpf"), "w") as f:
    f.write("nodes 16\nnode 0\n  repeat 3\n    send 0 64byte\n    recv 0\n  end\n")
with open(os.path.join(out, "app2.cpf"), "w") as f:
    f.write("nodes 16\nnode all\n  compute 1usec\n  alltoall 32byte\n")

failed = []
covered = {form for form, _, _ in CASES}
missing = [f for f in listed_forms() if f not in covered and f not in EXCLUDED]
if missing:
    failed.append(f"forms with no case here: {', '.join(missing)}")

base_results = {name: run(f"base-{name}", text) for name, text in BASES.items()}
for name, result in base_results.items():
    if result[0] != "json":
        failed.append(f"base {name} does not run: {result}")

for i, (form, value, base) in enumerate(CASES):
    written = run(f"case{i}-file", replace_form(BASES[base], form, value))
    given = run(f"case{i}-set", BASES[base], [f"{form}={value}"])
    if written != given:
        diff = ""
        if written[0] == given[0] == "json":
            keys = [k for k in written[1] if written[1][k] != given[1].get(k)]
            diff = f" (keys differ: {', '.join(keys[:8])})"
        failed.append(f"{form}={value}: --set differs from the file{diff}: "
                      f"{str(written)[:300]} / {str(given)[:300]}")
    elif written == base_results[base]:
        failed.append(f"{form}={value}: no effect on the base program '{base}'")
    print(f"{form}={value}: {'same' if written == given else 'DIFFERENT'} "
          f"({written[0]}{'' if written[0] == 'json' else ' ' + ' '.join(written[2])})")

refused = run("import", BASES["rate"], ['import="topologies"'])
if refused[0] != "error" or refused[2] != ["bad-override"]:
    failed.append(f"--set import=... is not refused: {refused}")

for f in failed:
    print("FAIL:", f)
sys.exit(1 if failed else 0)
