"""The relations of INSIGHT's figures 4-12, on 256-node versions of its four
networks, checked against the model's own physics (docs/runtime.md 2.2).

    python3 tests/insight/relations_test.py NDLC [unittest options]

Every run goes through `ndlc run FILE --set ... -- --json ...` (builds are
cached by content). Networks: a 16x16 2-D torus (x-first y-next), an 8x8x4
3-D torus (dimension order), an 8-cube (e-cube) and RDT(2,4,1) on 16x16
(vector routing); INSIGHT's shared parameters (stdlib insight: 256-bit
packets with a 64-bit header, 2-clock routers, one VC, Drop); one packet per
message so that the zero-load formula applies to every message exactly.

The zero-load latency of a packet of P flits over H links, router delay D,
link delay L, in clocks (docs/runtime.md 2.2):
    cut-through, wormhole:  T(H) = (H+1) D + H L + (P-1)
    store-and-forward:      T(H) = (H+1)(D + P - 1) + H L + (P-1)
T is linear in H, so the mean over the messages is T(mean H), a strict
lower bound of the measured mean (contention only adds). The allowance above
it at light load comes from queueing, not from fitting: a channel carrying
rho = (offered flits per node per clock) x N x (mean hops) / channels is busy
a share rho of the time; a header waits on average at most rho S / (2 (1 -
rho)) clocks per hop for a link held S clocks by each packet (M/D/1), over
H+1 allocations (H links and the ejection). The bound used is twice that,
plus one clock for rounding.
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest
from pathlib import Path

NDLC = None
D, L = 2, 1                       # stdlib insight: 2-clock routers; default 1-clock links
PACKET_BITS = 256                 # stdlib insight; one packet per message

NETS = {  # name: (topology, routing)
    "torus2d": ("(Torus 16 16)", "XFirstYNext"),
    "torus3d": ("(Torus 8 8 4)", "DimensionOrder"),
    "hypercube": ("(Hypercube 8)", "Ecube"),
    "rdt": ("(RDT 2 4 1 16 16)", "VectorRouting"),
    # The same RDT with the graph's own shortest paths (stdlib ShortestPath).
    "rdt-minimal": ("(RDT 2 4 1 16 16)", "ShortestPath"),
}
SAF, WH, VCT = "StoreAndForward", "Wormhole", "VirtualCutThrough"
# Wormhole gets 2-flit buffers: the least that covers the 2-clock credit loop
# (LinkDelay + CreditDelay), so that the zero-load formula holds for it too,
# and less than a packet, so that a blocked worm spreads over several
# routers (with a packet-sized buffer and one VC wormhole behaves as
# cut-through).
FC_SETS = {SAF: [], VCT: [], WH: ["--set", "NodeBufferSize=2flit"]}
LIGHT = "40usec"      # 2000 clocks at 50 MHz: channels busy under 1% of the time
MODERATE = "2usec"    # 100 clocks at 50 MHz: the 2-D torus's channels ~16% busy
MESSAGES = 2000       # ~8 messages per node


def zero_load(fc, hops, flits):
    if fc == SAF:
        return (hops + 1) * (D + flits - 1) + hops * L + (flits - 1)
    return (hops + 1) * D + hops * L + (flits - 1)


class Runner:
    """Runs (network, width, clock, flow control, interval) points through
    `ndlc run`, once each, in parallel."""

    def __init__(self, ndlc):
        self.ndlc = ndlc
        self.dir = Path(tempfile.mkdtemp(prefix="ndl-insight-relations-"))
        self.results = {}
        self.lock = threading.Lock()

    def program(self, net, width, clock):
        topo, routing = NETS[net]
        path = self.dir / f"{net}-{width}-{clock}.ndl"
        with self.lock:
            if not path.exists():
                path.write_text(
                    f'(import "insight")\n(Topology {topo})\n(RoutingAlgorithm {routing})\n'
                    f"(NetworkChannelWidth {width})\n(NetworkFrequency {clock})\n"
                    f"(FlowControlMethod {SAF})\n(MessageCreationInterval {LIGHT})\n"
                    f"(MessageCreationMax {MESSAGES})\n")
        return path

    def run_point(self, point):
        net, width, clock, fc, interval = point
        prog = self.program(net, width, clock)
        out = self.dir / ("-".join(point) + ".json")
        cmd = [self.ndlc, "run", str(prog), "--set", f"FlowControlMethod={fc}",
               "--set", f"MessageCreationInterval={interval}"] + FC_SETS[fc] + [
               "--", "--json", str(out), "--quiet"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0 or not out.exists():
            raise AssertionError(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stderr[-3000:]}")
        data = json.loads(out.read_text())
        assert data["conservation"]["holds"], f"{point}: conservation does not hold"
        return data

    def get(self, *point):
        if point not in self.results:
            self.results[point] = self.run_point(point)
        return self.results[point]

    def prefetch(self, points):
        todo = [p for p in dict.fromkeys(points) if p not in self.results]
        # One point per program first, so that each simulator is built (and
        # cached) once before several runs of it start at the same time.
        first = list({p[:3]: p for p in reversed(todo)}.values())
        rest = [p for p in todo if p not in first]
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for batch in (first, rest):
                for p, data in zip(batch, pool.map(self.run_point, batch)):
                    self.results[p] = data


RUNNER = None


def ns(data):
    return data["latency_ns"]["network"]["mean"]


def clocks(data):
    return data["latency_cycles"]["network"]["mean"]


def light_load_bound(data, fc):
    """(lower, upper) bounds of the mean network latency in clocks at light
    load, from the zero-load formula and the queueing allowance above."""
    cfg = data["config"]
    flits = cfg["NetworkPacketSize_flits"]
    assert flits == PACKET_BITS // cfg["NetworkChannelWidth_bits"]
    # Messages per node per clock while the sources create them.
    rate = (1.0 / cfg["MessageCreationInterval_clocks"] if cfg["MessageCreationInterval_clocks"]
            else cfg["MessageCreationRate_per_clock"])
    hops = data["hops"]["mean"]
    nodes = data["topology"]["nodes"]
    channels = 2 * data["topology"]["links"]
    rho = rate * flits * nodes * hops / channels
    assert rho < 0.2, f"not a light load: channels {rho:.0%} busy"
    hold = flits  # a packet holds a link for P clocks under every flow control here
    wait = rho * hold / (2 * (1 - rho))
    t0 = zero_load(fc, hops, flits)
    return t0, t0 + 2 * (hops + 1) * wait + 1


def setUpModule():
    global RUNNER
    RUNNER = Runner(NDLC)
    points = []
    for net in NETS:
        for fc in (SAF, WH, VCT):
            for iv in (LIGHT, MODERATE):
                points.append((net, "32bit", "50MHz", fc, iv))
    for net in ("torus2d", "hypercube"):
        for width, clock in (("16bit", "50MHz"), ("64bit", "50MHz"),
                             ("32bit", "25MHz"), ("32bit", "100MHz")):
            for iv in (LIGHT, MODERATE, "4usec"):
                points.append((net, width, clock, SAF, iv))
        for iv in (LIGHT, MODERATE, "4usec"):
            points.append((net, "32bit", "50MHz", SAF, iv))
    RUNNER.prefetch(points)


class ZeroLoad(unittest.TestCase):
    def test_light_load_latency_is_the_zero_load_formula(self):
        """Every network and flow control: at light load the mean network
        latency lies between T(mean hops) and T plus the queueing allowance."""
        for net in NETS:
            for fc in (SAF, WH, VCT):
                with self.subTest(net=net, fc=fc):
                    d = RUNNER.get(net, "32bit", "50MHz", fc, LIGHT)
                    self.assertEqual(d["messages"]["dropped"], 0)
                    lo, hi = light_load_bound(d, fc)
                    self.assertGreaterEqual(clocks(d), lo - 1e-9)
                    self.assertLessEqual(clocks(d), hi)


class RdtRoutes(unittest.TestCase):
    def test_shortest_paths_are_minimal_and_faster_than_vector_routing(self):
        """Vector routing takes base hops between ranks (docs/topologies.md);
        ShortestPath's routes are the graph's: at light load the mean hop
        count is the average distance (2,000 random pairs: within 4%), below
        vector routing's, and so is the latency, under every flow control."""
        for fc in (SAF, WH, VCT):
            with self.subTest(fc=fc):
                vec = RUNNER.get("rdt", "32bit", "50MHz", fc, LIGHT)
                sp = RUNNER.get("rdt-minimal", "32bit", "50MHz", fc, LIGHT)
                avg = sp["topology"]["avg_distance"]
                self.assertLess(abs(sp["hops"]["mean"] / avg - 1), 0.04)
                self.assertGreater(vec["hops"]["mean"], 1.15 * avg)
                self.assertLess(ns(sp), ns(vec))


