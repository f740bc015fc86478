"""switch_input.py NDLC DIR: the switch allocator's input stage, (SwitchInputArbitration ByVc)
against ByOutput (docs/runtime.md 2.1), on one router of 8 endpoints (the switch alone: every
packet goes from an injection port to an ejection port).

- With one injection VC per endpoint an input has at most one request, so the two stages
  choose alike: the runs' JSON is the same but for the config's new key, bit for bit.
- Past saturation, with 4 injection VCs per endpoint under uniform traffic: ByVc offers an
  output that k of an input's VCs want k times as often, so inputs pile onto the same outputs
  and each clock's matching is smaller; ByOutput offers each wanted output alike (BookSim2's
  input-queued router) and accepts more, as BookSim2 does on the same switch (0.683 against
  ByVc's 0.625, bench/RESULTS.md).
- (SwitchHold Packet): with 1-flit packets there is nothing to hold (every head is a tail), so
  the run is the same bit for bit; with 4-flit packets a packet that wins keeps its input and
  output to its tail, the matchings last, and the switch accepts more past saturation (as
  BookSim2's hold_switch_for_packet does on its fat tree, bench/RESULTS.md).
Prints one line per check; exits non-zero at the first failure.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import ndltest  # noqa: E402
from ndltest import check  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)

SWITCH = """(define-topology (OneSwitch (c Int)) (Nodes 1) (Concentration c))
(define-routing (Nowhere) (no-route))
(Topology (OneSwitch 8))
(RoutingAlgorithm Nowhere)
(VirtualChannels 1)
(FlowControlMethod VirtualCutThrough)
(NetworkChannelWidth 32bit)
(NetworkFrequency 1GHz)
(NetworkPacketSize 32bit)
(NodeBufferSize 16flit)
(RouterPipeline (IB 0clock) (RC 0clock) (VA 1clock) (SA 1clock) (ST 1clock))
(TrafficPattern Uniform)
"""
SATURATED = ("(MessageCreationRate 100%)\n(MessageCreationMax 1000000000)\n(MessageMaxCount 4)\n"
             "(SimulationTime 30000clock)\n(WarmupMessages 32000)\n")


def accepted(j):
    return j["throughput"]["accepted_flits_per_node_cycle"]


one = {a: ndltest.run(NDLC, OUT, f"one_vc_{a}", SWITCH + "(InjectionVirtualChannels 1)\n"
                      + SATURATED + f"(SwitchInputArbitration {a})\n", status="time_limit")
       for a in ("ByVc", "ByOutput")}
check("ByOutput is named in the run's config, ByVc (the default) is not",
      one["ByOutput"]["config"].get("SwitchInputArbitration") == "ByOutput"
      and "SwitchInputArbitration" not in one["ByVc"]["config"])
one["hold"] = ndltest.run(NDLC, OUT, "one_vc_hold", SWITCH + "(InjectionVirtualChannels 1)\n"
                          + SATURATED + "(SwitchInputArbitration ByOutput)\n(SwitchHold Packet)\n",
                          status="time_limit")
check("SwitchHold Packet is named in the run's config",
      one["hold"]["config"].pop("SwitchHold", None) == "Packet")
for j in one.values():
    j["config"].pop("SwitchInputArbitration", None)
    for k in ("wall_seconds", "tables"):
        j.pop(k, None)
check("one injection VC each: ByVc and ByOutput give the same run", one["ByVc"] == one["ByOutput"],
      f"accepted {accepted(one['ByVc']):.4f} and {accepted(one['ByOutput']):.4f}")
check("1-flit packets: SwitchHold Packet gives the same run", one["hold"] == one["ByOutput"])

four = {a: ndltest.run(NDLC, OUT, f"four_vcs_{a}", SWITCH + "(InjectionVirtualChannels 4)\n"
                       + SATURATED + f"(SwitchInputArbitration {a})\n", status="time_limit")
        for a in ("ByVc", "ByOutput")}
acc = {a: accepted(j) for a, j in four.items()}
print("4 injection VCs, past saturation: accepted", acc)
check("4 injection VCs: ByOutput accepts at least 4% more than ByVc past saturation",
      acc["ByOutput"] >= 1.04 * acc["ByVc"], f"{acc['ByOutput']:.4f} vs {acc['ByVc']:.4f}")
check("4 injection VCs: ByOutput stays below the switch's 1 flit per endpoint and clock",
      acc["ByOutput"] < 1.0)

LONG = SWITCH.replace("(NetworkPacketSize 32bit)", "(NetworkPacketSize 128bit)")
held = {h: accepted(ndltest.run(NDLC, OUT, f"four_flits_{h}", LONG + "(InjectionVirtualChannels 4)\n"
                                + SATURATED + f"(SwitchInputArbitration ByOutput)\n(SwitchHold {h})\n",
                                status="time_limit"))
        for h in ("Flit", "Packet")}
print("4-flit packets, 4 injection VCs, past saturation: accepted", held)
check("4-flit packets: holding the switch for a packet accepts at least 10% more",
      held["Packet"] >= 1.10 * held["Flit"], f"{held['Packet']:.4f} vs {held['Flit']:.4f}")
check("4-flit packets: held, still below 1 flit per endpoint and clock", held["Packet"] < 1.0)
