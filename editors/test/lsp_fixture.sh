# Sourced by the editor clients' LSP sessions (editors/nvim/test/run.sh,
# editors/emacs/test/run.sh): writes a program with a misspelled form into $work and exports
# what the session checks against, taken from ndlc check's own output and from the stdlib file,
# not from the server: PROGRAM, EXPECT_LINE/EXPECT_COL (1-based), FORM_DOC (NetworkFrequency's
# line in ndlc check --list-forms), STDLIB_FILE and STDLIB_LINE (where DimensionOrder is
# defined), NDLC. Needs $ndlc, $root and $work set.
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
export FORM_DOC="$form_doc" NDLC="$ndlc" PROGRAM="$program" EXPECT_LINE="${where% *}" \
       EXPECT_COL="${where#* }" STDLIB_FILE="$stdlib_file" STDLIB_LINE="$stdlib_line"
