#!/usr/bin/env python3
"""Produce BookSim2 reference figures (zero-load latency, hop count, saturation
throughput, simulation speed) for dragonflynew / fattree / flatfly.

Usage:  python3 run.py            # write configs, run everything (resumable)
        python3 run.py --configs  # only (re)write the configuration files
        python3 run.py --only df_min_uniform_ps1 ...   # subset of series

All runs are sequential (one simulation at a time).  Every run's full
BookSim output goes to logs/<series>@<rate>.log; parsed results are cached
in raw_runs.json so the script can be re-started and will skip finished runs.
Results: reference.json (machine readable); RESULTS.md is written from it by
write_results().
"""
import json, math, os, re, subprocess, sys, time, platform

HERE = os.path.dirname(os.path.abspath(__file__))
# BookSim2 is built outside the repository (booksim/booksim2, src/, `make`): name its binary.
BOOKSIM = os.environ.get("BOOKSIM", os.path.join(HERE, "booksim2", "src", "booksim"))
CFGDIR = os.path.join(HERE, "configs")
LOGDIR = os.path.join(HERE, "logs")
RAW = os.path.join(HERE, "raw_runs.json")
REF = os.path.join(HERE, "reference.json")

ZERO_LOAD_RATE = 0.01          # flits/node/cycle
STEP = 0.01                    # bisection resolution, flits/node/cycle
ACC_TOL = 0.01                 # accepted must be within 1% of offered

# --------------------------------------------------------------------------
# Configurations.  Router/flow-control values copied from the BookSim2
# examples (src/examples/dragonflyconfig, fattree_config, flatflyconfig);
# num_vcs and vc_buf_size always stated explicitly.
# --------------------------------------------------------------------------
DRAGONFLY_BASE = [  # from src/examples/dragonflyconfig
    ("topology", "dragonflynew"), ("k", 2), ("n", 1),
    ("vc_buf_size", 256), ("wait_for_tail_credit", 0),
    ("vc_allocator", "separable_input_first"),
    ("sw_allocator", "separable_input_first"), ("alloc_iters", 1),
    ("credit_delay", 2), ("routing_delay", 0), ("vc_alloc_delay", 1),
    ("sw_alloc_delay", 1), ("st_prepare_delay", 0), ("st_final_delay", 1),
    ("input_speedup", 1), ("output_speedup", 1), ("internal_speedup", 2.0),
    ("warmup_periods", 3), ("sim_count", 1), ("sample_period", 10000),
    ("priority", "none"), ("injection_rate_uses_flits", 1),
    ("sim_type", "latency"),
]
FATTREE_BASE = [  # from src/examples/fattree_config
    ("topology", "fattree"), ("k", 4), ("n", 3),
    ("routing_function", "nca"), ("num_vcs", 4), ("vc_buf_size", 16),
    ("hold_switch_for_packet", 1), ("wait_for_tail_credit", 0),
    ("vc_allocator", "separable_input_first"),
    ("sw_allocator", "separable_input_first"), ("alloc_iters", 1),
    ("credit_delay", 2), ("routing_delay", 0), ("vc_alloc_delay", 1),
    ("sw_alloc_delay", 1), ("st_prepare_delay", 0), ("st_final_delay", 1),
    ("input_speedup", 1), ("output_speedup", 1), ("internal_speedup", 1.0),
    ("warmup_periods", 3), ("sim_count", 1), ("sample_period", 10000),
    ("priority", "none"), ("injection_rate_uses_flits", 1),
    ("sim_type", "latency"),
]
FLATFLY_BASE = [  # from src/examples/flatflyconfig
    ("topology", "flatfly"), ("subnets", 1), ("c", 4), ("k", 4), ("n", 2),
    ("x", 4), ("y", 4), ("xr", 2), ("yr", 2), ("use_noc_latency", 1),
    ("num_vcs", 8), ("vc_buf_size", 4), ("wait_for_tail_credit", 0),
    ("vc_allocator", "islip"), ("sw_allocator", "islip"), ("alloc_iters", 1),
    ("credit_delay", 2), ("routing_delay", 0), ("vc_alloc_delay", 1),
    ("sw_alloc_delay", 1), ("st_prepare_delay", 0), ("st_final_delay", 1),
    ("input_speedup", 1), ("output_speedup", 1), ("internal_speedup", 1.0),
    ("warmup_periods", 3), ("sim_count", 1), ("sample_period", 1000),
    ("use_read_write", 0), ("injection_rate_uses_flits", 1),
    ("sim_type", "latency"),
]


