#!/usr/bin/env bash
# Builds NDL and runs every test suite (lit, GoogleTest, editor grammars).
#   scripts/test.sh              normal build in build/
#   NDL_SANITIZE=1 scripts/test.sh   AddressSanitizer + UBSan build in build-asan/
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${NDL_SANITIZE:-0}" = 1 ]; then
  dir=build-asan
  # Optimized: the sanitizers still see every access, and the tests that
  # trace routes through the compile-time evaluator run in minutes, not tens.
  # No core profile: the training builds seven simulators with a sanitized ndlc, and the
  # profile only lays out the core's branches (results do not depend on it; the normal
  # build tests it).
  flags=(-DNDL_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNDL_PROFILE_CORE=OFF)
  # A 16 MB quarantine instead of 256 trades how long a use after free stays detectable
  # (within the last 16 MB freed) for speed: the LLVM passes behind every `ndlc build` free
  # far more than the front end does (an emit-llvm 3.3 -> 1.9 s; the sanitized lit suite
  # 12.9 -> 9.9 min on 2 cores).
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:quarantine_size_mb=16
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  dir=build
  flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
fi
cmake -S . -B "$dir" -G Ninja "${flags[@]}" >/dev/null
cmake --build "$dir" -j "$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j "$(nproc)"
