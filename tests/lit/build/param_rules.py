"""param_rules.py UNIFORM_SIM HOT_SIM DIR: the command line of a built simulator.

Every case runs a simulator with arguments and checks its exit code and the first line of
its stderr (exactly). Refusals exit 2; accepted values run (exit 0) and, where it matters,
show in the JSON.
"""
import json
import os
import subprocess
import sys

uniform, hot, out = sys.argv[1], sys.argv[2], sys.argv[3]
REBUILD = "shapes the simulator itself; change it in the program and rebuild (ndlc run FILE " \
          "--set ... rebuilds when needed)"
PATTERNS = "0 Uniform, 1 BitReversal, 2 BitComplement, 3 Transpose, 4 Shuffle, 5 Tornado, " \
           "6 Neighbor, 7 HotSpot, 8 AllToAll, 9 Diagonal, 10 Asymmetric, 11 " \
           "RandomPermutation, 12 BadDragon or 13 Custom (the code or the name) (the program's " \
           "TrafficPattern)"
SEED = "expected an unsigned integer, 0 to 18446744073709551615"

# (simulator, arguments, exit code, first line of stderr; None: not checked)
CASES = [
    # Enum codes outside the enum: Pattern=20 crashed, FlowControl=3 ran as cut-through.
    (uniform, ["--param", "Pattern=20"], 2, f"error: --param Pattern=20: not a Pattern: expected {PATTERNS}"),
    (uniform, ["--param", "Pattern=-1"], 2, f"error: --param Pattern=-1: not a Pattern: expected {PATTERNS}"),
    (uniform, ["--param", "Pattern=255"], 2, f"error: --param Pattern=255: not a Pattern: expected {PATTERNS}"),
    (uniform, ["--param", "Pattern=1000"], 2, f"error: --param Pattern=1000: not a Pattern: expected {PATTERNS}"),
    (uniform, ["--param", "FlowControl=3"], 2,
     "error: --param FlowControl=3: not a FlowControl: expected 0 StoreAndForward, "
     "1 VirtualCutThrough or 2 Wormhole (the code or the name) (the program's FlowControlMethod)"),
    (uniform, ["--param", "FlowControl=256"], 2, None),
    (uniform, ["--param", "QueueOverflow=2"], 2,
     "error: --param QueueOverflow=2: not a QueueOverflow: expected 0 Refuse or 1 Block "
     "(the code or the name) (the program's InjectionQueueOverflow)"),
    (uniform, ["--param", "CreationProcess=3"], 2,
     "error: --param CreationProcess=3: not a CreationProcess: expected 0 Bernoulli, "
     "1 Periodic or 2 OnOff (the code or the name) (the program's InjectionProcess)"),
    (uniform, ["--param", "CreationProcess=2"], 2,
     "error: --param CreationProcess=2: OnOff needs OnOffBurstClocks (the mean on period, at "
     "least 1) and OnOffDuty (the share of the time on, above 0 and at most 1)"),
    # A trace is the load: not beside synthetic messages, and without a steady state; it is
    # read when the simulator starts.
    (uniform, ["--param", "TraceFile=/no/such.trace"], 2,
     "error: --param TraceFile=/no/such.trace: a trace is the load, and this run also creates "
     "synthetic messages (CreationRate above 0): give CreationRate=0 too"),
    (uniform, ["--param", "TraceFile=/no/such.trace", "--param", "CreationRate=0",
               "--param", "Measurement=Steady"], 2,
     "error: --param Measurement=Steady: a trace's run (TraceFile) ends when its last message "
     "has arrived; it has no steady state to measure: give Measurement=Burst"),
    (uniform, ["--param", "TraceFile=/no/such.trace", "--param", "CreationRate=0"], 1,
     "/no/such.trace: error: cannot read the trace file '/no/such.trace'"),
    (uniform, ["--param", f"TraceFile={out}", "--param", "CreationRate=0"], 1,
     f"{out}: error: the trace file '{out}' is a directory"),
    # Entries the compiler derives with the packet's layout.
    (uniform, ["--param", "ChannelWidthBits=64"], 2, f"error: --param ChannelWidthBits=64: ChannelWidthBits {REBUILD}"),
    (uniform, ["--param", "HeaderFlits=3"], 2, f"error: --param HeaderFlits=3: HeaderFlits {REBUILD}"),
    (uniform, ["--param", "DataBitsPerPacket=1000"], 2, f"error: --param DataBitsPerPacket=1000: DataBitsPerPacket {REBUILD}"),
    # Values with nothing to act on.
    (uniform, ["--param", "ExpandRate=0.5"], 2,
     "error: --param ExpandRate=0.5: has no effect: it scales the compute gaps of a "
     "communication pattern file, and this run has none (PatternFile)"),
    (uniform, ["--param", "HotSpotShare=0.3"], 2,
     "error: --param HotSpotShare=0.3: has no effect: it is the share of HotSpot traffic, "
     "and the pattern is Uniform"),
    (hot, ["--param", "Pattern=Uniform", "--param", "HotSpotShare=0.3"], 2,
     "error: --param HotSpotShare=0.3: has no effect: it is the share of HotSpot traffic, "
     "and the pattern is Uniform"),
    (uniform, ["--param", "Pattern=HotSpot"], 2,
     "error: --param Pattern=HotSpot: this simulator has no hot-spot nodes: they are compiled "
     "in; write (TrafficPattern (HotSpot 10% (Nodes ...))) in the program and rebuild "
     "(ndlc run FILE --set ... rebuilds when needed)"),
    (hot, ["--param", "HotSpotShare=5"], 2,
     "error: --param HotSpotShare=5: out of range: HotSpotShare is 0 (no hot-spot traffic) or "
     "above 0 and at most 1 (the program's TrafficPattern)"),
    (hot, ["--param", "HotSpotShare=-1"], 2, None),
    # Negative values and silent defaults.
    (uniform, ["--param", "CreationIntervalClocks=-1"], 2,
     "error: --param CreationIntervalClocks=-1: out of range: CreationIntervalClocks is 0 "
     "(none: the traffic is given as a rate) or at least 1 network clocks (the program's "
     "MessageCreationInterval)"),
    (uniform, ["--param", "HeaderDelayClocks=-1"], 2,
     "error: --param HeaderDelayClocks=-1: out of range: HeaderDelayClocks is 0 to 2147483647 "
     "network clocks (the program's NodeHardwareDelay)"),
    (uniform, ["--param", "DeadlockTimeoutClocks=0"], 2,
     "error: --param DeadlockTimeoutClocks=0: out of range: DeadlockTimeoutClocks is 1 to "
     "2305843009213693951 network clocks (the program's DeadlockTimeout)"),
    # The limits of the runtime: link and credit delays alike.
    (uniform, ["--param", "CreditDelayClocks=256"], 2,
     "error: --param CreditDelayClocks=256: out of range: CreditDelayClocks is 1 to 255 "
     "network clocks (the program's CreditDelay)"),
    (uniform, ["--param", "LinkDelayClocks=300"], 2,
     "error: --param LinkDelayClocks=300: out of range: LinkDelayClocks is 1 to 255 network "
     "clocks (the program's LinkDelay)"),
    # --seed and --json.
    (uniform, ["--seed", "abc"], 2, f"error: --seed abc: {SEED}"),
    (uniform, ["--seed", "-1"], 2, f"error: --seed -1: {SEED}"),
    (uniform, ["--seed", "18446744073709551616"], 2, f"error: --seed 18446744073709551616: {SEED}"),
    (uniform, ["--json", ""], 2, "error: --json needs a file name; '' names none"),
    # Accepted: names for codes, the limits themselves, neutral values, a moot compiled share.
    (uniform, ["--param", "FlowControl=VirtualCutThrough", "--param", "Pattern=Transpose",
               "--param", "LinkDelayClocks=255", "--param", "CreditDelayClocks=255",
               "--param", "ExpandRate=0", "--param", "HotSpotShare=0"], 0, None),
    (hot, ["--param", "Pattern=Uniform"], 0, None),
    (hot, ["--param", "HotSpotShare=0.5"], 0, None),
]

