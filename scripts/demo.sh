#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds NDL and runs the main job on the
# shipped INSIGHT example: `ndlc check` with the effective parameters.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build --target ndlc -j "$(nproc)"
example=examples/insight/rdt-64x64.ndl
echo "== ndlc check $example"
build/ndlc check --dump-after=sema "$example"
echo "== $example checks clean"
