"""Assertions on simulator JSON results for the build tests.

json_check.py FILE EXPR...   each EXPR is a Python expression over `r` (the
results) and `t` (their tables beside the JSON, read on use: t['nodes'],
t['pairs'], t['application'], results_tables.py) that must be true, e.g.
"r['messages']['delivered'] > 0", "t['nodes'][3]['received'] == 4".
json_check.py --same A B     the two result files, tables included, are equal except the
                             wall-clock time and the name of the selection
                             (config.Selection: a selection written in NDL
                             compared with the built-in it equals).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_tables import table, with_tables  # noqa: E402


def load(path):
    with open(path) as f:
        return json.load(f)


def strip_wall(x):
    if isinstance(x, dict):
        return {k: strip_wall(v) for k, v in x.items() if k != "wall_seconds"}
    if isinstance(x, list):
        return [strip_wall(v) for v in x]
    return x


def with_rows(path):
    """The results with their tables' rows in place of the tables' file names."""
    r = load(path)
    if r["tables"]["nodes"] is None:
        r.pop("tables")
        return r
    return with_tables(r, path)


if sys.argv[1] == "--same":
    a, b = strip_wall(with_rows(sys.argv[2])), strip_wall(with_rows(sys.argv[3]))
    for r in (a, b):
        r.get("config", {}).pop("Selection", None)
    if a != b:
        diff = [k for k in a if a.get(k) != b.get(k)]
        sys.exit(f"results differ in {diff}")
    print("same results")
    sys.exit(0)

class Tables(dict):
    def __missing__(self, name):
        self[name] = table(r, sys.argv[1], name)
        return self[name]


r = load(sys.argv[1])
t = Tables()
failed = [e for e in sys.argv[2:] if not eval(e, {"r": r, "t": t})]
for e in failed:
    print(f"false: {e}")
print(f"{len(sys.argv) - 2 - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)
