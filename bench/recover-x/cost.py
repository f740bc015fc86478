#!/usr/bin/env python3
"""What the adaptive routers cost to simulate (issue: "at most 2x
Dimension-order's time per router-clock"): the four routers of
examples/recover-x/routers on the paper's 8x8 torus, 128-byte messages,
hot-spot and all-to-all traffic, at generation probabilities 0.5% (0.16
flits/node/clock offered), 0.8% (0.26, about Dimension-order's saturation
under hot-spot) and 100% (every router saturated). Runs are interleaved
(each round runs every simulator once) and the median of the rounds is
reported, as wall-clock nanoseconds per router-clock and per flit hop
(saturated adaptive routers move more flits per clock), with the ratio to
Dimension-order's at the same point.

    python3 bench/recover-x/cost.py [--ndlc build/ndlc] [--rounds 3]
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "recover-x"
ROUTERS = ["dimension-order", "star-channel", "recover-x", "disha"]
TRAFFIC = {"hot-spot": "(TrafficPattern (HotSpot 10% (Nodes 4 12 20 28 36 44 52 60)))",
           "all-to-all": "(TrafficPattern AllToAll)"}
RATES = [0.005, 0.008, 1.0]  # messages per node per clock


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ndlc", default=str(ROOT / "build" / "ndlc"))
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ndl-cost-"))
    sims = {}
    for t, pattern in TRAFFIC.items():
        for r in ROUTERS:
            src = tmp / f"{t}-{r}.ndl"
            src.write_text(f'(import "{EXAMPLES}/paper.ndl")\n'
                           f'(import "{EXAMPLES}/routers/{r}.ndl")\n'
                           f"(Topology (Torus 8 8))\n{pattern}\n(MessageLength 128byte)\n"
                           "(MessageCreationRate 100%)\n")
            sims[(t, r)] = tmp / f"{t}-{r}.sim"
            subprocess.run([args.ndlc, "build", str(src), "-o", str(sims[(t, r)])], check=True)
    ns = {}  # (traffic, router, rate) -> [ns per router-clock]
    for k in range(args.rounds):
        print(f"cost: round {k + 1}/{args.rounds}", file=sys.stderr)
        for t in TRAFFIC:
            for rate in RATES:
                for r in ROUTERS:
                    js = tmp / "out.json"
                    # Converted values (--param): a probability per clock, message counts.
                    subprocess.run([str(sims[(t, r)]), "--quiet", "--json", str(js), "--param",
                                    f"CreationRate={rate}", "--param", "WarmupMessages=2000",
                                    "--param", "MeasuredMessages=20000"], check=True)
                    res = json.loads(js.read_text())
                    if res["status"] != "ok":
                        sys.exit(f"{t} {r} {rate}: status {res['status']}")
                    ns.setdefault((t, r, rate), []).append(
                        (res["wall_seconds"] * 1e9 / res["router_clocks"],
                         res["wall_seconds"] * 1e9 / max(1, res["flit_hops"])))
    for i, unit in enumerate(("router-clock", "flit hop")):
        print(f"\nMedian of {args.rounds} interleaved rounds, ns of wall time per {unit} "
              "(ratio to Dimension-order at the same point):\n")
        print("| traffic | probability | " + " | ".join(ROUTERS) + " |")
        print("|---|---|" + "---|" * len(ROUTERS))
        worst = 0.0
        for t in TRAFFIC:
            for rate in RATES:
                base = statistics.median(x[i] for x in ns[(t, "dimension-order", rate)])
                cells = []
                for r in ROUTERS:
                    m = statistics.median(x[i] for x in ns[(t, r, rate)])
                    if r != "dimension-order":
                        worst = max(worst, m / base)
                    cells.append(f"{m:.1f}" +
                                 ("" if r == "dimension-order" else f" ({m / base:.2f}×)"))
                print(f"| {t} | {rate:.1%} | " + " | ".join(cells) + " |")
        print(f"\nWorst ratio to Dimension-order per {unit}: {worst:.2f}× (target: at most 2×).")


if __name__ == "__main__":
    main()