failed = []
for k, (sim, args, code, first) in enumerate(CASES):
    js = os.path.join(out, f"case{k}.json")
    own = [] if "--json" in args else ["--json", js]
    r = subprocess.run([sim, "--quiet"] + own + args, capture_output=True, text=True)
    line = r.stderr.splitlines()[0] if r.stderr else ""
    name = f"{os.path.basename(sim)} {' '.join(args)}"
    if r.returncode != code:
        failed.append(f"{name}: exit {r.returncode}, expected {code}: {r.stderr[:300]}")
    elif first is not None and line != first:
        failed.append(f"{name}: stderr\n  {line}\nexpected\n  {first}")
    elif code == 2 and os.path.exists(js):
        failed.append(f"{name}: refused, but wrote {js}")

# The seed is any uint64, exactly: 2^63 and 2^64-1 are two runs, reported as given.
runs = {}
for seed in ("9223372036854775808", "18446744073709551615"):
    js = os.path.join(out, f"seed{seed}.json")
    r = subprocess.run([uniform, "--quiet", "--json", js, "--seed", seed], capture_output=True,
                       text=True)
    if r.returncode != 0:
        failed.append(f"--seed {seed}: exit {r.returncode}: {r.stderr[:300]}")
        continue
    with open(js) as f:
        runs[seed] = json.load(f)
    if runs[seed]["config"]["Seed"] != int(seed):
        failed.append(f"--seed {seed}: the results report seed {runs[seed]['config']['Seed']}")
if len(runs) == 2 and runs["9223372036854775808"]["latency_cycles"] == \
        runs["18446744073709551615"]["latency_cycles"]:
    failed.append("--seed 2^63 and 2^64-1 gave the same run")

# A compiled hot-spot share left moot by Pattern=Uniform is not reported, and the run is the
# uniform simulator's own.
moot_case = CASES.index((hot, ["--param", "Pattern=Uniform"], 0, None))
moot_json = os.path.join(out, f"case{moot_case}.json")
plain_json = os.path.join(out, "plain.json")
subprocess.run([uniform, "--quiet", "--json", plain_json], check=True)
if not os.path.exists(moot_json):
    failed.append("hot.sim --param Pattern=Uniform wrote no results")
else:
    with open(moot_json) as f:
        moot = json.load(f)
    with open(plain_json) as f:
        plain = json.load(f)
    if moot["config"]["TrafficPattern"] != "Uniform" or moot["messages"] != plain["messages"]:
        failed.append("hot.sim --param Pattern=Uniform does not run as the uniform simulator")

for f in failed:
    print("FAIL:", f)
print(f"{len(CASES) + 3 - len(failed)} checks passed")
sys.exit(1 if failed else 0)
