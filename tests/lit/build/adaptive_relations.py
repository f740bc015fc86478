"""adaptive_relations.py NDLC DIR: relations the routing model must keep.

- MinimalAdaptive accepts more traffic than DimensionOrder past saturation on
  an 8x8 mesh under transpose and on an 8x8 torus under uniform traffic; none
  of these saturated runs finds a deadlock or drops a packet.
- The turn models (WestFirst, NorthLast, NegativeFirst, OddEven) never deadlock on an
  8x8 mesh with one VC, driven far past saturation: every message the
  sources got into their queues is delivered once they stop.

The turn models run under (DeadlockHandling Avoid): nothing is dropped, so a
deadlock, even of a few packets, leaves messages in flight (or stops the run
with status "deadlock").
"""
import json
import subprocess
import sys

ndlc, out = sys.argv[1], sys.argv[2]

COMMON = """(NetworkChannelWidth 32bit)
(NetworkFrequency 100MHz)
(NetworkPacketSize 256bit)
(FlowControlMethod Wormhole)
(NodeBufferSize 8flit)
(MessageMaxCount 4)
"""


def run(name, text, expect_exit=0):
    """Builds and runs a program; a run that stops on a time limit or full
    injection queues exits with 3 too (docs/runtime.md), which saturation
    runs do by design."""
    src = f"{out}/{name}.ndl"
    with open(src, "w") as f:
        f.write(text + COMMON)
    sim, js = f"{out}/{name}.sim", f"{out}/{name}.json"
    subprocess.run([ndlc, "build", src, "-o", sim], check=True)
    code = subprocess.run([sim, "--quiet", "--json", js]).returncode
    with open(js) as f:
        r = json.load(f)
    saturated_stop = code == 3 and r["status"] in ("time_limit", "injection_queue_full")
    if code != expect_exit and not (expect_exit == 0 and saturated_stop):
        sys.exit(f"{name}: exit code {code}, expected {expect_exit} (status {r['status']})")
    return r


def accepted(r):
    return r["throughput"]["accepted_flits_per_node_cycle"]


def saturated(topology, pattern, routing, vcs, extra=""):
    r = run(f"{topology.replace(' ', '')}-{pattern}-{routing}",
            f"(Topology ({topology}))\n(TrafficPattern {pattern})\n(RoutingAlgorithm {routing})\n"
            f"(VirtualChannels {vcs})\n(MessageCreationRate 12%)\n(SimulationTime 20000clock)\n"
            "(MessageCreationMax 1000000000)\n"
            f"(WarmupMessages 2000)\n{extra}")
    if r["status"] not in ("ok", "time_limit", "injection_queue_full"):
        sys.exit(f"{topology} {routing}: status {r['status']}")
    # Saturation is not a deadlock: nothing found, nothing dropped.
    if r.get("deadlock") is not None or r["messages"]["dropped"]:
        sys.exit(f"{topology} {routing}: saturation reported as deadlock: {r.get('deadlock')}, "
                 f"{r['messages']['dropped']} dropped")
    return accepted(r)


for topology, pattern, dor_extra in (("Mesh 8 8", "Transpose", ""),
                                     ("Torus 8 8", "Uniform", "(DeadlockHandling Avoid)\n")):
    dor = saturated(topology, pattern, "DimensionOrder", 3, dor_extra)
    adaptive = saturated(topology, pattern, "MinimalAdaptive", 3)
    print(f"{topology} {pattern}: DimensionOrder {dor:.3f}, MinimalAdaptive {adaptive:.3f}")
    if not adaptive > 1.05 * dor:
        sys.exit(f"{topology} {pattern}: MinimalAdaptive {adaptive:.3f} does not beat "
                 f"DimensionOrder {dor:.3f}")

for routing in ("WestFirst", "NorthLast", "NegativeFirst", "OddEven"):
    r = run(f"turn-{routing}",
            f"(Topology (Mesh 8 8))\n(RoutingAlgorithm {routing})\n(MessageCreationRate 20%)\n"
            "(MessageCreationMax 400000)\n(SimulationTime 2000000clock)\n(TrafficPattern Uniform)\n"
            "(DeadlockHandling Avoid)\n")
    m = r["messages"]
    if r["status"] not in ("ok", "injection_queue_full") or m["in_flight"] != 0 or m["dropped"]:
        sys.exit(f"{routing}: status {r['status']}, messages {m}")
    print(f"{routing}: no deadlock at saturation, {m['delivered']} delivered, accepted "
          f"{accepted(r):.3f}")

