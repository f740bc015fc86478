"""Unit tests of the sweep engine (python/ndl/engine.py) that need no simulator: the
S-expression scanner, value lists, axes, JSON flattening, the gnuplot plot and the command
line's usage and input errors. Run by pytest (tests/python/CMakeLists.txt), on the package
staged beside ndlc (conftest.py).
"""
import csv
import io
import os
import shutil
import sys
import tempfile
import unittest
from pathlib import Path

from ndl import engine as sw

NDLC = os.environ["NDLC"]

PROGRAM = """;;; a test program (with a (FakeForm in a comment)
#| block (NetworkFrequency 1MHz) comment |#
(import "insight")
(Topology (Torus 4 4))
(NetworkChannelWidth 32bit) ; trailing (comment
(NetworkFrequency 50MHz)
(ScreenOutputFile "a (paren) \\" string")
(MessageCreationInterval 10usec)
(Sweep MessageCreationInterval 2usec 10usec)
"""


class Scanner(unittest.TestCase):
    def test_forms_skip_comments_and_strings(self):
        forms = sw.top_level_forms(PROGRAM)
        self.assertEqual([f.name for f in forms],
                         ["import", "Topology", "NetworkChannelWidth", "NetworkFrequency",
                          "ScreenOutputFile", "MessageCreationInterval", "Sweep"])
        topo = forms[1]
        self.assertEqual(PROGRAM[topo.start:topo.end], "(Topology (Torus 4 4))")
        self.assertEqual(topo.args, ["(Torus 4 4)"])
        self.assertEqual(topo.line, 4)
        self.assertEqual(forms[4].args, ['"a (paren) \\" string"'])
        self.assertEqual(forms[6].args, ["MessageCreationInterval", "2usec", "10usec"])

    def test_unterminated_input_does_not_hang(self):
        for text in ["(Topology (Torus 4 4)", '(A "x', "#| open", "(A ; c\n", ")", "((("]:
            sw.top_level_forms(text)

    def test_split_values(self):
        self.assertEqual(sw.split_values("2usec,10usec, 50usec"), ["2usec", "10usec", "50usec"])
        self.assertEqual(sw.split_values("(Torus 8 8),(HotSpot 1% (Nodes 1, 2))"),
                         ["(Torus 8 8)", "(HotSpot 1% (Nodes 1, 2))"])
        self.assertEqual(sw.split_values('"a,b",c'), ['"a,b"', "c"])
        with self.assertRaises(sw.UsageError):
            sw.split_values("1,,2")


