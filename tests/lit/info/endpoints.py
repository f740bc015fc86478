"""endpoints.py NDLC DIR: networks whose routers carry 0..p endpoints.

For each network `ndlc info --json` must give the router and endpoint counts, and the
diameter and mean distance between routers with endpoints, that an independent model built
here gives (its own wiring and BFS, not NDL's), together with the closed forms the topology
declares; the stdlib routing must trace minimal routes whose maximum is the diameter, and be
proved deadlock-free.
Prints one line per check; exits non-zero at the first failure.
"""
import collections
import pathlib
import sys
from fractions import Fraction

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import ndltest  # noqa: E402
from ndltest import check  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)


def info(name, topology, *forms):
    return ndltest.info(NDLC, OUT, name, f"(Topology {topology})\n" + "\n".join(forms) + "\n")


def distances(adj, terminals):
    """Diameter and mean distance over ordered pairs of distinct terminal routers."""
    total, pairs, diameter = 0, 0, 0
    for s in terminals:
        dist = {s: 0}
        queue = collections.deque([s])
        while queue:
            u = queue.popleft()
            for v in adj[u]:
                if v not in dist:
                    dist[v] = dist[u] + 1
                    queue.append(v)
        for t in terminals:
            if t != s:
                total += dist[t]
                pairs += 1
                diameter = max(diameter, dist[t])
    return diameter, Fraction(total, pairs)