def series_defs():
    s = {}
    for ps in (1, 4):
        for traffic, tname in (("uniform", "uniform"), ("bad_dragon", "baddragon")):
            s[f"df_min_{tname}_ps{ps}"] = dict(
                net="dragonfly", base=DRAGONFLY_BASE,
                extra=[("routing_function", "min"), ("num_vcs", 2),
                       ("traffic", traffic), ("packet_size", ps)])
            s[f"df_ugal_{tname}_ps{ps}"] = dict(
                net="dragonfly", base=DRAGONFLY_BASE,
                extra=[("routing_function", "ugal"), ("num_vcs", 3),
                       ("traffic", traffic), ("packet_size", ps)])
        s[f"ft_nca_uniform_ps{ps}"] = dict(
            net="fattree", base=FATTREE_BASE,
            extra=[("traffic", "uniform"), ("packet_size", ps)])
        s[f"ff_ranmin_uniform_ps{ps}"] = dict(
            net="flatfly", base=FLATFLY_BASE,
            extra=[("routing_function", "ran_min"), ("traffic", "uniform"),
                   ("packet_size", ps)])
        s[f"ff_valiant_uniform_ps{ps}"] = dict(
            net="flatfly", base=FLATFLY_BASE,
            extra=[("routing_function", "valiant"), ("traffic", "uniform"),
                   ("packet_size", ps)])
    return s


def cfg_text(d):
    kv = dict(d["base"])
    kv.update(dict(d["extra"]))
    kv["injection_rate"] = ZERO_LOAD_RATE   # overridden on the command line
    lines = ["// generated by bench/booksim/indirect/run.py"]
    for k, v in kv.items():
        lines.append(f"{k} = {v};")
    return "\n".join(lines) + "\n", kv


def write_configs():
    os.makedirs(CFGDIR, exist_ok=True)
    out = {}
    for name, d in series_defs().items():
        text, kv = cfg_text(d)
        with open(os.path.join(CFGDIR, name + ".cfg"), "w") as f:
            f.write(text)
        out[name] = (text, kv)
    return out


# --------------------------------------------------------------------------
def parse(log):
    r = {}
    r["overall"] = "====== Overall Traffic Statistics ======" in log
    r["aborted_latency"] = "Aborting simulation" in log
    r["too_many_samples"] = "Too many sample periods" in log
    r["unstable"] = "Simulation unstable" in log
    m = re.findall(r"Time taken is (\d+) cycles", log)
    r["cycles"] = int(m[-1]) if m else None
    if r["overall"]:
        tail = log.split("====== Overall Traffic Statistics ======")[1]
        def grab(label):
            mm = re.search(re.escape(label) + r"\s*=\s*([-\d.eE+na]+)", tail)
            return float(mm.group(1)) if mm else None
        r["packet_latency_avg"] = grab("Packet latency average")
        r["network_latency_avg"] = grab("Network latency average")
        r["flit_latency_avg"] = grab("Flit latency average")
        r["injected_flit_rate"] = grab("Injected flit rate average")
        r["accepted_flit_rate"] = grab("Accepted flit rate average")
        r["hops_avg"] = grab("Hops average")
        mm = re.search(r"Packet latency average.*?\n\s*minimum = ([\d.]+).*?\n\s*maximum = ([\d.]+)", tail)
        if mm:
            r["packet_latency_min"] = float(mm.group(1))
            r["packet_latency_max"] = float(mm.group(2))
    else:
        # last per-sample accepted rate printed before the abort (informative)
        m = re.findall(r"Accepted flit rate average= ([\d.eE+-]+)", log)
        r["last_sample_accepted_flit_rate"] = float(m[-1]) if m else None
        m = re.findall(r"Packet latency average = ([\d.eE+-]+)", log)
        r["last_sample_packet_latency"] = float(m[-1]) if m else None
    return r


def load_raw():
    if os.path.exists(RAW):
        with open(RAW) as f:
            return json.load(f)
    return {}


def save_raw(raw):
    tmp = RAW + ".tmp"
    with open(tmp, "w") as f:
        json.dump(raw, f, indent=1, sort_keys=True)
    os.replace(tmp, RAW)


def run_one(raw, name, rate):
    key = f"{name}@{rate:.2f}" if rate >= 0.01 else f"{name}@{rate:g}"
    if key in raw:
        raw[key]["stable"] = stable(raw[key], name)
        return raw[key]
    os.makedirs(LOGDIR, exist_ok=True)
    cfg = os.path.join(CFGDIR, name + ".cfg")
    t0 = time.time()
    try:
        p = subprocess.run([BOOKSIM, cfg, f"injection_rate={rate}"],
                           capture_output=True, text=True, timeout=900)
        log = p.stdout + p.stderr
        rc = p.returncode
    except subprocess.TimeoutExpired as e:
        log = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        rc = "timeout"
    wall = time.time() - t0
    with open(os.path.join(LOGDIR, key + ".log"), "w") as f:
        f.write(log)
    r = parse(log)
    r.update(rate=rate, wall_s=round(wall, 3), rc=rc)
    if r.get("cycles"):
        r["cycles_per_s"] = round(r["cycles"] / wall, 1)
    r["stable"] = stable(r, name)
    raw[key] = r
    save_raw(raw)
    print(f"{key:40s} stable={r['stable']!s:5s} lat={r.get('packet_latency_avg')} "
          f"acc={r.get('accepted_flit_rate', r.get('last_sample_accepted_flit_rate'))} "
          f"wall={wall:.1f}s", flush=True)
    return r


