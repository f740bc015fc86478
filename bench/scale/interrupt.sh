#!/usr/bin/env bash
# Benchmark: how long a million-node run takes to end after Ctrl-C, results written. The
# 1024x1024 torus of run.sh at 10% of the channel capacity, a far time limit, SIGINT after
# WAIT seconds of simulation; the time from the signal to the exit, and the files' sizes,
# for the default outputs (summary JSON; the per-node tables are left out above 4096 nodes)
# and with --tables (the nodes table too). Each case runs ROUNDS times.
#   bench/scale/interrupt.sh [BUILD_DIR] [ROUNDS] [WAIT]    e.g. bench/scale/interrupt.sh build 3 20
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
rounds=${2:-3}
wait_s=${3:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

source bench/scale/torus.sh

torus_program 1024 "$(python3 -c "print(8 / 1024 * 0.1)")" 100000000 > "$tmp/t1024.ndl"
echo "interrupt: building the 1024x1024 torus" >&2
"$build/ndlc" build "$tmp/t1024.ndl" -o "$tmp/t1024.sim"

# stop CASE ARGS...: one run stopped by SIGINT; prints a table row.
stop() {
  local name=$1
  shift
  rm -rf "$tmp/out" && mkdir -p "$tmp/out"
  "$tmp/t1024.sim" --quiet --json "$tmp/out/r.json" "$@" > /dev/null 2> "$tmp/err" &
  local pid=$!
  sleep "$wait_s"
  local t0
  t0=$(date +%s.%N)
  kill -INT "$pid"
  local code=0
  wait "$pid" || code=$?
  local t1
  t1=$(date +%s.%N)
  python3 - "$name" "$t0" "$t1" "$code" "$tmp/out" <<'PY'
import json, os, sys
name, code, out = sys.argv[1], sys.argv[4], sys.argv[5]
t0, t1 = float(sys.argv[2]), float(sys.argv[3])
r = json.load(open(os.path.join(out, "r.json")))
sizes = {f: os.path.getsize(os.path.join(out, f)) for f in sorted(os.listdir(out))}
files = ", ".join(f"{f} {s / 1e6:.3g} MB" if s >= 1e5 else f"{f} {s / 1e3:.3g} KB"
                  for f, s in sizes.items())
print(f"| {name} | {r['cycles']} | {r['status']} (exit {code}) | {t1 - t0:.2f} s | {files} |")
PY
}

printf '| outputs | clocks simulated | status | signal to exit | files |\n|---|---|---|---|---|\n'
for i in $(seq "$rounds"); do
  echo "interrupt: round $i/$rounds" >&2
  stop "summary (default)"
  stop "--tables" --tables "$tmp/out/"
done
