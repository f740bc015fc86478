#!/usr/bin/env python3
"""ndlc sweep: run an NDL program over a grid of parameter values.

    ndlc sweep FILE... [--param NAME=V1,V2,...]... [--jobs N] [--out DIR]
    python3 -m ndl.engine --ndlc PATH/ndlc FILE... [same options]

Every point of the grid (the cartesian product of the --param lists, or of
the file's own (Sweep NAME v1 v2 ...) forms) is one `ndlc run FILE --set
NAME=VALUE ...`: the checker reads each value exactly as if it were written
in the file (in place of the file's form, or of an imported one), so a sweep
value obeys the same units, rules and conversions. ndlc run keeps built
simulators in its cache, keyed on what shapes the code: points that differ
only in values a built simulator takes at start-up (load, message length,
buffer size, seed, ...) share one build; a topology, routing or VC count
makes another. Runs share a pool of --jobs workers; concurrent points that
need the same new simulator build it once.

With --seeds N every point runs N times, with seeds 1..N (or --seed S..
S+N-1): independent replications, from which summary.csv gives each metric's
mean and the half-width of its 95% Student-t confidence interval over the
seeds (column `METRIC.ci95`), and the plot draws the means with those
intervals as error bars.

Output in --out (default sweep-<stem>): results.csv (one row per run: the
file, the swept parameters, the seed when replicating, status, then every
JSON metric flattened with dotted names, and each ReportPairs pair's latencies
from the run's pairs table), summary.csv (with --seeds), plot.png and plot.svg
(gnuplot: the metric against the first swept parameter, one line per
combination of the others) and points/NNNN/ (each run's command, JSON, its
tables point.nodes.csv ..., report and stderr).

Exit status: 0 every point ran (a run that stopped on a runtime failure,
simulator exit 3, still ran and has results); 1 some builds or runs failed,
or the input is wrong; 2 usage error.
"""

import argparse
import concurrent.futures
import csv
import itertools
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from ndl.plots import draw, gp_string
from ndl.results import flatten, read_csv_cell, table_files, with_pairs  # noqa: F401

DEFAULT_Y = "latency_ns.network.mean"


class UsageError(ValueError):
    """The sweep is asked for wrongly (an unknown parameter, a value list with a hole)."""


class InputError(Exception):
    """The input is wrong. raw: the message is ndlc's own diagnostics."""

    def __init__(self, msg, raw=False):
        super().__init__(msg)
        self.raw = raw


# ---------------------------------------------------------------------------
# A small S-expression scanner: top-level forms of an NDL text, respecting
# strings, `;` line comments and `#| |#` block comments.

class Form:
    __slots__ = ("name", "start", "end", "line", "args")

    def __init__(self, name, start, end, line, args):
        self.name = name      # the head symbol, or None
        self.start = start    # offset of '('
        self.end = end        # offset after ')'
        self.line = line      # 1-based line of '('
        self.args = args      # texts of the arguments, as written


def _skip_space(text, i):
    n = len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n\f\v":
            i += 1
        elif c == ";":
            j = text.find("\n", i)
            i = n if j < 0 else j + 1
        elif text.startswith("#|", i):
            j = text.find("|#", i + 2)
            i = n if j < 0 else j + 2
        else:
            break
    return i


def _scan_element(text, i):
    """Returns the end offset of the element (atom, string or list) at i."""
    n = len(text)
    c = text[i]
    if c == '"':
        j = i + 1
        while j < n and text[j] != '"':
            if text[j] == "\\":
                j += 1
            elif text[j] == "\n":
                return j  # unterminated string: stop at the line end
            j += 1
        return min(j + 1, n)
    if c == "(":
        depth = 0
        j = i
        while j < n:
            j = _skip_space(text, j)
            if j >= n:
                break
            c = text[j]
            if c == "(":
                depth += 1
                j += 1
            elif c == ")":
                depth -= 1
                j += 1
                if depth == 0:
                    return j
            elif c == '"':
                j = _scan_element(text, j)
            else:
                j = _scan_atom(text, j)
        return n
    if c == ")":
        return i + 1
    return _scan_atom(text, i)


def _scan_atom(text, i):
    n = len(text)
    j = i
    while j < n and text[j] not in " \t\r\n\f\v();\"":
        if text.startswith("#|", j):
            break
        j += 1
    return max(j, i + 1)


def _elements(text, i, end):
    """Texts of the elements between i and end (inside one list)."""
    out = []
    while True:
        i = _skip_space(text, i)
        if i >= end or text[i] == ")":
            return out
        j = _scan_element(text, i)
        out.append(text[i:j])
        i = j


def top_level_forms(text):
    forms = []
    i = 0
    n = len(text)
    while True:
        i = _skip_space(text, i)
        if i >= n:
            return forms
        j = _scan_element(text, i)
        if text[i] == "(":
            elems = _elements(text, i + 1, j - 1)
            name = elems[0] if elems and not elems[0].startswith(("(", '"')) else None
            forms.append(Form(name, i, j, text.count("\n", 0, i) + 1, elems[1:]))
        i = j


def join_range_args(args):
    """Argument texts of a form as one value text: `8byte to 32byte`."""
    return " ".join(args)


