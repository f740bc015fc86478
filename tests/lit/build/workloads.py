"""Closed-loop pattern files against the model (docs/workloads.md, docs/runtime.md 2.2).

workloads.py NDLC DIR: writes programs and patterns into DIR, runs them and checks
- ping-pong on an idle torus (ndlc pattern pingpong): each round trip is 2 (T + 1) clocks, T
  the zero-load latency of the model, in the completion time and in every interval of the
  round-trip marks; the application completes after exactly its round trips;
- a dissemination barrier on fully connected networks of 8 and 6 nodes (one hop per message,
  no two messages on one link) completes after exactly ceil(log2 N) one-hop message times;
  a gather-release barrier (ndlc pattern barrier --algorithm tree) on 8 and 16 nodes: every
  node finishes when the gather and the release reach it, by a model of the tree in which a
  node's sends to its children leave one packet after the other;
- a compute-bound ring exchange: doubling the processor speed-up
  (ProcessorPerformanceExpandRate 0% -> 100%) halves every compute gap, and the completion time
  is iterations x (gap + one-hop message time) both ways;
- every message of a pattern is delivered exactly once (per node counts against the pattern),
  also with synthetic background traffic beside it;
- posted receives (`recv ... as NAME`, `send ... after NAME`, `wait`): a node answers each
  of two requests the clock after it is in, where program order makes the early one wait;
- INSIGHT 3.2 (its ref. [8]): the same sort has slower messages on a torus, where its
  partners are several hops away, than on a hypercube, where they are neighbours, and ten
  times faster processors raise its message latency on the torus;
- a receive whose message was dropped ends the run as application_stuck, naming the waiters,
  with the results still written.
Prints one line per check; exits non-zero at the first failure.
"""
import json
import math
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from results_tables import with_tables  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)

BASE = """(FlowControlMethod VirtualCutThrough)
(NetworkChannelWidth 32bit)
(NetworkFrequency 100MHz)
(NetworkPacketSize 256bit)
(NetworkDataSize 192bit)
(NodeBufferSize 8flit)
"""
P = 8  # flits per packet: every message here fits one 256-bit packet


def zero_load(hops, delay=1, link=1, flits=P):
    """docs/runtime.md 2.2, cut-through: (H+1) D + H L + (P-1)."""
    return (hops + 1) * delay + hops * link + flits - 1


