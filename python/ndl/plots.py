#!/usr/bin/env python3
"""Plots of one run's results (a simulator's --json file and its tables), with gnuplot.

    python3 -m ndl.plots histogram RUN.json [--kind message|network|packet] [-o BASE]
    python3 -m ndl.plots channels RUN.json [-o BASE]

histogram: the run's latency histogram (JSON latency_histograms, the measured messages or
packets per bin, in clocks), with its mean and p99 marked.
channels: a heat map of channel loads for a 2-D mesh or torus: every outgoing channel's load in
flits per clock (the channels table), each router (x + kx * y) a 3x3 block of cells on the
topology's grid with its x+ channel right of the centre, x- left, y+ above and y- below; the
busiest channel's load bounds the offered load the network accepts, a channel carrying at
most 1.

Each writes BASE.png, BASE.svg and the .gp/.dat files gnuplot read (BASE defaults to the JSON
path without .json, plus -histogram-KIND or -channels). Exit status 1 with a message when the
run has no such data (nothing measured; no channels table; not a 2-D mesh or torus).
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path


def gp_string(s):
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"') + '"'


def draw(base, body, size=(900, 600), missing=""):
    """Writes BASE.gp drawing the gnuplot commands `body` to BASE.png and BASE.svg (size in
    pixels) and runs gnuplot; returns the two files. RuntimeError if gnuplot is missing (with
    `missing` appended to the message) or fails."""
    w, h = size
    full = (f"set terminal pngcairo size {w},{h} noenhanced font 'DejaVu Sans,11'\n"
            f"set output {gp_string(base.with_suffix('.png'))}\n{body}\nset output\n"
            f"set terminal svg size {w},{h} dynamic noenhanced font 'DejaVu Sans,11'\n"
            f"set output {gp_string(base.with_suffix('.svg'))}\nreplot\nset output\n")
    gp = base.with_suffix(".gp")
    gp.write_text(full, encoding="utf-8")
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        raise RuntimeError("gnuplot is not installed (scripts/install-deps.sh installs "
                           "gnuplot-nox)" + missing)
    r = subprocess.run([gnuplot, str(gp)], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("gnuplot failed:\n" + r.stderr.strip())
    return [base.with_suffix(".png"), base.with_suffix(".svg")]


def histogram(run, base, kind="message"):
    if "latency_histograms" not in run:
        raise RuntimeError("the JSON has no latency_histograms: rerun it with a simulator built "
                           "by this ndlc")
    h = run["latency_histograms"][kind]
    s = run["latency_cycles"][kind]
    if not h["counts"]:
        raise RuntimeError(f"the run measured no {kind} latency: nothing to plot")
    first, width = h["first_clock"], h["bin_clocks"]
    dat = base.with_suffix(".dat")
    with open(dat, "w", encoding="utf-8") as f:
        for i, c in enumerate(h["counts"]):
            f.write(f"{first + i * width + width / 2!r}\t{c}\n")
    top = max(h["counts"])
    script = "\n".join([
        f"set title {gp_string(kind + ' latency, ' + str(s['count']) + ' measured')}",
        f"set xlabel {gp_string(kind + ' latency (clocks, bins of ' + str(width) + ')')}",
        "set ylabel 'count'",
        "set grid ytics lc rgb '#dddddd'",
        "set style fill solid 0.6 border -1",
        f"set boxwidth {width * 0.95!r}",
        f"set yrange [0:{top * 1.15!r}]",
        f"set arrow 1 from {s['mean']!r},0 to {s['mean']!r},{top * 1.05!r} nohead "
        "lc rgb '#c00000' lw 2",
        f"set label 1 {gp_string('mean ' + format(s['mean'], '.1f'))} at {s['mean']!r},{top * 1.1!r} "
        "center textcolor rgb '#c00000'",
        f"set arrow 2 from {s['p99']!r},0 to {s['p99']!r},{top * 0.9!r} nohead "
        "lc rgb '#444444' dt 2",
        f"set label 2 {gp_string('p99 ' + format(s['p99'], 'g'))} at {s['p99']!r},{top * 0.95!r} center",
        f"plot {gp_string(dat)} using 1:2 with boxes lc rgb '#4477aa' notitle",
    ])
    return draw(base, script)


def grid_of(run):
    """(kx, ky) of a 2-D mesh or torus, from the topology's name ("Mesh 8 8")."""
    words = str(run["topology"]["name"]).split()
    if len(words) == 3 and words[0] in ("Mesh", "Torus") and all(w.isdigit() for w in words[1:]):
        return int(words[1]), int(words[2])
    raise RuntimeError(f"a channel heat map needs a 2-D Mesh or Torus; this run's topology is "
                       f"{run['topology']['name']}")


