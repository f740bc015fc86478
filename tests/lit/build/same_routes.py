"""same_routes.py NDLC FILE...: each FILE (routing ViaNeighbors) built by
ndlc (network builtins folded to constants, shifts and masks) and built
--unspecialized (the network read as data, floor division) gives the same
messages, hops and latencies."""
import json
import os
import subprocess
import sys

ndlc, files = sys.argv[1], sys.argv[2:]
for path in files:
    results = []
    for extra, tag in (([], "fast"), (["--unspecialized"], "plain")):
        sim, out = f"{path}.{tag}.sim", f"{path}.{tag}.json"
        subprocess.run([ndlc, "build", *extra, path, "-o", sim], check=True)
        subprocess.run([sim, "--quiet", "--seed", "5", "--json", out], check=True)
        with open(out) as f:
            results.append(json.load(f))
    a, b = results
    for key in ("messages", "hops", "latency_cycles", "by_distance", "flit_hops", "cycles"):
        if a[key] != b[key]:
            sys.exit(f"{os.path.basename(path)}: {key} differs: {a[key]} vs {b[key]}")
    if a["messages"]["delivered"] != 3000:
        sys.exit(f"{os.path.basename(path)}: {a['messages']['delivered']} delivered, not 3000")
    print(f"{os.path.basename(path)}: same results specialized and unspecialized")
