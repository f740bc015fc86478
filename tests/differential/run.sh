#!/usr/bin/env bash
# A long differential run (differential.py): CASES random programs (default 40) from SEED
# (default: the date), each built four ways. Failing cases stay in build/differential/.
#   tests/differential/run.sh [CASES] [SEED]
set -euo pipefail
cd "$(dirname "$0")/../.."
exec python3 tests/differential/differential.py build/ndlc build/differential \
  --cases "${1:-40}" --seed "${2:-$(date +%Y%m%d)}"
