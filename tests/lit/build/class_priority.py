"""class_priority.py NDLC DIR: priorities between traffic classes.

An 8x8 mesh (dimension order, 4-flit packets), two Uniform classes of the same length, steady
measurement. What each relation rests on:

1. Below saturation (12% + 12% flits/node/clock): without priorities the classes are alike
   (mean message latencies within 5%); with one class at priority 1 it is faster both in the
   network (network latency: VC and switch allocation) and at its source (message minus
   network latency: the source's queue), whichever of the two classes it is (class 0, the
   main traffic, or the other).
2. One priority for every class is no priority: results identical to the program without,
   but for the classes' `priority` key.
3. Past saturation (26% low + 10% high): a class of higher priority keeps its throughput
   (accepted at least 95% of offered over the window), where without priorities it loses its
   share with the other (measured 79%; at most 90% is asked). The run ends (saturated)
   before the sources' queues of 10,000 messages fill: once full, a queue refuses every
   class (docs/language.md).
4. Multi-packet replies of a higher priority (a 384-bit reply is 4 packets) entering source
   queues that hold requests: every request and every reply delivered, one reply per request,
   conservation counted by the simulator apart from the classes' figures.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ndltest import check, run  # noqa: E402

ndlc, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)

BASE = """(Topology (Mesh 8 8))
(NetworkChannelWidth 32bit)
(NetworkFrequency 1GHz)
(NetworkPacketSize 128bit)
"""


def classes(name, a, b, status="ok"):
    r = run(ndlc, out, name, BASE + f"(TrafficClass a {a})\n(TrafficClass b {b})\n", status)
    return r, {c["name"]: c for c in r.get("classes", [])}


def mean(c, what):
    return c["latency_cycles"][what]["mean"]


# ---- 1. below saturation
_, plain = classes("plain", "(OfferedLoad 12%)", "(OfferedLoad 12%)")
ma, mb = mean(plain["a"], "message"), mean(plain["b"], "message")
check("without priorities the classes' latencies agree", abs(ma - mb) <= 0.05 * min(ma, mb),
      f"{ma:.2f} {mb:.2f}")
for name, a, b, high, low in (
        ("b_high", "(OfferedLoad 12%)", "(OfferedLoad 12%) (Priority 1)", "b", "a"),
        ("a_high", "(OfferedLoad 12%) (Priority 7)", "(OfferedLoad 12%)", "a", "b")):
    r, cs = classes(name, a, b)
    h, lo = cs[high], cs[low]
    check(f"{name}: priorities in the results", (h["priority"], lo["priority"]) ==
          ((1 if high == "b" else 7), 0), f"{h['priority']} {lo['priority']}")
    hn, ln = mean(h, "network"), mean(lo, "network")
    check(f"{name}: the higher class is faster in the network", hn < 0.95 * ln,
          f"{hn:.2f} vs {ln:.2f}")
    hq, lq = mean(h, "message") - hn, mean(lo, "message") - ln
    check(f"{name}: the higher class waits less at its source", hq < 0.8 * lq,
          f"{hq:.2f} vs {lq:.2f}")
    hm, lm = mean(h, "message"), mean(lo, "message")
    check(f"{name}: the higher class's messages are faster", hm < 0.9 * lm,
          f"{hm:.2f} vs {lm:.2f}")

# ---- 2. one priority for all is none
same, _ = classes("same", "(OfferedLoad 12%) (Priority 3)", "(OfferedLoad 12%) (Priority 3)")
base = json.load(open(os.path.join(out, "plain.json")))


def strip(r):
    r = json.loads(json.dumps(r))
    r.pop("wall_seconds", None)
    r.pop("tables", None)  # the tables' file names, which are the programs'
    for c in r.get("classes", []):
        c.pop("priority", None)
    return r


check("one priority for every class gives the results of none", strip(same) == strip(base),
      "the results differ")
for table in ("nodes", "channels"):
    check(f"and the same {table} table",
          open(os.path.join(out, f"same.{table}.csv")).read() ==
          open(os.path.join(out, f"plain.{table}.csv")).read())

# ---- 3. past saturation
for name, prio, lo_share, hi_share in (("over", "", 0.0, 0.90), ("over_high", "(Priority 1)", 0.95, 1.01)):
    r, cs = classes(name, "(OfferedLoad 26%)", f"(OfferedLoad 10%) {prio}", "saturated")
    b = cs["b"]
    share = b["accepted_flits_per_node_cycle"] / b["offered_flits_per_node_cycle"]
    check(f"{name}: class b accepts {lo_share:.2f} to {hi_share:.2f} of its offered load",
          lo_share <= share <= hi_share, f"{share:.4f}")

# ---- 4. replies of a higher priority, several packets each
r = run(ndlc, out, "replies", BASE + """(Measurement Burst)
(MessageCreationMax 3000)
(TrafficClass req (OfferedLoad 12%) (MessageLength 32bit) (Reply rep))
(TrafficClass rep (MessageLength 384bit) (Priority 1))
""")
req, rep = r["classes"]
check("replies: every message delivered", r["messages"]["created"] == r["messages"]["delivered"]
      == 6000, f"{r['messages']}")
check("replies: one per request", rep["messages"]["delivered"] == req["messages"]["delivered"]
      == 3000, f"{req['messages']} {rep['messages']}")
check("replies: packets, one per request and four per reply",
      r["packets"]["delivered"] == 3000 + 4 * 3000, f"{r['packets']}")
check("replies: conservation", r["conservation"]["holds"], f"{r['conservation']}")
