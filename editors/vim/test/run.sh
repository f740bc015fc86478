#!/usr/bin/env bash
# Headless tests of the Vim syntax (editors/vim):
#  1. every assertion of editors/vscode/test/*.test.ndl, mapped to Vim groups;
#  2. every shipped program (examples/**/*.ndl, stdlib/**/*.ndl and the spec's
#     INSIGHT program): known form heads are ndlForm, nothing is an error;
#  3. the checker itself fails on a wrong expectation.
# Exit status 0 only when all pass.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
vim=${VIM_BIN:-vim}
python=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run MODE FILELIST: runs check.vim, prints its report, returns its status.
run() {
  local status
  NDL_MODE=$1 NDL_FILES=$2 NDL_OUT="$tmp/out" \
  NDL_FORMS="$tmp/forms" NDL_KEYWORDS="$tmp/keywords" NDL_DEFINITIONS="$tmp/definitions" \
    "$vim" -Nu NONE -i NONE -es \
      --cmd "set rtp^=$root/editors/vim" -c 'filetype on' -c 'syntax on' \
      -S "$here/check.vim" </dev/null >/dev/null 2>&1
  status=$?
  if [ -s "$tmp/out" ]; then cat "$tmp/out"; else echo "vim produced no report (status $status)"; status=1; fi
  rm -f "$tmp/out"
  return $status
}

for cat in forms keywords definitions; do
  "$python" "$root/editors/sync_names.py" --list "$cat" >"$tmp/$cat" || exit 1
done

fail=0
ls "$root"/editors/vscode/test/*.test.ndl >"$tmp/assert"
run assert "$tmp/assert" || fail=1

{
  find "$root/examples" "$root/stdlib" -name '*.ndl' -type f 2>/dev/null | sort
  echo "$root/editors/vscode/test/insight-figure1.ndl"
} >"$tmp/examples"
run examples "$tmp/examples" || fail=1

# The checks must be able to fail: a wrong expectation, and an unknown head
# highlighted as a form once the list of forms says it is one.
cat >"$tmp/wrong.test.ndl" <<'NDL'
; SYNTAX TEST "source.ndl" "deliberately wrong"
(Seed 50MHz)
;^^^^ support.constant.enum.ndl
NDL
echo "$tmp/wrong.test.ndl" >"$tmp/wrong"
if run assert "$tmp/wrong" >/dev/null; then
  echo "FAIL: check.vim accepted a wrong assertion"; fail=1
fi
printf '(NotAForm 1)\n' >"$tmp/bogus.ndl"
echo "$tmp/bogus.ndl" >"$tmp/bogus"
echo NotAForm >>"$tmp/forms"
if run examples "$tmp/bogus" >/dev/null; then
  echo "FAIL: check.vim accepted a form head that the syntax does not know"; fail=1
fi

[ $fail = 0 ] && echo "vim syntax tests: OK" || echo "vim syntax tests: FAILED"
exit $fail
