"""steady.py NDLC DIR: the steady-state measurement (docs/runtime.md 3.1) on BookSim2's 8x8
torus (tests/booksim/reference.csv, measured by bench/booksim; no BookSim code here), run as
a user would: OfferedLoad and nothing about warm-up, run length or measurement.

- Below BookSim2's saturation (0.36 flits/node/clock) every run converges: status ok, the
  offered load it measures is the configured one (within 3%), it accepts what it offers, and
  its network latency is within 5% of BookSim2's, compared on the terms agreement.py gives.
- Above it (0.45 and 0.6) every run reports saturation: status "saturated" with exit code 0,
  measurement.saturated in the JSON, accepted throughput below the configured load.
"""
import csv
import json
import os
import subprocess
import sys

ndlc, out = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
PE_CLOCKS, HOP_CLOCKS = 3, 5  # as in agreement.py

reference = {}
with open(os.path.join(here, "reference.csv")) as f:
    for row in csv.DictReader(f):
        if row["topology"] == "torus" and row["saturated"] == "0":
            reference[float(row["offered_flits_per_node_cycle"])] = float(
                row["network_latency_mean_cycles"])

src = os.path.join(out, "torus.ndl")
with open(src, "w") as f:
    f.write("(Topology (Torus 8 8))\n(DeadlockHandling Avoid)\n(RoutingAlgorithm DimensionOrder)\n"
            "(VirtualChannels 2)\n(FlowControlMethod Wormhole)\n(NetworkChannelWidth 32bit)\n"
            "(NetworkFrequency 1GHz)\n(NetworkPacketSize 256bit)\n(NodeBufferSize 8flit)\n"
            "(NodeHardwareDelay 4clock)\n(TrafficPattern Uniform)\n(OfferedLoad 10%)\n")


def run(load):
    js = os.path.join(out, f"torus-{load}.json")
    p = subprocess.run([ndlc, "run", src, "--set", f"OfferedLoad={load * 100:g}%", "--",
                        "--quiet", "--json", js], stderr=subprocess.PIPE, text=True)
    if not os.path.exists(js):
        sys.exit(f"torus {load}: no results (exit {p.returncode}): {p.stderr}")
    with open(js) as f:
        return p.returncode, json.load(f)


failed = False


def check(ok, text):
    global failed
    failed |= not ok
    print(f"{text} {'ok' if ok else 'FAIL'}")


for load in (0.1, 0.2, 0.3):
    code, r = run(load)
    m, t = r["measurement"], r["throughput"]
    check(code == 0 and r["status"] == "ok" and m["verdict"] == "converged" and
          r["conservation"]["holds"],
          f"torus {load}: {r['status']}, {m['verdict']} after {m['warmup_periods']} warm-up and "
          f"{m['measured_periods']} measured periods")
    offered = t["offered_flits_per_node_cycle"]
    check(abs(offered - load) <= 0.03 * load and
          abs(t["accepted_flits_per_node_cycle"] - offered) <= 0.03 * offered,
          f"torus {load}: offered {offered:.4f} accepted {t['accepted_flits_per_node_cycle']:.4f}")
    bs = reference[load] + HOP_CLOCKS * r["topology"]["avg_distance"] / 64
    ndl = r["latency_cycles"]["network"]["mean"] + PE_CLOCKS
    check(abs(ndl - bs) <= 0.05 * bs,
          f"torus {load}: latency NDL+{PE_CLOCKS} {ndl:.2f} BookSim2 {bs:.2f} ({ndl / bs - 1:+.1%})")
for load in (0.45, 0.6):
    code, r = run(load)
    m, t = r["measurement"], r["throughput"]
    check(code == 0 and r["status"] == "saturated" and m["saturated"] and
          t["accepted_flits_per_node_cycle"] < 0.9 * load,
          f"torus {load}: {r['status']} (exit {code}), accepted "
          f"{t['accepted_flits_per_node_cycle']:.4f}: {m['reason']}")
sys.exit(1 if failed else 0)
