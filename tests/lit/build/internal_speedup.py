"""internal_speedup.py NDLC DIR: (InternalSpeedup S) (docs/runtime.md 2.1).

- (InternalSpeedup 1) is the step without the form: the same run, bit for bit, and no config
  key (on one router of 8 endpoints past saturation).
- Every endpoint hot-spots one endpoint: that endpoint takes one flit a clock with speedup as
  without, so the switch accepts the same within 2% (a second flit a clock into it would
  raise the figure by the hot endpoint's share).
- Two routers of 4 endpoints each, every packet crossing the one link between them: with
  speedup 2 both routers' switches pass more than the link carries, and the link still
  carries at most one flit a clock (its output queue), counted by the channel statistics;
  the accepted rate equals the link's rate (the link is the only way across).
- At low load speedup changes no delay a header waits (its delay is in clocks, and a link
  brings one flit a clock): the zero-load latency on a 4x4 mesh is the same within 0.5%.
- Under a mesh past saturation speedup 2 accepts more than speedup 1.
Prints one line per check; exits non-zero at the first failure.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import ndltest  # noqa: E402
from ndltest import check  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)

COMMON = """(VirtualChannels 2)
(FlowControlMethod VirtualCutThrough)
(NetworkChannelWidth 32bit)
(NetworkFrequency 1GHz)
(NodeBufferSize 16flit)
(RouterPipeline (IB 0clock) (RC 0clock) (VA 1clock) (SA 1clock) (ST 1clock))
"""
SWITCH = """(define-topology (OneSwitch (c Int)) (Nodes 1) (Concentration c))
(define-routing (Nowhere) (no-route))
(Topology (OneSwitch 8))
(RoutingAlgorithm Nowhere)
(NetworkPacketSize 32bit)
""" + COMMON
SATURATED = ("(MessageCreationRate 100%)\n(MessageCreationMax 1000000000)\n(MessageMaxCount 4)\n"
             "(SimulationTime 30000clock)\n(WarmupMessages 32000)\n")


def accepted(j):
    return j["throughput"]["accepted_flits_per_node_cycle"]


def bare(j):
    j = dict(j)
    for k in ("wall_seconds", "tables"):
        j.pop(k, None)
    return j


base = SWITCH + "(InjectionVirtualChannels 1)\n(TrafficPattern Uniform)\n" + SATURATED
runs = {s: ndltest.run(NDLC, OUT, f"switch_{s}", base + (f"(InternalSpeedup {s})\n" if s else ""),
                       status="time_limit") for s in (None, 1, 2)}
check("InternalSpeedup 1 gives the run without the form, bit for bit",
      bare(runs[None]) == bare(runs[1]))
check("InternalSpeedup 2 is named in the run's config, 1 is not",
      runs[2]["config"].get("InternalSpeedup") == 2 and "InternalSpeedup" not in runs[1]["config"])
hot = SWITCH + "(InjectionVirtualChannels 1)\n(TrafficPattern (HotSpot 100% (Nodes 0)))\n" + SATURATED
hots = {s: accepted(ndltest.run(NDLC, OUT, f"hot_{s}", hot + f"(InternalSpeedup {s})\n",
                                status="time_limit")) for s in (1, 2)}
print("one switch, every endpoint to endpoint 0: accepted", hots)
check("hot endpoint: it takes one flit a clock with speedup 2 as with 1 (within 2%)",
      abs(hots[2] - hots[1]) <= 0.02 * hots[1], f"{hots[2]:.4f} vs {hots[1]:.4f}")

# Two routers of 4 endpoints joined by one link each way (a concentrated line of 2); under
# bit complement endpoints 0-3 send to 7-4 and back, so every packet crosses the link.
PAIR = ("(define-topology (Pair) (Nodes 2) (Radices (list 2)) (Concentration 4)\n"
        "  (DefaultRouting DimensionOrder) (Link 0 1 0))\n(Topology (Pair))\n(NetworkPacketSize 32bit)\n(InjectionVirtualChannels 1)\n"
        "(TrafficPattern BitComplement)\n" + COMMON + SATURATED)
pair = {s: ndltest.run(NDLC, OUT, f"pair_{s}", PAIR + f"(InternalSpeedup {s})\n",
                       status="time_limit") for s in (1, 2)}
for s, j in pair.items():
    ch = j["channels"]
    # What crossed the switch in the last clocks may still wait in the queue (at most the
    # next router's 2 VCs x 16 flits), counted as it crossed.
    bound = 1.0 + 32 / j["cycles"]
    print(f"pair, speedup {s}: accepted {accepted(j):.4f}, busiest channel "
          f"{ch['max_flits_per_clock']:.4f} flits/clock over {ch['count']} channels")
    check(f"pair, speedup {s}: the link carries at most one flit a clock",
          ch["max_flits_per_clock"] <= bound, f"{ch['max_flits_per_clock']:.5f}")
    check(f"pair, speedup {s}: the link is busy past saturation (above 0.95 flits a clock)",
          ch["max_flits_per_clock"] >= 0.95)
    # Each direction's link is the only way across: 1 flit a clock each way over 8 endpoints.
    check(f"pair, speedup {s}: what is accepted is what the two links carry (0.25 at most)",
          accepted(j) <= 0.25 * bound, f"{accepted(j):.5f}")

MESH = "(Topology (Mesh 4 4))\n(NetworkPacketSize 128bit)\n(TrafficPattern Uniform)\n" + COMMON
LOW = "(MessageCreationRate 1%)\n(WarmupMessages 2000)\n(MessageCreationMax 22000)\n"
low = {s: ndltest.run(NDLC, OUT, f"mesh_low_{s}", MESH + LOW + f"(InternalSpeedup {s})\n")
       for s in (1, 2)}
lat = {s: j["latency_cycles"]["network"]["mean"] for s, j in low.items()}
print("4x4 mesh, 4-flit packets, 0.04 flits/node/clock: network latency", lat)
check("mesh at low load: speedup 2 changes the latency by less than 0.5%",
      abs(lat[2] - lat[1]) <= 0.005 * lat[1], f"{lat[2]:.3f} vs {lat[1]:.3f}")

high = {s: accepted(ndltest.run(NDLC, OUT, f"mesh_high_{s}", MESH + SATURATED
                                + f"(InternalSpeedup {s})\n", status="time_limit"))
        for s in (1, 2)}
print("4x4 mesh, 4-flit packets, past saturation: accepted", high)
check("mesh past saturation: speedup 2 accepts at least 5% more", high[2] >= 1.05 * high[1],
      f"{high[2]:.4f} vs {high[1]:.4f}")
