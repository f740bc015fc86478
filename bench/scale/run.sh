#!/usr/bin/env bash
# Benchmark: tori of 4K, 64K, 256K and 1M nodes (dimension order with dateline classes,
# 2 VCs, wormhole, 8-flit packets, uniform traffic): `ndlc build` time and peak memory, the
# simulator's size, and for a light load (10% of the channel capacity 8/k flits/node/clock)
# and half of saturation (35%: this network saturates near 70% of it) the router-clocks per
# second and the peak memory per node. Each run simulates CLOCKS[k] clocks from an empty
# network with no warm-up: the rate is of the whole run, cold start included (the fill takes
# about a mean distance of k/2 hops).
#   bench/scale/run.sh [BUILD_DIR] [SIZES...]      e.g. bench/scale/run.sh build 64 256
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(64 256 512 1024)
declare -A clocks=([64]=20000 [256]=5000 [512]=3000 [1024]=2000)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source bench/scale/torus.sh

printf '| nodes | build | build peak | simulator | load | clocks | router-clocks/s | peak RSS | per node |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for k in "${sizes[@]}"; do
  n=$((k * k))
  capacity=$(python3 -c "print(8 / $k)")
  torus_program "$k" "$(python3 -c "print($capacity * 0.1)")" "${clocks[$k]:-2000}" > "$tmp/t$k.ndl"
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$build/ndlc" build "$tmp/t$k.ndl" -o "$tmp/t$k.sim"
  read -r bwall brss < "$tmp/time"
  size=$(stat -c %s "$tmp/t$k.sim")
  for share in 0.1 0.35; do
    load=$(python3 -c "print($capacity * $share)")
    # The same code for every load: --param changes the rate of the one build.
    rate=$(python3 -c "print($load / 8)")
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$tmp/t$k.sim" --quiet --json "$tmp/r.json" \
      --param "CreationRate=$rate" > /dev/null || true
    rss=$(tail -1 "$tmp/time" | cut -d" " -f2)
    python3 - "$tmp/r.json" "$n" "$k" "$bwall" "$brss" "$size" "$share" "$rss" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
n, k, bwall, brss, size, share, rss = sys.argv[2:]
n = int(n)
rc = r["router_clocks"] / r["wall_seconds"]
print(f"| {n:,} | {float(bwall):.2f} s | {int(brss) // 1024} MB | {int(size) / 1e6:.1f} MB "
      f"| {float(share) * 100:.0f}% of 8/{k} | {r['cycles']:,} | {rc / 1e6:.1f} M "
      f"| {int(rss) // 1024} MB | {int(rss) * 1024 / n:.0f} B |")
PY
  done
done