class FlowControl(unittest.TestCase):
    """Figures 4-6."""

    def test_store_and_forward_two_d_torus_highest(self):
        """Fig. 4: under store-and-forward the 2-D torus has by far the highest
        latency and the RDT a far lower one. Each hop costs D + P - 1 clocks,
        and the 2-D torus has the most hops (average distance k/2 per
        dimension: 8 here against 5, 4 and the RDT's ~4.5); with the fewest
        links per node its channels are also the busiest, so the order holds
        under load too."""
        for iv in (LIGHT, MODERATE):
            t2 = RUNNER.get("torus2d", "32bit", "50MHz", SAF, iv)
            for other in ("torus3d", "hypercube", "rdt"):
                with self.subTest(interval=iv, other=other):
                    o = RUNNER.get(other, "32bit", "50MHz", SAF, iv)
                    self.assertGreater(t2["hops"]["mean"], o["hops"]["mean"])
                    self.assertGreater(ns(t2), ns(o))
        # "Far lower": at light load the ratio is that of the zero-load
        # latencies, at least the ratio of the lower bound to the upper.
        t2 = RUNNER.get("torus2d", "32bit", "50MHz", SAF, LIGHT)
        rdt = RUNNER.get("rdt", "32bit", "50MHz", SAF, LIGHT)
        self.assertGreater(ns(t2) / ns(rdt),
                           light_load_bound(t2, SAF)[0] / light_load_bound(rdt, SAF)[1])
        self.assertGreater(ns(t2) / ns(rdt), 1.3)

    def test_cut_through_gains_most_on_the_two_d_torus(self):
        """Figs. 4-5: leaving store-and-forward saves (P-1) clocks per router
        passed, (H+1)(P-1) per packet, so the saving grows with the hop
        count: largest on the 2-D torus, small on the short networks."""
        saving = {}
        for net in NETS:
            saf = RUNNER.get(net, "32bit", "50MHz", SAF, LIGHT)
            for fc in (WH, VCT):
                d = RUNNER.get(net, "32bit", "50MHz", fc, LIGHT)
                with self.subTest(net=net, fc=fc):
                    self.assertLess(ns(d), ns(saf))
            saving[net] = ns(saf) - ns(RUNNER.get(net, "32bit", "50MHz", VCT, LIGHT))
        for other in ("torus3d", "hypercube", "rdt"):
            self.assertGreater(saving["torus2d"], saving[other])

    def test_cut_through_beats_wormhole_under_load(self):
        """Fig. 6: with a packet-sized buffer a blocked cut-through packet sits
        in one router and frees the links behind it; a blocked worm in 2-flit
        buffers holds every link back to its tail. Under load that costs the
        busy 2-D torus much (channels ~16% busy at 2 us) and the 8-cube, whose
        channels are a quarter as busy (half the hops over twice the links),
        hardly anything."""
        t2_wh = RUNNER.get("torus2d", "32bit", "50MHz", WH, MODERATE)
        t2_vct = RUNNER.get("torus2d", "32bit", "50MHz", VCT, MODERATE)
        self.assertLess(ns(t2_vct), ns(t2_wh))
        hc_wh = RUNNER.get("hypercube", "32bit", "50MHz", WH, MODERATE)
        hc_vct = RUNNER.get("hypercube", "32bit", "50MHz", VCT, MODERATE)
        gain_t2 = (ns(t2_wh) - ns(t2_vct)) / ns(t2_wh)
        gain_hc = (ns(hc_wh) - ns(hc_vct)) / ns(hc_wh)
        self.assertGreater(gain_t2, gain_hc)