NODES = {"dragonfly": 72, "fattree": 64, "flatfly": 64}


def stable(r, name):
    """Converged run: BookSim finished normally (main() returns -1 == rc 255
    on success), printed overall stats, latency finite, and accepted flit
    rate equals offered within max(ACC_TOL, 3 sigma of Bernoulli packet-count
    sampling noise over the minimum 3-sample window); the sigma term only
    matters at the 0.01 zero-load point."""
    if not r["overall"] or r["unstable"] or r["rc"] not in (255, -1):
        return False
    acc = r.get("accepted_flit_rate")
    lat = r.get("packet_latency_avg")
    if acc is None or lat is None or not math.isfinite(lat):
        return False
    d = series_defs()[name]
    kv = dict(d["base"]); kv.update(dict(d["extra"]))
    n = NODES[d["net"]]
    t_meas = 3 * kv["sample_period"]      # minimum measurement window
    pkts = r["rate"] / kv["packet_size"] * n * t_meas
    tol = max(ACC_TOL, 3.0 / math.sqrt(pkts))
    return abs(acc - r["rate"]) <= tol * r["rate"]


def saturation(raw, name):
    """Bisection on a 0.01 grid: highest rate that is stable."""
    lo_i, hi_i = 1, 101          # in units of STEP; rate 0.01 assumed stable-checked
    if not run_one(raw, name, 0.01)["stable"]:
        return 0.0, []
    tried = []
    while hi_i - lo_i > 1:
        mid = (lo_i + hi_i) // 2
        if mid > 100:
            mid = 100
        rate = round(mid * STEP, 2)
        r = run_one(raw, name, rate)
        tried.append(rate)
        if r["stable"]:
            lo_i = mid
        else:
            hi_i = mid
    return round(lo_i * STEP, 2), tried


def main():
    cfgs = write_configs()
    if "--configs" in sys.argv:
        return
    if "--report" in sys.argv:
        write_results(build_reference(load_raw(), cfgs))
        return
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    raw = load_raw()
    names = list(series_defs().keys())
    if only:
        names = [n for n in names if n in only]
    for name in names:                      # zero-load first for every series
        run_one(raw, name, ZERO_LOAD_RATE)
    build_reference(raw, cfgs)
    for name in names:
        zl = run_one(raw, name, ZERO_LOAD_RATE)
        sat, tried = saturation(raw, name)
        print(f"== {name}: zero-load packet latency {zl.get('packet_latency_avg')} "
              f"hops {zl.get('hops_avg')} saturation {sat}", flush=True)
        build_reference(raw, cfgs)
    build_reference(raw, cfgs)


def lscpu_model():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name"):
                return line.split(":", 1)[1].strip()
    except Exception:
        pass
    return platform.processor()


NETWORK_NOTES = {
    "zero_load_model": "T0 = 3 + t_r*R + sum(router-router channel latencies) + (packet_size-1); "
                       "R = routers traversed = BookSim 'Hops average'; t_r = 3 (internal_speedup 1.0), 2 (internal_speedup 2.0); "
                       "3 = inject channel 1 + eject channel 1 + 1 source cycle",
    "dragonfly": {"p_terminals_per_router": 2, "a_routers_per_group": 4, "h_global_ports_per_router": 2,
                  "groups": 9, "routers": 36, "terminals": 72, "radix": 7,
                  "local_channel_latency": 10, "global_channel_latency": 100,
                  "credit_latency": "same as channel", "inject_eject_latency": 1,
                  "terminal_attach": "terminal t -> router t//2 port t%2; router r in group r//4",
                  "router_cycles_per_hop_t_r": 2},
    "fattree": {"k": 4, "levels": 3, "routers": 48, "terminals": 64, "channel_latency": 1,
                "inject_eject_latency": 1, "terminal_attach": "terminal t -> leaf router (level 2) position t//4",
                "router_cycles_per_hop_t_r": 3},
    "flatfly": {"routers": 16, "grid": "4x4", "concentration": 4, "terminals": 64, "radix": 10,
                "channel_latency": "2*|dx| or 2*|dy| router pitches (2,4,6) with use_noc_latency=1",
                "inject_eject_latency": 1,
                "terminal_attach": "terminal t: col=t%8,row=t//8 -> router (row//2)*4 + col//2",
                "ran_min_is": "deterministic dimension order X then Y",
                "router_cycles_per_hop_t_r": 3},
}


