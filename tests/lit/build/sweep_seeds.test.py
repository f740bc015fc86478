"""Checks an `ndlc sweep --seeds 3` output directory (sweep_seeds.test)."""
import csv
import math
import sys
from pathlib import Path

out = Path(sys.argv[1])
runs = list(csv.DictReader(open(out / "results.csv", encoding="utf-8")))
summary = list(csv.DictReader(open(out / "summary.csv", encoding="utf-8")))
assert [r["seed"] for r in runs] == ["1", "2", "3"] * 2, [r["seed"] for r in runs]
assert len(summary) == 2, summary
metric = "latency_ns.network.mean"
for row in summary:
    own = [float(r[metric]) for r in runs
           if r["MessageCreationInterval"] == row["MessageCreationInterval"]]
    assert len(set(own)) > 1, f"the seeds gave identical runs: {own}"
    mean = sum(own) / 3
    sd = math.sqrt(sum((v - mean) ** 2 for v in own) / 2)
    assert math.isclose(float(row[metric]), mean, rel_tol=1e-12), (row[metric], mean)
    assert math.isclose(float(row[metric + ".ci95"]), 4.303 * sd / math.sqrt(3),
                        rel_tol=1e-12), (row[metric + ".ci95"], sd)
    assert row["runs"] == row["ran"] == "3" and row["status"] == "ok", row
assert "yerrorlines" in (out / "plot.gp").read_text()
print("ok")