def split_values(spec):
    """Splits `V1,V2,...` at commas outside parentheses and strings."""
    values, depth, cur, in_str = [], 0, [], False
    i = 0
    while i < len(spec):
        c = spec[i]
        if in_str:
            cur.append(c)
            if c == "\\" and i + 1 < len(spec):
                cur.append(spec[i + 1])
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
            cur.append(c)
        elif c == "(":
            depth += 1
            cur.append(c)
        elif c == ")":
            depth -= 1
            cur.append(c)
        elif c == "," and depth == 0:
            values.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    values.append("".join(cur).strip())
    if any(v == "" for v in values):
        raise UsageError(f"empty value in '{spec}'")
    return values


# ---------------------------------------------------------------------------
# Plot axes. A swept value's meaning is the checker's: its number on an axis is the value the
# checker converted it to, read from the run's JSON "config" (NetworkFrequency_hz,
# MessageLength_bits, OfferedLoad_flits_per_node_cycle, ...), never from a unit table here.

NUMBER = re.compile(r"^([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)([A-Za-z%/]*)$")


def axis_values(values):
    """Numeric x positions and their unit for value texts that are numbers written with one
    and the same unit text (["2usec", "10usec"], ["0.1", "0.2"]): taken as written, nothing
    converted; (None, None) otherwise (the axis is then categorical, or the caller gives the
    checker's values: config_axis)."""
    parsed = [NUMBER.match(str(v).strip()) for v in values]
    if not parsed or any(m is None for m in parsed):
        return None, None
    units = {m.group(2) for m in parsed}
    if len(units) != 1:
        return None, None
    return [float(m.group(1)) for m in parsed], units.pop()


def config_value(flat, name):
    """(number, unit) of the form `name` as the checker read it, from a run's flattened JSON:
    config.NAME (no unit) or config.NAME_UNIT (the unit in the key); a range (two numbers)
    counts only when both ends are one value. None when the run has no such number."""
    for key, v in flat.items():
        if not key.startswith("config."):
            continue
        rest = key[len("config."):]
        if rest == name:
            unit = ""
        elif rest.startswith(name + "_"):
            unit = rest[len(name) + 1:]
        else:
            continue
        if isinstance(v, str):
            ends = v.split()
            if len(ends) == 2 and ends[0] == ends[1]:
                v = ends[0]
            try:
                v = float(v)
            except ValueError:
                return None
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            return None
        return float(v), unit_label(unit)
    return None


def unit_label(unit):
    """A config key's unit as an axis label: flits_per_node_cycle -> flits/node/clock."""
    label = unit.replace("_per_node_cycle", "/node/clock").replace("_per_", "/")
    label = label.replace("per_", "/")
    return "Hz" if label == "hz" else label


def config_axis(groups, name):
    """{value text: number} and the unit of the swept form `name` over the groups (their
    first run that ran), when every value is a number of one unit in the checker's config
    and the same text is the same number in every group."""
    xs, units = {}, set()
    for g in groups:
        ran = g.ran()
        got = config_value(ran[0].flat, name) if ran else None
        if got is None:
            continue
        text = g.params[name]
        if xs.setdefault(text, got[0]) != got[0]:
            # One text, several numbers: its converted value depends on another form (an
            # interval in clocks under several frequencies); placed as written instead.
            return None, None
        units.add(got[1])
    values = {g.params[name] for g in groups}
    if len(units) != 1 or set(xs) != values:
        return None, None
    return xs, units.pop()


def metric_label(metric):
    names = {
        "latency_ns.network.mean": "mean network latency (ns)",
        "latency_ns.message.mean": "mean message latency (ns)",
        "latency_ns.packet.mean": "mean packet latency (ns)",
        "latency_cycles.network.mean": "mean network latency (clocks)",
        "latency_cycles.message.mean": "mean message latency (clocks)",
        "throughput.accepted_flits_per_node_cycle": "accepted throughput (flits/node/clock)",
        "throughput.offered_flits_per_node_cycle": "offered load (flits/node/clock)",
    }
    if metric in names:
        return names[metric]
    unit = ""
    if "latency_ns" in metric or metric.endswith("_ns"):
        unit = " (ns)"
    elif "latency_cycles" in metric or metric.endswith("_cycles") or metric == "cycles":
        unit = " (clocks)"
    elif metric.endswith("_seconds"):
        unit = " (s)"
    return metric + unit


# Statistics of a latency distribution: a run that measured none of its messages (a steady
# run saturated before its window) writes count 0 and zeros for these, which are no values.
DISTRIBUTION_STATS = (".mean", ".max", ".p50", ".p99")


def get_metric(flat, metric):
    """The numeric value of `metric` in a run's flattened JSON, or None: not there, not a
    finite number, or a statistic of a distribution with no sample (its .count is 0)."""
    if metric.endswith(DISTRIBUTION_STATS):
        count = flat.get(metric.rsplit(".", 1)[0] + ".count")
        if count == 0:
            return None
    v = flat.get(metric)
    if isinstance(v, bool) or v is None:
        return None
    try:
        v = float(v)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


# ---------------------------------------------------------------------------
# The sweep

# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
       2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
       2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t95(df):
    """The 97.5% quantile of Student's t with df degrees of freedom (beyond
    the table, 1.96 + 2.4/df: within 0.002 of the exact value)."""
    if df < 1:
        raise ValueError("a confidence interval needs two samples or more")
    return T95[df - 1] if df <= len(T95) else 1.96 + 2.4 / df


