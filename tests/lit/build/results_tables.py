"""The tables a simulator writes beside its summary JSON (docs/runtime.md, "Tables"), read
back for the build tests.

table(r, json_path, name): the rows of table `name` ("nodes", "pairs", "application") as
dicts, values typed as the JSON typed them (int, float, None for an empty cell); a node's
"class_grants.NAME" columns also as the list "class_grants", a pair's dotted columns
("latency_ns.network.mean") also nested.
with_tables(r, json_path): r as the JSON held it when the tables were in it: "nodes" (without
the per-node latency columns added since), "collisions.per_node", "pairs",
"application.nodes", and no "tables".
"""
import csv
import os
import re

_INT = re.compile(r"-?[0-9]+")


def value(text):
    if text == "":
        return None
    return int(text) if _INT.fullmatch(text) else float(text)


def table_path(r, json_path, name):
    file = r["tables"][name]
    if file is None:
        raise KeyError(f"{json_path}: no {name} table ({r['tables'].get('note')})")
    return os.path.join(os.path.dirname(os.path.abspath(json_path)), file)


def _nest(row):
    out = {}
    for key, v in row.items():
        *path, last = key.split(".")
        d = out
        for p in path:
            d = d.setdefault(p, {})
        d[last] = v
    return out


def table(r, json_path, name):
    with open(table_path(r, json_path, name), newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = []
        for cells in reader:
            row = dict(zip(header, map(value, cells)))
            if name == "nodes":
                grants = [row.pop(k) for k in header if k.startswith("class_grants.")]
                row["class_grants"] = grants
            elif name == "pairs":
                row = _nest(row)
            rows.append(row)
        return rows


def with_tables(r, json_path):
    r = dict(r)
    tables = r.pop("tables")
    nodes = table({"tables": tables}, json_path, "nodes")
    for n in nodes:  # columns added since the tables left the JSON
        n.pop("sent_message_latency_mean", None)
        n.pop("received_message_latency_mean", None)
    r["nodes"] = nodes
    r["collisions"] = dict(r["collisions"], per_node=[n["collisions"] for n in nodes])
    r["pairs"] = [] if tables["pairs"] is None else table({"tables": tables}, json_path, "pairs")
    if r.get("application") is not None:
        r["application"] = dict(r["application"],
                                nodes=table({"tables": tables}, json_path, "application"))
    return r
