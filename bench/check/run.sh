#!/usr/bin/env bash
# Benchmark: `ndlc check` on a generated 1 MB program. Prints the median
# wall time of 5 runs and the peak memory. Usage: bench/check/run.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 bench/check/gen_large.py "$tmp/large.ndl" $((1 << 20))
bytes=$(stat -c %s "$tmp/large.ndl")
"$build/ndlc" check "$tmp/large.ndl"  # must be clean
python3 - "$build/ndlc" "$tmp/large.ndl" "$bytes" <<'PY'
import resource, statistics, subprocess, sys, time
ndlc, path, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
times, cpu = [], []
for _ in range(5):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([ndlc, "check", path], check=True)
    times.append(time.perf_counter() - t)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"ndlc check: {size / 1e6:.2f} MB in {statistics.median(times) * 1000:.0f} ms wall, "
      f"{statistics.median(cpu) * 1000:.0f} ms CPU (medians of 5), peak RSS {peak:.0f} MB")
PY
