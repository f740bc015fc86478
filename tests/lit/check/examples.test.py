"""Runs `ndlc check` on every examples/**/*.ndl; fails on any error or on a
warning other than deadlock-possible (INSIGHT's setups use one VC and drop
deadlocked packets on purpose, and the checker rightly says so).

Under sanitizers the four 4,096-node tori with dateline classes are left out: their
dependency analysis takes 50 to 60 s each normally and a quarter of an hour each there,
the same code the smaller examples run; the normal build checks them."""
import os
import pathlib
import re
import subprocess
import sys

ndlc, root = sys.argv[1], pathlib.Path(sys.argv[2])
files = sorted(root.rglob("*.ndl"))
# A file another example imports is a fragment (shared parameters), checked
# through the programs that import it.
imported = set()
for f in files:
    for name in re.findall(r'\(import\s+"([^"]+\.ndl)"\)', f.read_text()):
        imported.add((f.parent / name).resolve())
files = [f for f in files if f.resolve() not in imported]
SLOW = {"workloads/torus2d.ndl", "workloads/torus3d.ndl", "pipeline/seven-stage-16ary-3cube.ndl",
        "prediction/cube16-ad.ndl"}
if os.environ.get("NDL_SANITIZED") == "1":
    left = [f for f in files if f.relative_to(root).as_posix() in SLOW]
    files = [f for f in files if f not in left]
    print("not checked under sanitizers:", ", ".join(f.relative_to(root).as_posix() for f in left))
if not files:
    sys.exit(f"no examples under {root}")
# The workload networks name pde.cpf; the other applications are checked on them too (not
# on the two slow tori: the pattern check depends only on the node count and the largest
# message, the same there).
runs = [(f, []) for f in files]
for f in files:
    if f.parent.name == "workloads" and f.relative_to(root).as_posix() not in SLOW:
        runs += [(f, ["--set", f'CommunicationPatternFile="{f.parent / app}"'])
                 for app in ("sort.cpf", "matrix.cpf")]
failed = 0
for f, extra in runs:
    r = subprocess.run([ndlc, "check", str(f), *extra], capture_output=True, text=True)
    unexpected = [l for l in r.stderr.splitlines()
                  if (": error: " in l or ": warning: " in l) and "[deadlock-possible]" not in l]
    if r.returncode != 0 or unexpected:
        print(f"{f} {' '.join(extra)}: exit {r.returncode}\n{r.stderr}")
        failed += 1
print(f"{len(runs) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
