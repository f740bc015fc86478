"""ndl.run and ndl.check: the results of ndlc run, as Python objects; the checker's
diagnostics as exceptions."""
import json
import subprocess

import pytest

import ndl
from ndl.api import value_text


def test_run_gives_the_results_ndlc_run_gives(mesh, ndlc, tmp_path):
    r = ndl.run(mesh, set={"OfferedLoad": "20%"}, seed=5, out=tmp_path / "py")
    direct = tmp_path / "direct"
    direct.mkdir()
    subprocess.run([ndlc, "run", str(mesh), "--set", "OfferedLoad=20%", "--", "--json",
                    "result.json", "--quiet", "--seed", "5"], cwd=direct, check=True)
    expected = json.loads((direct / "result.json").read_text())
    got = dict(r.data)
    for d in (got, expected):
        d.pop("wall_seconds")
    assert got == expected
    assert r.status == "ok"
    assert r["config"]["OfferedLoad_flits_per_node_cycle"] == 0.2
    # The flattened metrics are the JSON's values under dotted names.
    assert r.metrics["latency_cycles.network.mean"] == expected["latency_cycles"]["network"]["mean"]
    assert r.metrics["throughput.accepted_flits_per_node_cycle"] == \
        expected["throughput"]["accepted_flits_per_node_cycle"]


def test_seeds_decide_the_results(mesh, tmp_path):
    a = ndl.run(mesh, seed=1, out=tmp_path / "a")
    b = ndl.run(mesh, seed=1, out=tmp_path / "b")
    c = ndl.run(mesh, seed=2, out=tmp_path / "c")
    assert a.metrics["latency_cycles.message.mean"] == b.metrics["latency_cycles.message.mean"]
    assert a.metrics["latency_cycles.message.mean"] != c.metrics["latency_cycles.message.mean"]


def test_tables(mesh, tmp_path):
    r = ndl.run(mesh, out=tmp_path)
    nodes = r.nodes()
    assert len(nodes) == 16                     # one row per endpoint of the 4x4 mesh
    channels = r.channels()
    assert len(channels) == 2 * 2 * 4 * 3      # two directions, two dimensions, 4 rows of 3 links
    # The loader reads the same file the Result names.
    assert len(ndl.load_table(r.table_path("channels"))) == len(channels)
    assert ndl.load(r.path).metrics == r.metrics
    with pytest.raises(KeyError):
        r.table("links")


def test_program_as_text(tmp_path):
    from conftest import MESH
    r = ndl.run(MESH.replace("(Mesh 4 4)", "(Mesh 2 2)"), out=tmp_path)
    assert len(r.nodes()) == 4
    assert (tmp_path / "program.ndl").read_text().count("(Mesh 2 2)") == 1


def test_a_bad_value_raises_with_the_diagnostics(mesh):
    with pytest.raises(ndl.CheckError) as e:
        ndl.run(mesh, set={"OfferedLoad": "20 percent"})
    err = e.value.errors[0]
    assert err["kind"] == "wrong-arity"
    assert (err["line"], err["column"]) == (1, 17)
    assert "OfferedLoad takes one value, got 2" in str(e.value)
    assert "hint:" in str(e.value)


def test_a_bad_program_raises_with_the_diagnostics(mesh):
    bad = mesh.read_text().replace("(NetworkFrequency 1GHz)", "(NetworkFrequncy 1GHz)")
    with pytest.raises(ndl.CheckError) as e:
        ndl.run(bad)
    err = e.value.errors[0]
    assert err["line"] == 8 and err["column"] == 2
    assert "NetworkFrequency" in str(e.value)  # the did-you-mean
    with pytest.raises(ndl.CheckError):
        ndl.check(bad)
    assert ndl.check(mesh) == []


def test_values_python_cannot_mean(mesh):
    with pytest.raises(TypeError):
        value_text("PacketPerMessage", True)
    with pytest.raises(TypeError):
        ndl.run(mesh, set={"OfferedLoad": ["10%", "20%"]})
    with pytest.raises(ValueError):
        ndl.run(mesh, seed=-1)
    with pytest.raises(FileNotFoundError):
        ndl.run("no-such-file.ndl")
    assert value_text("VirtualChannels", 4) == "4"


def test_a_runtime_failure_returns_what_was_measured(tmp_path):
    # One VC on a torus under dimension order deadlocks (tests/lit/build/deadlock_torus.ndl).
    from conftest import SOURCE_ROOT
    program = SOURCE_ROOT / "tests" / "lit" / "build" / "deadlock_torus.ndl"
    r = ndl.run(program, out=tmp_path)
    assert r.status == "deadlock"
    assert r.status_message
    assert r["exit_code"] == 3
