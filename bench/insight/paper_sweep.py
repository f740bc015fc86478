#!/usr/bin/env python3
"""The full sweep of INSIGHT's evaluation (paper section 3.5, figures 4-12).

Four networks (examples/insight/{torus2d,torus3d,hypercube,rdt}.ndl) x three
flow controls x channel widths 16/32/64 bits x clocks 25/50/100 MHz x
creation intervals 2/10/50/100 us: 432 runs, every value given with ndlc
run --set (ndlc's build cache makes one simulator per network, width and
clock, unless cached from an earlier sweep).
Wormhole runs use 2-flit buffers (the paper gives no wormhole buffer size;
2 flits is the least that keeps a link streaming over the 2-clock credit
loop, and a packet-sized buffer would make wormhole the same as virtual
cut-through with one VC); store-and-forward and cut-through use one packet.

    bench/insight/run.sh [OUT_DIR]        (documented entry point)
    python3 bench/insight/paper_sweep.py --ndlc build/ndlc --out DIR [--docs docs]

Writes OUT/results.csv (every point, every metric), OUT/figNN.{png,svg} (the
paper's figures 4-12 as our plots: mean network latency against the
creation interval, one line per network), OUT/summary.md (the figures'
numbers and the dropped share), and with --docs copies the figures to
DOCS/insight-figNN.{png,svg}.
"""
import argparse
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "compiler" / "driver" / "sweep"))
import ndl_sweep as sw  # noqa: E402

NETWORKS = [  # file stem, legend
    ("torus2d", "2-D torus 64×64"),
    ("torus3d", "3-D torus 16×16×16"),
    ("hypercube", "12-D hypercube"),
    ("rdt", "RDT(2,4,1) 64×64"),
]
FLOW = ["StoreAndForward", "Wormhole", "VirtualCutThrough"]
FLOW_NAME = {"StoreAndForward": "store-and-forward", "Wormhole": "wormhole",
             "VirtualCutThrough": "virtual cut-through"}
WIDTHS = ["16bit", "32bit", "64bit"]
CLOCKS = ["25MHz", "50MHz", "100MHz"]
INTERVALS = ["2usec", "10usec", "50usec", "100usec"]
WORMHOLE_BUFFER = "2flit"

# figure: (flow control, width, clock); the paper's captions
FIGURES = {
    4: ("StoreAndForward", "32bit", "50MHz"),
    5: ("Wormhole", "32bit", "50MHz"),
    6: ("VirtualCutThrough", "32bit", "50MHz"),
    7: ("StoreAndForward", "16bit", "50MHz"),
    8: ("StoreAndForward", "32bit", "50MHz"),
    9: ("StoreAndForward", "64bit", "50MHz"),
    10: ("StoreAndForward", "32bit", "25MHz"),
    11: ("StoreAndForward", "32bit", "50MHz"),
    12: ("StoreAndForward", "32bit", "100MHz"),
}
GROUPS = [(4, 5, 6), (7, 8, 9), (10, 11, 12)]


def grid():
    for fc in FLOW:
        for width in WIDTHS:
            for clock in CLOCKS:
                for interval in INTERVALS:
                    p = {"MessageCreationInterval": interval, "FlowControlMethod": fc,
                         "NetworkChannelWidth": width, "NetworkFrequency": clock}
                    if fc == "Wormhole":
                        p["NodeBufferSize"] = WORMHOLE_BUFFER
                    yield p


