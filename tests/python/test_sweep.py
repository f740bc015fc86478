"""ndl.sweep, ndl.summarize and ndl.plot: one row per run, its metrics those of the run's
JSON; means and confidence intervals per point; the same figures as `ndlc sweep`."""
import csv
import json
import math
import statistics
import subprocess

import pytest

import ndl

LOADS = ["10%", "30%"]
ROUTINGS = ["DimensionOrder", "WestFirst"]


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    from conftest import MESH
    d = tmp_path_factory.mktemp("sweep")
    mesh = d / "mesh.ndl"
    mesh.write_text(MESH)
    df = ndl.sweep(mesh, {"OfferedLoad": LOADS, "RoutingAlgorithm": ROUTINGS}, seeds=2,
                   jobs=2, out=d / "out")
    return mesh, df


def test_one_row_per_run(swept):
    _, df = swept
    assert len(df) == len(LOADS) * len(ROUTINGS) * 2
    assert list(df["seed"]) == [1, 2] * 4
    assert sorted(set(df["group"])) == [0, 1, 2, 3]
    assert set(df["status"]) == {"ok"}
    assert df.attrs["params"] == ["OfferedLoad", "RoutingAlgorithm"]
    # Every metric of a run's JSON is a column holding its value.
    for _, row in df.iterrows():
        data = json.loads(open(row["json"]).read())
        assert row["latency_ns.message.mean"] == data["latency_ns"]["message"]["mean"]
        assert row["config.RoutingAlgorithm"] == row["RoutingAlgorithm"]
        assert row["config.OfferedLoad_flits_per_node_cycle"] == \
            {"10%": 0.1, "30%": 0.3}[row["OfferedLoad"]]
        assert row["messages.delivered"] == data["messages"]["delivered"]


def test_summary_means_and_intervals(swept):
    _, df = swept
    summary = df.attrs["summary"]
    assert len(summary) == 4
    assert list(summary["runs"]) == [2] * 4
    for _, point in summary.iterrows():
        runs = df[df["group"] == point["group"]]
        values = list(runs["latency_cycles.network.mean"])
        assert point["latency_cycles.network.mean"] == pytest.approx(statistics.mean(values))
        # Student's t with one degree of freedom: 12.706.
        half = 12.706 * statistics.stdev(values) / math.sqrt(2)
        assert point["latency_cycles.network.mean.ci95"] == pytest.approx(half)
    # Latency grows with the load on each routing.
    for routing in ROUTINGS:
        rows = summary[summary["RoutingAlgorithm"] == routing]
        lat = dict(zip(rows["OfferedLoad"], rows["latency_cycles.message.mean"]))
        assert lat["30%"] > lat["10%"]


def test_plots_use_the_checkers_values(swept, tmp_path):
    _, df = swept
    files = ndl.plot(df, tmp_path / "lat")
    assert [f.name for f in files] == ["lat.png", "lat.svg", "lat-accepted.png",
                                       "lat-accepted.svg"]
    # x: the configured load the checker read from "10%" and "30%".
    dat = (tmp_path / "lat.dat").read_text()
    xs = sorted({float(line.split("\t")[0]) for line in dat.splitlines()
                 if line and not line.startswith("#")})
    assert xs == [0.1, 0.3]
    files = ndl.plot(df, tmp_path / "by-routing", "throughput.accepted_flits_per_node_cycle",
                     x="RoutingAlgorithm")
    assert "DimensionOrder" in (tmp_path / "by-routing.gp").read_text()
    with pytest.raises(ValueError):
        ndl.plot(df, tmp_path / "x", x="NetworkFrequency")
    with pytest.raises(ValueError):
        ndl.plot(df, tmp_path / "x", "no.such.metric")


def test_ndlc_sweep_gives_the_same_figures(swept, ndlc, tmp_path):
    mesh, df = swept
    subprocess.run([ndlc, "sweep", str(mesh), "--param", "OfferedLoad=" + ",".join(LOADS),
                    "--param", "RoutingAlgorithm=" + ",".join(ROUTINGS), "--seeds", "2",
                    "--no-plot", "--quiet", "--out", str(tmp_path)], check=True)
    rows = list(csv.DictReader(open(tmp_path / "results.csv", encoding="utf-8")))
    assert len(rows) == len(df)
    for row, (_, frame_row) in zip(rows, df.iterrows()):
        assert (row["OfferedLoad"], row["RoutingAlgorithm"], int(row["seed"])) == \
            (frame_row["OfferedLoad"], frame_row["RoutingAlgorithm"], frame_row["seed"])
        assert float(row["latency_ns.message.mean"]) == frame_row["latency_ns.message.mean"]


def test_a_bad_value_stops_the_sweep_before_it_runs(mesh, tmp_path):
    with pytest.raises(ndl.CheckError) as e:
        ndl.sweep(mesh, {"OfferedLoad": ["10%", "10bit"]}, out=tmp_path)
    assert "OfferedLoad expects a ratio, but '10bit' is a size" in str(e.value)
    assert e.value.errors[0]["kind"] == "wrong-dimension"
    assert not (tmp_path / "points").exists()
    with pytest.raises(ValueError):
        ndl.sweep(mesh, {"OfferedLoad": ["10%", "10%"]}, out=tmp_path)
    with pytest.raises(ValueError):
        ndl.sweep(mesh, {"OfferedLoad": []}, out=tmp_path)
    with pytest.raises(ValueError):
        ndl.sweep(mesh, {"OfferedLoad": ["10%"]}, seeds=1, out=tmp_path)
    with pytest.raises(ValueError):
        ndl.sweep(mesh, out=tmp_path)  # no params and no (Sweep ...) form


def test_the_programs_own_sweep_forms(tmp_path):
    from conftest import MESH
    program = MESH + "(Sweep OfferedLoad 5% 15%)\n"
    df = ndl.sweep(program, out=tmp_path)
    assert list(df["OfferedLoad"]) == ["5%", "15%"]
    assert list(df["config.OfferedLoad_flits_per_node_cycle"]) == [0.05, 0.15]
