"""pattern_map.py NDLC DIR: each synthetic pattern's destination map, as the simulator draws it,
against the definitions written out here independently (docs/language.md, TrafficPattern;
BookSim2's traffic.cpp for the patterns it names). Every pair of nodes is a ReportPairs pair,
so the pairs table counts the messages of each (source, destination); a run of a few thousand
messages must use exactly the pairs the definition allows (all of them for a deterministic
pattern, whose every source that does not map onto itself sends), and none other.

Networks: a 4x4 mesh and torus (node = x + 4y), an 8-node ring, a 16-node hypercube; BadDragon
on a dragonfly of 9 groups of 8 endpoints; HotSpot's shares on the mesh.
"""
import csv
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import ndltest  # noqa: E402
from ndltest import check  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)


def coords(n, radices):
    c = []
    for k in radices:
        c.append(n % k)
        n //= k
    return c


def node(c, radices):
    n, stride = 0, 1
    for x, k in zip(c, radices):
        n += x * stride
        stride *= k
    return n


def bits(n):
    return max(1, (n - 1).bit_length())


# The destinations each definition allows from source s among n nodes (a set; s itself is
# dropped afterwards: a message to itself is not created).
def allowed(pattern, s, n, radices):
    b = bits(n)
    if pattern in ("Uniform", "AllToAll"):
        return set(range(n))
    if pattern == "BitComplement":
        return {~s & (n - 1)}
    if pattern == "BitReversal":
        return {int(format(s, f"0{b}b")[::-1], 2)}
    if pattern == "Shuffle":
        return {((s << 1) | (s >> (b - 1))) & (n - 1)}
    if pattern == "Transpose":
        if len(radices) == 2 and radices[0] == radices[1]:
            x, y = coords(s, radices)
            return {node([y, x], radices)}
        h = b // 2
        return {((s & ((1 << h) - 1)) << (b - h)) | (s >> h)}
    if pattern == "Tornado":  # BookSim2: c + ceil(k/2) - 1 in each dimension
        return {node([(x + (k + 1) // 2 - 1) % k for x, k in zip(coords(s, radices), radices)],
                     radices)}
    if pattern == "Neighbor":
        return {node([(x + 1) % k for x, k in zip(coords(s, radices), radices)], radices)}
    if pattern == "Diagonal":  # BookSim2: s + 1 one time in three, else s itself
        return {(s + 1) % n, s}
    if pattern == "Asymmetric":  # BookSim2: s mod n/2, plus n/2 or not
        return {s % (n // 2), s % (n // 2) + n // 2}
    raise ValueError(pattern)


DETERMINISTIC = {"BitComplement", "BitReversal", "Shuffle", "Transpose", "Tornado", "Neighbor"}
NETWORKS = {
    "mesh": ("(Mesh 4 4)", [4, 4]),
    "torus": ("(Torus 4 4)", [4, 4]),
    "ring": ("(Ring 8)", [8]),
    "hypercube": ("(Hypercube 4)", [2, 2, 2, 2]),
}


def observed(name, topology, n, pattern, seed=1, messages=3000):
    pairs = " ".join(f"({a} {b})" for a in range(n) for b in range(n) if a != b)
    # One program per network, the pattern and seed set: `ndlc run` builds it once.
    program = (f"(Topology {topology})\n(NetworkChannelWidth 32bit)\n(NetworkFrequency 100MHz)\n"
               "(NetworkPacketSize 128bit)\n(VirtualChannels 2)\n(MessageCreationRate 2%)\n"
               f"(MessageCreationMax {messages})\n(ReportPairs {pairs})\n")
    r = ndltest.run(NDLC, OUT, name, program,
                    sets=[f"TrafficPattern={pattern}", f"Seed={seed}"])
    counts = {}
    with open(OUT / f"{name}.pairs.csv") as f:
        for row in csv.DictReader(f):
            c = int(row["latency_cycles.message.count"])
            if c:
                counts[(int(row["src"]), int(row["dst"]))] = c
    return r, counts


for net, (topology, radices) in NETWORKS.items():
    n = 1
    for k in radices:
        n *= k
    for pattern in ("Uniform", "AllToAll", "BitComplement", "BitReversal", "Shuffle",
                    "Transpose", "Tornado", "Neighbor", "Diagonal", "Asymmetric"):
        if pattern == "Tornado" and net == "hypercube":
            continue  # half way round a ring of 2 is the node itself: refused by the checker
        r, counts = observed(f"{net}-{pattern}", topology, n, pattern)
        want = {(s, d) for s in range(n) for d in allowed(pattern, s, n, radices) if d != s}
        got = set(counts)
        stray = sorted(got - want)[:4]
        check(f"{net} {pattern}: every message goes where the definition allows", not stray,
              str(stray))
        if pattern in DETERMINISTIC or pattern in ("Uniform", "AllToAll", "Asymmetric"):
            missing = sorted(want - got)[:4]
            check(f"{net} {pattern}: every allowed pair is used", not missing,
                  str(missing))
        if pattern == "Diagonal":
            check(f"{net} Diagonal: every source sends to the next node only",
                  got == {(s, (s + 1) % n) for s in range(n)}, str(sorted(got)[:4]))

# HotSpot 50% (Nodes 5 10) on the 4x4 mesh: a creation picks a hot node, each alike, with
# probability R; else, or when the hot node picked is the source, a uniform node other than
# the source. So from a source that is not hot, hot node h gets R/2 + (1 - R)/15 of its
# messages and every other node (1 - R)/15; from hot node 5, node 10 gets
# R/2 + (1 - R/2)/15. Bounds: four standard deviations of the binomial share.
R, HOT, N = 0.5, (5, 10), 16
r, counts = observed("mesh-HotSpot", "(Mesh 4 4)", N, "(HotSpot 50% (Nodes 5 10))",
                     messages=20000)
check("mesh HotSpot: no message to its own source", all(s != d for s, d in counts))
check("mesh HotSpot: every pair used", len(counts) == N * (N - 1), str(len(counts)))


def share_check(what, sources, dests, p):
    sent = sum(c for (s, _), c in counts.items() if s in sources)
    hit = sum(c for (s, d), c in counts.items() if s in sources and d in dests)
    sd = (p * (1 - p) / sent) ** 0.5
    check(f"mesh HotSpot: {what}", abs(hit / sent - p) <= 4 * sd,
          f"{hit} of {sent} = {hit / sent:.4f}, want {p:.4f} +- {4 * sd:.4f}")


cold = set(range(N)) - set(HOT)
for h in HOT:
    share_check(f"hot node {h}'s share from the other sources", cold, {h}, R / 2 + (1 - R) / 15)
share_check("a cold node's share from the other sources", cold - {0}, {0}, (1 - R) / 15)
share_check("hot node 10's share from hot node 5", {5}, {10}, R / 2 + (1 - R / 2) / 15)

# RandomPermutation: a permutation (each source one destination, no destination twice),
# fixed by the seed, another under another seed.
maps = []
for seed in (1, 2, 1):
    r, counts = observed(f"perm-{seed}-{len(maps)}", "(Mesh 4 4)", 16, "RandomPermutation", seed)
    m = {}
    for (s, d) in counts:
        m.setdefault(s, set()).add(d)
    check(f"RandomPermutation seed {seed}: one destination per source",
          all(len(v) == 1 for v in m.values()), str(m))
    dests = [next(iter(v)) for v in m.values()]
    check(f"RandomPermutation seed {seed}: no destination twice", len(dests) == len(set(dests)),
          str(sorted(dests)))
    maps.append({s: next(iter(v)) for s, v in m.items()})
check("RandomPermutation: the same seed, the same map", maps[0] == maps[2])
check("RandomPermutation: another seed, another map", maps[0] != maps[1])

# BadDragon (BookSim2's bad_dragon) on the stdlib's Dragonfly p=2 a=4 h=2: 9 groups of 4
# routers, groups of a p = 8 endpoints; a source in group G sends to an endpoint of group
# G + 1 (mod 9), uniformly: every message there, and with 20,000 messages (about 35 per pair)
# every one of its 8 endpoints used.
G, GROUPS = 8, 9
N = G * GROUPS
pairs = " ".join(f"({a} {b})" for a in range(N) for b in range(N) if a != b)
r = ndltest.run(NDLC, OUT, "dragonfly-BadDragon",
                "(Topology (Dragonfly 2 4 2))\n(NetworkChannelWidth 32bit)\n"
                "(NetworkFrequency 100MHz)\n(NetworkPacketSize 128bit)\n(VirtualChannels 2)\n"
                "(MessageCreationRate 2%)\n(MessageCreationMax 20000)\n(TrafficPattern BadDragon)\n"
                f"(ReportPairs {pairs})\n")
got = set()
with open(OUT / "dragonfly-BadDragon.pairs.csv") as f:
    for row in csv.DictReader(f):
        if int(row["latency_cycles.message.count"]):
            got.add((int(row["src"]), int(row["dst"])))
want = {(s, d) for s in range(N) for d in range(N) if d // G == (s // G + 1) % GROUPS}
check("dragonfly BadDragon: every message goes to the next group", got <= want,
      str(sorted(got - want)[:4]))
check("dragonfly BadDragon: every endpoint of the next group is used", want <= got,
      str(sorted(want - got)[:4]))
