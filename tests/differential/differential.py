"""Differential testing of simulators (docs/runtime.md, "Trust").

Generates random valid programs (topology x routing x flow control x VCs x buffer sizes x
traffic x load), builds each four ways (specialized and --unspecialized, at -O2 and -O0)
and requires of every case:
  - the four simulators give bit-identical JSON (wall time aside), same seed;
  - conservation: created = delivered + dropped + refused + in flight for messages and
    created = delivered + dropped + in flight for packets, in flight being what the simulator
    holds (counted apart from the rest), the queued messages (not yet wholly handed to the
    injection channel) part of those in flight;
  - at zero load (one single-packet message into an idle network) the latency is the
    model's formula to the clock: cut-through and wormhole T = (H+1)D + HL + S,
    store-and-forward T = (H+1)(D+P-1) + HL + S, H the hops the packet took, S the clocks
    the tail trails the head: P-1 when a VC of B flits covers the credit loop of L+C
    clocks, else floor((P-1)/B)(L+C) + (P-1) mod B (docs/runtime.md 2.2).
A program the checker rejects is drawn again (the generator aims at valid programs; the
rejections are counted). Every case is reproducible from --seed and its index.

usage: differential.py NDLC WORKDIR [--cases N] [--seed S] [--first I] [--keep]
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../lit/build"))
from results_tables import with_tables  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("ndlc")
ap.add_argument("work")
ap.add_argument("--cases", type=int, default=4)
ap.add_argument("--cases-sanitized", type=int, default=None,
                help="cases when NDL_SANITIZED=1 (a sanitizer build, ten times slower)")
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--first", type=int, default=0, help="index of the first case (to rerun one)")
ap.add_argument("--keep", action="store_true", help="keep the simulators and JSON of passing cases")
args = ap.parse_args()
if os.environ.get("NDL_SANITIZED") == "1" and args.cases_sanitized is not None:
    print(f"under sanitizers: {args.cases_sanitized} of {args.cases} cases")
    args.cases = args.cases_sanitized
os.makedirs(args.work, exist_ok=True)

VARIANTS = (("O2", ["-O", "2"]), ("O0", ["-O", "0"]),
            ("plainO2", ["--unspecialized", "-O", "2"]), ("plainO0", ["--unspecialized", "-O", "0"]))


def topology(rng):
    kind = rng.choice(["Torus2", "Torus3", "Mesh2", "Ring", "Hypercube"])
    if kind == "Torus2":
        return f"(Torus {rng.randint(2, 6)} {rng.randint(2, 6)})", "torus", 2
    if kind == "Torus3":
        return f"(Torus {rng.randint(2, 4)} {rng.randint(2, 4)} {rng.randint(2, 3)})", "torus", 3
    if kind == "Mesh2":
        return f"(Mesh {rng.randint(2, 6)} {rng.randint(2, 6)})", "mesh", 2
    if kind == "Ring":
        return f"(Ring {rng.randint(3, 10)})", "torus", 1
    return f"(Hypercube {rng.randint(2, 5)})", "cube", 0


def routing(rng, family, dims):
    options = {"torus": ["DimensionOrder", "MinimalAdaptive", "Valiant", "ShortestPath"],
               "mesh": ["DimensionOrder", "WestFirst", "NorthLast", "NegativeFirst", "OddEven",
                        "MinimalAdaptive", "Valiant", "ShortestPath"],
               "cube": ["Ecube", "ShortestPath"]}[family]
    return rng.choice(options)


def program(rng, zero_load=False):
    topo, family, dims = topology(rng)
    route = routing(rng, family, dims)
    flow = rng.choice(["StoreAndForward", "VirtualCutThrough", "Wormhole"])
    vcs = rng.randint(1, 4)
    width = rng.choice([16, 32, 64])
    flits = rng.randint(2, 8)
    buffer = flits * rng.randint(1, 3) if flow != "Wormhole" else rng.randint(1, 3 * flits)
    handling = rng.choice(["Avoid", "Drop", "Detect"]) if vcs > 1 else rng.choice(["Drop", "Detect"])
    lines = [f"(Topology {topo})", f"(RoutingAlgorithm {route})", f"(FlowControlMethod {flow})",
             f"(VirtualChannels {vcs})", f"(DeadlockHandling {handling})",
             f"(NetworkChannelWidth {width}bit)", "(NetworkFrequency 100MHz)",
             f"(NetworkPacketSize {width * flits}bit)", f"(NodeBufferSize {width * buffer}bit)",
             f"(NodeHardwareDelay {rng.randint(1, 3)}clock)", f"(LinkDelay {rng.randint(1, 2)}clock)"]
    if rng.random() < 0.3:
        lines.append(f"(Selection {rng.choice(['First', 'Random', 'MostCredits', 'StraightFirst'])})")
    if zero_load:
        # One message of one packet: its data fills the packet less the header flit.
        lines += ["(TrafficPattern Uniform)", "(MessageCreationRate 100%)", "(MessageCreationMax 1)",
                  f"(MessageLength {width * (flits - 1)}bit)"]
    else:
        traffic = rng.choice(["Uniform", "BitComplement", "Tornado", "Neighbor", "Transpose", "Shuffle"])
        lines += [f"(TrafficPattern {traffic})", f"(MessageCreationRate {rng.choice([1, 2, 5, 10, 20])}%)",
                  f"(MessageCreationMax {rng.choice([200, 500, 1000])})",
                  f"(MessageLength {width}bit to {width * flits * rng.randint(1, 3)}bit)",
                  f"(InjectionQueueOverflow {rng.choice(['Refuse', 'Block'])})"]
    return "\n".join(lines) + "\n"


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k != "wall_seconds"}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def valid(rng, zero_load, path):
    """Draws programs until the checker accepts one; returns the number rejected."""
    rejected = 0
    while True:
        text = program(rng, zero_load)
        with open(path, "w") as f:
            f.write(text)
        if run([args.ndlc, "check", path]).returncode == 0:
            return rejected
        rejected += 1


def simulate(case_dir, path, seed):
    results = {}
    for tag, flags in VARIANTS:
        sim = os.path.join(case_dir, f"{tag}.sim")
        out = os.path.join(case_dir, f"{tag}.json")
        b = run([args.ndlc, "build", *flags, path, "-o", sim])
        if b.returncode != 0:
            return None, f"build {tag} failed: {b.stderr[-500:]}"
        r = run([sim, "--quiet", "--seed", str(seed), "--json", out], timeout=600)
        if r.returncode not in (0, 3) or not os.path.exists(out):
            return None, f"{tag} exit {r.returncode}: {r.stderr[-500:]}"
        with open(out) as f:
            results[tag] = with_tables(json.load(f), out)  # the tables' rows, not their names
    return results, ""


failures, rejected, t0 = [], 0, time.time()
stats = dict(identical=0, conserved=0, zero_load=0, statuses={})
for i in range(args.first, args.first + args.cases):
    rng = random.Random(args.seed * 1000003 + i)
    for zero_load in (False, True):
        name = f"case{i}{'z' if zero_load else ''}"
        case_dir = os.path.join(args.work, name)
        shutil.rmtree(case_dir, ignore_errors=True)
        os.makedirs(case_dir)
        path = os.path.join(case_dir, "net.ndl")
        rejected += valid(rng, zero_load, path)
        results, why = simulate(case_dir, path, seed=rng.randint(1, 10**6))
        if results is None:
            failures.append(f"{name}: {why}")
            continue
        ref = strip(results["O2"])
        same = [tag for tag, _ in VARIANTS if strip(results[tag]) == ref]
        if len(same) != len(VARIANTS):
            diff = sorted({k for tag, _ in VARIANTS for k in ref if strip(results[tag]).get(k) != ref[k]})
            failures.append(f"{name}: the builds disagree in {diff} (same as -O2: {same})")
        else:
            stats["identical"] += 1
        # in_flight is what the simulator holds, counted apart from the other counts.
        m, pk = ref["messages"], ref["packets"]
        if m["created"] != m["delivered"] + m["dropped"] + m["refused"] + m["in_flight"] \
                or pk["created"] != pk["delivered"] + pk["dropped"] + pk["in_flight"] \
                or not 0 <= m["queued"] <= m["in_flight"] or pk["in_flight"] < 0 \
                or not ref["conservation"]["holds"]:
            failures.append(f"{name}: conservation fails: {m} {pk}")
        else:
            stats["conserved"] += 1
        stats["statuses"][ref["status"]] = stats["statuses"].get(ref["status"], 0) + 1
        if zero_load:
            c = ref["config"]
            p = ref["latency_cycles"]["packet"]
            hops = ref["hops"]["mean"]
            D, L, P = c["NodeHardwareDelay_clocks"], c["LinkDelay_clocks"], c["NetworkPacketSize_flits"]
            B, C = c["NodeBufferSize_flits"], c["CreditDelay_clocks"]
            per_router = D + P - 1 if c["FlowControlMethod"] == "StoreAndForward" else D
            trail = (P - 1) // B * max(B, L + C) + (P - 1) % B
            want = (hops + 1) * per_router + hops * L + trail
            if p["count"] != 1 or p["max"] != want:
                failures.append(f"{name}: zero-load latency {p['max']} clocks over {hops} hops, "
                                f"the model says {want} (D={D} L={L} C={C} B={B} P={P}, {c['FlowControlMethod']})")
            else:
                stats["zero_load"] += 1
        if not args.keep and not any(f.startswith(name + ":") for f in failures):
            shutil.rmtree(case_dir)

for f in failures:
    print("FAIL", f)
print(f"cases {2 * args.cases} identical {stats['identical']} conserved {stats['conserved']} "
      f"zero-load {stats['zero_load']} of {args.cases}; rejected drafts {rejected}; "
      f"statuses {dict(sorted(stats['statuses'].items()))}; {time.time() - t0:.0f} s")
sys.exit(1 if failures else 0)