class Width(unittest.TestCase):
    """Figures 7-9: store-and-forward, 16, 32 and 64-bit channels at 50 MHz."""

    def test_doubling_the_width_roughly_halves_latency(self):
        """A packet is P = 256/width flits; at light load the latency is
        T(P) = (H+1)(D+P-1) + H L + (P-1), so halving P divides it by less
        than 2 (D and L do not shrink) and by the ratio of the formulas
        (within the queueing allowance)."""
        for net in ("torus2d", "hypercube"):
            for narrow, wide in (("16bit", "32bit"), ("32bit", "64bit")):
                with self.subTest(net=net, widths=(narrow, wide)):
                    a = RUNNER.get(net, narrow, "50MHz", SAF, LIGHT)
                    b = RUNNER.get(net, wide, "50MHz", SAF, LIGHT)
                    ratio = ns(a) / ns(b)
                    lo_a, hi_a = light_load_bound(a, SAF)
                    lo_b, hi_b = light_load_bound(b, SAF)
                    self.assertGreaterEqual(ratio, lo_a / hi_b)
                    self.assertLessEqual(ratio, hi_a / lo_b)
                    self.assertLess(ratio, 2.0)
                    self.assertGreater(ratio, 1.5)
            # Under load the narrow channel is also twice as busy: the gain
            # of widening can only be larger than at light load.
            for narrow, wide in (("16bit", "32bit"), ("32bit", "64bit")):
                with self.subTest(net=net, widths=(narrow, wide), load=MODERATE):
                    light = (ns(RUNNER.get(net, narrow, "50MHz", SAF, LIGHT)) /
                             ns(RUNNER.get(net, wide, "50MHz", SAF, LIGHT)))
                    loaded = (ns(RUNNER.get(net, narrow, "50MHz", SAF, MODERATE)) /
                              ns(RUNNER.get(net, wide, "50MHz", SAF, MODERATE)))
                    self.assertGreater(loaded, light * 0.98)