def mean_ci95(values):
    """(mean, half-width of the 95% confidence interval, n) of independent
    samples; the half-width is None for fewer than two."""
    n = len(values)
    if n == 0:
        return None, None, 0
    m = math.fsum(values) / n
    if n < 2:
        return m, None, n
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    return m, t95(n - 1) * math.sqrt(var / n), n


class Point:
    def __init__(self, index, file, params, seed=None, group=None):
        self.index = index
        self.file = file          # Path of the program
        self.params = params      # name -> value text, in sweep order
        self.seed = seed          # the simulator's --seed, None for the program's own
        self.group = index if group is None else group  # replications share a group
        self.status = "pending"   # ok | <simulator status> | failed
        self.error = ""
        self.exit_code = None
        self.flat = {}
        self.seconds = 0.0


class Group:
    """The replications of one point of the grid (one run without --seeds)."""

    def __init__(self, file, params, points):
        self.file = file
        self.params = params
        self.points = points

    def ran(self):
        return [p for p in self.points if p.status != "failed"]

    def stats(self, metric):
        """(mean, ci95 half-width, n) of `metric` over the runs that have it."""
        return mean_ci95([v for v in (get_metric(p.flat, metric) for p in self.ran())
                          if v is not None])

    def status(self):
        statuses = sorted({p.status for p in self.points})
        return statuses[0] if len(statuses) == 1 else "+".join(statuses)


