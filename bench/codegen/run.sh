#!/usr/bin/env bash
# Benchmark of code generation: the compile time of `ndlc build` on the
# INSIGHT example, and the speed of the generated simulator against the
# unspecialized build of the same configuration (`ndlc build
# --unspecialized`: the same core bitcode and passes, compiled as its own
# object; the NDL routing compiled to read the network as data and called,
# not inlined, without memo tables). Usage: bench/codegen/run.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ndlc=$build/ndlc

echo "## ndlc build examples/insight/rdt-64x64.ndl (-O2), 3 runs"
for i in 1 2 3; do
  /usr/bin/time -f "%e s wall, %U s user, %M KB peak" "$ndlc" build examples/insight/rdt-64x64.ndl \
    -o "$tmp/rdt" 2>&1 | grep -E "wall" || true
done

run() {  # name program
  local name=$1 prog=$2
  "$ndlc" build "$prog" -o "$tmp/$name.fast" 2>/dev/null
  "$ndlc" build --unspecialized "$prog" -o "$tmp/$name.plain" 2>/dev/null
  for kind in fast plain; do
    for i in 1 2 3; do
      (cd "$tmp" && "./$name.$kind" --quiet --json "$name.$kind.$i.json" >/dev/null 2>&1) || true
    done
  done
  python3 - "$tmp" "$name" <<'PY'
import json, statistics, sys
tmp, name = sys.argv[1], sys.argv[2]
rate, first = {}, {}
for kind in ("fast", "plain"):
    rs = [json.load(open(f"{tmp}/{name}.{kind}.{i}.json")) for i in (1, 2, 3)]
    rate[kind] = statistics.median(r["router_clocks"] / r["wall_seconds"] for r in rs)
    first[kind] = rs[0]
if first["fast"]["messages"] != first["plain"]["messages"]:
    sys.exit(f"{name}: the two builds disagree on the results")
print(f"| {name} | {rate['fast'] / 1e6:.1f} M | {rate['plain'] / 1e6:.1f} M | {rate['fast'] / rate['plain']:.2f} |")
PY
}

cat > "$tmp/torus.ndl" <<'NDL'
(Topology (Torus 8 8))
(FlowControlMethod Wormhole)
(VirtualChannels 2)
(DeadlockHandling Avoid)
(NetworkChannelWidth 32bit)
(NetworkFrequency 1GHz)
(NetworkPacketSize 8flit)
(NodeBufferSize 8flit)
(MessageCreationRate 1.25%)
(MessageCreationMax 400000)
(MessageMaxCount 100000)
NDL
sed -e '/OutputFile/d' examples/insight/rdt-64x64.ndl > "$tmp/insight.ndl"
sed -e 's/(MessageCreationMax 10000)/(MessageCreationMax 200000)/' \
    -e 's/(MessageCreationInterval 2usec)/(MessageCreationInterval 10usec)/' \
    -e 's/(MessageCreationRate 1.0%)/(MessageCreationRate 0.2%)/' \
    -e '/OutputFile/d' examples/insight/rdt-64x64.ndl > "$tmp/rdt.ndl"

echo
echo "## generated vs unspecialized simulator (router-clocks per second of wall time, median of 3)"
echo "| configuration | generated | unspecialized | ratio |"
echo "|---|---|---|---|"
run "torus-8x8-DOR-0.1" "$tmp/torus.ndl"
run "rdt-64x64-vector" "$tmp/rdt.ndl"
run "insight-rdt-as-shipped" "$tmp/insight.ndl"