class Clock(unittest.TestCase):
    """Figures 10-12: store-and-forward, 32-bit channels, 25, 50, 100 MHz."""

    def test_doubling_the_clock_halves_latency_or_better(self):
        """Everything is counted in clocks, so the zero-load latency in ns
        halves exactly; the creation interval is in microseconds, so at the
        faster clock each channel is half as busy and waits only shrink. At
        light load the ratio is 2 within the queueing allowance; under load
        it is above 2."""
        for net in ("torus2d", "hypercube"):
            for slow, fast in (("25MHz", "50MHz"), ("50MHz", "100MHz")):
                with self.subTest(net=net, clocks=(slow, fast)):
                    a = RUNNER.get(net, "32bit", slow, SAF, LIGHT)
                    b = RUNNER.get(net, "32bit", fast, SAF, LIGHT)
                    lo_a, _ = light_load_bound(a, SAF)
                    _, hi_b = light_load_bound(b, SAF)
                    self.assertGreaterEqual(ns(a) / ns(b), 2 * lo_a / hi_b)
                    a = RUNNER.get(net, "32bit", slow, SAF, "4usec")
                    b = RUNNER.get(net, "32bit", fast, SAF, "4usec")
                    self.assertGreater(ns(a) / ns(b), 2.0)

    def test_clock_helps_more_than_width(self):
        """Doubling the clock divides every term of T by 2; doubling the width
        divides only the P terms, so T(P)/2 < T(P/2) whenever D >= 1, L >= 1:
        (H+1)(D+P-1) + H L + P-1 < 2 [(H+1)(D+P/2-1) + H L + P/2-1]."""
        for net in ("torus2d", "hypercube"):
            for iv in (LIGHT, MODERATE, "4usec"):
                with self.subTest(net=net, interval=iv):
                    faster = RUNNER.get(net, "32bit", "100MHz", SAF, iv)
                    wider = RUNNER.get(net, "64bit", "50MHz", SAF, iv)
                    self.assertLess(ns(faster), ns(wider))


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit("usage: relations_test.py NDLC [unittest options]")
    NDLC = sys.argv.pop(1)
    unittest.main(verbosity=2)
