"""pattern_options.py NDLC: every option of `ndlc pattern` against every kind. An option
applies to the kinds listed here (the generators read it there) and to no other: given
with another kind it would change nothing, so it is a usage error (exit 2) naming the
option and the kinds it applies to, with nothing written. An option `ndlc pattern --help`
lists that is not in this table fails the test: each new option must say where it applies.
"""
import re
import subprocess
import sys

ndlc = sys.argv[1]
KINDS = ["pde", "sort", "matrix", "pingpong", "barrier", "alltoall"]
# option: (a value valid for every kind it applies to at 16 nodes, the kinds it applies to
# as the error names them; None: every kind)
OPTIONS = {
    "--size": ("16byte", None),
    "--iterations": ("2", None),
    "--compute": ("1usec", "pde, matrix and sort"),
    "--grid": ("4,4", "pde"),
    "--from": ("1", "pingpong"),
    "--to": ("2", "pingpong"),
    "--algorithm": ("tree", "barrier"),
}
NOT_PER_KIND = {"-h", "--help", "--nodes", "-o"}

help_text = subprocess.run([ndlc, "pattern", "--help"], capture_output=True, text=True).stdout
listed = set()
for line in help_text.split("Options:", 1)[1].splitlines():
    m = re.match(r"^\s+(-[^\s]+)", line)
    if m:
        listed.update(m.group(1).split(","))
failed = []
unknown = sorted(listed - NOT_PER_KIND - set(OPTIONS))
if unknown:
    failed.append(f"options with no row here: {', '.join(unknown)}")
gone = sorted(set(OPTIONS) - listed)
if gone:
    failed.append(f"options no longer listed by --help: {', '.join(gone)}")

pairs = 0
for option, (value, applies) in OPTIONS.items():
    kinds = KINDS if applies is None else re.split(r", | and ", applies)
    for kind in KINDS:
        pairs += 1
        r = subprocess.run([ndlc, "pattern", kind, "--nodes", "16", option, value],
                           capture_output=True, text=True)
        if kind in kinds:
            if r.returncode != 0 or not r.stdout.startswith(f"; ndlc pattern {kind} "):
                failed.append(f"{kind} {option} {value}: exit {r.returncode}: {r.stderr.strip()}")
        else:
            want = (f"ndlc pattern: {option} does not apply to {kind}: it applies to {applies} "
                    f"only\n")
            if r.returncode != 2 or r.stderr != want or r.stdout:
                failed.append(f"{kind} {option} {value}: exit {r.returncode}, stderr "
                              f"{r.stderr!r}, {len(r.stdout)} bytes written; want exit 2, {want!r}")

for f in failed:
    print("FAIL:", f)
print(f"{pairs} option and kind pairs, {len(failed)} failures")
sys.exit(1 if failed else 0)
