#!/usr/bin/env python3
"""INSIGHT section 3.2, citing its ref. [8]: under e-cube routing the network latency
"changes markedly with the locality of the communication pattern between processors and
with the processors' performance". The three applications of examples/workloads on the
hypercube (e-cube) and the 2-D torus (dimension order with dateline VCs, e-cube's torus
form), each at processor speed-ups of 1, 1.5 (the paper's Figure 1, 50%) and 10 (900%):
message latency (mean and 99th percentile, creation to arrival, so source queueing
included), mean hops, and the completion time. Prints a markdown table (docs/insight.md,
"Applications").

    python3 bench/workloads/latency.py [--ndlc build/ndlc] [--out DIR]
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples" / "workloads"
RATES = ["0%", "50%", "900%"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ndlc", default=str(ROOT / "build" / "ndlc"))
    ap.add_argument("--out", default=str(ROOT / "bench" / "workloads" / "out"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print("| network | application | speed-up | mean hops | message latency (ns) | p99 (ns) "
          "| completion (µs) | wait / node (µs) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for net in ("hypercube", "torus2d"):
        for app in ("pde", "sort", "matrix"):
            for rate in RATES:
                js = out / f"latency-{net}-{app}-{rate.rstrip('%')}.json"
                print(f"latency: {net} {app} {rate}", file=sys.stderr)
                subprocess.run([args.ndlc, "run", str(EX / f"{net}.ndl"),
                                "--set", f'CommunicationPatternFile="{EX / (app + ".cpf")}"',
                                "--set", f"ProcessorPerformanceExpandRate={rate}",
                                "--", "--json", str(js), "--quiet"], check=True)
                r = json.loads(js.read_text())
                a, m = r["application"], r["latency_ns"]["message"]
                speed = 1 + float(rate.rstrip("%")) / 100
                print(f"| {net} | {app} | {speed:g} | {r['hops']['mean']:.2f} | {m['mean']:.1f} "
                      f"| {m['p99']:.1f} | {a['completion_time_ns'] / 1000:.1f} "
                      f"| {a['mean_wait_ns'] / 1000:.1f} |")


if __name__ == "__main__":
    main()