# Where a router's channel toward each neighbour sits in its 3x3 block of the heat map,
# (column, row) within the block: x+ right, x- left, y+ above, y- below.
BLOCK_CELL = {(1, 0): (2, 1), (-1, 0): (0, 1), (0, 1): (1, 2), (0, -1): (1, 0)}


def grid_step(a, b, k, wrap):
    """The step (+1, -1 or 0) from coordinate a to b on a ring (wrap) or line of k."""
    d = b - a
    if wrap and k > 2:
        d = (d + 1) % k - 1
    return d


def channel_heatmap(run, json_path, base):
    """Every outgoing channel's load on the grid: router (x, y) is the 3x3 block of cells at
    columns 3x..3x+2, rows 3y..3y+2, its channel toward x+ the block's middle right cell, x-
    the middle left, y+ the middle top, y- the middle bottom; corners and centre are empty."""
    kx, ky = grid_of(run)
    wrap = str(run["topology"]["name"]).startswith("Torus")
    name = run["tables"].get("channels")
    if not name:
        raise RuntimeError("the run has no channels table ("
                           f"{run['tables'].get('note') or 'run the simulator with --json'})")
    cells = [[None] * (3 * kx) for _ in range(3 * ky)]
    with open(os.path.join(os.path.dirname(os.path.abspath(json_path)), name)) as f:
        rows = list(csv.DictReader(f))
    # A 2-ary torus reaches its one neighbour per dimension twice: the first channel is the
    # + direction, the second the -.
    seen = set()
    for row in rows:
        r, to = int(row["router"]), int(row["to_router"])
        x, y, tx, ty = r % kx, r // kx, to % kx, to // kx
        step = (grid_step(x, tx, kx, wrap), grid_step(y, ty, ky, wrap))
        if (r, step) in seen:
            step = (-step[0], -step[1])
        seen.add((r, step))
        if step not in BLOCK_CELL:
            raise RuntimeError(f"channel {r} -> {to} is not between grid neighbours")
        cx, cy = BLOCK_CELL[step]
        cells[3 * y + cy][3 * x + cx] = float(row["flits_per_clock"])
    loads = [v for line in cells for v in line if v is not None]
    top = max(loads) if loads else 0.0
    dat = base.with_suffix(".dat")
    with open(dat, "w", encoding="utf-8") as f:
        for line in cells:
            f.write("\t".join("NaN" if v is None else repr(v) for v in line) + "\n")
    busiest = run.get("channels", {}).get("busiest") or ""
    title = (f"flits per clock on each outgoing channel (max {top:.3f}"
             + (f", {busiest}" if busiest else "") + "); a router's block: x+ right, x- left, "
             "y+ top, y- bottom")
    ticks = lambda k: ", ".join(f'"{i}" {3 * i + 1}' for i in range(k))
    script = "\n".join([
        f"set title {gp_string(title)} font ',10'",
        "set xlabel 'x'", "set ylabel 'y'",
        f"set xrange [-0.5:{3 * kx - 0.5}]", f"set yrange [-0.5:{3 * ky - 0.5}]",
        "set cbrange [0:*]", "set cblabel 'flits/clock'",
        "set palette defined (0 '#ffffff', 0.5 '#f4a261', 1 '#9b2226')",
        "set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 behind "
        "fillcolor rgb '#e8e8e8' fillstyle solid noborder",
        "set size ratio -1", f"set xtics ({ticks(kx)})", f"set ytics ({ticks(ky)})",
        f"plot {gp_string(dat)} matrix with image notitle",
    ])
    return draw(base, script)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m ndl.plots", description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["histogram", "channels"])
    ap.add_argument("json")
    ap.add_argument("--kind", choices=["message", "network", "packet"], default="message")
    ap.add_argument("-o", "--out", help="output base path (without extension)")
    a = ap.parse_args(argv)
    try:
        with open(a.json) as f:
            run = json.load(f)
        stem = a.json[:-5] if a.json.endswith(".json") else a.json
        if a.what == "histogram":
            files = histogram(run, Path(a.out or f"{stem}-histogram-{a.kind}"), a.kind)
        else:
            files = channel_heatmap(run, a.json, Path(a.out or f"{stem}-channels"))
    except (OSError, KeyError, RuntimeError, json.JSONDecodeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for p in files:
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
