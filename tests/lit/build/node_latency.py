"""node_latency.py NDLC DIR: the per-node latencies of the nodes table (docs/runtime.md,
"Tables"). An 8x8 mesh under light uniform traffic (a burst of 20,000 one-packet messages):
- Each measured message is counted once at its source's row and once at its destination's:
  the sent means weighted by their counts, the received ones likewise, and the summary's
  message latency (mean times measured count) are the same total.
- At this load a message's latency is its zero-load latency (hops + the packet's flits + a
  constant) plus little queueing, so a node's sent mean grows with its mean distance to the
  others (computed here): a corner (mean distance 7.1) waits about 3 hops more than a
  centre node (mean distance 4.1), and over all nodes the sent mean follows the mean distance
  with a slope of 2 clocks per hop (header delay 1 clock, link delay 1 clock), within 10%.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ndltest import check, run  # noqa: E402
from results_tables import table  # noqa: E402

ndlc, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
K = 8
r = run(ndlc, out, "mesh", f"""(Topology (Mesh {K} {K}))
(NetworkChannelWidth 32bit)
(NetworkFrequency 1GHz)
(NetworkPacketSize 128bit)
(OfferedLoad 2%)
(Measurement Burst)
(MessageCreationMax 20000)
""")
nodes = table(r, os.path.join(out, "mesh.json"), "nodes")
check("a row per node", len(nodes) == K * K)
count = r["latency_cycles"]["message"]["count"]
total = r["latency_cycles"]["message"]["mean"] * count
# A burst without warm-up measures every message: a row's counts are its sent and received.
sent = sum(n["sent_message_latency_mean"] * n["sent"] for n in nodes)
received = sum(n["received_message_latency_mean"] * n["received"] for n in nodes)
check("every message is measured", sum(n["sent"] for n in nodes) == count ==
      sum(n["received"] for n in nodes), f"{count}")
check("sent latencies add up to the summary's", abs(sent - total) <= 1e-6 * total,
      f"{sent} vs {total}")
check("received latencies add up to the summary's", abs(received - total) <= 1e-6 * total,
      f"{received} vs {total}")
coords = [(i % K, i // K) for i in range(K * K)]
dist = [sum(abs(a[0] - b[0]) + abs(a[1] - b[1]) for b in coords) / (K * K - 1) for a in coords]
lat = [n["sent_message_latency_mean"] for n in nodes]
corner, centre = 0, (K // 2) * K + K // 2 - 1
check("a corner waits about its extra hops longer than the centre",
      abs((lat[corner] - lat[centre]) - 2 * (dist[corner] - dist[centre])) <= 1.0,
      f"{lat[corner]:.2f} - {lat[centre]:.2f} vs 2 x ({dist[corner]:.2f} - {dist[centre]:.2f})")
mx, my = sum(dist) / len(dist), sum(lat) / len(lat)
slope = sum((x - mx) * (y - my) for x, y in zip(dist, lat)) / sum((x - mx) ** 2 for x in dist)
check("the sent mean grows 2 clocks per hop of mean distance", abs(slope - 2) <= 0.2,
      f"slope {slope:.3f}")
