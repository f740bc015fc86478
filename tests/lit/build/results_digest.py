"""results_digest.py NDLC WORKDIR MANIFEST [--update]: results must not change bit for bit
when the simulator's internals do (the network's storage, the routers' order in memory).

MANIFEST lists programs, a line each: `SHA256 DELIVERED PROGRAM [--set Name=Value ...]`,
PROGRAM relative to the repository's root. Each is built, run with its seed, and its JSON
(wall time aside) hashed; the hash and the delivered count must be the manifest's, which
were recorded before the change they guard. The per-node and per-pair tables, written
beside the JSON since the manifest was recorded, are hashed as the JSON held them then
(results_tables.with_tables): the same values, in the same places. --update rewrites the
manifest's figures (only for a change that is meant to change results, or adds keys to them;
say why in its commit). NDL_DIGEST_DROP=key,... leaves those keys of "config" and of the results out of the
hash: a change that adds keys shows, with them left out, that the rest is unchanged before
--update records them.
"""
import hashlib
import json
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_tables import with_tables  # noqa: E402

ndlc, work, manifest = sys.argv[1], sys.argv[2], sys.argv[3]
update = "--update" in sys.argv[4:]
root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.."))
os.makedirs(work, exist_ok=True)


def digest(program, sets, tag):
    sim, js = os.path.join(work, tag + ".sim"), os.path.join(work, tag + ".json")
    cmd = [ndlc, "build", os.path.join(root, program), "-o", sim]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True)
    code = subprocess.run([sim, "--quiet", "--json", js]).returncode
    with open(js) as f:
        r = with_tables(json.load(f), js)
    r.pop("wall_seconds", None)
    if os.environ.get("NDL_DIGEST_DROP"):  # keys added to the results since the manifest
        for k in os.environ["NDL_DIGEST_DROP"].split(","):
            r["config"].pop(k, None)
            r.pop(k, None)
    text = json.dumps(r, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest(), r["messages"]["delivered"], code


lines, failures = [], 0
with open(manifest) as f:
    for n, line in enumerate(f):
        if not line.strip() or line.startswith("#"):
            lines.append(line.rstrip("\n"))
            continue
        want_hash, want_delivered, program, *rest = shlex.split(line)
        sets = [rest[i + 1] for i in range(0, len(rest), 2) if rest[i] == "--set"]
        got_hash, delivered, code = digest(program, sets, f"p{n}")
        name = " ".join([program] + [shlex.quote(x) for x in rest])
        if update:
            lines.append(f"{got_hash} {delivered} {name}")
        elif (got_hash, str(delivered)) != (want_hash, want_delivered):
            failures += 1
            print(f"CHANGED {name}: delivered {delivered} (was {want_delivered}), "
                  f"json {got_hash[:16]} (was {want_hash[:16]}), exit {code}")
        else:
            print(f"same {name}: {delivered} delivered")
if update:
    with open(manifest, "w") as f:
        f.write("\n".join(lines) + "\n")
sys.exit(1 if failures else 0)