class Axes(unittest.TestCase):
    def test_values_as_written(self):
        # Numbers of one unit text are placed as written; nothing is converted here (the
        # checker's conversions come from the runs' config, below).
        self.assertEqual(sw.axis_values(["2usec", "10usec"]), ([2.0, 10.0], "usec"))
        self.assertEqual(sw.axis_values(["0.1", "0.25"]), ([0.1, 0.25], ""))
        self.assertEqual(sw.axis_values(["500nsec", "2usec"]), (None, None))
        self.assertEqual(sw.axis_values(["25MHz", "0.1GHz"]), (None, None))
        self.assertEqual(sw.axis_values(["StoreAndForward", "Wormhole"]), (None, None))
        self.assertEqual(sw.axis_values(["2usec", "32bit"]), (None, None))

    def test_the_checkers_values(self):
        flat = {"config.NetworkFrequency_hz": 25e6, "config.MessageLength_bits": "64 64",
                "config.ReportPairs": "", "config.OfferedLoad_flits_per_node_cycle": 0.3,
                "config.RoutingAlgorithm": "XY", "config.MessageLengthX": 3}
        self.assertEqual(sw.config_value(flat, "NetworkFrequency"), (25e6, "Hz"))
        self.assertEqual(sw.config_value(flat, "MessageLength"), (64.0, "bits"))
        self.assertEqual(sw.config_value(flat, "OfferedLoad"), (0.3, "flits/node/clock"))
        self.assertIsNone(sw.config_value(flat, "RoutingAlgorithm"))
        self.assertIsNone(sw.config_value({"config.MessageLength_bits": "64 256"},
                                          "MessageLength"))
        # Mixed units on one axis, as the checker converted them.
        sweep = sw.Sweep("ndlc", tempfile.gettempdir(), quiet=True)
        sweep.add_points("a.ndl", [{"NetworkFrequency": "25MHz"},
                                   {"NetworkFrequency": "0.1GHz"}])
        for p, hz in zip(sweep.points, (25e6, 1e8)):
            p.status, p.flat = "ok", {"config.NetworkFrequency_hz": hz}
        self.assertEqual(sw.config_axis(sweep.groups(), "NetworkFrequency"),
                         ({"25MHz": 25e6, "0.1GHz": 1e8}, "Hz"))
        sweep.points[1].status = "failed"
        self.assertEqual(sw.config_axis(sweep.groups(), "NetworkFrequency"), (None, None))
        # 2usec is 100 clocks at 50MHz and 50 at 25MHz: no one axis in clocks.
        sweep = sw.Sweep("ndlc", tempfile.gettempdir(), quiet=True)
        sweep.add_points("a.ndl", [{"MessageCreationInterval": "2usec", "NetworkFrequency": f}
                                   for f in ("50MHz", "25MHz")])
        for p, clocks in zip(sweep.points, (100.0, 50.0)):
            p.status, p.flat = "ok", {"config.MessageCreationInterval_clocks": clocks}
        self.assertEqual(sw.config_axis(sweep.groups(), "MessageCreationInterval"),
                         (None, None))

    def test_flatten(self):
        flat = sw.flatten({"latency_ns": {"network": {"mean": 1.5}},
                           "tables": {"nodes": "point.nodes.csv", "pairs": None, "note": None},
                           "collisions": {"total": 3},
                           "by_distance": [{"hops": 2, "count": 5}],
                           "pairs": [{"src": 0, "dst": 3, "latency_ns": {"network": 9}}],
                           "series": {"rows": []}, "conservation": {"holds": True}})
        self.assertEqual(flat, {"latency_ns.network.mean": 1.5, "collisions.total": 3,
                                "by_distance.2.count": 5, "pairs.0-3.latency_ns.network": 9,
                                "conservation.holds": True})

    def test_pairs_come_from_their_table(self):
        d = Path(tempfile.mkdtemp())
        try:
            (d / "point.pairs.csv").write_text(
                "src,dst,latency_ns.network.mean,latency_cycles.network.count\n"
                "0,3,9.5,4\n5,1,,0\n")
            data = {"tables": {"nodes": None, "pairs": "point.pairs.csv", "note": None},
                    "cycles": 10}
            flat = sw.flatten(sw.with_pairs(data, d / "point.json"))
            self.assertEqual(flat, {"cycles": 10, "pairs.0-3.latency_cycles.network.count": 4,
                                    "pairs.0-3.latency_ns.network.mean": 9.5,
                                    "pairs.5-1.latency_cycles.network.count": 0,
                                    "pairs.5-1.latency_ns.network.mean": None})
            self.assertEqual(sw.table_files(data, d / "point.json"), [d / "point.pairs.csv"])
        finally:
            shutil.rmtree(d)


