"""channel_loads.py NDLC DIR: per-channel loads and latency histograms (docs/runtime.md 5).
- Neighbor traffic on a 4x4 torus under dimension order: every packet from (x, y) goes to
  (x+1, y+1) over the x+ link out of (x, y) and then the y+ link out of (x+1, y). So each x+
  and y+ channel carries exactly the flits its one source injected (nodes table), and every
  x- and y- channel none. The channels' flits sum to flit_hops and to the packets' hops
  times their flits (by_distance, counted at the routers' heads), after the run drains.
- At a load this light no two packets meet: every network latency is the zero-load one, so
  the network histogram is one bin holding every measured message.
- Uniform traffic, 2,000 messages of warm-up: as many packets measured as messages (one
  packet each); each histogram's counts sum to its measured count, its
  bins hold the p50 and max that latency_cycles reports, and the busiest channel carries at
  most one flit per clock.
- The heat map puts each channel of the neighbor run in its direction's cell, with its load.
- A steady run (the default) measures as many packets as messages, as the burst does.
"""
import csv
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ndltest import check, run  # noqa: E402

ndlc, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
K = 4
BASE = f"""(Topology (Torus {K} {K}))
(RoutingAlgorithm DimensionOrder)
(VirtualChannels 2)
(DeadlockHandling Avoid)
(NetworkChannelWidth 32bit)
(NetworkFrequency 100MHz)
(NetworkPacketSize 128bit)
"""


def table(r, name):
    with open(os.path.join(out, r["tables"][name])) as f:
        return list(csv.DictReader(f))


r = run(ndlc, out, "neighbor", BASE + "(TrafficPattern Neighbor)\n(MessageCreationRate 0.2%)\n"
        "(MessageCreationMax 2000)\n")
check("drained", r["messages"]["in_flight"] == 0)
nodes = {int(n["node"]): int(n["injected_flits"]) for n in table(r, "nodes")}
channels = table(r, "channels")
check("a channel per link direction", len(channels) == 4 * K * K == r["channels"]["count"])
wrong = []
for c in channels:
    src, to, flits = int(c["router"]), int(c["to_router"]), int(c["flits"])
    x, y = src % K, src // K
    if to == (x + 1) % K + K * y:  # x+: the source's own first hop
        want = nodes[src]
    elif to == x + K * ((y + 1) % K):  # y+: the second hop of the source at (x-1, y)
        want = nodes[(x - 1) % K + K * y]
    else:
        want = 0
    if flits != want:
        wrong.append((src, to, flits, want))
check("each x+ and y+ channel carries its one source's flits, x- and y- none", not wrong,
      f"{wrong[:4]}")
total = sum(int(c["flits"]) for c in channels)
by_hops = sum(d["hops"] * d["packets"] for d in r["by_distance"]) * 4  # 4-flit packets
check("channel flits sum to flit_hops", total == r["flit_hops"] == r["channels"]["flits"],
      f"{total} vs {r['flit_hops']}")
check("and to the packets' hops times their flits", total == by_hops, f"{total} vs {by_hops}")
check("the busiest is named", r["channels"]["busiest"].startswith("n") and
      r["channels"]["busiest"][-1] == "+", r["channels"]["busiest"])
hist = r["latency_histograms"]["network"]
lat = r["latency_cycles"]["network"]
check("zero load: every network latency equal", lat["p50"] == lat["max"] == lat["mean"],
      f"{lat}")
check("zero load: one bin holds every message",
      sorted(hist["counts"]) [-1] == lat["count"] == sum(hist["counts"]) and
      hist["first_clock"] <= lat["max"] < hist["first_clock"] + hist["bin_clocks"], f"{hist}")

r = run(ndlc, out, "uniform", BASE + "(MessageCreationRate 9%)\n(MessageCreationMax 20000)\n"
        "(WarmupMessages 2000)\n")
for kind in ("network", "message", "packet"):
    h, s = r["latency_histograms"][kind], r["latency_cycles"][kind]
    counts, first, width = h["counts"], h["first_clock"], h["bin_clocks"]
    check(f"{kind}: counts sum to the measured count", sum(counts) == s["count"],
          f"{sum(counts)} vs {s['count']}")
    check(f"{kind}: at most 100 bins of 1, 2 or 5 times a power of ten",
          len(counts) <= 100 and int(str(width).rstrip("0") or "0") in (1, 2, 5) and
          first % width == 0, f"{len(counts)} bins of {width}")
    check(f"{kind}: the last bin holds the max, none is past it",
          counts[-1] > 0 and first + (len(counts) - 1) * width <= s["max"] < first + len(counts) * width)
    seen, median_bin = 0, None
    for i, c in enumerate(counts):
        seen += c
        if median_bin is None and seen * 2 >= s["count"]:
            median_bin = i
    check(f"{kind}: the p50 falls in the bin where half are counted",
          first + median_bin * width <= s["p50"] < first + (median_bin + 1) * width)
