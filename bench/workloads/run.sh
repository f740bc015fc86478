#!/usr/bin/env bash
# INSIGHT's three applications (examples/workloads: PDE, bitonic sort, Cannon's matrix
# multiply) on its four 4,096-node networks, closed-loop: completion time, compute and wait
# per node, drops, wall time. Prints a markdown table (docs/insight.md, "Applications").
#   bench/workloads/run.sh [OUT_DIR]          (default bench/workloads/out)
# NDLC=path/to/ndlc overrides the compiler (default build/ndlc).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
ndlc="${NDLC:-$root/build/ndlc}"
out="${1:-$root/bench/workloads/out}"
mkdir -p "$out"
ex="$root/examples/workloads"
echo "| network | application | status | completion (µs) | compute / node (µs) | wait / node (µs) | messages | dropped | wall (s) |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|"
for net in torus2d torus3d hypercube rdt; do
  for app in pde sort matrix; do
    json="$out/$net-$app.json"
    # Exit 3 (application_stuck) is a result here, not a failure of the script.
    "$ndlc" run "$ex/$net.ndl" --set "CommunicationPatternFile=\"$ex/$app.cpf\"" -- \
      --json "$json" --quiet 2>/dev/null || [ $? -eq 3 ]
    python3 - "$json" "$net" "$app" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
a = r["application"]
done = a["completion_time_ns"]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {r['status']} | "
      f"{done / 1000:.1f} | " if done is not None else
      f"| {sys.argv[2]} | {sys.argv[3]} | {r['status']} | - | ", end="")
print(f"{a['mean_compute_ns'] / 1000:.1f} | {a['mean_wait_ns'] / 1000:.1f} | "
      f"{a['messages_sent']} | {a['messages_dropped']} | {r['wall_seconds']:.1f} |")
PY
  done
done
