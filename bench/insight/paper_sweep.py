#!/usr/bin/env python3
"""INSIGHT's evaluation (paper section 3.5, figures 4-12), run as a reviewer
would want it: every point with several seeds and 95% confidence intervals,
under two methodologies, with the share of messages dropped on the figures
and the studies that show what the drops and the model's choices do.

Networks: examples/insight/{torus2d,torus3d,hypercube,rdt}.ndl, and the RDT
with shortest-path routes (stdlib ShortestPath) beside its vector routing. The paper's
nine figures use seven distinct settings (flow control, channel width,
clock; figures 8 and 11 repeat figure 4), each at creation intervals
2/10/50/100 us. Every value is given with ndlc run --set (ndlc's build cache
makes one simulator per network and setting). Wormhole runs use 2-flit
buffers (the paper gives no wormhole buffer size; 2 flits is the least that
keeps a link streaming over the 2-clock credit loop).

Methodologies:
  published  as the paper: 10,000 messages in all (examples/insight/
             workload.ndl), every message measured. At short intervals the
             sources are done within a few hundred clocks: a burst and its
             drain, not a steady load.
  steady     the same load without end: 5,000 messages of warm-up, then
             15,000 measured by arrival, the sources creating all along; a
             run that has not delivered them in three times the time the
             sources take to offer them is saturated (status time_limit).

Studies (published methodology, figures 4 and 5: store-and-forward and
wormhole at 32 bits, 50 MHz):
  drop       Drop (the packets of each wait-for cycle found) against
             DropAfterTimeout (any header blocked DeadlockTimeout clocks) at
             200, 1000 and 5000 clocks
  control    deadlock-free controls: dateline classes on the tori (2 VCs,
             DeadlockHandling Avoid), e-cube on the hypercube (1 VC, Avoid:
             its channel dependencies have no cycle), and on the RDT an
             up*/down* escape VC beside one VC of its own routes
             (VectorRoutingUpDown, ShortestPathUpDown; 2 VCs, Avoid)
  hop        a 2-clock hop (NodeHardwareDelay 1clock) against the examples'
             3 clocks (2-clock router and 1-clock link)

    bench/insight/run.sh [OUT_DIR]        (documented entry point)
    python3 bench/insight/paper_sweep.py --ndlc build/ndlc --out DIR [--docs docs]
        [--seeds N] [--networks torus2d,...] [--methods published,steady]
        [--studies drop,control,hop]

Writes OUT/results.csv (every run), OUT/summary.csv (mean and 95% CI half-
width of every metric per point), OUT/<method>-figNN.{png,svg} (linear axes,
as the paper's) and <method>-figNN-log.{png,svg}, and OUT/summary.md (every
table of docs/insight.md). With --docs it copies the PNGs to DOCS/insight/
and replaces the generated sections of DOCS/insight.md (between
`<!-- generated: NAME -->` and `<!-- end generated -->`).
"""
import argparse
import os
import re
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
from ndl import engine as sw  # noqa: E402

NETWORKS = [  # name, legend
    ("torus2d", "2-D torus 64×64"),
    ("torus3d", "3-D torus 16×16×16"),
    ("hypercube", "12-D hypercube"),
    ("rdt", "RDT(2,4,1) 64×64"),
    ("rdt-minimal", "RDT, shortest paths"),
]
# name -> (file stem, extra --set values): the RDT with routes of the graph's
# own shortest paths (stdlib ShortestPath, the lowest port first: as
# deterministic as vector routing) beside the paper's vector routing.
VARIANTS = {"rdt-minimal": ("rdt", {"RoutingAlgorithm": "ShortestPath", "Selection": "First"})}


def network_file(name):
    stem, extra = VARIANTS.get(name, (name, {}))
    return ROOT / "examples" / "insight" / f"{stem}.ndl", extra
FLOW_NAME = {"StoreAndForward": "store-and-forward", "Wormhole": "wormhole",
             "VirtualCutThrough": "virtual cut-through"}
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
SETTINGS = list(dict.fromkeys(FIGURES.values()))

STEADY_WARMUP, STEADY_MEASURED = 5000, 15000
METHODS = {
    "published": {},
    "steady": {"MessageCreationMax": "1000000", "WarmupMessages": str(STEADY_WARMUP),
               "MeasuredMessages": str(STEADY_MEASURED)},
}


