#!/usr/bin/env python3
"""Checks the deadlock report of a simulator's JSON results and prints what
it found for FileCheck:  deadlock_json.py detect|drop RESULTS.json KX KY

The cycle must be a real one of a torus KX x KY under dimension order: its
network channels ("n3:x+ vc0", named by the sending node) leave consecutive
nodes of one ring, all in one direction, and go all the way round."""
import json
import re
import sys

mode, path, kx, ky = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
r = json.load(open(path))
status = r["status"]
if mode == "detect":
    print(f"status {status}, exit code {r['exit_code']}")
    assert status == "deadlock", r["status_message"]
    assert r["deadlock"]["clock"] == r["cycles"] - 1, "stopped at the clock it was found"
    assert r["deadlock"]["found"] == 1
else:
    print(f"status {status}")
    assert r["deadlock"] is not None, "no deadlock was found under load"
    print(f"cycles found and broken: {r['deadlock']['found']}, "
          f"packets dropped: {r['packets']['dropped']}")
    assert r["messages"]["delivered"] > 0

cycle = r["deadlock"]["cycle"]


def ends(node, port):
    """The node a channel leaves from `node` through `port` arrives at."""
    x, y = node % kx, node // kx
    step = 1 if port[1] == "+" else -1
    if port[0] == "x":
        return (x + step) % kx + y * kx
    return x + ((y + step) % ky) * kx


chans = []
for name in cycle:
    m = re.fullmatch(r"n(\d+):(pe|[xy][+-]) vc(\d+)", name)
    assert m, f"bad channel name {name!r}"
    node, port = int(m.group(1)), m.group(2)
    chans.append((node, port, node if port == "pe" else ends(node, port)))
# Each VC waits for the next: an output VC of the router it is in, held by the VC
# there that owns it (both at the same router), or the full VC that output feeds.
for (a, pa, at), (b, pb, bt) in zip(chans, chans[1:] + chans[:1]):
    assert pb != "pe" and (bt == at or b == at), f"{a}:{pa} cannot wait for {b}:{pb}: {cycle}"
# The VCs waited for downstream go round one ring of the torus, in one direction.
ring = [(b, pb) for (a, pa, at), (b, pb, bt) in zip(chans, chans[1:] + chans[:1]) if b == at]
dims = {pa for _, pa in ring}
assert len(dims) == 1, f"the cycle changes dimension or direction: {cycle}"
port = dims.pop()
for (a, _), (b, _) in zip(ring, ring[1:] + ring[:1]):
    assert b == ends(a, port), f"{a} -> {b} is not one hop {port}: {cycle}"
k = kx if port[0] == "x" else ky
assert len(ring) == k, f"the cycle does not go round: {cycle}"
print(f"a ring of {len(ring)} channels along one dimension and direction")
# in_flight is what the simulator holds, counted apart from the other counts.
m, p = r["messages"], r["packets"]
assert m["created"] == m["delivered"] + m["dropped"] + m["refused"] + m["in_flight"], m
assert p["created"] == p["delivered"] + p["dropped"] + p["in_flight"], p
# A message is held until each of its packets is delivered or dropped: at least one is held.
assert p["in_flight"] >= m["in_flight"], (m, p)
if mode == "detect":
    assert m["in_flight"] > 0, m
assert r["conservation"]["holds"]
print("conservation holds")
