#!/usr/bin/env bash
# Drives `ndlc lsp` from Debian's Neovim, headless, through lsp_session.lua, on the program
# and expectations of editors/test/lsp_fixture.sh.
#   NDLC=build/ndlc NVIM_BIN=nvim editors/nvim/test/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
ndlc="$(realpath "${NDLC:?set NDLC to the ndlc under test}")"
nvim="${NVIM_BIN:-nvim}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
. "$root/editors/test/lsp_fixture.sh"
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
