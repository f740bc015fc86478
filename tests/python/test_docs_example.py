"""docs/examples/compare_routings.py, at its small size: it runs from the package, writes its
summary and plots, and shows what the docs say it shows (adaptive routing accepts more of
transpose traffic than dimension order and is no slower at the loads both accept)."""
import subprocess
import sys

import pandas as pd

from conftest import SOURCE_ROOT, STAGED


def test_compare_routings(tmp_path, ndlc):
    script = SOURCE_ROOT / "docs" / "examples" / "compare_routings.py"
    env = {"PYTHONPATH": str(STAGED), "NDLC": ndlc, "PATH": "/usr/bin:/bin"}
    p = subprocess.run([sys.executable, str(script), "--small", "--out", str(tmp_path)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "4x4 mesh, transpose traffic, 2 seeds a point" in p.stdout
    for name in ("latency.png", "latency.svg", "latency-accepted.png", "latency-accepted.svg"):
        assert (tmp_path / name).stat().st_size > 0
    s = pd.read_csv(tmp_path / "summary.csv")
    assert len(s) == 6 and set(s["runs"]) == {2}
    by = {(r["RoutingAlgorithm"], r["OfferedLoad"]): r for _, r in s.iterrows()}
    acc = "throughput.accepted_flits_per_node_cycle"
    lat = "latency_cycles.message.mean"
    assert by[("MinimalAdaptive", "40%")][acc] > by[("DimensionOrder", "40%")][acc]
    assert by[("MinimalAdaptive", "25%")][lat] <= by[("DimensionOrder", "25%")][lat]