class Sweep:
    def __init__(self, ndlc, out, jobs=None, seed=None, stdlib=None, timeout=None,
                 keep_json=True, quiet=False, stream=sys.stderr, seeds=None):
        # Runs happen in each point's directory: a relative path to ndlc is
        # taken from here (a bare name is looked up in PATH).
        self.ndlc = str(Path(ndlc).resolve()) if os.sep in str(ndlc) else ndlc
        self.out = Path(out).resolve()
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self.seed = seed
        # seeds: how many replications of every point (seeds `seed`, seed+1,
        # ...; 1, 2, ... without --seed); None runs each point once.
        self.seeds = seeds
        self.stdlib = stdlib
        self.timeout = timeout
        self.keep_json = keep_json
        self.quiet = quiet
        self.stream = stream
        self.points = []
        self.param_names = []
        self.multi_file = False
        self.builds = 0           # simulators the points built (the others were cached)
        self._procs = set()
        self._lock = threading.Lock()
        self._stop = False
        self._t0 = time.monotonic()
        self._last_progress = 0.0
        self._tty = hasattr(stream, "isatty") and stream.isatty()

    # -- setup -------------------------------------------------------------
    def seed_list(self):
        if self.seeds is None:
            return [self.seed]
        first = 1 if self.seed is None else self.seed
        return list(range(first, first + self.seeds))

    def add_points(self, file, grid):
        """grid: list of dicts name -> value text (one per point); each point
        runs once per seed of seed_list()."""
        for params in grid:
            for name in params:
                if name not in self.param_names:
                    self.param_names.append(name)
            group = self._next_group()
            for seed in self.seed_list():
                self.points.append(Point(len(self.points), Path(file), dict(params),
                                         seed=seed, group=group))
        self.multi_file = len({p.file for p in self.points}) > 1

    def _next_group(self):
        return (self.points[-1].group + 1) if self.points else 0

    def groups(self):
        """The points grouped by their replications, in grid order."""
        by = {}
        for p in self.points:
            by.setdefault(p.group, []).append(p)
        return [Group(ps[0].file, ps[0].params, ps) for ps in by.values()]

    def command(self, point):
        """ndlc run with the point's values as --set, the simulator's options after --."""
        # -v: ndlc run says whether it built the simulator (counted in `builds`).
        cmd = [self.ndlc, "run", "-v", str(point.file)]
        if self.stdlib:
            cmd += ["--stdlib", self.stdlib]
        for name, value in point.params.items():
            cmd += ["--set", f"{name}={value}"]
        cmd += ["--", "--json", "point.json", "--quiet"]
        if point.seed is not None:
            cmd += ["--seed", str(point.seed)]
        return cmd

    # -- running -----------------------------------------------------------
    def _run(self, cmd, cwd, stdout, stderr, timeout):
        with self._lock:
            if self._stop:
                raise KeyboardInterrupt
            proc = subprocess.Popen(cmd, cwd=cwd, stdout=stdout, stderr=stderr,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
            self._procs.add(proc)
        try:
            return proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return None
        finally:
            with self._lock:
                self._procs.discard(proc)

    def _run_point(self, point):
        pdir = self.out / "points" / f"{point.index:04d}"
        pdir.mkdir(parents=True, exist_ok=True)
        cmd = self.command(point)
        (pdir / "command").write_text(" ".join(shell_quote(c) for c in cmd) + "\n")
        t0 = time.monotonic()
        with open(pdir / "stdout", "wb") as out, open(pdir / "stderr", "wb") as err:
            try:
                code = self._run(cmd, pdir, out, err, self.timeout)
            except OSError as e:
                # ndlc missing or not executable (e.g. being rebuilt): this point
                # failed; the others still run.
                point.seconds = time.monotonic() - t0
                point.status = "failed"
                point.error = f"cannot run {cmd[0]}: {e.strerror or e}"
                return point
        point.seconds = time.monotonic() - t0
        point.exit_code = code
        try:
            if "ndlc run: built simulator" in (pdir / "stderr").read_text(errors="replace"):
                with self._lock:
                    self.builds += 1
        except OSError:
            pass
        jpath = pdir / "point.json"
        data = None
        if code is None:
            point.status = "failed"
            point.error = f"timed out after {self.timeout} s"
        elif code in (0, 3) and jpath.exists():
            try:
                data = json.loads(jpath.read_text())
                point.flat = flatten(with_pairs(data, jpath))
                # A steady run that saturates exits 0 with status "saturated".
                point.status = str(data.get("status", "ok"))
                if code == 3:
                    point.error = str(data.get("status_message", ""))
            except (ValueError, OSError) as e:
                point.status = "failed"
                point.error = f"unreadable results: {e}"
        else:
            point.status = "failed"
            msg = tail(pdir / "stderr")
            what = "input error" if code == 1 else "exit"
            point.error = f"ndlc run {what} {code}" + (f":\n{msg}" if msg else "")
        if not self.keep_json and point.status != "failed":
            for f in [*table_files(data, jpath), jpath]:
                f.unlink(missing_ok=True)
        return point

    def run(self):
        shutil.rmtree(self.out / "points", ignore_errors=True)
        self.out.mkdir(parents=True, exist_ok=True)
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs)
        pending = set()
        try:
            for p in self.points:
                pending.add(pool.submit(self._run_point, p))
            while pending:
                done, pending = concurrent.futures.wait(
                    pending, timeout=1.0, return_when=concurrent.futures.FIRST_COMPLETED)
                for fut in done:
                    result = fut.result()
                    if result.status == "failed":
                        self._report_failure(
                            f"point {result.index} ({self.describe(result)}): {result.error}")
                    elif result.status not in ("ok", "saturated"):
                        self._report_failure(
                            f"point {result.index} ({self.describe(result)}) ran, status "
                            f"{result.status}: {result.error}", failure=False)
                self._progress()
        except KeyboardInterrupt:
            self._stop = True
            with self._lock:
                for proc in list(self._procs):
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)
                    except OSError:
                        pass
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        finally:
            pool.shutdown(wait=True)
        self._progress(final=True)

    # -- reporting ---------------------------------------------------------
    def describe(self, point):
        parts = [point.file.name] if self.multi_file else []
        parts += [f"{k}={v}" for k, v in point.params.items()]
        if self.seeds is not None:
            parts.append(f"seed {point.seed}")
        return ", ".join(parts)

    def counts(self):
        done = sum(p.status != "pending" for p in self.points)
        failed = sum(p.status == "failed" for p in self.points)
        return done, failed

    def _progress(self, final=False):
        if self.quiet:
            return
        now = time.monotonic()
        if not final and not self._tty and now - self._last_progress < 10:
            return
        self._last_progress = now
        done, failed = self.counts()
        line = (f"ndlc sweep: {done}/{len(self.points)} points, {failed} failed, "
                f"{self.builds} simulators built, {fmt_elapsed(now - self._t0)} elapsed")
        if self._tty:
            self.stream.write("\r\033[K" + line + ("\n" if final else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def _report_failure(self, msg, failure=True):
        if self.quiet and not failure:
            return
        if self._tty:
            self.stream.write("\r\033[K")
        self.stream.write(("ndlc sweep: error: " if failure else "ndlc sweep: note: ")
                          + msg.rstrip() + "\n")
        self.stream.flush()

    # -- results -----------------------------------------------------------
    def metric_columns(self):
        cols = []
        seen = set()
        for p in self.points:
            for k in p.flat:
                if k not in seen:
                    seen.add(k)
                    cols.append(k)
        cols.sort(key=column_rank)
        return cols

    def write_csv(self, path):
        head = ["point"] + (["file"] if self.multi_file else []) + self.param_names + \
               (["seed"] if self.seeds is not None else []) + \
               ["status", "exit_code", "error", "run_seconds"]
        metric_cols = self.metric_columns()
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(head + metric_cols)
            for p in self.points:
                row = [p.index] + ([p.file.name] if self.multi_file else [])
                row += [p.params.get(n, "") for n in self.param_names]
                row += [p.seed] if self.seeds is not None else []
                row += [p.status, "" if p.exit_code is None else p.exit_code,
                        p.error.split("\n")[0], f"{p.seconds:.3f}"]
                row += [csv_value(p.flat.get(k, "")) for k in metric_cols]
                w.writerow(row)

    def write_summary_csv(self, path):
        """One row per point of the grid: the runs that ran, then every
        numeric metric's mean over the seeds and its 95% CI half-width."""
        metric_cols = [c for c in self.metric_columns()
                       if any(get_metric(p.flat, c) is not None for p in self.points)]
        head = ["group"] + (["file"] if self.multi_file else []) + self.param_names + \
               ["runs", "ran", "status"]
        for c in metric_cols:
            head += [c, c + ".ci95"]
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(head)
            for i, g in enumerate(self.groups()):
                row = [i] + ([g.file.name] if self.multi_file else [])
                row += [g.params.get(n, "") for n in self.param_names]
                row += [len(g.points), len(g.ran()), g.status()]
                for c in metric_cols:
                    m, half, _ = g.stats(c)
                    row += ["" if m is None else repr(m), "" if half is None else repr(half)]
                w.writerow(row)


# Column order of the CSV: the headline metrics first, then the rest in the
# JSON's order, the per-distance and per-pair tables last.
FIRST_COLUMNS = ["latency_ns.network", "latency_ns.message", "throughput", "messages",
                 "packets", "hops", "collisions", "cycles", "simulated_time_ns",
                 "latency_cycles", "latency_ns.packet", "steady_state", "topology"]


def column_rank(col):
    for i, prefix in enumerate(FIRST_COLUMNS):
        if col == prefix or col.startswith(prefix + "."):
            return (i, 0)
    if col.startswith(("by_distance.", "pairs.")):
        return (len(FIRST_COLUMNS) + 1, 0)
    return (len(FIRST_COLUMNS), 0)


def csv_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return v


def tail(path, lines=12):
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return "\n".join("    " + l for l in text.rstrip().split("\n")[-lines:] if l.strip())


def shell_quote(s):
    s = str(s)
    return s if re.match(r"^[\w@%+=:,./-]+$", s) else "'" + s.replace("'", "'\\''") + "'"


def fmt_elapsed(s):
    s = int(s)
    return f"{s // 60}:{s % 60:02d}"


# ---------------------------------------------------------------------------
# Plot (gnuplot)

def plot(rows, x_param, metric, out_base, title, line_keys, x_values=None,
         log_x=None, log_y=None, y_label=None, x_label=None, size=(1000, 640),
         y_range=None, label_of=None, sort_x=True, x_axis=None, x_unit=None):
    """Plots `metric` against `x_param` for `rows` (dicts: name -> value
    text, plus '_metric', optionally '_err', the half-width of an error
    bar, and '_label', a text printed above the point), one line per
    distinct tuple of `line_keys`. x_axis ({value text: number}, with x_unit) places the
    x values (the checker's, config_axis); without it they are placed as written when they
    are numbers of one unit (axis_values), else in order as categories.
    Writes out_base.png, out_base.svg and out_base.gp/.dat. Returns the list
    of files written, or raises RuntimeError if gnuplot fails."""
    out_base = Path(out_base)
    xs_text = x_values or list(dict.fromkeys(r[x_param] for r in rows))
    if x_axis is not None:
        numeric, unit = [x_axis[v] for v in xs_text], x_unit
    else:
        numeric, unit = axis_values(xs_text)
    categorical = numeric is None
    xpos = {v: (i if categorical else numeric[i]) for i, v in enumerate(xs_text)}
    lines = {}
    labels = []
    # A labelled point with no value is drawn as a line across the plot at its x, and its
    # label written once beside the first of them: label -> [(x, the point's name)].
    marks = {}
    for r in rows:
        if r[x_param] not in xpos:
            continue
        if r.get("_metric") is None:
            if r.get("_label"):
                name = r.get("_mark") or r[x_param]
                of = describe_key(line_keys, tuple(r.get(k, "") for k in line_keys))
                marks.setdefault(str(r["_label"]), []).append(
                    (xpos[r[x_param]], f"{name} ({of})" if of else name))
            continue
        if r.get("_label"):
            labels.append((xpos[r[x_param]], r["_metric"], str(r["_label"])))
        key = tuple(r.get(k, "") for k in line_keys)
        lines.setdefault(key, []).append((xpos[r[x_param]], r["_metric"],
                                          r.get("_err") or 0.0, r[x_param]))
    if not lines:
        raise RuntimeError("no point has a value of " + metric)
    ys = [y for pts in lines.values() for _, y, _, _ in pts]
    errors = any(e for pts in lines.values() for _, _, e, _ in pts)
    if log_y is None:
        lo_hi = [y for y in (y_range or ys) if y is not None] + ys
        pos = [y for y in lo_hi if y > 0]
        log_y = len(pos) == len(lo_hi) and max(pos) > 10 * min(pos)
    if log_x is None:
        log_x = (not categorical and min(numeric) > 0 and max(numeric) > 10 * min(numeric))
    dat = out_base.with_suffix(".dat")
    with open(dat, "w", encoding="utf-8") as f:
        for key, pts in lines.items():
            f.write(f"# {describe_key(line_keys, key)}\n")
            for x, y, e, xt in (sorted(pts) if sort_x else pts):
                f.write(f"{x!r}\t{y!r}\t{e!r}\t{xt}\n")
            f.write("\n\n")
    xl = x_label or (f"{x_param} ({unit})" if unit else x_param)
    yl = y_label or metric_label(metric)
    cmds = [
        f"set title {gp_string(title)}",
        f"set xlabel {gp_string(xl)}",
        f"set ylabel {gp_string(yl)}",
        "set grid xtics ytics mxtics mytics lc rgb '#dddddd'",
        # The key stays outside the graph, where it covers no point: above it for a few
        # lines, beside it (the plot made wider) for more.
        "set key outside right top box" if len(lines) > 6 else
        "set key outside top center horizontal box",
        "set datafile separator '\\t'",
        "set pointsize 1.2",
    ]
    if log_x:
        cmds.append("set logscale x")
    if log_y and not any(y > 0 for y in ys):
        log_y = False
    if log_y:
        cmds.append("set logscale y")
        positive = [y for y in ys if y > 0]
        lo, hi = (y_range if y_range else (min(positive), max(positive)))
        ticks = [m * 10 ** e for e in range(int(math.floor(math.log10(lo))),
                                            int(math.ceil(math.log10(hi))) + 1)
                 for m in (1, 2, 5) if lo / 1.5 <= m * 10 ** e <= hi * 1.5]
        cmds.append("set ytics (" + ", ".join(f"{gp_string(f'{t:g}')} {t!r}"
                                              for t in ticks) + ")")
    if y_range:
        cmds.append(f"set yrange [{y_range[0]!r}:{y_range[1]!r}]")
    if categorical:
        cmds.append(f"set xrange [-0.5:{len(xs_text) - 0.5}]")
        cmds.append("set xtics (" + ", ".join(
            f"{gp_string(v)} {i}" for i, v in enumerate(xs_text)) + ")")
    elif log_x:
        lo, hi = min(numeric), max(numeric)
        cmds.append(f"set xrange [{lo / 1.3!r}:{hi * 1.3!r}]")
        cmds.append("set xtics (" + ", ".join(f"{gp_string(fmt_num(x))} {x!r}"
                                              for x in sorted(set(numeric))) + ")")
    else:
        lo, hi = min(numeric), max(numeric)
        pad = (hi - lo) * 0.05 or 1
        cmds.append(f"set xrange [{lo - pad!r}:{hi + pad!r}]")
    for text, at in marks.items():
        for x, _ in at:
            cmds.append(f"set arrow from first {x!r}, graph 0 to first {x!r}, graph 1 "
                        "nohead dt 2 lw 1.5 lc rgb '#aa3333'")
        x = min(x for x, _ in at)
        # The dashed lines mark each point; the label, drawn once along the first, names
        # them only while the names fit beside the plot.
        names = list(dict.fromkeys(name for _, name in sorted(at)))
        text += ": " + ", ".join(names) if len(names) <= 2 else f" ({len(names)} points)"
        cmds.append(f"set label {gp_string(text)} "
                    f"at first {x!r}, graph 0.5 center rotate by 90 offset char -1,0 "
                    "font ',9' textcolor rgb '#aa3333'")
    parts = []
    for i, key in enumerate(lines):
        label = (label_of(key) if label_of else describe_key(line_keys, key)) or yl
        style = "using 1:2:3 with yerrorlines" if errors else "using 1:2 with linespoints"
        parts.append(f"{gp_string(str(dat))} index {i} {style} "
                     f"lw 2 pt {(i % 13) + 1} title {gp_string(label)}")
    if labels:
        lab = out_base.with_suffix(".labels.dat")
        with open(lab, "w", encoding="utf-8") as f:
            for x, y, text in labels:
                f.write(f"{x!r}\t{y!r}\t{text}\n")
        parts.append(f"{gp_string(str(lab))} using 1:2:3 with labels offset char 0,0.9 "
                     "font ',9' textcolor rgb '#444444' notitle")
    plot_cmd = "plot " + ", \\\n     ".join(parts)
    w, h = size
    if len(lines) > 6:
        w += 250
    script = "\n".join(cmds) + "\n"
    return draw(out_base, script + plot_cmd, (w, h),
                missing="; the CSV is written, the plot is not")


def fmt_num(x):
    return f"{x:g}"


def describe_key(names, key):
    parts = []
    for n, v in zip(names, key):
        if n == "file":
            parts.append(Path(v).stem)
        else:
            parts.append(f"{n}={v}")
    return ", ".join(parts)


# A sweep over OfferedLoad plots message latency (source queueing included) by default.
LOAD_Y = "latency_ns.message.mean"
# A point is saturated when the network accepts less than this share of the configured load.
SATURATED_BELOW = 0.95


def load_of(group):
    """The configured load of a group in flits per node per clock, as the checker read its
    OfferedLoad (config.OfferedLoad_flits_per_node_cycle of its first run that ran)."""
    ran = group.ran()
    got = config_value(ran[0].flat, "OfferedLoad") if ran else None
    return got[0] if got else None


def plot_load_sweep(sweep, metric, out_base):
    """A sweep whose first parameter is OfferedLoad: `metric` against the configured load
    (out_base) and against the accepted throughput (out_base-accepted), one line per
    combination of the other parameters; a point whose accepted throughput is below
    SATURATED_BELOW of the load its sources offered, or whose steady run reports
    saturation, is labelled
    "saturated" on both; one saturated before it measured a message has no latency to draw."""
    x = sweep.param_names[0]
    keys = (["file"] if sweep.multi_file else []) + sweep.param_names[1:]
    rows, accepted_rows = [], []
    for g in sweep.groups():
        r = dict(g.params)
        r["file"] = g.file.name
        r["_metric"], r["_err"], _ = g.stats(metric)
        accepted, _, _ = g.stats("throughput.accepted_flits_per_node_cycle")
        load = load_of(g)
        if load is None:
            continue  # no run of it ran: nothing to draw
        r["_load"] = f"{load:.6g}"
        saturated = any(p.status == "saturated" for p in g.ran())
        # Against what the sources offered, which is below the configured load where a
        # pattern leaves nodes idle (Transpose's diagonal would send to itself).
        offered = g.stats("throughput.offered_flits_per_node_cycle")[0] or load
        if saturated or (accepted is not None and accepted < SATURATED_BELOW * offered):
            r["_label"] = "saturated"
        if saturated and not g.stats("throughput.measured_messages")[0]:
            r["_metric"] = None  # marked by a line at its load
            r["_label"] = "saturated before measuring"
            r["_mark"] = g.params[x]
        rows.append(r)
        if accepted is not None:
            a = dict(r)
            a["_accepted"] = f"{accepted:.6g}"
            accepted_rows.append(a)
    files = ", ".join(dict.fromkeys(p.file.name for p in sweep.points))
    seeds = f" (mean of {sweep.seeds} seeds, 95% CI)" if sweep.seeds is not None else ""
    # Both plots share their y axis: linear x (loads are a fraction of one), y logarithmic
    # when the values drawn span more than ten times, decided once over every point.
    ys = [r["_metric"] for r in rows if r["_metric"] is not None]
    log_y = bool(ys) and min(ys) > 0 and max(ys) > 10 * min(ys)
    written = plot(rows, "_load", metric, out_base,
                   f"{metric_label(metric)} against offered load: {files}{seeds}", keys,
                   log_x=False, log_y=log_y,
                   x_label="offered load (flits/node/clock, configured)")
    if accepted_rows:
        written += plot(accepted_rows, "_accepted", metric, Path(str(out_base) + "-accepted"),
                        f"{metric_label(metric)} against accepted throughput: {files}{seeds}",
                        keys, log_x=False, log_y=log_y,
                        sort_x=False,  # in the order of the load
                        x_label="accepted throughput (flits/node/clock)")
    return written


def plot_sweep(sweep, metric, out_base, title=None):
    if not sweep.param_names:
        raise RuntimeError("nothing swept")
    if sweep.param_names[0] == "OfferedLoad" and title is None:
        return plot_load_sweep(sweep, LOAD_Y if metric == DEFAULT_Y else metric, out_base)
    x = sweep.param_names[0]
    keys = (["file"] if sweep.multi_file else []) + sweep.param_names[1:]
    rows = []
    for g in sweep.groups():
        r = dict(g.params)
        r["file"] = g.file.name
        r["_metric"], r["_err"], _ = g.stats(metric)
        rows.append(r)
    x_values = list(dict.fromkeys(p.params[x] for p in sweep.points))
    x_axis, x_unit = config_axis(sweep.groups(), x)
    if title is None:
        files = ", ".join(dict.fromkeys(p.file.name for p in sweep.points))
        title = f"{metric_label(metric)} against {x}: {files}"
        if sweep.seeds is not None:
            title += f" (mean of {sweep.seeds} seeds, 95% CI)"
    return plot(rows, x, metric, out_base, title, keys, x_values=x_values, x_axis=x_axis,
                x_unit=x_unit)


# ---------------------------------------------------------------------------
# Command line

def list_forms(ndlc):
    try:
        r = subprocess.run([ndlc, "check", "--list-forms"], capture_output=True, text=True)
    except OSError as e:
        raise UsageError(f"cannot run ndlc ({ndlc}): {e.strerror}")
    return [line.split()[0] for line in r.stdout.splitlines() if line.strip()]


def closest(name, names):
    import difflib
    m = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return m[0] if m else None


def file_sweeps(ndlc, file, stdlib):
    """The file's own (Sweep NAME v ...) forms as [(name, [values])]: the
    names and order from `ndlc check --dump-after=sema`, the value texts as
    written when the form is in the file itself."""
    cmd = [ndlc, "check", "--dump-after=sema", str(file)]
    if stdlib:
        cmd += ["--stdlib", stdlib]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise InputError(r.stderr.rstrip() or f"ndlc check {file} failed", raw=True)
    own = {}
    for f in top_level_forms(Path(file).read_text(encoding="utf-8")):
        if f.name == "Sweep" and f.args:
            own[f.args[0]] = f.args[1:]
    sweeps = []
    for line in r.stdout.splitlines():
        m = re.match(r"^Sweep (\S+) = (.*)$", line)
        if m:
            name = m.group(1)
            sweeps.append((name, own.get(name) or m.group(2).split()))
    return sweeps


def check_file(ndlc, file, stdlib):
    cmd = [ndlc, "check", str(file)]
    if stdlib:
        cmd += ["--stdlib", stdlib]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise InputError(r.stderr.rstrip() or f"ndlc check {file} failed", raw=True)


def default_ndlc():
    """ndl.find_ndlc's choice, else the bare name (its failure to start is then reported)."""
    from ndl.api import NdlError, find_ndlc
    try:
        return find_ndlc()
    except NdlError:
        return "ndlc"


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="ndlc sweep",
        description="Run an NDL program over a grid of parameter values, in parallel; "
                    "write results.csv and a plot (plot.png, plot.svg).")
    ap.add_argument("files", nargs="+", metavar="FILE",
                    help="NDL program(s); several files are compared as variants")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=V1,V2,...",
                    help="values of one parameter, as written in NDL (2usec, 32bit, "
                         "(Torus 8 8)); several --param make a grid. Default: the "
                         "file's own (Sweep ...) forms")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                    help="builds and runs at a time (default: the number of cores, %(default)s)")
    ap.add_argument("--out", "-o", help="output directory (default: sweep-<file stem>)")
    ap.add_argument("--seed", type=int, help="pass --seed N to every run (with --seeds, "
                    "the first seed)")
    ap.add_argument("--seeds", type=int, metavar="N",
                    help="run every point with N seeds (1..N, or from --seed) and report "
                         "means with 95%% confidence intervals (summary.csv, error bars)")
    ap.add_argument("--plot-y", default=DEFAULT_Y, metavar="METRIC",
                    help="JSON metric to plot, dotted (default %(default)s)")
    ap.add_argument("--no-plot", action="store_true", help="write the CSV only")
    ap.add_argument("--timeout", type=float, metavar="SEC", help="time limit of one run")
    ap.add_argument("--no-keep-json", action="store_true",
                    help="delete each run's JSON and tables once they are in the CSV")
    ap.add_argument("--dry-run", action="store_true",
                    help="print the command of every point, run nothing")
    ap.add_argument("--quiet", "-q", action="store_true", help="no progress line")
    ap.add_argument("--ndlc", default=None, help="the ndlc to build with")
    ap.add_argument("--stdlib", help="directory of the stdlib modules (passed to ndlc)")
    return ap.parse_args(argv)


