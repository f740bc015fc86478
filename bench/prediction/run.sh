#!/usr/bin/env bash
# The predictive-switching evaluation of seed 001 (docs/prediction.md): normal, SS, LP, SPM
# and AD on 16- and 32-ary 3-cubes under uniform and bit-reversal traffic; latency, hit rate
# and PST rate against offered load, the paper's figures beside ours in summary.md.
#   bench/prediction/run.sh [OUT_DIR] [--quick]   (default bench/prediction/out)
# NDLC=path/to/ndlc overrides the compiler (default build/ndlc, built if missing); JOBS=N the
# parallelism (default: all cores). Progress goes to stderr.
set -euo pipefail
. "$(dirname "$0")/../ndlc.sh"
out="${1:-$root/bench/prediction/out}"
shift || true
exec python3 "$root/bench/prediction/reproduce.py" --ndlc "$ndlc" --out "$out" \
  --jobs "${JOBS:-$(nproc)}" "$@"
