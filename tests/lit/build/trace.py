"""trace.py NDLC DIR: (InjectionProcess (Trace "file")) replays a trace's messages at their
clocks, from their sources to their destinations, with their sizes (docs/workloads.md,
"Message traces"). On a 4x4 mesh with dimension-order routing (header delay D, link delay L
and packets of P flits from the results' config):
- 300 one-packet messages of random pairs, 60 clocks apart (longer than any of them takes):
  each meets an idle network, so its latency is the zero-load T = (H+1)D + HL + (P-1) of its
  Manhattan distance H (docs/runtime.md 2.2), to the clock: the mean and the maximum equal
  the ones computed here (no message is faster than its zero-load latency, so an equal mean
  means each one's), and every source's sent count is its lines' count.
- The same trace under another seed gives the same results (a trace draws nothing).
- The same trace with times (60i ns, or 0.4 ns before it) in place of clocks gives them too:
  a message enters at the first network clock edge at or after its time.
- WarmupMessages 100 leaves the first 100 to arrive out: 200 measured.
- 15 messages to node 0 at clock 0: its ejection port delivers one flit per clock, so the
  last one arrives 15P - 1 clocks after the first flit at the earliest: the maximum latency
  is at least 15P - 1 + the nearest source's zero-load T minus its P - 1.
- --param TraceFile= replays another trace with the same simulator; a trace changed after
  the build into a bad one is reported at its line when the simulator starts (exit 1).
"""
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ndltest import check, run  # noqa: E402
from results_tables import table  # noqa: E402

ndlc, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
K = 4
N = K * K


def write_trace(name, lines):
    path = os.path.join(out, name)
    with open(path, "w") as f:
        f.write(f"nodes {N}\n; clock source destination size\n")
        for c, s, d, size in lines:
            f.write(f"{c} {s} {d} {size}\n")
    return path


rng = random.Random(7)
pairs = []
while len(pairs) < 300:
    s, d = rng.randrange(N), rng.randrange(N)
    if s != d:
        pairs.append((s, d))
write_trace("spaced.trace", [(60 * i, s, d, "32bit") for i, (s, d) in enumerate(pairs)])
PROGRAM = """(Topology (Mesh 4 4))
(NetworkChannelWidth 32bit)
(NetworkFrequency 1GHz)
(NetworkPacketSize 128bit)
(InjectionProcess (Trace "spaced.trace"))
"""
r = run(ndlc, out, "spaced", PROGRAM)
cfg = r["config"]
check("the config names the trace", cfg["creation_process"] == "trace" and
      cfg["trace_messages"] == 300 and cfg["TraceFile"].endswith("spaced.trace"), f"{cfg}")
D, L, P = cfg["NodeHardwareDelay_clocks"], cfg["LinkDelay_clocks"], cfg["NetworkPacketSize_flits"]


def hops(s, d):
    return abs(s % K - d % K) + abs(s // K - d // K)


zero = [(hops(s, d) + 1) * D + hops(s, d) * L + (P - 1) for s, d in pairs]
m = r["latency_cycles"]["message"]
check("every message of the trace arrives", r["messages"]["delivered"] == 300 and
      m["count"] == 300, f"{r['messages']}")
check("each message takes its zero-load latency: the mean",
      abs(m["mean"] - sum(zero) / len(zero)) < 1e-9, f"{m['mean']} vs {sum(zero) / len(zero)}")
check("each message takes its zero-load latency: the maximum", m["max"] == max(zero),
      f"{m['max']} vs {max(zero)}")
nodes = table(r, os.path.join(out, "spaced.json"), "nodes")
sent = [0] * N
for s, _ in pairs:
    sent[s] += 1
check("every source sends its lines of the trace", [n["sent"] for n in nodes] == sent,
      f"{[n['sent'] for n in nodes]} vs {sent}")
check("the run lasts until the last message has arrived",
      r["cycles"] >= 60 * 299 + zero[-1], f"{r['cycles']}")

again = run(ndlc, out, "seeded", PROGRAM + "(Seed 99)\n")
check("another seed, the same results", again["latency_cycles"] == r["latency_cycles"] and
      again["cycles"] == r["cycles"])

# The same messages at times: 60i ns is clock 60i at 1GHz, and 0.4 ns before it too (a message
# enters at the first clock edge at or after its time).
write_trace("timed.trace", [(f"{60 * i}ns" if i % 2 == 0 else f"{60 * i * 1000 - 400}ps", s, d,
                             "32bit") for i, (s, d) in enumerate(pairs)])
timed = run(ndlc, out, "timed", PROGRAM.replace("spaced.trace", "timed.trace"))
check("times in place of clocks: the same results", timed["latency_cycles"] ==
      r["latency_cycles"] and timed["cycles"] == r["cycles"], f"{timed['latency_cycles']}")

warm = run(ndlc, out, "warm", PROGRAM + "(WarmupMessages 100)\n")
check("WarmupMessages leaves the first to arrive out",
      warm["latency_cycles"]["message"]["count"] == 200, f"{warm['latency_cycles']['message']}")

write_trace("hot.trace", [(0, s, 0, "32bit") for s in range(1, N)])
hot = run(ndlc, out, "hot", PROGRAM.replace("spaced.trace", "hot.trace"))
nearest = 1 * D + 1 * L  # a neighbour's header
check("one ejection port serialises 15 packets",
      hot["latency_cycles"]["message"]["max"] >= 15 * P - 1 + nearest,
      f"max {hot['latency_cycles']['message']['max']} vs {15 * P - 1 + nearest}")
check("all 15 arrive", hot["messages"]["delivered"] == 15, f"{hot['messages']}")

# The simulator reads its trace at start: --param TraceFile replays another one, and a trace
# that has become bad since the build is reported at its line.
exe = os.path.join(out, "spaced.sim")
p = subprocess.run([ndlc, "build", os.path.join(out, "spaced.ndl"), "-o", exe],
                   capture_output=True, text=True)
check("builds", p.returncode == 0, p.stderr)
js = os.path.join(out, "swapped.json")
p = subprocess.run([exe, "--json", js, "--param", f"TraceFile={os.path.join(out, 'hot.trace')}"],
                   capture_output=True, text=True)
import json  # noqa: E402
swapped = json.load(open(js))
check("--param TraceFile replays another trace",
      p.returncode == 0 and swapped["latency_cycles"] == hot["latency_cycles"], p.stderr)
bad = os.path.join(out, "bad.trace")
with open(bad, "w") as f:
    f.write(f"nodes {N}\n5 1 2 32bit\n3 1 2 32bit\n")
p = subprocess.run([exe, "--param", f"TraceFile={bad}"], capture_output=True, text=True)
check("a bad trace stops the simulator at its line", p.returncode == 1 and
      f"{bad}:3:1: error: clock 3 comes after clock 5 (line 2): a trace is in clock order"
      in p.stderr, f"exit {p.returncode}: {p.stderr}")