def run(name, program, pattern, *set_args, expect_exit=0):
    (OUT / f"{name}.cpf").write_text(pattern)
    (OUT / f"{name}.ndl").write_text(program + f'(CommunicationPatternFile "{name}.cpf")\n')
    js = OUT / f"{name}.json"
    cmd = [NDLC, "run", str(OUT / f"{name}.ndl"), *sum((["--set", s] for s in set_args), []),
           "--", "--json", str(js), "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != expect_exit:
        sys.exit(f"{name}: exit {p.returncode}, expected {expect_exit}\n{p.stdout}{p.stderr}")
    return with_tables(json.loads(js.read_text()), js)  # the per-node rows too


def check(what, ok, detail=""):
    print(f"{what}: {'ok' if ok else 'FAILED'} {detail}")
    if not ok:
        sys.exit(1)


def delivered_once(name, r, expected_received):
    a = r["application"]
    got = [n["received"] for n in r["nodes"]]
    check(f"{name}: every message delivered exactly once",
          a["messages_sent"] == a["messages_delivered"] == sum(expected_received)
          and a["messages_dropped"] == 0 and got == expected_received
          and r["conservation"]["holds"],
          f"sent {a['messages_sent']} delivered {a['messages_delivered']}")


# ---- ping-pong on an idle 4x4 torus, node 0 <-> node 10 (2 + 2 hops)
torus = "(Topology (Torus 4 4))\n(RoutingAlgorithm DimensionOrder)\n" + BASE
rounds = 5
# The generator's ping-pong (which marks every return at node 0), as a user would make it.
subprocess.run([NDLC, "pattern", "pingpong", "--nodes", "16", "--from", "0", "--to", "10",
                "--iterations", str(rounds), "--size", "16byte", "-o", str(OUT / "gen.cpf")],
               check=True)
pingpong = (OUT / "gen.cpf").read_text()
r = run("pingpong", torus, pingpong)
T = zero_load(4)
rtt = 2 * (T + 1)
a = r["application"]
check("ping-pong: one-way latency is the model's", r["latency_cycles"]["message"]["max"] == T
      and r["latency_cycles"]["message"]["mean"] == T, f"T = {T}")
check("ping-pong: each round trip is 2 (T + 1) clocks",
      a["complete"] and a["completion_clock"] == rounds * rtt
      and a["nodes"][0]["finish_clock"] == rounds * rtt
      and a["nodes"][10]["finish_clock"] == rounds * rtt - (T + 1),
      f"completion {a['completion_clock']} = {rounds} x {rtt}")
check("ping-pong: time is computing or waiting",
      a["nodes"][0]["wait_ns"] == rounds * rtt * 10 and a["nodes"][0]["compute_ns"] == 0
      and a["completion_time_ns"] == rounds * rtt * 10)
marks = a["marks"]
check("ping-pong: node 0's round-trip marks record every round trip, each 2 (T + 1) clocks",
      len(marks) == 1 and marks[0]["label"] == "round-trip" and marks[0]["node"] == 0
      and marks[0]["count"] == rounds + 1
      and marks[0]["clocks"] == [k * rtt for k in range(rounds + 1)]
      and not marks[0]["clocks_truncated"]
      and marks[0]["interval_cycles"] == {"count": rounds, "mean": rtt, "min": rtt, "max": rtt}
      and marks[0]["interval_ns"]["mean"] == rtt * 10, json.dumps(marks))
delivered_once("ping-pong", r, [rounds if n in (0, 10) else 0 for n in range(16)])


# ---- dissemination barrier on fully connected networks: one hop, no shared links
def complete_graph(n):
    # Node i reaches i+d through port (d, +) and i-d through (d, -).
    return (f"(Topology (Nodes {n}) (for (i 0 to {n - 1}) (for (j 0 to {n - 1}) "
            f"(when (< i j) (Link i j (- j i))))))\n(RoutingAlgorithm ShortestPath)\n" + BASE)


for n in (8, 6):
    barriers = 3
    r = run(f"barrier{n}", complete_graph(n),
            f"nodes {n}\nnode all\n  repeat {barriers}\n    barrier\n  end\n")
    one_hop = zero_load(1) + 1
    per_barrier = math.ceil(math.log2(n)) * one_hop
    a = r["application"]
    check(f"barrier on {n} nodes: {math.ceil(math.log2(n))} rounds of {one_hop} clocks each",
          a["complete"] and a["completion_clock"] == barriers * per_barrier
          and all(x["finish_clock"] == barriers * per_barrier for x in a["nodes"])
          and r["hops"]["mean"] == 1,
          f"completion {a['completion_clock']} = {barriers} x {per_barrier}")
    delivered_once(f"barrier on {n} nodes", r, [barriers * math.ceil(math.log2(n))] * n)


def tree_barrier_finish(n, h):
    """Gather-release on the binomial tree of docs/workloads.md (reduce 0 then broadcast 0;
    node m's parent is m minus its highest bit, its children m + 2^k above that bit, nearest
    first), one hop of h clocks per message. In the gather a node sends to its parent once
    it has heard from all its children; in the release a node that has heard from its parent
    sends to its children, nearest first, its injection channel carrying one P-flit packet
    after the other, so its k-th child hears k*P clocks later."""
    def children(m):
        high = 0 if m == 0 else 1 << (m.bit_length() - 1)
        return [m + d for d in (1 << k for k in range(n.bit_length())) if d > high and m + d < n]
    gather = {}
    for m in reversed(range(n)):  # children are larger than their parent
        gather[m] = max((gather[c] + h for c in children(m)), default=0)
    finish = {0: gather[0]}
    for m in range(n):  # parents are smaller than their children
        for k, c in enumerate(children(m)):
            finish[c] = max(gather[c], finish[m] + h + k * P)
    return [finish[m] for m in range(n)]


for n in (8, 16):
    subprocess.run([NDLC, "pattern", "barrier", "--nodes", str(n), "--algorithm", "tree",
                    "-o", str(OUT / "tree.cpf")], check=True)
    r = run(f"tree{n}", complete_graph(n), (OUT / "tree.cpf").read_text())
    a = r["application"]
    want = tree_barrier_finish(n, zero_load(1) + 1)
    got = [x["finish_clock"] for x in a["nodes"]]
    check(f"tree barrier on {n} nodes: every node finishes when the gather and the release "
          "reach it", a["complete"] and got == want and a["completion_clock"] == max(want)
          and r["hops"]["mean"] == 1, f"{got}")
    # A node hears from each of its children in the gather, and once from its parent.
    delivered_once(f"tree barrier on {n} nodes", r,
                   [sum(1 for c in range(1, n) if c - (1 << (c.bit_length() - 1)) == m)
                    + (m != 0) for m in range(n)])

# ---- compute-bound ring exchange: the processor speed-up divides every compute gap
ring = "(Topology (Ring 8))\n(RoutingAlgorithm DimensionOrder)\n" + BASE
iterations = 10
exchange = f"""nodes 8
node all
  repeat {iterations}
    compute 10usec
    send +1 16byte tag 5
    recv -1 tag 5
  end
"""
one_hop = zero_load(1) + 1
times = {}
for rate, speedup in (("0%", 1), ("100%", 2)):
    r = run(f"compute_{speedup}x", ring, exchange, f"ProcessorPerformanceExpandRate={rate}")
    a = r["application"]
    gap = 1000 // speedup  # 10 usec at 100 MHz, divided by the speed-up
    check(f"ring exchange at speed-up {speedup}: iterations x (gap + one-hop time)",
          a["completion_clock"] == iterations * (gap + one_hop)
          and all(x["compute_ns"] == iterations * gap * 10 for x in a["nodes"]),
          f"completion {a['completion_clock']} = {iterations} x ({gap} + {one_hop})")
    times[speedup] = a["completion_clock"]
    delivered_once(f"ring exchange at speed-up {speedup}", r, [iterations] * 8)
check("doubling the speed-up saves half the compute time",
      times[1] - times[2] == iterations * 500, f"{times[1]} -> {times[2]}")

# ---- the same exchange beside synthetic background traffic
r = run("background", ring + "(MessageCreationRate 1%)\n(TrafficPattern Uniform)\n", exchange)
a = r["application"]
check("with background traffic the application completes, no sooner than alone",
      a["complete"] and r["status"] == "ok" and a["completion_clock"] >= times[1]
      and r["messages"]["created"] > a["messages_sent"],
      f"{a['completion_clock']} clocks, {r['messages']['created'] - a['messages_sent']} "
      "background messages")
check("background: the application's messages all arrive once",
      a["messages_delivered"] == a["messages_sent"] == iterations * 8
      and r["conservation"]["holds"])

# ---- posted receives: node 0 answers nodes 1 and 2 each as soon as its message is in,
# whichever comes first; node 1 computes 5 us (500 clocks) first. Node 2's round trip is
# then 2 (T2 + 1) clocks, not delayed behind node 1's as in program order.
dataflow = """nodes 16
node 0
  recv 1 tag 1 as a
  recv 2 tag 1 as b
  send 1 16byte tag 2 after a
  send 2 16byte tag 2 after b
  wait a b
node 1
  compute 5usec
  send 0 16byte tag 1
  recv 0 tag 2
node 2
  send 0 16byte tag 1
  recv 0 tag 2
"""
T1, T2 = zero_load(1), zero_load(2)
r = run("dataflow", torus, dataflow)
f = [x["finish_clock"] for x in r["application"]["nodes"]]
check("posted receives: each answer leaves when its own message is in",
      f[2] == 2 * (T2 + 1) and f[1] == 500 + 2 * (T1 + 1) and f[0] == 500 + T1 + 1
      and r["application"]["complete"], f"finish {f[:3]}")
in_order = dataflow.replace(" as a", "").replace(" as b", "").replace(" after a", "") \
    .replace(" after b", "").replace("  wait a b\n", "")
in_order = in_order.replace("  recv 2 tag 1\n  send 1 16byte tag 2\n", "  send 1 16byte tag 2\n  recv 2 tag 1\n")
r = run("in_order", torus, in_order)
f = [x["finish_clock"] for x in r["application"]["nodes"]]
# (both answers leave node 0 at once, node 2's a packet behind node 1's)
check("in program order node 2's answer waits behind node 1's",
      f[2] == 500 + T1 + 1 + P + T2 + 1, f"finish {f[:3]}")

# A send `after a b` waits for the receives named a and b when its line was reached, not for
# a receive posted as `a` later: here node 0 posts `a` again before `b` completes, in
# both orders of the senders. Both finish, and the checker accepts both.
for name, messages, text in (("repost1", 4, """nodes 16
node 0
  recv 1 tag 1 as a
  recv 2 tag 1 as b
  send 1 8byte tag 2 after a b
  wait a
  recv 1 tag 3 as a
node 1
  send 0 8byte tag 1
  recv 0 tag 2
  send 0 8byte tag 3
node 2
  compute 2usec
  send 0 8byte tag 1
"""), ("repost2", 5, """nodes 16
node 0
  recv 2 tag 1 as a
  recv 1 tag 1 as b
  send 2 8byte tag 2 after a b
  wait a
  recv 2 tag 3 as a
node 1
  recv 2 tag 9
  send 0 8byte tag 1
node 2
  send 0 8byte tag 1
  send 1 8byte tag 9
  recv 0 tag 2
  send 0 8byte tag 3
""")):
    r = run(name, torus, text)
    check(f"{name}: a send waits for the receives pending at its line",
          r["status"] == "ok" and r["application"]["complete"]
          and r["application"]["messages_delivered"] == messages)

# ---- INSIGHT 3.2, citing its ref. [8]: under e-cube routing the network latency changes
# markedly with the locality of the pattern and with the processors' performance. The same
# bitonic sort (partners n XOR 2^j) on a 64-node hypercube, where every partner is a
# neighbour, and on an 8x8 torus, where it is up to 8 hops away; and on the torus with
# processors ten times as fast, so that the merge-split steps' exchanges crowd together.
subprocess.run([NDLC, "pattern", "sort", "--nodes", "64", "--size", "128byte", "--compute", "2usec",
                "-o", str(OUT / "sort64.cpf")], check=True)
sort64 = (OUT / "sort64.cpf").read_text()
e_cube = """(NetworkPacketSize 256bit)
(NetworkDataSize 192bit)
(NodeHardwareDelay 2clock)
(FlowControlMethod VirtualCutThrough)
(NetworkChannelWidth 32bit)
(NetworkFrequency 50MHz)
"""
cube = run("sort_cube", "(Topology (Hypercube 6))\n(RoutingAlgorithm Ecube)\n" + e_cube, sort64)
tor = run("sort_torus", "(Topology (Torus 8 8))\n(RoutingAlgorithm DimensionOrder)\n"
          "(VirtualChannels 2)\n" + e_cube, sort64)
fast = run("sort_torus_fast", "(Topology (Torus 8 8))\n(RoutingAlgorithm DimensionOrder)\n"
           "(VirtualChannels 2)\n" + e_cube, sort64, "ProcessorPerformanceExpandRate=900%")
lat = {k: x["latency_ns"]["message"]["mean"] for k, x in
       (("cube", cube), ("torus", tor), ("fast", fast))}
check("[8] locality: the sort's messages are slower where its partners are farther",
      cube["hops"]["mean"] == 1 and tor["hops"]["mean"] > 1.5 and lat["torus"] > lat["cube"],
      f"{lat['cube']:.0f} ns over 1 hop, {lat['torus']:.0f} ns over {tor['hops']['mean']:.2f}")
check("[8] performance: ten times faster processors raise the sort's message latency",
      lat["fast"] > 1.1 * lat["torus"]
      and fast["application"]["completion_clock"] < tor["application"]["completion_clock"],
      f"{lat['torus']:.0f} -> {lat['fast']:.0f} ns")

# ---- drops leave a receive waiting for ever: reported, not a hang
r = run("stuck", ring.replace("VirtualCutThrough", "Wormhole")
        + "(DeadlockHandling DropAfterTimeout)\n(DeadlockTimeout 1clock)\n"
        + "(MessageCreationRate 20%)\n(MessageCreationMax 20000)\n", exchange, expect_exit=3)
a = r["application"]
check("a dropped message ends the run as application_stuck, naming who waits",
      r["status"] == "application_stuck" and not a["complete"] and a["messages_dropped"] > 0
      and a["waiting_nodes"] > 0 and a["waiting"][0]["line"] == 6
      and all(w["tag"] == 5 and w["from"] == (w["node"] - 1) % 8 for w in a["waiting"])
      and "will never arrive" in r["status_message"],
      r["status_message"][:100])

# ---- a simulator reads its pattern again at start: a file changed since the build is checked
sim = OUT / "pingpong-sim"
subprocess.run([NDLC, "build", str(OUT / "pingpong.ndl"), "-o", str(sim)], check=True)
(OUT / "pingpong.cpf").write_text(pingpong.replace("recv 10 tag 2", "recv 10 tag 3"))
p = subprocess.run([str(sim), "--quiet"], capture_output=True, text=True)
recv_line = pingpong.splitlines().index("  recv 10 tag 2") + 1
check("a simulator rereads its pattern file and reports its errors in place",
      p.returncode == 1 and f"pingpong.cpf:{recv_line}:3: error: node 0 waits for a message from node 10 "
      "with tag 3 that is never sent" in p.stderr and "  recv 10 tag 3\n  ^\nhint: " in p.stderr
      and "each other" not in p.stderr, p.stderr.splitlines()[0] if p.stderr else "")
