"""Every classes.NAME.METRIC column of results.csv against the point's own JSON, read here."""
import csv
import json
import sys
from pathlib import Path

out = Path(sys.argv[1])
rows = list(csv.DictReader(open(out / "results.csv")))
assert len(rows) == 2, rows
for row in rows:
    point = json.load(open(out / "points" / f"{int(row['point']):04d}" / "point.json"))
    classes = {c["name"]: c for c in point["classes"]}
    assert sorted(classes) == ["data", "read"], classes
    checked = 0
    for name, c in classes.items():
        for metric in ("messages.measured", "messages.delivered", "latency_ns.message.mean",
                       "latency_cycles.network.p99", "accepted_flits_per_node_cycle", "hops_mean"):
            v = c
            for part in metric.split("."):
                v = v[part]
            col = f"classes.{name}.{metric}"
            assert col in row, (col, sorted(k for k in row if k.startswith("classes.")))
            assert abs(float(row[col]) - float(v)) <= 1e-9 * max(1.0, abs(float(v))), (col, row[col], v)
            checked += 1
    assert checked == 12
    # A reply answers every measured request: the two classes measured alike.
    assert row["classes.read.messages.measured"] == row["classes.data.messages.measured"], row
    assert int(row["classes.read.messages.measured"]) > 1000, row
print("ok")
