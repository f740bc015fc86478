"""pipeline.py NDLC DIR: router pipelines, (RouterPipeline (IB a) (RC b) (VA c) (SA d) (ST e)).

- Zero load: a hop costs the stages' sum, as NodeHardwareDelay of that sum does. Ping-pong
  between the ends of a line of three routers: the one-way latency grows by three routers
  (source, middle, destination) times the stages' sum less the shorthand's 1 clock, and
  equals NodeHardwareDelay's of the same sum, to the clock.
- NodeHardwareDelay d is the pipeline (IB 0) (RC 0) (VA d) (SA 0) (ST 0): the same results
  but for the parameters that name them.
- Throughput: IB, RC, VA and SA hold a header at the front of its VC, counted from the clock
  the packet before it left (the header was queued behind it); ST overlaps flit by flit.
  Saturated streams of one-flit packets over one VC move one packet per IB + RC + VA + SA
  clocks, whatever ST: 1/3 under NodeHardwareDelay 3, 1/2 under (VA 1) (SA 1) (ST 1), which
  costs the same 3 clocks a hop at zero load (BookSim2's router with vc_alloc_delay 1,
  sw_alloc_delay 1 and st_final_delay 1 passes one such packet per VC every 2 cycles).
- Conservation, counted from the run's records, with flits in the switch stages and tails
  on their way to their endpoints when the run stops.
- A sweep over pipelines, each value the five stages grouped in one list.
Prints one line per check; exits non-zero at the first failure.
"""
import csv
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from ndltest import check, run  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)


def pipeline(ib, rc, va, sa, st):
    return (f"(RouterPipeline (IB {ib}clock) (RC {rc}clock) (VA {va}clock) (SA {sa}clock) "
            f"(ST {st}clock))\n")


def delay(d):
    return f"(NodeHardwareDelay {d}clock)\n"


BASE = """(FlowControlMethod VirtualCutThrough)
(NetworkChannelWidth 32bit)
(NetworkFrequency 100MHz)
(NetworkPacketSize 256bit)
(NetworkDataSize 192bit)
(NodeBufferSize 8flit)
"""

# ---- zero load: ping-pong over a line of three routers
subprocess.run([NDLC, "pattern", "pingpong", "--nodes", "3", "--from", "0", "--to", "2",
                "--iterations", "5", "--size", "16byte", "-o", str(OUT / "pp.cpf")], check=True)
LINE = ("(Topology (Nodes 3) (Link 0 1) (Link 1 2))\n(RoutingAlgorithm ShortestPath)\n" + BASE +
        '(CommunicationPatternFile "pp.cpf")\n')
STAGES = (1, 3, 1, 1, 1)  # the 7-clock router of seed 001
TOTAL = sum(STAGES)
one = run(NDLC, OUT, "line-delay1", LINE + delay(1))
lumped = run(NDLC, OUT, "line-delay7", LINE + delay(TOTAL))
piped = run(NDLC, OUT, "line-pipeline", LINE + pipeline(*STAGES))
routers = 3
for name, r in (("NodeHardwareDelay 7clock", lumped), ("the 7-clock pipeline", piped)):
    extra = r["latency_cycles"]["message"]["max"] - one["latency_cycles"]["message"]["max"]
    check(f"{name}: one way {routers} x ({TOTAL} - 1) clocks above NodeHardwareDelay 1clock",
          extra == routers * (TOTAL - 1), f"{extra} clocks")
check("the pipeline's ping-pong completes in the clock NodeHardwareDelay 7clock's does",
      piped["application"]["completion_clock"] == lumped["application"]["completion_clock"],
      f"{piped['application']['completion_clock']} and "
      f"{lumped['application']['completion_clock']}")
check("JSON names the stages; NodeHardwareDelay_clocks is IB + RC + VA + SA",
      piped["config"]["RouterPipeline_clocks"] == dict(zip(("IB", "RC", "VA", "SA", "ST"), STAGES))
      and piped["config"]["NodeHardwareDelay_clocks"] == sum(STAGES[:4])
      and "RouterPipeline_clocks" not in lumped["config"])

# ---- the shorthand: NodeHardwareDelay d is one stage
TORUS = """(Topology (Torus 4 4))
(FlowControlMethod Wormhole)
(NetworkChannelWidth 32bit)
(NetworkFrequency 1GHz)
(NetworkPacketSize 128bit)
(NetworkDataSize 96bit)
(VirtualChannels 2)
(NodeBufferSize 4flit)
(MessageCreationRate 8%)
(MessageCreationMax 4000)
"""


