"""Runs `ndlc check --werror` on every examples/**/*.ndl; fails on any output."""
import pathlib
import subprocess
import sys

ndlc, root = sys.argv[1], pathlib.Path(sys.argv[2])
files = sorted(root.rglob("*.ndl"))
if not files:
    sys.exit(f"no examples under {root}")
failed = 0
for f in files:
    r = subprocess.run([ndlc, "check", "--werror", str(f)], capture_output=True, text=True)
    if r.returncode != 0 or r.stderr:
        print(f"{f}: exit {r.returncode}\n{r.stderr}")
        failed += 1
print(f"{len(files) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
