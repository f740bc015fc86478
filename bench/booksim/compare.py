#!/usr/bin/env python3
"""NDL beside BookSim2 on identical configurations (bench/booksim/NOTES.md).

  compare.py NDLC [--out DIR] [--seeds N]          NDL at the reference loads
  compare.py NDLC --speed --booksim BIN [--out DIR] [--repeat N]
                                                   speed, side by side (medians of N runs)

For the 8x8 torus (dimension order, BookSim2's dateline classes) and the 8x8
mesh (dimension order): 2 VCs x 8 flits, 8-flit packets, wormhole, uniform
traffic, Bernoulli injection, 1-clock channels, router delays chosen so the
zero-load latencies agree. NDL runs at each offered load of the reference
data (tests/booksim/reference.csv); with --speed the same script runs
BookSim2 (built outside the repository) on bench/booksim/configs/ and NDL for
the same number of clocks, one after the other on one core. Prints CSV.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
REFERENCE = ROOT / "tests" / "booksim" / "reference.csv"

# NodeHardwareDelay that makes NDL's zero-load latency BookSim2's (NOTES.md).
ROUTER_DELAY = {"torus": 4, "mesh": 4}


def ndl_program(topology, clocks):
    topo = "(Torus 8 8)" if topology == "torus" else "(Mesh 8 8)"
    # BookSim2's dim_order_torus always uses its dateline classes: Avoid.
    avoid = "(DeadlockHandling Avoid)\n" if topology == "torus" else ""
    return f"""(Topology {topo})
{avoid}
(RoutingAlgorithm DimensionOrder)
(VirtualChannels 2)
(FlowControlMethod Wormhole)
(NetworkChannelWidth 32bit)
(NetworkFrequency 1GHz)
(NetworkPacketSize 256bit)
(NodeBufferSize 8flit)
(NodeHardwareDelay {ROUTER_DELAY[topology]}clock)
(TrafficPattern Uniform)
(MessageCreationRate 1%)
(MessageCreationMax 1000000000)
(MessageMaxCount 1000000)
(SimulationTime {clocks}clock)
"""


def run_ndl(ndlc, out, topology, offered, seed, clocks=100000):
    """One run of `clocks` clocks, the first 30000 clocks' messages left out
    (BookSim2's runs here: 3 warm-up periods of 10000 clocks)."""
    src = out / f"{topology}.ndl"
    sim = out / f"{topology}.sim"
    if not sim.exists():
        src.write_text(ndl_program(topology, clocks))
        subprocess.run([ndlc, "build", str(src), "-o", str(sim)], check=True)
    warmup = int(offered / 8 * 64 * 30000)
    js = out / f"{topology}-{offered}-{seed}.json"
    start = time.perf_counter()
    # Converted values straight to the built simulator (--param): messages per node per
    # clock, a message count; the timing then holds the simulator alone.
    subprocess.run(["taskset", "-c", "0", str(sim), "--quiet", "--seed", str(seed), "--json",
                    str(js), "--param", f"CreationRate={offered / 8!r}",
                    "--param", f"WarmupMessages={warmup}"])
    wall = time.perf_counter() - start
    r = json.loads(js.read_text())
    return {
        "accepted": r["throughput"]["accepted_flits_per_node_cycle"],
        "latency": r["latency_cycles"]["network"]["mean"],
        "router_clocks_per_s": r["cycles"] * 64 / r["wall_seconds"],
        "wall": wall,
    }


def run_booksim(binary, topology, offered, seed=1):
    """BookSim2 on one core; returns its figures and the cycles it simulated."""
    cfg = HERE / "configs" / f"{topology}88.cfg"
    start = time.perf_counter()
    p = subprocess.run(["taskset", "-c", "0", binary, str(cfg), f"injection_rate={offered}",
                        f"seed={seed}"], capture_output=True, text=True)
    wall = time.perf_counter() - start
    cycles = None
    for line in p.stdout.splitlines():
        if line.startswith("Time taken is"):
            cycles = int(line.split()[3])
    return {"wall": wall, "cycles": cycles}


def speed(ndlc, booksim, out, repeat):
    """Router-clocks per second of both simulators on the same core, the same
    network, load and number of clocks; and MinimalAdaptive against
    DimensionOrder (3 VCs each) in NDL. Each figure is the median of `repeat`
    runs, the simulators taking turns, so that a busy moment of a shared
    machine slows one run of each rather than deciding the ratio."""
    w = csv.writer(sys.stdout)
    w.writerow(["case", "offered", "clocks", "booksim_Mrc_per_s", "ndl_Mrc_per_s", "ratio"])
    for offered in (0.1, 0.3):
        bs_rates, ndl_rates, sim = [], [], None
        for _ in range(repeat):
            bs = run_booksim(booksim, "torus", offered)
            bs_rates.append(64 * bs["cycles"] / bs["wall"] / 1e6)
            if sim is None:
                src, sim = out / "speed-torus.ndl", out / "speed-torus.sim"
                src.write_text(ndl_program("torus", bs["cycles"]))
                subprocess.run([ndlc, "build", str(src), "-o", str(sim)], check=True)
            ndl_rates.append(run_ndl_sim(sim, offered, 1, bs["cycles"])["router_clocks_per_s"] / 1e6)
        b, n = statistics.median(bs_rates), statistics.median(ndl_rates)
        w.writerow(["torus8x8 DimensionOrder", offered, bs["cycles"], f"{b:.2f}", f"{n:.1f}",
                    f"{n / b:.1f}"])
    sims = {}
    for routing in ("DimensionOrder", "MinimalAdaptive"):
        src, sims[routing] = out / f"speed-{routing}.ndl", out / f"speed-{routing}.sim"
        text = ndl_program("torus", 100000).replace("(VirtualChannels 2)", "(VirtualChannels 3)")
        src.write_text(text.replace("(RoutingAlgorithm DimensionOrder)",
                                    f"(RoutingAlgorithm {routing})"))
        subprocess.run([ndlc, "build", str(src), "-o", str(sims[routing])], check=True)
    for offered in (0.1, 0.3):
        rates = {routing: [] for routing in sims}
        for _ in range(repeat):
            for routing, sim in sims.items():
                rates[routing].append(run_ndl_sim(sim, offered, 1, 100000)["router_clocks_per_s"] / 1e6)
        dor, adaptive = (statistics.median(rates[k]) for k in ("DimensionOrder", "MinimalAdaptive"))
        w.writerow(["torus8x8 MinimalAdaptive / DimensionOrder (3 VCs)", offered, 100000,
                    f"{dor:.1f}", f"{adaptive:.1f}", f"{adaptive / dor:.2f}"])


def run_ndl_sim(sim, offered, seed, clocks):
    js = Path(f"{sim}.{offered}.json")
    start = time.perf_counter()
    subprocess.run(["taskset", "-c", "0", str(sim), "--quiet", "--seed", str(seed), "--json",
                    str(js), "--param", f"CreationRate={offered / 8!r}",
                    "--param", f"TimeLimitClocks={clocks}"], stderr=subprocess.DEVNULL)
    r = json.loads(js.read_text())
    return {"router_clocks_per_s": r["cycles"] * 64 / r["wall_seconds"],
            "wall": time.perf_counter() - start}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ndlc")
    ap.add_argument("--booksim")
    ap.add_argument("--out", default="build/bench-booksim")
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--speed", action="store_true", help="speed against --booksim instead")
    ap.add_argument("--repeat", type=int, default=5,
                    help="with --speed: runs of each simulator per figure, the median reported")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.speed:
        return speed(a.ndlc, a.booksim, out, a.repeat)
    rows = [r for r in csv.DictReader(REFERENCE.open())
            if r["topology"] in ROUTER_DELAY and r["saturated"] == "0"]
    w = csv.writer(sys.stdout)
    w.writerow(["topology", "offered", "booksim_accepted", "ndl_accepted", "booksim_latency",
                "ndl_latency", "latency_ratio"])
    for row in rows:
        topology, offered = row["topology"], float(row["offered_flits_per_node_cycle"])
        ndl = [run_ndl(a.ndlc, out, topology, offered, s + 1) for s in range(a.seeds)]
        acc = sum(x["accepted"] for x in ndl) / len(ndl)
        lat = sum(x["latency"] for x in ndl) / len(ndl)
        bs_lat = float(row["network_latency_mean_cycles"])
        w.writerow([topology, offered, row["accepted_flits_per_node_cycle"], f"{acc:.4f}",
                    row["network_latency_mean_cycles"], f"{lat:.2f}",
                    f"{lat / bs_lat:.3f}" if bs_lat else ""])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