def results(r):
    """What a run measured, apart from the parameters, the wall clock and the names of its
    table files (the per-node table's rows are compared apart)."""
    return {k: v for k, v in r.items() if k not in ("config", "wall_seconds", "tables")}


short = run(NDLC, OUT, "torus-delay2", TORUS + delay(2))
staged = run(NDLC, OUT, "torus-va2", TORUS + pipeline(0, 0, 2, 0, 0))
check("(RouterPipeline (IB 0) (RC 0) (VA 2) (SA 0) (ST 0)) measures what NodeHardwareDelay 2 "
      "does", results(short) == results(staged)
      and (OUT / short["tables"]["nodes"]).read_text() == (OUT / staged["tables"]["nodes"]).read_text())

# ---- throughput: one-flit packets, one VC, saturated streams both ways over one link
# Buffers deep enough that credits never limit: a credit's loop is ST + link + CreditDelay
# + a clock, 9 clocks at ST 6, and 8-flit buffers would pass 8 flits per 9 clocks.
STREAM = """(Topology (Nodes 2) (Link 0 1))
(RoutingAlgorithm ShortestPath)
(FlowControlMethod Wormhole)
(NetworkChannelWidth 64bit)
(NetworkFrequency 100MHz)
(NetworkPacketSize 64bit)
(NetworkDataSize 32bit)
(NodeBufferSize 16flit)
(MessageCreationRate 100%)
(MessageCreationMax 100000000)
(SimulationTime 20000clock)
"""
for name, router, hold in (("NodeHardwareDelay 3clock", delay(3), 3),
                           ("(VA 1) (SA 1) (ST 1)", pipeline(0, 0, 1, 1, 1), 2),
                           ("(VA 1) (SA 0) (ST 6)", pipeline(0, 0, 1, 0, 6), 1),
                           ("(VA 2) (SA 1) (ST 5)", pipeline(0, 0, 2, 1, 5), 3),
                           ("the 7-clock pipeline", pipeline(*STAGES), sum(STAGES[:4]))):
    r = run(NDLC, OUT, f"stream-{hold}-{len(name)}", STREAM + router, status="time_limit")
    acc = r["throughput"]["accepted_flits_per_node_cycle"]
    want = 1 / hold
    check(f"{name}: a VC passes one one-flit packet per {hold} clock{'s' if hold > 1 else ''}",
          abs(acc - want) <= 0.02 * want, f"accepted {acc:.4f} flits/node/clock, {want:.4f}")

# ---- conservation with flits in the switch stages when the run stops
busy = run(NDLC, OUT, "torus-busy",
           TORUS.replace("(MessageCreationRate 8%)", "(MessageCreationRate 40%)")
           .replace("(MessageCreationMax 4000)",
                    "(MessageCreationMax 100000000)\n(SimulationTime 5000clock)")
           + pipeline(1, 1, 1, 2, 3), status="time_limit")
pk = busy["packets"]
check("past saturation under a pipeline: packets created = delivered + dropped + in flight",
      pk["created"] == pk["delivered"] + pk["dropped"] + pk["in_flight"] and pk["in_flight"] > 0
      and busy["conservation"]["holds"], str(pk))

# ---- a sweep over pipelines: each value the stages grouped in one list
sweep_src = OUT / "sweep.ndl"
sweep_src.write_text(STREAM + "(Sweep RouterPipeline "
                     "((IB 0clock) (RC 0clock) (VA 1clock) (SA 1clock) (ST 1clock)) "
                     "((IB 0clock) (RC 0clock) (VA 2clock) (SA 1clock) (ST 1clock)))\n")
p = subprocess.run([NDLC, "sweep", str(sweep_src), "--out", str(OUT / "sweep"), "--no-plot",
                    "--quiet"], capture_output=True, text=True)
rows = list(csv.DictReader((OUT / "sweep" / "results.csv").open())) if p.returncode == 0 else []
got = [round(float(r["throughput.accepted_flits_per_node_cycle"]), 2) for r in rows]
check("(Sweep RouterPipeline ...) runs each pipeline: one packet per VC every 2, then 3 clocks",
      got == [0.5, 0.33], f"accepted {got}; {p.stderr.strip()[-300:]}")
