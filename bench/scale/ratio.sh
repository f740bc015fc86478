#!/usr/bin/env bash
# Benchmark: the light-load speed of the 1M-node torus against the 4K one (the scale
# target: within 2x), measured as the target says, on one core: both simulators pinned to
# the same CPU and run interleaved, so that each pair sees the same phase of a shared
# machine. The networks and the load are run.sh's (10% of the channel capacity 8/k, 20,000
# clocks at 4K and 2,000 at 1M from an empty network). Prints each pair and the median ratio.
#   bench/scale/ratio.sh [BUILD_DIR] [ROUNDS] [CPU]      e.g. bench/scale/ratio.sh build 5 1
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
rounds=${2:-5}
cpu=${3:-$(($(nproc) - 1))}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source bench/scale/torus.sh

# 10% of the channel capacity 8/k flits/node/clock.
torus_program 64 "$(python3 -c "print(8 / 64 * 0.1)")" 20000 > "$tmp/t64.ndl"
torus_program 1024 "$(python3 -c "print(8 / 1024 * 0.1)")" 2000 > "$tmp/t1024.ndl"
for k in 64 1024; do
  echo "ratio: building the ${k}x${k} torus" >&2
  "$build/ndlc" build "$tmp/t$k.ndl" -o "$tmp/t$k.sim"
done
rate() {  # rate K: M router-clocks/s of one run on the chosen CPU
  taskset -c "$cpu" "$tmp/t$1.sim" --quiet --json "$tmp/r.json" > /dev/null 2>&1 || true
  python3 -c "import json; r = json.load(open('$tmp/r.json')); \
print(f\"{r['router_clocks'] / r['wall_seconds'] / 1e6:.1f}\")"
}
printf '| round | 4K (M router-clocks/s) | 1M | 4K/1M |\n|---|---|---|---|\n'
ratios=()
for i in $(seq "$rounds"); do
  echo "ratio: round $i/$rounds (CPU $cpu)" >&2
  a=$(rate 64)
  b=$(rate 1024)
  r=$(python3 -c "print(f'{$a / $b:.2f}')")
  ratios+=("$r")
  printf '| %d | %s | %s | %s× |\n' "$i" "$a" "$b" "$r"
done
python3 -c "import statistics, sys; print(f'\nMedian 4K/1M ratio: {statistics.median(map(float, sys.argv[1:])):.2f}x (target: at most 2x)')" "${ratios[@]}"