def build_grid(args, forms_known):
    """[(file, [params dict])] from the options or the files' Sweep forms."""
    plan = []
    if args.param:
        names, lists = [], []
        for spec in args.param:
            if "=" not in spec:
                raise UsageError(f"--param {spec}: write NAME=V1,V2,...")
            name, values = spec.split("=", 1)
            name = name.strip()
            if name not in forms_known or name in ("Sweep", "import"):
                hint = closest(name, forms_known)
                raise UsageError(f"--param {name}: not an NDL parameter"
                                 + (f" (did you mean '{hint}'?)" if hint else ""))
            if name in names:
                raise UsageError(f"--param {name} given twice; list all its values in one")
            names.append(name)
            lists.append(split_values(values))
        grid = [dict(zip(names, combo)) for combo in itertools.product(*lists)]
        for f in args.files:
            check_file(args.ndlc, f, args.stdlib)
            plan.append((f, grid))
        return plan
    first = None
    for f in args.files:
        sweeps = file_sweeps(args.ndlc, f, args.stdlib)
        if not sweeps:
            raise UsageError(f"{f} has no (Sweep ...) form: give --param NAME=V1,V2,...")
        names = [n for n, _ in sweeps]
        if first is not None and names != first:
            raise UsageError("the files sweep different parameters "
                             f"({', '.join(first)} / {', '.join(names)}); give --param")
        first = names
        grid = [dict(zip(names, combo)) for combo in itertools.product(*[v for _, v in sweeps])]
        plan.append((f, grid))
    return plan


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = parse_args(argv)
    except SystemExit as e:
        return 0 if e.code == 0 else 2
    args.ndlc = args.ndlc or default_ndlc()
    if args.jobs < 1:
        print("ndlc sweep: --jobs must be at least 1", file=sys.stderr)
        return 2
    if args.seeds is not None and args.seeds < 2:
        print("ndlc sweep: --seeds needs 2 or more (a confidence interval needs two "
              "samples); for one run with a given seed use --seed", file=sys.stderr)
        return 2
    out = args.out or f"sweep-{Path(args.files[0]).stem}"
    try:
        forms_known = list_forms(args.ndlc)
        if not forms_known:
            raise UsageError(f"{args.ndlc} check --list-forms listed nothing")
        for f in args.files:
            if not Path(f).is_file():
                raise InputError(f"{f}: no such file")
        # Builds and runs happen in other directories: name files absolutely.
        args.files = [str(Path(f).resolve()) for f in args.files]
        plan = build_grid(args, forms_known)
        if args.seeds is not None and any("Seed" in g for _, grid in plan for g in grid):
            raise UsageError("--seeds and a swept Seed both choose the seed; give one")
        sweep = Sweep(args.ndlc, out, jobs=args.jobs, seed=args.seed, stdlib=args.stdlib,
                      timeout=args.timeout, keep_json=not args.no_keep_json,
                      quiet=args.quiet, seeds=args.seeds)
        for f, grid in plan:
            sweep.add_points(f, grid)
    except UsageError as e:
        print(f"ndlc sweep: error: {e}", file=sys.stderr)
        return 2
    except InputError as e:
        print(str(e) if e.raw else f"ndlc sweep: error: {e}", file=sys.stderr)
        return 1

    if args.dry_run:
        for p in sweep.points:
            print(f"point {p.index}: " + " ".join(shell_quote(c) for c in sweep.command(p)))
        return 0

    try:
        sweep.run()
    except KeyboardInterrupt:
        print("\nndlc sweep: interrupted; writing the points that finished", file=sys.stderr)
        sweep.write_csv(Path(out) / "results.csv")
        return 130
    csv_path = Path(out) / "results.csv"
    sweep.write_csv(csv_path)
    done, failed = sweep.counts()
    written = [csv_path]
    if args.seeds is not None:
        sweep.write_summary_csv(Path(out) / "summary.csv")
        written.append(Path(out) / "summary.csv")
    plot_ok = True
    if not args.no_plot:
        try:
            written += plot_sweep(sweep, args.plot_y, Path(out) / "plot")
        except RuntimeError as e:
            plot_ok = False
            print(f"ndlc sweep: plot: {e}", file=sys.stderr)
    if not args.quiet:
        abnormal = sum(p.status not in ("ok", "saturated", "failed") for p in sweep.points)
        summary = f"ndlc sweep: {len(sweep.points) - failed} of {len(sweep.points)} points ran"
        if abnormal:
            summary += f" ({abnormal} stopped on a runtime failure, see the status column)"
        if failed:
            summary += f", {failed} failed"
        print(summary + "; wrote " + ", ".join(str(w) for w in written), file=sys.stderr)
    return 1 if failed or not plot_ok else 0


if __name__ == "__main__":
    sys.exit(main())