def build_reference(raw, cfgs):
    ref = {"booksim_commit": subprocess.run(
               ["git", "-C", os.path.join(HERE, "booksim2"), "rev-parse", "HEAD"],
               capture_output=True, text=True).stdout.strip(),
           "cpu_model": lscpu_model(), "nproc": os.cpu_count(),
           "zero_load_rate": ZERO_LOAD_RATE, "sat_step": STEP,
           "acc_tol": ACC_TOL, "networks": NETWORK_NOTES, "series": {}}
    for name in series_defs():
        if f"{name}@0.01" not in raw:
            continue
        runs = {k.split("@")[1]: v for k, v in raw.items() if k.split("@")[0] == name}
        stab = sorted(float(k) for k, v in runs.items() if v["stable"])
        unst = sorted(float(k) for k, v in runs.items() if not v["stable"])
        sat = max(stab) if stab else 0.0
        first_unstable = min([u for u in unst if u > sat], default=None)
        zl = runs["0.01"]
        satrun = runs.get(f"{sat:.2f}")
        ref["series"][name] = {
            "config_file": f"configs/{name}.cfg",
            "config": cfgs[name][1],
            "zero_load": {k: zl.get(k) for k in (
                "rate", "packet_latency_avg", "packet_latency_min", "packet_latency_max",
                "network_latency_avg", "flit_latency_avg", "hops_avg",
                "accepted_flit_rate", "cycles", "wall_s", "cycles_per_s")},
            "saturation_flits_per_node_cycle": sat,
            "first_unstable_rate": first_unstable,
            "at_saturation": None if satrun is None else {k: satrun.get(k) for k in (
                "rate", "packet_latency_avg", "network_latency_avg", "hops_avg",
                "accepted_flit_rate", "cycles", "wall_s", "cycles_per_s")},
            "all_runs": runs,
        }
    with open(REF, "w") as f:
        json.dump(ref, f, indent=1)
    return ref


def fmt(x, nd=2):
    return "-" if x is None else (f"{x:.{nd}f}" if isinstance(x, float) else str(x))


def reason(r):
    if r.get("stable"):
        return "converged"
    if r.get("aborted_latency"):
        return "aborted: latency > latency_thres (500)"
    if r.get("too_many_samples"):
        return "did not converge in max_samples"
    return "accepted != offered"


def write_results(ref, path=os.path.join(HERE, "RESULTS_tables.md")):
    """Auto-generated tables (RESULTS.md embeds / references them)."""
    L = []
    L.append("| series | ZL packet lat | ZL network lat | ZL min/max | ZL hops (routers) "
             "| sat. (flits/node/cyc) | first unstable (accepted there, why) | lat @ sat "
             "| cycles/s @ sat (cycles, wall) | cycles/s @ 0.01 |")
    L.append("|---|---|---|---|---|---|---|---|---|---|")
    for name, d in ref["series"].items():
        z = d["zero_load"]; a = d["at_saturation"] or {}
        fu = d["first_unstable_rate"]
        fur = d["all_runs"].get(f"{fu:.2f}") if fu is not None else None
        fus = "-" if fur is None else (f"{fu:.2f} (acc {fmt(fur.get('last_sample_accepted_flit_rate') or fur.get('accepted_flit_rate'), 3)}, {reason(fur)})")
        L.append(f"| {name} | {fmt(z['packet_latency_avg'])} | {fmt(z['network_latency_avg'])} "
                 f"| {fmt(z.get('packet_latency_min'),0)}/{fmt(z.get('packet_latency_max'),0)} | {fmt(z['hops_avg'],3)} "
                 f"| {d['saturation_flits_per_node_cycle']:.2f} | {fus} | {fmt(a.get('packet_latency_avg'))} "
                 f"| {fmt(a.get('cycles_per_s'),0)} ({a.get('cycles')}, {fmt(a.get('wall_s'),1)} s) "
                 f"| {fmt(z.get('cycles_per_s'),0)} |")
    L.append("")
    L.append("All runs (rate: status, packet latency, accepted flit rate, cycles, wall s):")
    L.append("")
    for name, d in ref["series"].items():
        items = sorted(d["all_runs"].items(), key=lambda kv: float(kv[0]))
        L.append(f"- **{name}**: " + "; ".join(
            f"{k}: {'ok' if v['stable'] else 'X'} {fmt(v.get('packet_latency_avg'),1)} "
            f"acc={fmt(v.get('accepted_flit_rate') or v.get('last_sample_accepted_flit_rate'),3)} "
            f"{v.get('cycles')}c {fmt(v.get('wall_s'),1)}s" for k, v in items))
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


if __name__ == "__main__":
    main()
