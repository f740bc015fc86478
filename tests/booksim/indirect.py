"""indirect.py NDLC DIR [--saturation] [--set Form=Value ...]: NDL beside BookSim2's figures for the indirect
networks (bench/booksim/indirect/reference.json, measured by bench/booksim/indirect/run.py;
no BookSim code here), on the configurations of those runs:

- dragonfly: BookSim2's dragonflynew k = 2 is (DragonflyWired 2 4 2 10 100) (local wires of
  10 clocks, global of 100, credits the same), 256-flit VCs, min (DragonflyMinimal, 2 VCs) and
  ugal (DragonflyUgal, 3 VCs); its router takes 2 clocks a hop at internal speedup 2, so
  (RouterPipeline (IB 0) (RC 0) (VA 1) (SA 0) (ST 1)), and runs at (InternalSpeedup 2);
- fat tree: fattree k = 4, n = 3 is (FatTree 4 3), nca is FatTreeUpDown, 4 VCs of 16 flits,
  1-clock wires, 3 clocks a router (VA, SA, ST at speedup 1),
  (RouterPipeline (IB 0) (RC 0) (VA 1) (SA 1) (ST 1)) (docs/pipeline.md);
- flattened butterfly: flatfly 4x4 routers with c = 4 is (FlattenedButterflyWired 4 4 2 2)
  (wires of 2 clocks per router pitch, 2, 4 or 6, as its use_noc_latency makes them), 8 VCs
  of 4 flits, ran_min (dimension order) is FlatFlyMinimal and valiant FlatFlyValiant,
  3 clocks a router;
- uniform traffic, 1- and 4-flit packets, virtual cut-through;
- BookSim2's separable input-first switch allocator arbitrates an input's requests by output
  port, so every run has (SwitchInputArbitration ByOutput), and the fat tree's reference holds
  the switch for a packet (hold_switch_for_packet=1), so its runs have (SwitchHold Packet).

Zero-load latency (at 0.01 flits/node/clock) must agree within 1% once calibrated (2.5% on
the flattened butterfly, whose BookSim2 runs sample 1,000 clocks at a time and measure a few
hundred packets at this load: its 4-flit run's mean hop count, 2.527 routers, is 1% above
the exact 2.5, and its latency 0.4 clocks above the same run with 1-flit packets plus 3):
BookSim2's packets take 3 clocks more (an injection and an ejection channel of one clock
each and a clock at the source; NDL's endpoints are attached without wires) and its uniform
traffic sends 1/E of the packets to their own source, where they take one router's delay
(R = 1, no wire); NDL never sends a packet to its source. So BookSim2's figure is compared
with (NDL's mean x (E - 1) + the self-packet's latency) / E + 3, where E is the endpoints and
the self-packet's latency is one router's delay plus the packet's tail (P - 1).

With --saturation it also finds NDL's saturation rate as BookSim2's runs found theirs (the
highest offered load on a 0.01 grid that the network accepts within 1%), prints it beside
BookSim2's with what NDL accepts past it, and the speed ratio at zero load: reported, not
asserted: the dragonfly's 4-flit series saturate 14-18% below BookSim2 and its UGAL 1-flit
series 14% above (bench/RESULTS.md, "The dragonfly at internal speedup 2").
"""
import json
import os
import subprocess
import sys

ndlc, out = sys.argv[1], sys.argv[2]
saturation = "--saturation" in sys.argv[3:]
# `--set Form=Value` (repeatable): set on every run, e.g. SwitchInputArbitration=ByOutput.
extra_sets = [sys.argv[k + 1] for k in range(3, len(sys.argv) - 1) if sys.argv[k] == "--set"]
# `--only PREFIX` (repeatable): only the networks whose key starts with one, e.g. df_.
only = [sys.argv[k + 1] for k in range(3, len(sys.argv) - 1) if sys.argv[k] == "--only"]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "..", "bench", "booksim", "indirect", "reference.json")) as f:
    reference = json.load(f)["series"]

PE_CLOCKS = 3

# BookSim2's routers as pipelines (docs/pipeline.md): routing_delay 0, vc_alloc_delay 1,
# sw_alloc_delay 1, st_final_delay 1. The dragonfly's internal speedup 2 lets a flit granted
# the switch cross it in the same cycle: its hop costs 2 clocks, (VA 1) (SA 0) (ST 1).
BOOKSIM_ROUTER = (0, 0, 1, 1, 1)
DRAGONFLY_ROUTER = (0, 0, 1, 0, 1)

NETWORKS = {
    "df_min": ("(DragonflyWired 2 4 2 10 100)", "DragonflyMinimal", 2, 256, DRAGONFLY_ROUTER, 72),
    "df_ugal": ("(DragonflyWired 2 4 2 10 100)", "DragonflyUgal", 3, 256, DRAGONFLY_ROUTER, 72),
    "ft_nca": ("(FatTree 4 3)", "FatTreeUpDown", 4, 16, BOOKSIM_ROUTER, 64),
    "ff_ranmin": ("(FlattenedButterflyWired 4 4 2 2)", "FlatFlyMinimal", 8, 4, BOOKSIM_ROUTER, 64),
    "ff_valiant": ("(FlattenedButterflyWired 4 4 2 2)", "FlatFlyValiant", 8, 4, BOOKSIM_ROUTER,
                   64),
}


