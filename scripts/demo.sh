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
# The ndl Python package (staged beside build/ndlc) on python3's path, for this user: a
# .pth file in the user site of the python3 on PATH and of Debian's /usr/bin/python3 (whose
# pandas the package uses; docs/python.md).
pkg="$(pwd)/build/share/ndl/python"
for py in python3 /usr/bin/python3; do
  command -v "$py" >/dev/null || continue
  site="$("$py" -m site --user-site)"
  mkdir -p "$site" && echo "$pkg" > "$site/ndl.pth"
done
echo "== python3: import ndl ($pkg; docs/python.md)"
python3 -c 'import ndl; print("ndl", ndl.__file__, "drives", ndl.find_ndlc())'