def steady_time_limit(interval):
    """Three times the time the sources need to offer the warm-up and measured
    messages (4,096 nodes): a network that accepts less than a third of its
    offered load stops there with status time_limit, reported as saturated,
    instead of filling its injection queues for ever."""
    us = float(interval.replace("usec", ""))
    return f"{3 * (STEADY_WARMUP + STEADY_MEASURED) * us / 4096:.3f}usec"

# study -> [(variant name, {network stem or None for all: extra --set values})]
STUDY_SETTINGS = [FIGURES[4], FIGURES[5]]
STUDIES = {
    "drop": [("Drop", {None: {}})] + [
        (f"timeout {t}", {None: {"DeadlockHandling": "DropAfterTimeout",
                                 "DeadlockTimeout": f"{t}clock"}})
        for t in (200, 1000, 5000)],
    "control": [("Drop, 1 VC", {None: {}}),
                ("deadlock-free", {"torus2d": {"VirtualChannels": "2",
                                               "DeadlockHandling": "Avoid"},
                                   "torus3d": {"VirtualChannels": "2",
                                               "DeadlockHandling": "Avoid"},
                                   "hypercube": {"DeadlockHandling": "Avoid"},
                                   "rdt": {"RoutingAlgorithm": "VectorRoutingUpDown",
                                           "VirtualChannels": "2",
                                           "DeadlockHandling": "Avoid"},
                                   "rdt-minimal": {"RoutingAlgorithm": "ShortestPathUpDown",
                                                   "VirtualChannels": "2",
                                                   "DeadlockHandling": "Avoid"}})],
    "hop": [("3-clock hop", {None: {}}), ("2-clock hop", {None: {"NodeHardwareDelay": "1clock"}})],
}

LATENCY = sw.DEFAULT_Y
DROPPED = "derived.dropped_share"


def setting_params(setting, interval):
    fc, width, clock = setting
    p = {"MessageCreationInterval": interval, "FlowControlMethod": fc,
         "NetworkChannelWidth": width, "NetworkFrequency": clock}
    if fc == "Wormhole":
        p["NodeBufferSize"] = WORMHOLE_BUFFER
    return p


def plan(networks, methods, studies):
    """[(meta, file, params)]: meta = (study, variant, network, setting, interval);
    study is the methodology's name for the figures' points."""
    out = []
    seen = set()

    def add(meta, name, params):
        file, extra = network_file(name)
        # A study's values win over the variant's (the RDT control replaces
        # ShortestPath by ShortestPathUpDown).
        params = dict(extra, **params)
        key = (file, tuple(sorted(params.items())))
        out.append((meta, file, params, key in seen))
        seen.add(key)

    for method in methods:
        for setting in SETTINGS:
            for stem in networks:
                for interval in INTERVALS:
                    params = dict(setting_params(setting, interval), **METHODS[method])
                    if method == "steady":
                        params["SimulationTime"] = steady_time_limit(interval)
                    add((method, "", stem, setting, interval), stem, params)
    for study in studies:
        for variant, extra in STUDIES[study]:
            for setting in STUDY_SETTINGS:
                for stem in networks:
                    if stem not in extra and None not in extra:
                        continue
                    for interval in INTERVALS:
                        params = dict(setting_params(setting, interval),
                                      **extra.get(stem, extra.get(None, {})))
                        add((study, variant, stem, setting, interval), stem, params)
    return out


def saturated(group):
    return any(p.status == "time_limit" for p in group.points)


