"""NDL from Python: run a program, sweep it, get pandas DataFrames.

    import ndl
    r = ndl.run("examples/traffic/mesh-load.ndl", set={"OfferedLoad": "20%"}, seed=3)
    r.metrics["latency_cycles.network.mean"], r.channels()
    df = ndl.sweep("net.ndl", {"OfferedLoad": ["10%", "20%"], "RoutingAlgorithm": ["XY", "WestFirst"]},
                   seeds=3)
    ndl.summarize(df)            # one row per point: each metric's mean and 95% CI half-width

Every value is NDL text, read by the checker exactly as if written in the program in place of
its form (`ndlc run --set`): the units, ranges and rules are the checker's, and a value it
refuses raises CheckError with its diagnostics. Runs go through ndlc (found by find_ndlc), so a
Python run and `ndlc run` of the same program and seed give the same results bit for bit.
"""
import itertools
import json
import math
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ndl.results import Result


class NdlError(Exception):
    """Something ndl could not do; the message says what and why."""


class CheckError(NdlError):
    """The program (or a value given for it) does not check. diagnostics: ndlc check --json's
    list (file, line, column, end_line, end_column, severity, kind, message, hint, notes);
    str(e) is ndlc's own rendering, with the offending text and hints."""

    def __init__(self, text, diagnostics):
        super().__init__(text)
        self.diagnostics = diagnostics

    @property
    def errors(self):
        return [d for d in self.diagnostics if d.get("severity") == "error"]


class RunError(NdlError):
    """ndlc run failed after the program checked (the build, or the simulator's start):
    stderr is what it printed, exit_code its status."""

    def __init__(self, text, exit_code, stderr):
        super().__init__(text)
        self.exit_code = exit_code
        self.stderr = stderr


def find_ndlc(ndlc=None):
    """The ndlc to run: `ndlc` if given, else $NDLC, else the ndlc this package was built or
    installed with (the build tree's ndlc beside share/ndl/python, an installed prefix's
    bin/ndlc), else a build in the source tree this package is in, else ndlc on PATH."""
    if ndlc:
        return str(ndlc)
    env = os.environ.get("NDLC")
    if env:
        return env
    here = Path(__file__).resolve().parent          # .../ndl
    candidates = []
    if [p.name for p in here.parents[:3]] == ["python", "ndl", "share"]:
        prefix = here.parents[3]                    # <prefix>/share/ndl/python/ndl
        candidates += [prefix / "ndlc", prefix / "bin" / "ndlc"]
    root = here.parent.parent                       # <source>/python/ndl
    candidates += [root / d / "ndlc" for d in ("build", "build-sw", "build-dev")]
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return str(c)
    found = shutil.which("ndlc")
    if found:
        return found
    raise NdlError("ndlc not found: give ndlc=PATH, set NDLC, or build NDL "
                   "(scripts/demo.sh builds build/ndlc)")


def _program_file(program, workdir):
    """The path of the program: `program` itself when it names a file, else (NDL text, which
    has a parenthesis) written to workdir/program.ndl."""
    if isinstance(program, Path) or (isinstance(program, str) and "(" not in program):
        path = Path(program)
        if not path.is_file():
            raise FileNotFoundError(f"{program}: no such NDL file")
        return path.resolve()
    if not isinstance(program, str):
        raise TypeError(f"program: a path or NDL text, not {type(program).__name__}")
    path = Path(workdir).resolve() / "program.ndl"  # runs happen in other directories
    path.write_text(program, encoding="utf-8")
    return path


def value_text(name, value):
    """A Python value as the NDL text of `name`'s form: a str as written ("20%", "2usec",
    "(Torus 8 8)"), an int or float as its number (a bool is refused: no form takes one)."""
    if isinstance(value, (int, float, str)) and not isinstance(value, bool):
        text = str(value)
        if text.strip() == "":
            raise ValueError(f"{name}: an empty value")
        return text
    raise TypeError(f"{name}: give its value as NDL text (a str) or a number, "
                    f"not {type(value).__name__}")