def program(key, packet):
    topology, routing, vcs, buffers, stages, _ = NETWORKS[key]
    # BookSim2 injects into any of the router's VCs; NDL's endpoints have VCs of their own,
    # as many as the network's, or as fit in a router's 64 input VCs (the flattened
    # butterfly's 4 endpoints beside 6 ports of 8 VCs: 4 each).
    inj = 4 if key.startswith("ff_") else vcs
    pipeline = " ".join(f"({name} {clocks}clock)"
                        for name, clocks in zip(("IB", "RC", "VA", "SA", "ST"), stages))
    return (f"(Topology {topology})\n(RoutingAlgorithm {routing})\n(VirtualChannels {vcs})\n"
            f"(FlowControlMethod VirtualCutThrough)\n(NetworkChannelWidth 32bit)\n"
            f"(NetworkFrequency 1GHz)\n(NetworkPacketSize {32 * packet}bit)\n"
            f"(NodeBufferSize {buffers}flit)\n(RouterPipeline {pipeline})\n"
            f"(InjectionVirtualChannels {inj})\n(SwitchInputArbitration ByOutput)\n"
            + ("(SwitchHold Packet)\n" if key.startswith("ft_") else "")
            + ("(InternalSpeedup 2)\n" if key.startswith("df_") else "") +
            f"(TrafficPattern Uniform)\n(MessageCreationRate 1%)\n")


def run(src, *sets):
    js = src + ".json"
    args = [ndlc, "run", src]
    for s in (*extra_sets, *sets):
        args += ["--set", s]
    p = subprocess.run(args + ["--", "--quiet", "--json", js], capture_output=True, text=True)
    # A run past saturation ends at its SimulationTime, a status of its own.
    if p.returncode != 0 and "time limit" not in p.stderr:
        print(p.stderr[-600:])
        sys.exit(1)
    with open(js) as f:
        return json.load(f)


def stable(src, packet, endpoints, rate):
    """BookSim2's test of a run (bench/booksim/indirect/run.py): the network accepts what is
    offered, within 1% or 3 sigma of the packet count's sampling noise, measured over 20,000
    clocks after 10,000 of warm-up."""
    clocks, warmup = 30000, 10000
    s = run(src, f"MessageCreationRate={100.0 * rate / packet!r}%",
            "MessageCreationMax=1000000000", "SimulationTime=30000clock",
            f"WarmupMessages={int(endpoints * rate / packet * warmup)}")
    acc = s["throughput"]["accepted_flits_per_node_cycle"]
    pkts = rate / packet * endpoints * (clocks - warmup)
    return abs(acc - rate) <= max(0.01, 3.0 / pkts ** 0.5) * rate


def saturation_rate(src, packet, endpoints):
    """The highest stable offered load on a 0.01 grid, by bisection, as BookSim2's runs find
    theirs."""
    lo, hi = 1, 101  # hundredths; 0.01 is the zero-load point, stable
    while hi - lo > 1:
        mid = min((lo + hi) // 2, 100)
        if stable(src, packet, endpoints, mid / 100):
            lo = mid
        else:
            hi = mid
    return lo / 100


failed = False
rows = []
for key in NETWORKS:
    if only and not any(key.startswith(o) for o in only):
        continue
    for packet in (1, 4):
        series = f"{key}_uniform_ps{packet}"
        ref = reference[series]
        src = f"{out}/{series}.ndl"
        with open(src, "w") as f:
            f.write(program(key, packet))
        rate = 0.01 / packet * 100
        r = run(src, f"MessageCreationRate={rate!r}%", "MessageCreationMax=40000")
        endpoints = NETWORKS[key][5]
        ndl = r["latency_cycles"]["network"]["mean"]
        self_packet = sum(NETWORKS[key][4]) + packet - 1
        calibrated = (ndl * (endpoints - 1) + self_packet) / endpoints + PE_CLOCKS
        bs = ref["zero_load"]["packet_latency_avg"]
        ok = abs(calibrated - bs) <= (0.025 if key.startswith("ff_") else 0.01) * bs
        failed |= not ok
        print(f"{series} zero load: NDL {ndl:.2f}, calibrated {calibrated:.2f}, BookSim2 "
              f"{bs:.2f} ({calibrated / bs - 1:+.2%}) {'ok' if ok else 'FAIL'}")
        row = {"series": series, "ndl_zero_load": ndl, "ndl_calibrated": calibrated,
               "booksim_zero_load": bs,
               "booksim_saturation": ref["saturation_flits_per_node_cycle"]}
        if saturation:
            # Offered well past saturation, a short injection queue, a fixed time: what the
            # network accepts is its saturation throughput.
            s = run(src, f"MessageCreationRate={min(100.0, 100.0 / packet)!r}%",
                    "MessageCreationMax=1000000000", "MessageMaxCount=4",
                    "SimulationTime=30000clock", f"WarmupMessages={endpoints * 4000 // packet}")
            row["ndl_accepted_past_saturation"] = s["throughput"]["accepted_flits_per_node_cycle"]
            row["ndl_saturation"] = saturation_rate(src, packet, endpoints)
            # Speed at zero load: simulated clocks per wall second, beside BookSim2's.
            row["ndl_clocks_per_s"] = r["cycles"] / max(r["wall_seconds"], 1e-9)
            row["booksim_clocks_per_s"] = ref["zero_load"]["cycles_per_s"]
            print(f"{series} saturation: NDL {row['ndl_saturation']:.2f} (accepts "
                  f"{row['ndl_accepted_past_saturation']:.3f} past it), BookSim2 "
                  f"{row['booksim_saturation']:.2f}; zero-load speed NDL "
                  f"{row['ndl_clocks_per_s']:.0f} clocks/s, BookSim2 "
                  f"{row['booksim_clocks_per_s']:.0f} ({row['ndl_clocks_per_s'] / row['booksim_clocks_per_s']:.0f}x)")
        rows.append(row)
with open(f"{out}/indirect.json", "w") as f:
    json.dump(rows, f, indent=1)
sys.exit(1 if failed else 0)
