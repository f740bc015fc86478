"""NDL's Python package.

    ndl.sweep   the sweep engine behind `ndlc sweep` (python3 -m ndl.sweep --ndlc PATH ...)
    ndl.plots   plots of one run: its latency histogram, a heat map of its channel loads
                (python3 -m ndl.plots histogram|channels RUN.json)

`ndlc sweep` runs it with this folder's parent first on PYTHONPATH (share/ndl/python beside an
installed ndlc, else the source tree's python/); scripts that drive sweeps
themselves (bench/insight, bench/recover-x) import it from there.
"""
