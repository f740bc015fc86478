"""same_routes.py NDLC FILE...: each FILE (routing ViaNeighbors) built by
ndlc and the same program with the runtime's C++ DimensionOrder built
--unspecialized give the same messages, hops and latencies."""
import json
import os
import subprocess
import sys

ndlc, files = sys.argv[1], sys.argv[2:]
for path in files:
    dor = path + ".dor.ndl"
    with open(path) as f, open(dor, "w") as g:
        g.write(f.read().replace("(RoutingAlgorithm ViaNeighbors)", "(RoutingAlgorithm DimensionOrder)"))
    results = []
    for src, extra in ((path, []), (dor, ["--unspecialized"])):
        sim, out = src + ".sim", src + ".json"
        subprocess.run([ndlc, "build", *extra, src, "-o", sim], check=True)
        subprocess.run([sim, "--quiet", "--seed", "5", "--json", out], check=True)
        with open(out) as f:
            results.append(json.load(f))
    a, b = results
    for key in ("messages", "hops", "latency_cycles", "by_distance", "flit_hops", "cycles"):
        if a[key] != b[key]:
            sys.exit(f"{os.path.basename(path)}: {key} differs: {a[key]} vs {b[key]}")
    if a["messages"]["delivered"] != 3000:
        sys.exit(f"{os.path.basename(path)}: {a['messages']['delivered']} delivered, not 3000")
    print(f"{os.path.basename(path)}: same routes as DimensionOrder")