def set_args(values):
    args = []
    for name, value in (values or {}).items():
        args += ["--set", f"{name}={value_text(name, value)}"]
    return args


def check(program, set=None, *, ndlc=None, stdlib=None):
    """Checks the program with the values of `set`; raises CheckError when it does not check,
    returns its warnings (diagnostics as in CheckError) when it does."""
    ndlc = find_ndlc(ndlc)
    with tempfile.TemporaryDirectory(prefix="ndl-check-") as tmp:
        path = _program_file(program, tmp)
        return _check(ndlc, path, set, stdlib)


def _check(ndlc, path, values, stdlib, trace=True):
    # trace=False: the front end's checks only, without tracing every route (the run that
    # follows traces them and reports what it finds).
    cmd = [ndlc, "check", str(path)] + set_args(values)
    if not trace:
        cmd.append("--no-route-trace")
    if stdlib:
        cmd += ["--stdlib", str(stdlib)]
    as_json = subprocess.run(cmd + ["--json"], capture_output=True, text=True)
    try:
        diagnostics = json.loads(as_json.stdout).get("diagnostics", [])
    except ValueError:
        diagnostics = []
    if as_json.returncode != 0:
        text = subprocess.run(cmd, capture_output=True, text=True).stderr.rstrip()
        raise CheckError(text or as_json.stderr.rstrip() or f"ndlc check {path} failed",
                         diagnostics)
    return diagnostics


