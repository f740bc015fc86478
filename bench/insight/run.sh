#!/usr/bin/env bash
# INSIGHT's evaluation (figures 4-12) as a reviewer would want it: five
# networks (the paper's four and the RDT with shortest-path routes), the
# paper's seven settings, two methodologies (published burst, steady state),
# each point with several seeds and 95% confidence intervals, plus the drop,
# deadlock-free control and hop-cost studies (bench/insight/paper_sweep.py).
#   bench/insight/run.sh [OUT_DIR]        (default bench/insight/out)
# NDLC=path/to/ndlc overrides the compiler (default build/ndlc, built if
# missing); JOBS=N the parallelism (default: all cores); SEEDS=N the seeds
# per point (default 5); DOCS=docs copies the figures to docs/insight/ and
# refreshes the generated tables of docs/insight.md.
set -euo pipefail
. "$(dirname "$0")/../ndlc.sh"
args=(--ndlc "$ndlc" --out "${1:-$root/bench/insight/out}" --jobs "${JOBS:-$(nproc)}"
      --seeds "${SEEDS:-5}")
[ -n "${DOCS:-}" ] && args+=(--docs "$DOCS")
exec python3 "$root/bench/insight/paper_sweep.py" "${args[@]}"
