#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (build-fuzz/) and fuzzes each for
# NDL_FUZZ_SECONDS (default 30) from seed corpora: the repository's .ndl, .cpf and .trace files,
# tests/fuzz/seeds, and every earlier finding in tests/fuzz/regressions/TARGET (each runs
# first, so a finding that comes back fails at once). A dictionary of form names, enum
# values, units and keywords comes from the checker's tables. Exit 1 on any finding; its
# input is left in build-fuzz/findings/TARGET/.
#   scripts/fuzz.sh                       all targets
#   NDL_FUZZ_SECONDS=3600 scripts/fuzz.sh fuzz_pattern
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=build-fuzz
seconds=${NDL_FUZZ_SECONDS:-30}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_frontend fuzz_evaluator fuzz_pattern fuzz_trace fuzz_simulator_args)

CC=clang-16 CXX=clang++-16 cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DNDL_FUZZ=ON -DNDL_BUILD_TESTS=OFF >/dev/null
cmake --build "$dir" --target "${targets[@]}" -j "$(nproc)"

# The dictionary: every form, enum value and unit the checker knows, and the keywords.
dict=$dir/ndl.dict
{
  sed -n 's/^NDL_FORM(\([A-Za-z]*\),.*/"\1"/p' compiler/sema/Forms.def
  sed -n 's/^NDL_ENUM([A-Za-z]*, *\([A-Za-z0-9]*\),.*/"\1"/p' compiler/sema/Enums.def
  grep -o '{"[A-Za-z%/]*", Dimension' compiler/sema/Units.cpp | sed 's/{\("[^"]*"\).*/\1/'
  # The simulator's command line: its options and --param entries (runtime/sim/param_rules.h).
  sed -n 's/.*("\([A-Za-z]*\)", NDL_P_.*/"\1="/p' runtime/include/ndl/runtime/sim/param_rules.h
  printf '"%s"\n' --param --seed --json --quiet --help --set Seed= Bernoulli Periodic
  for k in define define-topology define-routing define-selection define-pattern let for when cond if else \
           sum to via union prefer port import Require Link Nodes Radices list nth length \
           '(' ')' '#|' '|#' ';' node repeat end send recv compute tag barrier alltoall \
           broadcast reduce nodes mask all mark wait as after; do
    printf '"%s"\n' "$k"
  done
} | sort -u > "$dict"

seed() {  # seed TARGET: the seed directory of a target
  local t=$1 s=$dir/seeds/$t
  rm -rf "$s" && mkdir -p "$s"
  case $t in
    fuzz_frontend)
      find stdlib examples grammar/examples tests/lit editors/vscode/test -name '*.ndl' |
        while read -r f; do cp "$f" "$s/$(echo "$f" | tr / _)"; done ;;
    fuzz_pattern)
      find examples tests -name '*.cpf' | while read -r f; do cp "$f" "$s/$(echo "$f" | tr / _)"; done ;;
    fuzz_trace)
      find examples tests -name '*.trace' | while read -r f; do cp "$f" "$s/$(echo "$f" | tr / _)"; done ;;
    *)
      cp tests/fuzz/seeds/${t#fuzz_}/* "$s/" ;;
  esac
  echo "$s"
}

status=0
for t in "${targets[@]}"; do
  corpus=$dir/corpus/$t findings=$dir/findings/$t regressions=tests/fuzz/regressions/${t#fuzz_}
  mkdir -p "$corpus" "$findings" "$regressions"
  seeds=$(seed "$t")
  echo "fuzz.sh: $t for $seconds s"
  # The simulator's command line answers most inputs with its usage text on stderr: closed
  # (libFuzzer and the sanitizers keep a copy of stderr for their reports), or the log of an
  # hour grows to gigabytes.
  mask=1
  [ "$t" = fuzz_simulator_args ] && mask=3
  # -timeout: an input that takes 60 s is a hang (the evaluator's own limit stops work
  # after a few seconds); -rss_limit_mb: the front end must not need gigabytes for a file.
  if ! "$dir/fuzz/$t" "$corpus" "$seeds" "$regressions" -dict="$dict" \
      -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 -max_len=65536 \
      -print_final_stats=1 -close_fd_mask="$mask" -artifact_prefix="$findings/" \
      > "$dir/$t.log" 2>&1; then
    echo "fuzz.sh: $t found a problem; its input is in $findings/:"
    grep -E "ERROR|SUMMARY|Test unit written" "$dir/$t.log" | head -5
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::new_units_added|stat::peak_rss_mb" "$dir/$t.log" |
    sed "s/^/fuzz.sh: $t /"
done
exit $status
