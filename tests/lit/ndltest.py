"""Helpers of the lit scripts that drive ndlc: a check prints one line and stops the script
at the first failure; `info` and `run` write a program, run `ndlc info --json` or
`ndlc run ... --json` on it, and return the JSON (a failure to run is a failed check).
A script imports it after putting tests/lit on its path."""
import json
import pathlib
import subprocess
import sys


def check(what, ok, detail=""):
    print(f"{'ok' if ok else 'FAILED'}: {what}{' (' + detail + ')' if detail else ''}")
    if not ok:
        sys.exit(1)


def info(ndlc, out, name, program):
    src = pathlib.Path(out) / f"{name}.ndl"
    src.write_text(program)
    p = subprocess.run([ndlc, "info", "--json", str(src)], capture_output=True, text=True)
    check(f"{name}: ndlc info runs", p.returncode == 0, p.stderr.strip() if p.returncode else "")
    return json.loads(p.stdout)


def run(ndlc, out, name, program, status="ok", sets=()):
    """Runs the program, with `ndlc run --set` for each of `sets`; a run that ends in another
    status than `status` fails the check (a run stopped by its SimulationTime ends in
    "time_limit" and exits non-zero)."""
    src = pathlib.Path(out) / f"{name}.ndl"
    src.write_text(program)
    js = pathlib.Path(out) / f"{name}.json"
    js.unlink(missing_ok=True)
    cmd = [ndlc, "run", str(src)]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd + ["--", "--json", str(js)], capture_output=True, text=True)
    r = json.loads(js.read_text()) if js.exists() else {}
    check(f"{name}: runs", (p.returncode == 0 or status != "ok") and r.get("status") == status,
          f"exit {p.returncode}, status {r.get('status')}: {p.stderr.strip()[-400:]}")
    return r
