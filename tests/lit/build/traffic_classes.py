"""traffic_classes.py NDLC DIR: traffic classes (TrafficClass) and request-reply.

1. Request-reply on a 4x4 mesh (dimension order), a burst of 2,000 requests of one 4-flit
   packet each answered by a 384-bit reply (4 packets of 96 data bits: 16 flits). Counted
   apart from the per-class figures: the whole run's messages (4,000 created and delivered)
   and packets (2,000 + 8,000); one reply per request (the replies created are the requests
   delivered); a reply travels the reverse of its request's path, so both classes' mean hops
   are equal. With Neighbor requests node 0 sends only to node 5 and hears only node 5's
   replies (pairs (0 5) and (5 0)): as many replies as requests, and at this load the median
   network latency of a reply is the request's plus the 12 flits it has more (wormhole: a
   worm of L flits arrives L - 1 clocks after its head).
2. Two classes with rates, steady measurement, 8x8 mesh: Uniform one-packet messages at 5%
   and Transpose 16-flit messages at 10% flits/node/clock. Each class's offered and accepted
   load is its own (within 5%; Transpose's diagonal nodes send nothing, 7/8 of 10%), the classes' accepted loads add up to the network's (within
   2%: a class counts a message's flits at its delivery, the network each packet's), and each
   class's mean hops is its pattern's on the mesh, computed here (within 3%).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ndltest import check, run  # noqa: E402

ndlc, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)

BASE = """(Topology (Mesh {k} {k}))
(NetworkChannelWidth 32bit)
(NetworkFrequency 1GHz)
(NetworkPacketSize 128bit)
"""

# ---- 1. request-reply
REQUESTS = 2000
rr = run(ndlc, out, "request_reply", BASE.format(k=4) + f"""(Measurement Burst)
(MessageCreationMax {REQUESTS})
(ReportPairs (0 5) (5 0))
(TrafficClass request (OfferedLoad 0.4%) (MessageLength 32bit) (TrafficPattern Neighbor)
  (Reply response))
(TrafficClass response (MessageLength 384bit))
""")
msgs, pkts = rr["messages"], rr["packets"]
check("every message created is delivered", msgs["created"] == msgs["delivered"] == 2 * REQUESTS,
      f"{msgs}")
check("packets: one per request, four per reply", pkts["delivered"] == REQUESTS + 4 * REQUESTS,
      f"{pkts}")
req, rep = rr["classes"]
check("classes in order of declaration", [req["name"], rep["name"]] == ["request", "response"])
check("MessageCreationMax counts the requests", req["messages"]["created"] == REQUESTS,
      f"{req['messages']}")
check("one reply per request delivered", rep["messages"]["created"] == req["messages"]["delivered"]
      == rep["messages"]["delivered"], f"{req['messages']} {rep['messages']}")
check("a reply retraces its request's hop count", req["hops_mean"] == rep["hops_mean"] > 0,
      f"{req['hops_mean']} {rep['hops_mean']}")
import csv  # noqa: E402
import glob  # noqa: E402

rows = []
for f in glob.glob(os.path.join(out, "request_reply*pairs.csv")):
    rows += list(csv.DictReader(open(f)))
pairs = {(int(r["src"]), int(r["dst"])): r for r in rows}
check("both pairs reported", set(pairs) == {(0, 5), (5, 0)}, f"{sorted(pairs)}")
fwd, back = pairs[(0, 5)], pairs[(5, 0)]
n_fwd = int(fwd["latency_cycles.network.count"])
n_back = int(back["latency_cycles.network.count"])
check("node 0 hears a reply to each of its requests", n_fwd == n_back > 0, f"{n_fwd} {n_back}")
med_fwd = float(fwd["latency_cycles.network.p50"])
med_back = float(back["latency_cycles.network.p50"])
check("a reply's median network latency is the request's plus its 12 more flits",
      med_back - med_fwd == 12, f"{med_fwd} {med_back}")

# ---- 2. two rated classes, steady
K = 8
two = run(ndlc, out, "two_classes", BASE.format(k=K) + """(TrafficClass small (OfferedLoad 5%))
(TrafficClass large (OfferedLoad 10%) (MessageLength 384bit) (TrafficPattern Transpose))
""")
check("steady measurement converges", two["measurement"]["verdict"] == "converged",
      two["measurement"]["verdict"])
small, large = two["classes"]
# Transpose maps the 8 diagonal nodes onto themselves: they create no message.
for c, load in ((small, 0.05), (large, 0.10 * (K * K - K) / (K * K))):
    for what in ("offered_flits_per_node_cycle", "accepted_flits_per_node_cycle"):
        check(f"{c['name']}: {what} is its own load", abs(c[what] - load) <= 0.05 * load,
              f"{c[what]:.4f} vs {load}")
total = two["throughput"]["accepted_flits_per_node_cycle"]
both = small["accepted_flits_per_node_cycle"] + large["accepted_flits_per_node_cycle"]
check("the classes' accepted loads add up to the network's", abs(both - total) <= 0.02 * total,
      f"{both:.4f} vs {total:.4f}")
nodes = [(x, y) for y in range(K) for x in range(K)]
uniform = sum(abs(a[0] - b[0]) + abs(a[1] - b[1]) for a in nodes for b in nodes if a != b) / (
    len(nodes) * (len(nodes) - 1))
transpose = sum(2 * abs(x - y) for x, y in nodes if x != y) / sum(1 for x, y in nodes if x != y)
check("Uniform class: the mesh's mean distance", abs(small["hops_mean"] - uniform) <= 0.03 * uniform,
      f"{small['hops_mean']:.3f} vs {uniform:.3f}")
check("Transpose class: its mean distance", abs(large["hops_mean"] - transpose) <= 0.03 * transpose,
      f"{large['hops_mean']:.3f} vs {transpose:.3f}")
