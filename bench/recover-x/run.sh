#!/usr/bin/env bash
# The Recover-x comparison of seed 000 (docs/recover-x.md): Dimension-order,
# *-channel, Recover-x and DISHA on 8x8 and 16x16 tori under hot-spot and
# all-to-all traffic; bandwidth against message size at saturation, latency
# against bandwidth as the generation probability is swept.
#   bench/recover-x/run.sh [OUT_DIR]        (default bench/recover-x/out)
# NDLC=path/to/ndlc overrides the compiler (default build/ndlc, built if
# missing); JOBS=N the parallelism (default: all cores); DOCS=docs copies the
# figures to docs/recover-x-*.{png,svg}. Progress goes to stderr.
set -euo pipefail
. "$(dirname "$0")/../ndlc.sh"
args=(--ndlc "$ndlc" --out "${1:-$root/bench/recover-x/out}" --jobs "${JOBS:-$(nproc)}")
[ -n "${DOCS:-}" ] && args+=(--docs "$DOCS")
exec python3 "$root/bench/recover-x/reproduce.py" "${args[@]}"
