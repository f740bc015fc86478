#!/usr/bin/env bash
# Benchmark: `ndlc info` (elaboration of the stdlib Torus written in NDL,
# validation, distance metrics) on 4K, 64K and 1M-node tori. Prints wall
# time and peak RSS per size. Usage: bench/info/run.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '| network | nodes | wall | peak RSS | diameter |\n|---|---|---|---|---|\n'
for k in 64 256 1024; do
  f="$tmp/t$k.ndl"
  python3 tests/lit/info/net.py "(Torus $k $k)" > "$f"
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$build/ndlc" info --json "$f" > "$tmp/out.json" 2>/dev/null
  read -r wall rss < "$tmp/time"
  diameter=$(python3 -c "import json,sys; print(json.load(open('$tmp/out.json'))['diameter'])")
  printf '| Torus %s %s | %s | %s s | %s MB | %s |\n' "$k" "$k" $((k * k)) "$wall" $((rss / 1024)) "$diameter"
done
