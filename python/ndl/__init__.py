"""NDL's Python package: run NDL programs, sweep them, and read their results as Python
objects and pandas DataFrames (docs/python.md).

    import ndl
    r = ndl.run("examples/traffic/mesh-load.ndl", set={"OfferedLoad": "20%"}, seed=3)
    df = ndl.sweep("examples/traffic/mesh-load.ndl", {"OfferedLoad": ["10%", "30%"]}, seeds=3)
    ndl.summarize(df); ndl.plot(df, "latency")   # latency.png, latency-accepted.png

    ndl.api      run, sweep, summarize, plot, check, find_ndlc and their exceptions
    ndl.results  Result, load (a run's JSON), load_table (its CSV tables), flatten
    ndl.engine   the sweep engine behind `ndlc sweep` (python3 -m ndl.engine --ndlc PATH ...)
    ndl.plots    plots of one run: its latency histogram, a heat map of its channel loads
                 (python3 -m ndl.plots histogram|channels RUN.json)

The package is installed beside ndlc (share/ndl/python; the build tree's build/share/ndl/
python), which is where `ndlc sweep` runs it from; the README's set-up puts that folder on
python3's path.
"""
from ndl.api import (CheckError, NdlError, RunError, check, find_ndlc, plot, run,  # noqa: F401
                     summarize, sweep)
from ndl.results import Result, load, load_table  # noqa: F401