class Plot(unittest.TestCase):
    def test_png_and_svg(self):
        d = Path(tempfile.mkdtemp())
        try:
            rows = []
            for w, scale in (("16bit", 2.0), ("32bit", 1.0)):
                for x, y in (("2usec", 900.0), ("10usec", 300.0), ("100usec", 80.0)):
                    rows.append({"MessageCreationInterval": x, "NetworkChannelWidth": w,
                                 "_metric": y * scale})
            files = sw.plot(rows, "MessageCreationInterval", "latency_ns.network.mean",
                            d / "p", "title", ["NetworkChannelWidth"])
            self.assertEqual([f.name for f in files], ["p.png", "p.svg"])
            self.assertEqual((d / "p.png").read_bytes()[:8], b"\x89PNG\r\n\x1a\n")
            svg = (d / "p.svg").read_text()
            self.assertIn("NetworkChannelWidth=16bit", svg)
            self.assertIn("mean network latency (ns)", svg)
            self.assertIn("MessageCreationInterval (usec)", svg)
            gp = (d / "p.gp").read_text()
            self.assertIn("set logscale x", gp)   # 2 to 100 µs: more than a decade
            self.assertIn("set logscale y", gp)   # 80 to 1800 ns
        finally:
            shutil.rmtree(d)

    def test_points_without_a_value_are_marked(self):
        # Points with a label and no value: a dashed line at each, one label along the
        # first that names them while two or fewer, and counts them past that.
        d = Path(tempfile.mkdtemp())
        try:
            for unmeasured, label in ((["0.5", "0.6"], '"unmeasured: 0.5, 0.6" at first 0.5'),
                                      (["0.4", "0.5", "0.6"], '"unmeasured (3 points)" at first 0.4')):
                rows = [{"OfferedLoad": x, "_metric": 20.0 + 10 * i}
                        for i, x in enumerate(["0.1", "0.2", "0.3"])]
                rows += [{"OfferedLoad": x, "_metric": None, "_label": "unmeasured"}
                         for x in unmeasured]
                sw.plot(rows, "OfferedLoad", "latency_ns.message.mean", d / "p", "title", [])
                gp = (d / "p.gp").read_text()
                self.assertIn("set label " + label, gp)
                self.assertEqual(gp.count("set label"), 1)
                for x in unmeasured:
                    self.assertIn(f"set arrow from first {x}, graph 0", gp)
                self.assertNotIn("set arrow from first 0.3,", gp)
        finally:
            shutil.rmtree(d)


