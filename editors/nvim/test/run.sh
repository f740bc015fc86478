#!/usr/bin/env bash
# Drives `ndlc lsp` from Debian's Neovim, headless, through lsp_session.lua: the expectations
# come from ndlc check's own output and from the stdlib file, not from the server.
#   NDLC=build/ndlc NVIM_BIN=nvim editors/nvim/test/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
ndlc="$(realpath "${NDLC:?set NDLC to the ndlc under test}")"
nvim="${NVIM_BIN:-nvim}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
program="$work/prog.ndl"
cat > "$program" <<'NDL'
;; a 4x4 mesh with a misspelled form
(Topology (Mesh 4 4))
(RoutingAlgorithm DimensionOrder)
(FlowControlMethd Wormhole)
(NetworkChannelWidth 32bit)
(NetworkFrequency 50MHz)
(NetworkPacketSize 256bit)
(MessageCreationRate 1%)
NDL
# Where ndlc check puts the error: prog.ndl:LINE:COL: error: unknown form ...
where="$("$ndlc" check "$program" 2>&1 | sed -n 's/^.*prog\.ndl:\([0-9]*\):\([0-9]*\): error: unknown form.*/\1 \2/p' | head -1 || true)"
[ -n "$where" ] || { echo "ndlc check did not report the unknown form"; exit 1; }
stdlib_file="$root/stdlib/routing.ndl"
stdlib_line="$(grep -n '^(define-routing (DimensionOrder)' "$stdlib_file" | cut -d: -f1)"
form_doc="$("$ndlc" check --list-forms | sed -n 's/^NetworkFrequency  *\(.*\) \[.*$/\1/p')"
[ -n "$form_doc" ] || { echo "ndlc check --list-forms has no NetworkFrequency"; exit 1; }
export FORM_DOC="$form_doc" NDLC="$ndlc" PROGRAM="$program" EXPECT_LINE="${where% *}" EXPECT_COL="${where#* }" \
       STDLIB_FILE="$stdlib_file" STDLIB_LINE="$stdlib_line"
# No user configuration: only the test's (--clean), the filetype from editors/vim.
out="$work/out"
set +e
timeout 120 "$nvim" --clean --headless -n \
  --cmd "set runtimepath^=$root/editors/vim" --cmd "filetype on" \
  -c "luafile $here/lsp_session.lua" > "$out" 2>&1
status=$?
set -e
cat "$out"
[ "$status" -eq 0 ] && grep -q "^ok: on line" "$out" && ! grep -q "^FAIL" "$out"
