"""A run's results as Python objects: its JSON (a simulator's --json file) and the tables
written beside it (nodes, channels, pairs, routers, application; docs/runtime.md, Results).

    r = ndl.load("run.json")      # a Result
    r["latency_ns"]["message"]["mean"], r.metrics["throughput.accepted_flits_per_node_cycle"]
    r.nodes(), r.channels()       # pandas DataFrames, one row per endpoint / channel
    ndl.load_table("run.channels.csv")

The flattened names (`metrics`) are the columns of `ndl.sweep` and of `ndlc sweep`'s
results.csv: nested keys joined with dots, per-distance rows as by_distance.H.KEY, traffic
classes by name as classes.NAME.KEY, measured pairs as pairs.SRC-DST.KEY.
"""
import csv
import json
from pathlib import Path

# JSON keys that are tables (per interval) or name them rather than metrics.
TABLE_KEYS = {"series", "tables"}
# The tables a run may write, by the name its JSON gives them under "tables".
TABLES = ("nodes", "channels", "pairs", "routers", "application")


def flatten(obj, prefix="", out=None):
    """The JSON's metrics as one flat dict of dotted names (see the module's comment)."""
    if out is None:
        out = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            key = f"{prefix}{k}"
            if key in TABLE_KEYS:
                continue
            flatten(v, key + ".", out)
    elif isinstance(obj, list):
        name = prefix[:-1]
        if name == "by_distance":
            for row in obj:
                if isinstance(row, dict) and "hops" in row:
                    h = row["hops"]
                    for k, v in row.items():
                        if k != "hops":
                            out[f"by_distance.{h}.{k}"] = v
        elif name == "classes":
            # One column per class and metric, named by the class: classes.read.latency_ns...
            for row in obj:
                if isinstance(row, dict) and "name" in row:
                    flatten({k: v for k, v in row.items() if k != "name"},
                            f"classes.{row['name']}.", out)
        elif name == "pairs":
            for row in obj:
                if isinstance(row, dict) and "src" in row and "dst" in row:
                    flatten({k: v for k, v in row.items() if k not in ("src", "dst")},
                            f"pairs.{row['src']}-{row['dst']}.", out)
        elif all(not isinstance(v, (dict, list)) for v in obj):
            out[name] = " ".join(str(v) for v in obj)
    else:
        out[prefix[:-1]] = obj
    return out


def read_csv_cell(text):
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        return float(text)


def with_pairs(data, json_path):
    """The results with the rows of their pairs table (written beside the JSON,
    named in its "tables") as "pairs", one dict per pair, for flatten."""
    name = (data.get("tables") or {}).get("pairs")
    if not name:
        return data
    with open(Path(json_path).parent / name, newline="") as f:
        rows = list(csv.DictReader(f))
    # Columns in name order, as the JSON's sorted keys gave them when it held the pairs.
    return dict(data, pairs=[{k: read_csv_cell(row[k]) for k in sorted(row)} for row in rows])


def table_files(data, json_path):
    """The table files a run's JSON names (beside it)."""
    tables = (data or {}).get("tables") or {}
    return [Path(json_path).parent / tables[k] for k in TABLES if tables.get(k)]


def load_table(path):
    """One of a run's CSV tables as a pandas DataFrame (the columns as the simulator wrote
    them; docs/runtime.md says what each holds)."""
    from ndl.frames import pandas
    return pandas().read_csv(path)


class Result:
    """One run: its JSON as a dict (r["throughput"]), its metrics flattened (r.metrics), its
    tables as DataFrames (r.nodes(), r.channels(), r.pairs(), r.routers(), r.application()).
    status is the simulator's ("ok", "saturated", or the runtime failure it stopped on, whose
    explanation is status_message): a run that stopped on a failure still has what it
    measured."""

    def __init__(self, data, json_path, stderr=""):
        self.data = data
        self.path = Path(json_path)
        self.stderr = stderr  # what ndlc run and the simulator printed (warnings, notes)
        self.metrics = flatten(with_pairs(data, self.path))

    @property
    def status(self):
        return str(self.data.get("status", "ok"))

    @property
    def status_message(self):
        return str(self.data.get("status_message") or "")

    def __getitem__(self, key):
        return self.data[key]

    def get(self, key, default=None):
        return self.data.get(key, default)

    def keys(self):
        return self.data.keys()

    def table_path(self, name):
        """The path of the table `name` (one of TABLES), or None when the run wrote none."""
        if name not in TABLES:
            raise KeyError(f"no table '{name}': the tables are {', '.join(TABLES)}")
        file = (self.data.get("tables") or {}).get(name)
        return self.path.parent / file if file else None

    def table(self, name):
        path = self.table_path(name)
        if path is None:
            raise LookupError(f"the run wrote no {name} table ({self.path}: its JSON's "
                              f"tables.{name} is empty; docs/runtime.md says when each is "
                              "written)")
        return load_table(path)

    def nodes(self):
        return self.table("nodes")

    def channels(self):
        return self.table("channels")

    def pairs(self):
        return self.table("pairs")

    def routers(self):
        return self.table("routers")

    def application(self):
        return self.table("application")

    def __repr__(self):
        m = self.metrics
        return (f"<ndl.Result {self.path.name}: status {self.status}, "
                f"{m.get('messages.delivered', '?')} messages delivered, network latency "
                f"{m.get('latency_cycles.network.mean', '?')} clocks>")


def load(json_path):
    """The Result of a run's JSON file (its tables beside it)."""
    path = Path(json_path)
    with open(path, encoding="utf-8") as f:
        return Result(json.load(f), path)