def cell(group, metric=LATENCY, drops=True):
    if group is None:
        return "—"
    m, half, n = group.stats(metric)
    if saturated(group):
        # Steady state only: the measured messages did not arrive in the time limit, so a
        # mean would depend on how long the run was; no point is plotted either.
        text = "saturated"
    elif m is None:
        return "failed"
    else:
        text = f"{m:,.0f}" + (f" ± {half:,.0f}" if half is not None else "")
    if drops:
        d, _, _ = group.stats(DROPPED)
        if d and d >= 0.0005:
            text += f" ({100 * d:.0f}%)" if d >= 0.01 else f" ({100 * d:.1f}%)"
    return text


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ndlc", default=sw.default_ndlc())
    ap.add_argument("--out", default=str(ROOT / "bench" / "insight" / "out"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seeds", type=int, default=5, help="seeds per point (default 5)")
    ap.add_argument("--docs", help="copy the figures to DOCS/insight/ and refresh the "
                    "generated sections of DOCS/insight.md")
    ap.add_argument("--networks", default=",".join(n for n, _ in NETWORKS))
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--studies", default=",".join(STUDIES), help="'' for none")
    ap.add_argument("--replot", action="store_true",
                    help="run nothing: read OUT/results.csv of an earlier run with the same "
                         "options and redo the tables, figures and docs")
    args = ap.parse_args()
    out = Path(args.out)
    networks = [n for n, _ in NETWORKS if n in args.networks.split(",")]
    methods = [m for m in args.methods.split(",") if m]
    studies = [s for s in args.studies.split(",") if s]
    for name, known in (("method", METHODS), ("study", STUDIES)):
        for x in (methods if name == "method" else studies):
            if x not in known:
                sys.exit(f"paper_sweep: unknown {name} '{x}' (choose from {', '.join(known)})")
    if args.seeds < 2:
        sys.exit("paper_sweep: --seeds needs 2 or more for confidence intervals")

    sweep = sw.Sweep(args.ndlc, out, jobs=args.jobs, keep_json=False, seeds=args.seeds)
    metas = []
    index_of = {}   # params key -> group index: a study's baseline is a figure's point
    for meta, file, params, repeated in plan(networks, methods, studies):
        key = (file, tuple(sorted(params.items())))
        if repeated:
            metas.append((meta, index_of[key]))
            continue
        index_of[key] = len(index_of)
        metas.append((meta, index_of[key]))
        sweep.add_points(file, [params])
    t0 = time.monotonic()
    if args.replot:
        elapsed = load_results(sweep, out / "results.csv")
    else:
        print(f"paper sweep: {len(index_of)} points × {args.seeds} seeds = {len(sweep.points)} "
              f"runs, {sweep.jobs} jobs", file=sys.stderr)
        sweep.run()
        elapsed = time.monotonic() - t0
    for p in sweep.points:
        if not p.flat.get("latency_ns.network.count"):
            p.flat.pop(LATENCY, None)  # nothing measured: no mean (the JSON says 0)
        created = p.flat.get("messages.created")
        if created:
            p.flat[DROPPED] = (p.flat.get("messages.dropped") or 0) / created
    sweep.write_csv(out / "results.csv")
    sweep.write_summary_csv(out / "summary.csv")
    groups = sweep.groups()
    by = {meta: groups[i] for meta, i in metas}
    failed = sum(p.status == "failed" for p in sweep.points)
    legend = dict(NETWORKS)
    sections = {}
    figures = []

    def header_row(first):
        return [first] + [i.replace("usec", " µs") for i in INTERVALS]

    for method in methods:
        lines = []
        for group in GROUPS:
            for fig in group:
                setting = FIGURES[fig]
                fc, width, clock = setting
                rows = []
                for stem in networks:
                    for interval in INTERVALS:
                        g = by.get((method, "", stem, setting, interval))
                        if g is None:
                            continue
                        m, half, _ = g.stats(LATENCY)
                        if saturated(g):
                            m = half = None
                        d, _, _ = g.stats(DROPPED)
                        rows.append({"MessageCreationInterval": interval, "file": stem,
                                     "_metric": m, "_err": half,
                                     "_label": f"{100 * d:.0f}%" if d and d >= 0.005 else ""})
                title = (f"Fig. {fig}: mean network latency, {FLOW_NAME[fc]}, "
                         f"{width[:-3]}-bit channels, {clock[:-3]} MHz — {method}, "
                         f"{args.seeds} seeds, 95% CI, % dropped")
                tops = [r["_metric"] + (r["_err"] or 0) for r in rows if r["_metric"]]
                for log, suffix in ((False, ""), (True, "-log")):
                    base = out / f"{method}-fig{fig:02d}{suffix}"
                    # Linear axes start at 0, as the paper's do.
                    y_range = None if log or not tops else (0, max(tops) * 1.08)
                    try:
                        sw.plot(rows, "MessageCreationInterval", LATENCY, base, title, ["file"],
                                x_values=INTERVALS, log_x=log, log_y=log, y_range=y_range,
                                x_label="message creation interval per node (µs)",
                                label_of=lambda k: legend.get(k[0], k[0]))
                        figures.append(base)
                    except RuntimeError as e:
                        print(f"{base.name}: {e}", file=sys.stderr)
                lines += [f"Fig. {fig} ({FLOW_NAME[fc]}, {width[:-3]}-bit, {clock[:-3]} MHz): "
                          "mean network latency in ns ± 95% CI (share dropped)", ""]
                lines += table(header_row("network"),
                               [[legend[s]] + [cell(by.get((method, "", s, setting, i)))
                                               for i in INTERVALS] for s in networks])
                lines.append("")
        sections[f"{method}-tables"] = lines

    for study in studies:
        lines = []
        for setting in STUDY_SETTINGS:
            fc, width, clock = setting
            lines += [f"{FLOW_NAME[fc].capitalize()}, {width[:-3]}-bit, {clock[:-3]} MHz: "
                      "mean network latency in ns ± 95% CI (share dropped)", ""]
            rows = []
            for stem in networks:
                for variant, extra in STUDIES[study]:
                    if stem not in extra and None not in extra:
                        rows.append([legend[stem], variant] + ["—"] * len(INTERVALS))
                        continue
                    rows.append([legend[stem], variant] +
                                [cell(by.get((study, variant, stem, setting, i)))
                                 for i in INTERVALS])
            lines += table(["network", "variant"] + header_row("")[1:], rows)
            lines.append("")
        sections[f"study-{study}"] = lines

    steady = []
    if "steady" in methods:
        total = detected = 0
        for (study, variant, stem, setting, interval), g in by.items():
            if study != "steady":
                continue
            for p in g.ran():
                total += 1
                detected += bool(p.flat.get("steady_state.detected"))
        steady = [f"Steady state detected (MSER truncation within the first half of the "
                  f"measured series) in {detected} of {total} steady-state runs."]
    sections["steady-check"] = steady

    summary = [f"INSIGHT sweep: {len(index_of)} points, {args.seeds} seeds, "
               f"{len(sweep.points)} runs, {sweep.builds} builds, {sweep.jobs} jobs, "
               f"{elapsed:.0f} s wall ({failed} failed).", ""]
    for name, lines in sections.items():
        summary += [f"## {name}", ""] + lines + [""]
    (out / "summary.md").write_text("\n".join(summary) + "\n", encoding="utf-8")
    print("\n".join(summary))
    if args.docs:
        docs = Path(args.docs)
        figdir = docs / "insight"
        figdir.mkdir(parents=True, exist_ok=True)
        for base in figures:
            shutil.copy(base.with_suffix(".png"), figdir / base.with_suffix(".png").name)
        sections["run"] = [summary[0]]
        refresh_doc(docs / "insight.md", sections)
    print(f"paper sweep: {elapsed:.0f} s, {failed} failed; wrote {out}", file=sys.stderr)
    return 1 if failed else 0


def load_results(sweep, path):
    """Fills the sweep's points from an earlier run's results.csv (rows in point
    order); returns that run's wall time as recorded in its summary.md, or 0."""
    import csv
    rows = list(csv.DictReader(open(path, encoding="utf-8")))
    if len(rows) != len(sweep.points):
        sys.exit(f"paper_sweep: {path} has {len(rows)} runs, these options make "
                 f"{len(sweep.points)}: replot with the options of that run")
    fixed = {"point", "file", "seed", "status", "exit_code", "error", "run_seconds"}
    for p, row in zip(sweep.points, rows):
        p.status, p.error = row["status"], row["error"]
        p.exit_code = int(row["exit_code"]) if row["exit_code"] else None
        p.seconds = float(row["run_seconds"])
        for k, v in row.items():
            if k in fixed or k in p.params or v == "":
                continue
            try:
                p.flat[k] = float(v)
            except ValueError:
                p.flat[k] = {"true": True, "false": False}.get(v, v)
    m = re.search(r"jobs, (\d+) s wall", (path.parent / "summary.md").read_text(encoding="utf-8")
                  if (path.parent / "summary.md").exists() else "")
    return float(m.group(1)) if m else 0.0


def refresh_doc(path, sections):
    """Replaces each `<!-- generated: NAME -->` ... `<!-- end generated -->`
    block of the page with the section NAME of this run."""
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(r"(<!-- generated: ([\w-]+) -->\n).*?(<!-- end generated -->)",
                         re.S)

    def repl(m):
        lines = sections.get(m.group(2))
        if lines is None:
            return m.group(0)
        return m.group(1) + "\n".join(lines).rstrip() + "\n" + m.group(3)

    path.write_text(pattern.sub(repl, text), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
