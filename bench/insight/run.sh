#!/usr/bin/env bash
# The full sweep of INSIGHT's evaluation (figures 4-12): four networks, three
# flow controls, three widths, three clocks, four creation intervals.
#   bench/insight/run.sh [OUT_DIR]        (default bench/insight/out)
# NDLC=path/to/ndlc overrides the compiler (default build/ndlc, built if
# missing); JOBS=N the parallelism (default: all cores); DOCS=docs copies the
# figures to docs/insight-figNN.{png,svg}.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
ndlc="${NDLC:-$root/build/ndlc}"
if [ ! -x "$ndlc" ]; then
  cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$root/build" --target ndlc -j "$(nproc)"
fi
args=(--ndlc "$ndlc" --out "${1:-$root/bench/insight/out}" --jobs "${JOBS:-$(nproc)}")
[ -n "${DOCS:-}" ] && args+=(--docs "$DOCS")
exec python3 "$root/bench/insight/paper_sweep.py" "${args[@]}"