class Replications(unittest.TestCase):
    def test_student_t(self):
        self.assertEqual(sw.t95(1), 12.706)
        self.assertEqual(sw.t95(4), 2.776)
        # Beyond the table: exact values 2.021 (40), 2.000 (60), 1.980 (120).
        for df, exact in ((40, 2.021), (60, 2.000), (120, 1.980)):
            self.assertAlmostEqual(sw.t95(df), exact, delta=0.002)
        with self.assertRaises(ValueError):
            sw.t95(0)

    def test_mean_ci95(self):
        m, half, n = sw.mean_ci95([1.0, 2.0, 3.0, 4.0, 5.0])
        self.assertEqual((m, n), (3.0, 5))
        # s = sqrt(2.5), s / sqrt(5) = 0.70711, t(4) = 2.776
        self.assertAlmostEqual(half, 2.776 * (2.5 / 5) ** 0.5, places=12)
        self.assertEqual(sw.mean_ci95([7.0]), (7.0, None, 1))
        self.assertEqual(sw.mean_ci95([]), (None, None, 0))
        self.assertEqual(sw.mean_ci95([2.0, 2.0, 2.0])[1], 0.0)

    def make_sweep(self, d):
        sweep = sw.Sweep("ndlc", d, seeds=3, quiet=True)
        sweep.add_points("a.ndl", [{"MessageCreationInterval": "2usec"},
                                   {"MessageCreationInterval": "10usec"}])
        lat = {(0, 1): 100.0, (0, 2): 110.0, (0, 3): 120.0,
               (1, 1): 50.0, (1, 2): 50.0, (1, 3): 80.0}
        for p in sweep.points:
            p.status = "ok"
            p.flat = {"latency_ns.network.mean": lat[(p.group, p.seed)], "status": "ok"}
        sweep.points[-1].status = "failed"   # seed 3 of the second point
        sweep.points[-1].flat = {}
        return sweep

    def test_groups_and_seeds(self):
        d = Path(tempfile.mkdtemp())
        try:
            sweep = self.make_sweep(d)
            self.assertEqual([p.seed for p in sweep.points], [1, 2, 3, 1, 2, 3])
            groups = sweep.groups()
            self.assertEqual(len(groups), 2)
            m, half, n = groups[0].stats("latency_ns.network.mean")
            self.assertEqual((m, n), (110.0, 3))
            self.assertAlmostEqual(half, 4.303 * 10.0 / 3 ** 0.5, places=9)
            # A failed run does not count: two samples of 50.
            self.assertEqual(groups[1].stats("latency_ns.network.mean"), (50.0, 0.0, 2))
            self.assertEqual(groups[1].status(), "failed+ok")
            self.assertIn("--seed", sweep.command(sweep.points[1]))
            self.assertEqual(sweep.command(sweep.points[1])[-1], "2")
            sweep.write_summary_csv(d / "summary.csv")
            rows = list(csv.DictReader(open(d / "summary.csv", encoding="utf-8")))
            self.assertEqual([r["MessageCreationInterval"] for r in rows], ["2usec", "10usec"])
            self.assertEqual((rows[0]["runs"], rows[0]["ran"]), ("3", "3"))
            self.assertEqual((rows[1]["runs"], rows[1]["ran"]), ("3", "2"))
            self.assertEqual(float(rows[0]["latency_ns.network.mean"]), 110.0)
            self.assertAlmostEqual(float(rows[0]["latency_ns.network.mean.ci95"]),
                                   4.303 * 10.0 / 3 ** 0.5, places=9)
            sweep.write_csv(d / "results.csv")
            rows = list(csv.DictReader(open(d / "results.csv", encoding="utf-8")))
            self.assertEqual([r["seed"] for r in rows], ["1", "2", "3", "1", "2", "3"])
            # The plot draws the means with their intervals as error bars.
            sw.plot_sweep(sweep, "latency_ns.network.mean", d / "p")
            self.assertIn("yerrorlines", (d / "p.gp").read_text())
            dat = (d / "p.dat").read_text().split("\n")
            self.assertIn("50.0\t0.0\t10usec", "\n".join(dat))
        finally:
            shutil.rmtree(d)


class DefaultNdlc(unittest.TestCase):
    def test_the_ndlc_beside_the_package(self):
        # Without NDLC the engine takes the ndlc the package was staged beside
        # (<build>/share/ndl/python/ndl -> <build>/ndlc).
        old = os.environ.pop("NDLC", None)
        try:
            found = sw.default_ndlc()
        finally:
            if old is not None:
                os.environ["NDLC"] = old
        beside = Path(sw.__file__).resolve().parents[4] / "ndlc"
        self.assertEqual(Path(found), beside)
        self.assertEqual(beside.resolve(), Path(NDLC).resolve())


