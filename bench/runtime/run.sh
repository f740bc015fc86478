#!/usr/bin/env bash
# Builds and runs the runtime benchmark cases on one core; figures go to bench/RESULTS.md.
#   bench/runtime/run.sh [BUILD_DIR]     (default: build, a RelWithDebInfo/Release build)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
[ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target ndl_runtime_bench -j 2 >/dev/null
bin=$(find "$build" -name ndl_runtime_bench -type f -perm -u+x | head -1)
for c in torus8-0.1 torus8-0.3 torus64-0.01; do
  taskset -c 0 "$bin" "$c"
done
