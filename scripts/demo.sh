#!/usr/bin/env bash
# Sets up a fresh Debian machine, builds NDL and runs the main job on the
# shipped INSIGHT example: compile it into a specialized simulator and run it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# The ndlc target is the driver with the simulator runtime it links into simulators.
cmake --build build --target ndlc -j "$(nproc)"
example=examples/insight/rdt-64x64.ndl
out=build/demo
mkdir -p "$out"
echo "== ndlc info $example"
build/ndlc info "$example"
echo "== ndlc build $example -o $out/rdt"
build/ndlc build "$example" -o "$out/rdt"
echo "== $out/rdt --json $out/rdt.json"
(cd "$out" && ./rdt --json rdt.json)
echo "== results: $out/rdt.json (summary), $out/rdt.nodes.csv (per node), $out/rdt.4096.vct.dof, $out/rdt.4096.vct.sof"
