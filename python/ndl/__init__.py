"""NDL's Python package.

    ndl.sweep   the sweep engine behind `ndlc sweep` (python3 -m ndl.sweep --ndlc PATH ...)

`ndlc sweep` runs it with this folder's parent on PYTHONPATH; scripts that drive sweeps
themselves (bench/insight, bench/recover-x) import it from there.
"""
