#!/usr/bin/env python3
"""Compare two routings on a mesh under transpose traffic, from Python.

    python3 docs/examples/compare_routings.py [--out DIR] [--small]

Sweeps OfferedLoad for dimension-order and minimal adaptive routing (Duato's, with a
dimension-order escape class) on an 8x8 mesh under transpose traffic, three seeds a point;
prints each routing's mean message latency and accepted throughput per load with their 95%
confidence intervals, and the highest load each accepts (within 5%); draws latency against
accepted throughput (DIR/latency-accepted.png) and against the configured load
(DIR/latency.png). --small runs a 4x4 mesh at three loads, two seeds (the test of this
script, tests/python/test_docs_example.py). docs/python.md walks through it.
"""
import argparse
import sys
from pathlib import Path

import ndl

PROGRAM = """;; an 8x8 mesh, transpose traffic, wormhole with two VCs
(Topology (Mesh {k} {k}))
(FlowControlMethod Wormhole)
(VirtualChannels 2)
(NodeBufferSize 8flit)
(NetworkChannelWidth 32bit)
(NetworkFrequency 1GHz)
(NetworkPacketSize 5flit)
(TrafficPattern Transpose)
(RoutingAlgorithm DimensionOrder)
(OfferedLoad 10%)
"""

ROUTINGS = ["DimensionOrder", "MinimalAdaptive"]
LATENCY = "latency_cycles.message.mean"
ACCEPTED = "throughput.accepted_flits_per_node_cycle"
LOAD = "config.OfferedLoad_flits_per_node_cycle"
OFFERED = "throughput.offered_flits_per_node_cycle"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="compare-routings", help="output directory")
    ap.add_argument("--small", action="store_true", help="4x4 mesh, three loads, two seeds")
    args = ap.parse_args()
    out = Path(args.out)
    k, loads, seeds = (4, ["10%", "25%", "40%"], 2) if args.small else \
        (8, [f"{p}%" for p in range(5, 50, 5)], 3)

    df = ndl.sweep(PROGRAM.format(k=k), {"OfferedLoad": loads, "RoutingAlgorithm": ROUTINGS},
                   seeds=seeds, out=out / "runs")
    failed = df[df["status"] == "failed"]
    if len(failed):
        print(failed[["OfferedLoad", "RoutingAlgorithm", "seed", "error"]], file=sys.stderr)
        return 1
    summary = ndl.summarize(df)
    summary.to_csv(out / "summary.csv", index=False)

    print(f"{k}x{k} mesh, transpose traffic, {seeds} seeds a point (mean ± 95% CI)")
    print(f"{'load':>6} {'routing':<16} {'latency (clocks)':>20} {'accepted (flits/node/clock)':>30}")
    for _, row in summary.sort_values(["RoutingAlgorithm", LOAD]).iterrows():
        lat, half = row[LATENCY], row[LATENCY + ".ci95"]
        # NaN: no seed measured a message (all saturated first); no interval: only one did.
        lat = "saturated" if lat != lat else \
            f"{lat:.2f} ± {half:.2f}" if half == half else f"{lat:.2f} (one seed)"
        acc = f"{row[ACCEPTED]:.4f} ± {row[ACCEPTED + '.ci95']:.4f}"
        print(f"{row['OfferedLoad']:>6} {row['RoutingAlgorithm']:<16} {lat:>20} {acc:>30}")
    # Transpose leaves the diagonal's nodes idle (each would send to itself), so the load
    # offered per node is below the configured one: compare with the offered, and take a
    # point as accepted when no seed saturated and the network took 95% of what it was
    # offered (the test that ndlc sweep's plots mark).
    for routing in ROUTINGS:
        rows = summary[summary["RoutingAlgorithm"] == routing]
        kept = rows[(rows["status"] == "ok") & (rows[ACCEPTED] >= 0.95 * rows[OFFERED])]
        best = kept[LOAD].max() if len(kept) else None
        print(f"{routing}: accepts what is offered up to a configured load of "
              + (f"{best:.2f} flits/node/clock" if best is not None else "none of the loads"))

    files = ndl.plot(df, out / "latency", LATENCY)
    print("wrote", out / "summary.csv", *files)
    return 0


if __name__ == "__main__":
    sys.exit(main())