class CommandLine(unittest.TestCase):
    def run_main(self, *args):
        err = io.StringIO()
        old = sys.stderr
        sys.stderr = err
        try:
            code = sw.main(["--ndlc", NDLC, *args])
        finally:
            sys.stderr = old
        return code, err.getvalue()

    def setUp(self):
        self.dir = Path(tempfile.mkdtemp())
        self.file = self.dir / "net.ndl"
        self.file.write_text('(import "insight")\n(Topology (Torus 4 4))\n'
                             "(NetworkChannelWidth 32bit)\n(NetworkFrequency 50MHz)\n"
                             "(MessageCreationInterval 10usec)\n"
                             "(Sweep MessageCreationInterval 2usec 10usec)\n"
                             "(Sweep NetworkChannelWidth 16bit 32bit)\n")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_usage_errors(self):
        code, err = self.run_main(str(self.file), "--param", "NetworkFrequncy=1MHz")
        self.assertEqual(code, 2)
        self.assertIn("did you mean 'NetworkFrequency'", err)
        code, err = self.run_main(str(self.file), "--param", "NetworkFrequency")
        self.assertEqual(code, 2)
        code, err = self.run_main(str(self.file), "--jobs", "0")
        self.assertEqual(code, 2)
        code, err = self.run_main("--bogus")
        self.assertEqual(code, 2)

    def test_form_set_in_an_import(self):
        # --set replaces the form where the program sets it, here stdlib insight.
        out = io.StringIO()
        old = sys.stdout
        sys.stdout = out
        try:
            code, err = self.run_main(str(self.file), "--dry-run",
                                      "--param", "NetworkPacketSize=128bit,256bit")
        finally:
            sys.stdout = old
        self.assertEqual(code, 0, err)
        self.assertIn("--set NetworkPacketSize=128bit --", out.getvalue())

    def test_wrong_program(self):
        bad = self.dir / "bad.ndl"
        bad.write_text("(Topology (Torus 4 4))\n(NetworkFrequency 32bit)\n")
        code, err = self.run_main(str(bad), "--param", "Seed=1,2", "--dry-run")
        self.assertEqual(code, 1)
        self.assertIn("bad.ndl:2:", err)

    def test_grid_from_sweep_forms(self):
        out = io.StringIO()
        old = sys.stdout
        sys.stdout = out
        try:
            code, err = self.run_main(str(self.file), "--dry-run")
        finally:
            sys.stdout = old
        self.assertEqual(code, 0, err)
        text = out.getvalue()
        # One ndlc run per point, every value through --set.
        self.assertEqual(text.count("point "), 4)
        self.assertEqual(text.count("--set MessageCreationInterval=2usec"), 2)
        self.assertEqual(text.count("--set NetworkChannelWidth=16bit"), 2)
        self.assertIn(f" run -v {self.file} --set MessageCreationInterval=2usec "
                      "--set NetworkChannelWidth=16bit -- --json point.json --quiet", text)

    def test_seeds_replicate_every_point(self):
        out = io.StringIO()
        old = sys.stdout
        sys.stdout = out
        try:
            code, err = self.run_main(str(self.file), "--dry-run", "--seeds", "3",
                                      "--seed", "5")
        finally:
            sys.stdout = old
        self.assertEqual(code, 0, err)
        text = out.getvalue()
        self.assertEqual(text.count("point "), 12)
        for seed in (5, 6, 7):
            self.assertEqual(text.count(f"--quiet --seed {seed}\n"), 4)
        code, err = self.run_main(str(self.file), "--dry-run", "--seeds", "1")
        self.assertEqual(code, 2)
        self.assertIn("--seeds needs 2 or more", err)
        code, err = self.run_main(str(self.file), "--dry-run", "--seeds", "2",
                                  "--param", "Seed=1,2")
        self.assertEqual(code, 2)
        self.assertIn("--seeds and a swept Seed", err)

    def test_unrunnable_ndlc_fails_points_not_the_sweep(self):
        # An ndlc that cannot be executed (here a file without the x bit, as
        # while it is being relinked) fails each point with the reason; the
        # sweep still ends and writes its CSV.
        fake = self.dir / "ndlc"
        fake.write_text("")
        sweep = sw.Sweep(str(fake), self.dir / "out", jobs=2, quiet=True)
        sweep.add_points(self.file, [{"MessageCreationInterval": "2usec"},
                                     {"MessageCreationInterval": "10usec"}])
        sweep.run()
        self.assertEqual([p.status for p in sweep.points], ["failed", "failed"])
        self.assertIn("cannot run", sweep.points[0].error)
        sweep.write_csv(self.dir / "out" / "results.csv")
        self.assertTrue((self.dir / "out" / "results.csv").exists())

    def test_no_sweep_no_param(self):
        plain = self.dir / "plain.ndl"
        plain.write_text(self.file.read_text().split("(Sweep")[0])
        code, err = self.run_main(str(plain), "--dry-run")
        self.assertEqual(code, 2)
        self.assertIn("--param", err)
