"""Starts four `ndlc run FILE -- --quiet` at once on an empty cache and
fails unless every one exits 0."""
import os
import subprocess
import sys

ndlc, cache, program = sys.argv[1:4]
env = dict(os.environ, NDL_CACHE_DIR=cache)
procs = [subprocess.Popen([ndlc, "run", program, "--", "--quiet"], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
         for _ in range(4)]
failed = 0
for p in procs:
    out, err = p.communicate(timeout=300)
    if p.returncode != 0:
        failed += 1
        print(f"exit {p.returncode}: {err[-2000:]}")
print(f"{4 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