def run(program, set=None, seed=None, *, ndlc=None, stdlib=None, args=(), out=None,
        timeout=None):
    """Builds (or takes from ndlc's cache) the program's simulator and runs it once.

    program  a path to an .ndl file, or NDL text (its imports then resolve from `out`)
    set      {form name: value}: each value in place of the program's form (NDL text or a
             number; see value_text), checked as if written there
    seed     the simulator's --seed (None: the program's Seed form, else 1)
    args     further simulator options (the simulator's --help lists them), e.g.
             ["--tables", "always"]
    out      the directory the run writes its JSON and tables to (default: a new temporary
             directory, kept: the Result's tables are read from it)
    timeout  seconds before the run is stopped (subprocess.TimeoutExpired)

    Returns a Result. A run that stopped on a runtime failure (a deadlock, a time limit)
    returns its Result too, with that status and what it measured. Raises CheckError when the
    program or a value does not check, RunError when ndlc cannot build or start it."""
    ndlc = find_ndlc(ndlc)
    out = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="ndl-run-"))
    out.mkdir(parents=True, exist_ok=True)
    path = _program_file(program, out)
    cmd = [ndlc, "run", str(path)] + set_args(set)
    if stdlib:
        cmd += ["--stdlib", str(stdlib)]
    cmd += ["--", "--json", "result.json", "--quiet"]
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed: a whole number 0 or more, not {seed!r}")
        cmd += ["--seed", str(seed)]
    cmd += [str(a) for a in args]
    json_path = out / "result.json"
    json_path.unlink(missing_ok=True)
    p = subprocess.run(cmd, cwd=out, capture_output=True, text=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    if p.returncode in (0, 3) and json_path.is_file():
        with open(json_path, encoding="utf-8") as f:
            return Result(json.load(f), json_path, stderr=p.stderr)
    if p.returncode == 1:
        # An input error: the checker's diagnostics, structured (raises CheckError), unless
        # the program checks and the build failed.
        _check(ndlc, path, set, stdlib)
    raise RunError(f"ndlc run {path.name} failed (exit {p.returncode}):\n{p.stderr.rstrip()}",
                   p.returncode, p.stderr)


def _grid(params):
    """[(name, [value texts])] of a sweep's params: {name: value or list of values}."""
    if params is None:
        return []
    if not isinstance(params, dict):
        raise TypeError("params: a dict {form name: [values]}")
    grid = []
    for name, values in params.items():
        if isinstance(values, (list, tuple, range)):
            texts = [value_text(name, v) for v in values]
        else:
            texts = [value_text(name, values)]
        if not texts:
            raise ValueError(f"{name}: no values to sweep")
        if len(set(texts)) != len(texts):
            raise ValueError(f"{name}: a value given twice ({', '.join(texts)})")
        grid.append((name, texts))
    return grid


def sweep(programs, params=None, *, seeds=None, seed=None, jobs=None, out=None, ndlc=None,
          stdlib=None, timeout=None, progress=False):
    """Runs each program over the grid of `params` (the cartesian product of its value lists;
    without params, of the programs' own (Sweep ...) forms) and returns a pandas DataFrame
    with one row per run: point, group (the point of the grid; replications share it), file,
    each swept form, seed, status, exit_code, error, run_seconds, json (the run's JSON file),
    then every metric of the run's JSON as a column named as Result.metrics names it.

    programs  one path or NDL text, or a list of them (compared as variants)
    params    {form name: value or [values]} in NDL text or numbers, checked by the checker
              exactly as `ndlc sweep --param` and `ndlc run --set` check them
    seeds     N: every point N times with seeds seed, seed+1, ... (1, 2, ... without seed);
              df.attrs["summary"] is then summarize(df)
    jobs      runs at a time (default: the number of cores)
    out       the directory of the runs (default: a new temporary directory, kept)

    Every value of the grid is checked before anything runs: a program or value that does not
    check raises CheckError with the diagnostics. A run that fails later has status "failed"
    and its error; the other runs still run."""
    from ndl import engine
    from ndl.frames import pandas
    pd = pandas()
    ndlc = find_ndlc(ndlc)
    if seeds is not None and (isinstance(seeds, bool) or not isinstance(seeds, int)
                              or seeds < 2):
        raise ValueError("seeds: 2 or more (a confidence interval needs two samples); for one "
                         "run with a given seed use seed=")
    out = Path(out) if out is not None else Path(tempfile.mkdtemp(prefix="ndl-sweep-"))
    out.mkdir(parents=True, exist_ok=True)
    if isinstance(programs, (str, Path)):
        programs = [programs]
    files = []
    for i, program in enumerate(programs):
        d = out / "programs" / f"{i:02d}"
        d.mkdir(parents=True, exist_ok=True)
        files.append(_program_file(program, d))
    grid = _grid(params)
    plan = []
    for f in files:
        names = grid
        if not names:
            _check(ndlc, f, None, stdlib, trace=False)
            names = engine.file_sweeps(ndlc, f, stdlib)
            if not names:
                raise ValueError(f"{f.name} has no (Sweep ...) form: give params=")
        points = [dict(zip([n for n, _ in names], combo))
                  for combo in itertools.product(*[v for _, v in names])]
        for point in points:
            _check(ndlc, f, point, stdlib, trace=False)  # CheckError before anything runs
        plan.append((f, points))
    run_set = engine.Sweep(ndlc, out, jobs=jobs, seed=seed, stdlib=stdlib, timeout=timeout,
                           quiet=not progress, seeds=seeds)
    for f, points in plan:
        run_set.add_points(f, points)
    run_set.run()
    rows = []
    metric_columns = run_set.metric_columns()  # headline metrics first, as in results.csv
    for p in run_set.points:
        row = {"point": p.index, "group": p.group, "file": str(p.file), **p.params,
               "seed": p.seed, "status": p.status, "exit_code": p.exit_code,
               "error": p.error, "run_seconds": p.seconds,
               "json": str(run_set.out / "points" / f"{p.index:04d}" / "point.json")
               if p.status != "failed" else None}
        row.update({c: p.flat[c] for c in metric_columns if c in p.flat})
        rows.append(row)
    df = pd.DataFrame(rows)
    df.attrs["params"] = list(run_set.param_names)
    df.attrs["out"] = str(run_set.out)
    df.attrs["seeds"] = seeds
    if seeds is not None:
        df.attrs["summary"] = summarize(df)
    return df


# The columns of a sweep's DataFrame that describe a run rather than measure it (with the
# swept forms, df.attrs["params"]).
RUN_COLUMNS = ("point", "group", "file", "seed", "status", "exit_code", "error", "run_seconds",
               "json")


def _param_columns(df):
    return list(df.attrs.get("params") or [])


def summarize(df):
    """One row per point of a sweep's DataFrame (its group): file, the swept forms, runs, ran
    (those that did not fail), status, then each numeric metric's mean over the runs that
    have it (a latency statistic of a run that measured no message is not a value: a steady
    run saturated before its window) and the half-width of its 95% Student-t confidence interval (METRIC.ci95; empty
    for fewer than two runs), computed as `ndlc sweep`'s summary.csv computes them."""
    from ndl import engine
    from ndl.frames import pandas
    pd = pandas()
    fixed = {*RUN_COLUMNS, *_param_columns(df)}
    metrics = [c for c in df.columns if c not in fixed and pd.api.types.is_numeric_dtype(df[c])
               and not pd.api.types.is_bool_dtype(df[c])]
    rows = []
    for group, runs in df.groupby("group", sort=True):
        first = runs.iloc[0]
        ran = runs[runs["status"] != "failed"]
        statuses = sorted(set(runs["status"]))
        row = {"group": group, "file": first["file"],
               **{n: first[n] for n in _param_columns(df)},
               "runs": len(runs), "ran": len(ran),
               "status": statuses[0] if len(statuses) == 1 else "+".join(statuses)}
        flats = [r.to_dict() for _, r in ran.iterrows()]
        for c in metrics:
            # As summary.csv: a latency statistic of a run that measured no message is no
            # value (engine.get_metric).
            values = [v for v in (engine.get_metric(f, c) for f in flats) if v is not None]
            m, half, _ = engine.mean_ci95(values)
            row[c] = m
            row[c + ".ci95"] = half
        rows.append(row)
    out = pd.DataFrame(rows)
    out.attrs["params"] = _param_columns(df)
    return out


def plot(df, out, y=None, *, x=None, title=None):
    """The plots `ndlc sweep` draws, from a sweep's DataFrame (gnuplot, the one plotting tool
    NDL uses): y (a metric column; default as ndlc sweep's) against the first swept form, one
    line per combination of the others and per file, means with 95% error bars when the
    sweep has seeds; a sweep of OfferedLoad draws against the configured load and the
    accepted throughput (out-accepted). x: the swept form on the x axis (default: the first
    with more than one value). Writes out.png and out.svg; returns the files."""
    from ndl import engine
    params = _param_columns(df)
    if not params:
        raise ValueError("plot: the DataFrame has no swept forms (df.attrs['params'])")
    if x is None:
        x = next((n for n in params if df[n].nunique() > 1), params[0])
    if x not in params:
        raise ValueError(f"plot: x={x!r} is not swept (swept: {', '.join(params)})")
    if y is not None and y not in df.columns:
        raise ValueError(f"plot: no metric {y!r} in the DataFrame")
    params = [x] + [n for n in params if n != x]
    run_set = engine.Sweep("ndlc", df.attrs.get("out") or tempfile.gettempdir(), quiet=True,
                           seeds=df.attrs.get("seeds"))
    fixed = {*RUN_COLUMNS, *params}
    for _, r in df.iterrows():
        p = engine.Point(int(r["point"]), Path(r["file"]), {n: r[n] for n in params},
                         seed=None if r["seed"] is None or r["seed"] != r["seed"]
                         else int(r["seed"]), group=int(r["group"]))
        p.status = r["status"]
        p.flat = {c: r[c] for c in df.columns if c not in fixed and _present(r[c])}
        run_set.points.append(p)
    run_set.param_names = params
    run_set.multi_file = df["file"].nunique() > 1
    written = engine.plot_sweep(run_set, y or engine.DEFAULT_Y, Path(out), title=title)
    return [Path(w) for w in written]


def _present(v):
    try:
        return not (v is None or (isinstance(v, float) and math.isnan(v)))
    except TypeError:
        return True
