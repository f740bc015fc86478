"""endpoints_sim.py NDLC DIR: simulations of networks whose routers carry 0..p endpoints.

- Fat tree (FatTree 4 3): 64 endpoints on 16 leaf switches, 32 switches above. Every message
  reaches an endpoint (the per-endpoint rows of the CSV, counted here, add up to the messages
  created, and each of the 64 endpoints receives); the switches forward (their VC grants) but
  have no row; at low load a packet between endpoints h router-to-router hops apart takes
  1 + 2h clocks (one clock per router and per link, the same as on a torus), 1 clock between
  two endpoints of one leaf; hop counts are 0, 2 and 4 only.
- Concentrated mesh (CMesh 4 4 4): the same latency rule; endpoints of one router exchange
  messages in one clock.
- Dragonfly (Dragonfly 2 4 2) under DragonflyMinimal: every message delivered, at most 3 hops.
- Flattened butterfly (FlattenedButterfly 4 4 2) and k-ary n-fly (Butterfly 2 3): the same
  latency rule; the butterfly's packets all cross its 3 stages (4 hops).
Prints one line per check; exits non-zero at the first failure.
"""
import csv
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import ndltest  # noqa: E402
from ndltest import check  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)

# Bursts that drain (every message delivered, counted by endpoint), not steady runs.
BASE = """(Measurement Burst)
(FlowControlMethod VirtualCutThrough)
(NetworkChannelWidth 32bit)
(NetworkFrequency 100MHz)
(NetworkPacketSize 32bit)
(NodeBufferSize 8flit)
"""


def run(name, topology, *forms):
    return ndltest.run(NDLC, OUT, name, f"(Topology {topology})\n" + BASE + "\n".join(forms) + "\n")


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def latency_rule(name, j):
    for d in j["by_distance"]:
        want = 1 + 2 * d["hops"]
        check(f"{name}: {d['count']} messages over {d['hops']} hops take {want} clocks at low load",
              abs(d["mean_network_latency_cycles"] - want) < 0.02,
              f"{d['mean_network_latency_cycles']:.4f}")


j = run("fattree", "(FatTree 4 3)", "(MessageCreationRate 0.2%)")
created = j["messages"]["created"]
check("fattree: 64 endpoints on 48 routers",
      j["topology"]["endpoints"] == 64 and j["topology"]["nodes"] == 48)
check("fattree: every message delivered", j["messages"]["delivered"] == created > 1000,
      f"{j['messages']['delivered']} of {created}")
nodes = rows(OUT / "fattree.nodes.csv")
received = sum(int(r["received"]) for r in nodes)
check("fattree: 64 endpoint rows whose receipts add up to the messages created",
      len(nodes) == 64 and received == created, f"{len(nodes)} rows, {received}")
check("fattree: every endpoint receives", all(int(r["received"]) > 0 for r in nodes))
routers = rows(OUT / "fattree.routers.csv")
check("fattree: 48 router rows; the 32 switches forward",
      len(routers) == 48 and all(int(r["class_grants.all"]) > 0 for r in routers[16:]))
check("fattree: hops 0, 2 and 4 only", {d["hops"] for d in j["by_distance"]} == {0, 2, 4})
latency_rule("fattree", j)

j = run("cmesh", "(CMesh 4 4 4)", "(MessageCreationRate 0.2%)")
check("cmesh: every message delivered", j["messages"]["delivered"] == j["messages"]["created"])
check("cmesh: messages between endpoints of one router",
      any(d["hops"] == 0 and d["count"] > 0 for d in j["by_distance"]))
latency_rule("cmesh", j)

j = run("dragonfly", "(Dragonfly 2 4 2)", "(VirtualChannels 2)", "(MessageCreationRate 1%)")
check("dragonfly: every message delivered", j["messages"]["delivered"] == j["messages"]["created"])
check("dragonfly: at most 3 hops", max(d["hops"] for d in j["by_distance"]) == 3)

j = run("flatfly", "(FlattenedButterfly 4 4 2)", "(MessageCreationRate 0.2%)")
check("flatfly: every message delivered", j["messages"]["delivered"] == j["messages"]["created"])
check("flatfly: hops 0, 1 and 2 only", {d["hops"] for d in j["by_distance"]} == {0, 1, 2})
latency_rule("flatfly", j)

# A k-ary n-fly: every packet crosses the n stages, n + 1 hops (in by a terminal's link, out
# by the last stage's), whatever the pair.
j = run("butterfly", "(Butterfly 2 3)", "(MessageCreationRate 0.2%)")
check("butterfly: every message delivered", j["messages"]["delivered"] == j["messages"]["created"])
check("butterfly: 8 endpoints, 20 routers",
      j["topology"]["endpoints"] == 8 and j["topology"]["nodes"] == 20)
check("butterfly: every packet 4 hops", {d["hops"] for d in j["by_distance"]} == {4})
latency_rule("butterfly", j)
