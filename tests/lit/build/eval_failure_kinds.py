"""eval_failure_kinds.py SIM WORKDIR: runs the simulator built from eval_failure_kinds.ndl
once per destination 1 to 14, each with a pattern of one message from node 0 to it and no
synthetic traffic. Destinations 1 to 12 and 14 reach refused values: every run must stop
with status routing_error, exit code 3, its results written (each run's own: the files of
an earlier run are removed first), and every message accounted for; destination 13 is
routed normally and delivered. Prints each run's failure line."""
import json
import os
import shutil
import subprocess
import sys

sim, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failed = False
for dest in range(1, 15):
    cpf, out = os.path.join(work, f"to{dest}.cpf"), os.path.join(work, f"to{dest}.json")
    with open(cpf, "w") as f:
        f.write(f"nodes 256\nnode 0\n  send {dest} 256bit\nnode {dest}\n  recv 0\n")
    p = subprocess.run([sim, "--quiet", "--json", out, "--param", "CreationRate=0",
                        "--param", f"PatternFile={cpf}"], capture_output=True, text=True)
    with open(out) as f:
        r = json.load(f)
    # in_flight is what the simulator holds, counted apart: the failed message and its packets.
    m, pk = r["messages"], r["packets"]
    held = 0 if dest == 13 else 1
    accounted = (m["created"] == m["delivered"] + m["dropped"] + m["refused"] + m["in_flight"]
                 and pk["created"] == pk["delivered"] + pk["dropped"] + pk["in_flight"]
                 and m["in_flight"] == held and pk["in_flight"] == held * pk["created"]
                 and r["conservation"]["holds"])
    expect = (0, "ok", 1) if dest == 13 else (3, "routing_error", 0)
    got = (p.returncode, r["status"], m["delivered"])
    if got != expect or r["exit_code"] != expect[0] or m["created"] != 1 or not accounted:
        print(f"FAIL to {dest}: exit, status, delivered {got} (expected {expect}), "
              f"messages {m}, packets {pk}\n{p.stderr}")
        failed = True
    lines = [l for l in p.stderr.splitlines() if l.startswith("ndl: routing failure")]
    print(f"to {dest}: {lines[0] if lines else r['status']}")
sys.exit(1 if failed else 0)