# With one packet per message the packets measured are the messages measured: the packet
# completing the message that opens the window is measured with it (before, it was not).
check("one packet per message: as many packets measured as messages",
      r["latency_cycles"]["packet"]["count"] == r["latency_cycles"]["message"]["count"] == 18000)
check("the busiest channel carries at most a flit per clock",
      0 < r["channels"]["max_flits_per_clock"] <= 1 and
      r["channels"]["mean_flits_per_clock"] <= r["channels"]["max_flits_per_clock"])
# The plots of one run (python/ndl/plots.py): a histogram and a heat map of a 2-D torus, and a
# clear refusal for a network that is not one.
python_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "python")
env = dict(os.environ, PYTHONPATH=python_dir)
js = os.path.join(out, "uniform.json")
for what in ("histogram", "channels"):
    p = subprocess.run([sys.executable, "-m", "ndl.plots", what, js, "-o",
                        os.path.join(out, what)], capture_output=True, text=True, env=env)
    png = os.path.join(out, what + ".png")
    check(f"plot {what}", p.returncode == 0 and os.path.getsize(png) > 1000, p.stderr.strip())
# The heat map draws every channel where its direction says (a router's 3x3 block: x+ right
# of the centre, x- left, y+ above, y- below): under neighbor traffic each x+ and y+ cell holds
# its channel's load from the table, every x- and y- cell is 0, corners and centres are empty.
p = subprocess.run([sys.executable, "-m", "ndl.plots", "channels",
                    os.path.join(out, "neighbor.json"), "-o", os.path.join(out, "heat")],
                   capture_output=True, text=True, env=env)
check("heat map of the neighbor run", p.returncode == 0, p.stderr.strip())
with open(os.path.join(out, "heat.dat")) as f:
    cells = [[float(v) for v in line.split("\t")] for line in f.read().splitlines()]
load = {(int(c["router"]), int(c["to_router"])): float(c["flits_per_clock"]) for c in channels}
bad = []
for y in range(K):
    for x in range(K):
        node = x + K * y
        want = {(2, 1): load[node, (x + 1) % K + K * y], (1, 2): load[node, x + K * ((y + 1) % K)],
                (0, 1): 0.0, (1, 0): 0.0}
        for cy in range(3):
            for cx in range(3):
                got = cells[3 * y + cy][3 * x + cx]
                w = want.get((cx, cy))
                if (w is None and got == got) or (w is not None and got != w):
                    bad.append((x, y, cx, cy, got, w))
        if not (want[2, 1] > 0 and want[1, 2] > 0):
            bad.append((x, y, "x+ or y+ idle"))
check("heat map: each channel in its direction's cell", len(cells) == 3 * K and not bad, f"{bad[:4]}")

# A steady run (the default: no MessageCreationMax) measures as many packets as messages too.
r = run(ndlc, out, "steady", BASE + "(MessageCreationRate 9%)\n")
check("steady: converged", r["measurement"]["verdict"] == "converged", str(r["measurement"]))
check("steady, one packet per message: as many packets measured as messages",
      r["latency_cycles"]["packet"]["count"] == r["latency_cycles"]["message"]["count"] ==
      r["throughput"]["measured_messages"] > 1000,
      f"{r['latency_cycles']['packet']['count']} {r['latency_cycles']['message']['count']} "
      f"{r['throughput']['measured_messages']}")

ring = run(ndlc, out, "ring", "(Topology (Ring 6))\n(NetworkChannelWidth 32bit)\n"
           "(NetworkFrequency 100MHz)\n(NetworkPacketSize 128bit)\n(MessageCreationRate 1%)\n"
           "(MessageCreationMax 200)\n")
p = subprocess.run([sys.executable, "-m", "ndl.plots", "channels", os.path.join(out, "ring.json")],
                   capture_output=True, text=True, env=env)
check("no heat map of a ring, said plainly", p.returncode == 1 and
      "needs a 2-D Mesh or Torus" in p.stderr, p.stderr.strip())
check("a ring's channels: two per router", ring["channels"]["count"] == 12)
print("channel_loads: all checks passed")
