#!/usr/bin/env bash
# Drives `ndlc lsp` from Debian's Emacs (eglot), in batch mode, through eglot_session.el, on
# the program and expectations of editors/test/lsp_fixture.sh. The configuration is the elisp
# block of docs/editors.md, extracted as written, with ndlc found on PATH as the snippet
# expects.
#   NDLC=build/ndlc EMACS_BIN=emacs editors/emacs/test/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
ndlc="$(realpath "${NDLC:?set NDLC to the ndlc under test}")"
emacs="${EMACS_BIN:-emacs}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
. "$root/editors/test/lsp_fixture.sh"
sed -n '/^```elisp$/,/^```$/{/^```/d;p}' "$root/docs/editors.md" > "$work/snippet.el"
[ -s "$work/snippet.el" ] || { echo "docs/editors.md has no elisp block"; exit 1; }
export SNIPPET="$work/snippet.el" PATH="$(dirname "$ndlc"):$PATH" HOME="$work"
out="$work/out"
set +e
# -q: no user init file, but the site files that put Debian's elpa-eglot on the load path.
timeout 120 "$emacs" --batch -q -l "$here/eglot_session.el" > "$out" 2>&1
status=$?
set -e
cat "$out"
[ "$status" -eq 0 ] && grep -q "^ok: on line" "$out" && ! grep -q "^FAIL" "$out"