def key(p):
    return (p.file.stem, p.params["FlowControlMethod"], p.params["NetworkChannelWidth"],
            p.params["NetworkFrequency"], p.params["MessageCreationInterval"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ndlc", default=sw.default_ndlc())
    ap.add_argument("--out", default=str(ROOT / "bench" / "insight" / "out"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--docs", help="copy the figures to DOCS/insight-figNN.{png,svg}")
    ap.add_argument("--networks", default=",".join(n for n, _ in NETWORKS),
                    help="comma-separated subset of " + ", ".join(n for n, _ in NETWORKS))
    args = ap.parse_args()
    out = Path(args.out)
    chosen = args.networks.split(",")
    sweep = sw.Sweep(args.ndlc, out, jobs=args.jobs, keep_json=False)
    t0 = time.monotonic()
    for stem, _ in NETWORKS:
        if stem in chosen:
            sweep.add_points(ROOT / "examples" / "insight" / f"{stem}.ndl", list(grid()))
    print(f"paper sweep: {len(sweep.points)} points, {sweep.jobs} jobs", file=sys.stderr)
    sweep.run()
    elapsed = time.monotonic() - t0
    sweep.write_csv(out / "results.csv")
    by_key = {key(p): p for p in sweep.points}
    summary = [f"Full INSIGHT sweep: {len(sweep.points)} points, {sweep.builds} builds, "
               f"{sweep.jobs} jobs, {elapsed:.0f} s wall "
               f"({sum(p.status == 'failed' for p in sweep.points)} failed).", ""]
    for group in GROUPS:
        ys = [sw.get_metric(by_key[(n, *FIGURES[f], i)].flat, sw.DEFAULT_Y)
              for f in group for n, _ in NETWORKS if n in chosen for i in INTERVALS
              if (n, *FIGURES[f], i) in by_key]
        ys = [y for y in ys if y]
        y_range = (min(ys) / 1.25, max(ys) * 1.25) if ys else None
        for fig in group:
            fc, width, clock = FIGURES[fig]
            rows = []
            for p in sweep.points:
                if (p.params["FlowControlMethod"], p.params["NetworkChannelWidth"],
                        p.params["NetworkFrequency"]) != (fc, width, clock):
                    continue
                rows.append({"MessageCreationInterval": p.params["MessageCreationInterval"],
                             "file": p.file.stem,
                             "_metric": sw.get_metric(p.flat, sw.DEFAULT_Y)
                             if p.status != "failed" else None})
            legend = dict(NETWORKS)
            title = (f"Fig. {fig}: mean network latency, {FLOW_NAME[fc]}, {width[:-3]}-bit "
                     f"channels, {clock[:-3]} MHz")
            try:
                sw.plot(rows, "MessageCreationInterval", sw.DEFAULT_Y, out / f"fig{fig:02d}",
                        title, ["file"], x_values=INTERVALS, log_x=True, y_range=y_range,
                        x_label="message creation interval per node (µs)",
                        label_of=lambda k: legend.get(k[0], k[0]))
            except RuntimeError as e:
                print(f"fig {fig}: {e}", file=sys.stderr)
                continue
            if args.docs:
                for ext in ("png", "svg"):
                    shutil.copy(out / f"fig{fig:02d}.{ext}",
                                Path(args.docs) / f"insight-fig{fig:02d}.{ext}")
            summary += [f"Fig. {fig} ({FLOW_NAME[fc]}, {width}, {clock}): mean network latency "
                        "in ns (share of messages dropped)", "",
                        "| network | " + " | ".join(i.replace("usec", " µs") for i in INTERVALS)
                        + " |", "|---" * (len(INTERVALS) + 1) + "|"]
            for n, name in NETWORKS:
                cells = []
                for i in INTERVALS:
                    p = by_key.get((n, fc, width, clock, i))
                    if p is None:
                        continue
                    y = sw.get_metric(p.flat, sw.DEFAULT_Y)
                    created = p.flat.get("messages.created") or 0
                    dropped = p.flat.get("messages.dropped") or 0
                    if p.status == "failed" or y is None:
                        cells.append("failed")
                    else:
                        cell = f"{y:,.0f}"
                        if dropped:
                            cell += f" ({100.0 * dropped / created:.0f}%)"
                        cells.append(cell)
                if cells:
                    summary.append(f"| {name} | " + " | ".join(cells) + " |")
            summary.append("")
    (out / "summary.md").write_text("\n".join(summary) + "\n", encoding="utf-8")
    print("\n".join(summary))
    failed = sum(p.status == "failed" for p in sweep.points)
    print(f"paper sweep: {elapsed:.0f} s, {failed} failed; wrote {out}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