def fat_tree(k, n):
    """k-ary n-tree: switches (level, w) with w of n-1 base-k digits; (w, l) and (w', l+1)
    are linked when they differ in digit l only. Leaves carry k endpoints each."""
    s = k ** (n - 1)
    adj = collections.defaultdict(set)
    for level in range(n - 1):
        for w in range(s):
            digit = (w // k ** level) % k
            for v in range(k):
                up = w + (v - digit) * k ** level
                adj[level * s + w].add((level + 1) * s + up)
                adj[(level + 1) * s + up].add(level * s + w)
    return adj, list(range(s)), n * s, k * s


def cmesh(kx, ky):
    adj = collections.defaultdict(set)
    for y in range(ky):
        for x in range(kx):
            v = x + kx * y
            if x + 1 < kx:
                adj[v].add(v + 1), adj[v + 1].add(v)
            if y + 1 < ky:
                adj[v].add(v + kx), adj[v + kx].add(v)
    return adj, list(range(kx * ky)), kx * ky


for k, n in [(2, 2), (2, 4), (4, 2), (4, 3), (3, 3)]:
    name = f"fattree_{k}_{n}"
    j = info(name, f"(FatTree {k} {n})")
    adj, leaves, routers, endpoints = fat_tree(k, n)
    d, avg = distances(adj, leaves)
    check(f"{name}: {routers} routers", j["routers"] == routers, str(j["routers"]))
    check(f"{name}: {endpoints} endpoints", j["endpoints"] == endpoints, str(j["endpoints"]))
    check(f"{name}: {routers - len(leaves)} switches", j["switches"] == routers - len(leaves))
    check(f"{name}: {k} endpoints per leaf",
          j["concentration_min"] == k and j["concentration_max"] == k)
    check(f"{name}: diameter {d} = 2(n-1)", j["diameter"] == d == 2 * (n - 1), str(j["diameter"]))
    check(f"{name}: mean distance {float(avg):.6g}", abs(j["avg_distance"] - float(avg)) < 1e-9,
          str(j["avg_distance"]))
    check(f"{name}: closed forms equal the BFS",
          j["closed_form_diameter"] == d and abs(j["closed_form_avg_distance"] - float(avg)) < 1e-9)
    check(f"{name}: up*/down* routes are minimal, at most {d} hops",
          j["routing"] == "FatTreeUpDown" and j["routing_minimal"] is True
          and j["routing_max_hops"] == d and abs(j["routing_avg_hops"] - float(avg)) < 1e-9)
    check(f"{name}: up*/down* is deadlock-free by the static check", j["deadlock_free"] is True,
          j.get("deadlock_note", ""))

for kx, ky, c in [(4, 4, 4), (3, 5, 2)]:
    name = f"cmesh_{kx}_{ky}_{c}"
    j = info(name, f"(CMesh {kx} {ky} {c})")
    adj, routers, count = cmesh(kx, ky)
    d, avg = distances(adj, routers)
    check(f"{name}: {count} routers, {count * c} endpoints",
          j["routers"] == count and j["endpoints"] == count * c and j["switches"] == 0)
    check(f"{name}: diameter {d}, mean distance {float(avg):.6g}",
          j["diameter"] == d and abs(j["avg_distance"] - float(avg)) < 1e-9)
    check(f"{name}: closed forms", j["closed_form_diameter"] == d
          and abs(j["closed_form_avg_distance"] - float(avg)) < 1e-9)
    check(f"{name}: dimension order minimal and deadlock-free",
          j["routing_minimal"] is True and j["routing_max_hops"] == d and j["deadlock_free"] is True)

def dragonfly(a, h):
    """Groups of a routers, fully connected; g = a h + 1 groups; group G's global link t
    (router t div h) reaches group (G + t + 1) mod g at its link a h - 1 - t."""
    g = a * h + 1
    adj = collections.defaultdict(set)
    for G in range(g):
        for i in range(a):
            for j in range(a):
                if i != j:
                    adj[G * a + i].add(G * a + j)
        for t in range(a * h):
            D = (G + t + 1) % g
            x, y = G * a + t // h, D * a + (a * h - 1 - t) // h
            adj[x].add(y), adj[y].add(x)
    return adj, g


for p, a, h in [(2, 4, 2), (1, 2, 1), (3, 6, 3)]:
    name = f"dragonfly_{p}_{a}_{h}"
    j = info(name, f"(Dragonfly {p} {a} {h})", "(VirtualChannels 2)")
    adj, g = dragonfly(a, h)
    routers = a * g
    d, avg = distances(adj, list(range(routers)))
    check(f"{name}: {routers} routers, {p * routers} endpoints, {g} groups",
          j["routers"] == routers and j["endpoints"] == p * routers)
    pairs = {(min(u // a, v // a), max(u // a, v // a)) for u in adj for v in adj[u]
             if u // a != v // a}
    check(f"{name}: every pair of groups joined once (model)",
          len(pairs) == g * (g - 1) // 2 and j["links"] == g * a * (a - 1) // 2 + len(pairs),
          str(j["links"]))
    check(f"{name}: diameter {d}, mean distance {float(avg):.6g} (BFS)",
          j["diameter"] == d and abs(j["avg_distance"] - float(avg)) < 1e-9)
    # Minimal routing: 1 hop in a group; else local (unless at the group's router holding the
    # link), global, local (unless it lands on the destination).
    hops = (a - 1) + (g - 1) * a + (g - 1 - h) * a + (g - 1) * (a - 1)
    mean = Fraction(hops, a * g - 1)
    check(f"{name}: minimal routing at most 3 hops, mean {float(mean):.6g}",
          j["routing_max_hops"] == 3 and abs(j["routing_avg_hops"] - float(mean)) < 1e-9,
          f'{j["routing_max_hops"]} {j["routing_avg_hops"]}')
    check(f"{name}: deadlock-free by its two VC classes", j["deadlock_free"] is True,
          j.get("deadlock_note", ""))


def hamming(k, n):
    """Flattened butterfly: routers are n-digit base-k numbers, joined when one digit differs."""
    adj = collections.defaultdict(set)
    for v in range(k ** n):
        for d in range(n):
            for x in range(k):
                u = v + (x - (v // k ** d) % k) * k ** d
                if u != v:
                    adj[v].add(u)
    return adj


for c, k, n in [(4, 4, 2), (1, 3, 3), (2, 5, 1)]:
    name = f"flatfly_{c}_{k}_{n}"
    j = info(name, f"(FlattenedButterfly {c} {k} {n})", "(VirtualChannels 2)")
    adj = hamming(k, n)
    d, avg = distances(adj, list(range(k ** n)))
    closed = Fraction(n * (k - 1) * k ** (n - 1), k ** n - 1)
    check(f"{name}: {k ** n} routers, {c * k ** n} endpoints, {n * (k - 1)} ports each",
          j["routers"] == k ** n and j["endpoints"] == c * k ** n
          and j["links"] == k ** n * n * (k - 1) // 2)
    check(f"{name}: diameter {d} = n, mean distance {float(avg):.6g} = n(k-1)k^(n-1)/(k^n-1)",
          d == n and avg == closed and j["diameter"] == d
          and abs(j["avg_distance"] - float(avg)) < 1e-9
          and j["closed_form_diameter"] == d
          and abs(j["closed_form_avg_distance"] - float(avg)) < 1e-9)
    # Its (Hops e) formula is compared with the traced routes (a warning if they differ).
    check(f"{name}: dimension order minimal, deadlock-free in one class",
          j["routing_traced_minimal"] is True and j["routing_traced_max_hops"] == d
          and j["routing_max_hops"] == d and j["deadlock_free"] is True)
    # Valiant: to a uniform random router, then on; a leg ends early where it reaches the
    # destination. Its mean is above minimal's, at most twice the diameter.
    v = info(name + "_valiant", f"(FlattenedButterfly {c} {k} {n})", "(VirtualChannels 2)",
             "(RoutingAlgorithm FlatFlyValiant)")
    check(f"{name}: Valiant deadlock-free in two classes, at most {2 * n} hops",
          v["deadlock_free"] is True and v["routing_max_hops"] <= 2 * n
          and v["routing_avg_hops"] > float(avg))


def butterfly(k, n):
    """k-ary n-fly, built stage by stage from the destination-tag rule: terminal t feeds
    switch t div k of stage 0; the switch of stage s reached from switch w by output p has
    w's digit n-2-s set to p; the last stage's switch w feeds terminals w k .. w k + k - 1."""
    t, s = k ** n, k ** (n - 1)
    adj = collections.defaultdict(set)
    for v in range(t):
        adj[v].add(t + v // k)
        adj[t + (n - 1) * s + v // k].add(v)
    for st in range(n - 1):
        e = k ** (n - 2 - st)
        for w in range(s):
            for p in range(k):
                adj[t + st * s + w].add(t + (st + 1) * s + w + (p - (w // e) % k) * e)
    return adj, t, s


for k, n in [(2, 3), (4, 3), (3, 2), (2, 1)]:
    name = f"butterfly_{k}_{n}"
    j = info(name, f"(Butterfly {k} {n})")
    adj, t, s = butterfly(k, n)
    d, avg = distances(adj, list(range(t)))
    check(f"{name}: {t} terminals, {n * s} switches",
          j["endpoints"] == t and j["switches"] == n * s and j["routers"] == t + n * s)
    check(f"{name}: every route n + 1 = {n + 1} hops (BFS over the model: {d}, {float(avg)})",
          d == n + 1 and avg == n + 1 and j["diameter"] == d and j["avg_distance"] == n + 1
          and j["closed_form_diameter"] == d)
    check(f"{name}: destination tag minimal, deadlock-free",
          j["routing_minimal"] is True and j["routing_max_hops"] == n + 1
          and j["deadlock_free"] is True)

# Today's networks: one endpoint per router, the figures over all routers as before.
j = info("torus", "(Torus 4 4)")
check("torus 4x4: 16 endpoints at 16 routers, no switch",
      j["routers"] == 16 and j["endpoints"] == 16 and j["switches"] == 0
      and j["concentration_min"] == j["concentration_max"] == 1)

# A custom network: switches in the middle of a line, endpoints at its ends only. Distances
# and routes count the routers with endpoints (0 and 4), not the switches between them.
j = info("line", "(Nodes 5) (Concentration 0) (Endpoints 0 2) (Endpoints 4 1) "
         "(for (i 0 to 3) (Link i (+ i 1) 0))", "(RoutingAlgorithm ShortestPath)")
check("line: 3 endpoints, 3 switches", j["endpoints"] == 3 and j["switches"] == 3)
check("line: diameter and mean distance 4 between its ends",
      j["diameter"] == 4 and j["avg_distance"] == 4.0)
check("line: routes of 4 hops", j["routing_traced_max_hops"] == 4
      and j["routing_traced_avg_hops"] == 4.0)
