"""bisection.py NDLC DIR: the bisections topologies declare, `(Bisection e)`, against a brute
force over models built here: the fewest links crossing any split of the routers that puts
half the endpoints on each side (one more on one side when their count is odd; switches on
either side), every split of networks up to
16 routers enumerated. `ndlc info --json` must report the declared count, and the bandwidth
each way as links x channel width x network frequency.
Prints one line per check; exits non-zero at the first failure.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import ndltest  # noqa: E402
from ndltest import check  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)


def info(name, topology):
    return ndltest.info(NDLC, OUT, name,
                        f"(Topology {topology})\n(NetworkChannelWidth 32bit)\n"
                        "(NetworkFrequency 1GHz)\n(NetworkPacketSize 32bit)\n"
                        "(VirtualChannels 2)\n(MessageCreationRate 1%)\n")


def min_bisection(routers, links, endpoints):
    """links: (a, b) pairs, one per link (a multigraph); endpoints: per router."""
    total = sum(endpoints)
    best = None
    for mask in range(1 << (routers - 1)):  # router routers-1 always on side 0
        # Half the endpoints on each side (one side one more when their count is odd).
        if sum(endpoints[r] for r in range(routers) if (mask >> r) & 1) not in (total // 2, (total + 1) // 2):
            continue
        cut = sum(1 for a, b in links if ((mask >> a) & 1) != ((mask >> b) & 1))
        best = cut if best is None else min(best, cut)
    return best


def grid(radices, wrap):
    n = 1
    for k in radices:
        n *= k
    links = []
    for v in range(n):
        stride = 1
        for k in radices:
            x = (v // stride) % k
            if x + 1 < k:
                links.append((v, v + stride))
            elif wrap:
                links.append((v, v - x * stride))
            stride *= k
    return n, links


def hamming(k, n):
    links = []
    for v in range(k ** n):
        for d in range(n):
            x = (v // k ** d) % k
            for y in range(x + 1, k):
                links.append((v, v + (y - x) * k ** d))
    return k ** n, links


def fat_tree(k, n):
    s = k ** (n - 1)
    links = []
    for level in range(n - 1):
        for w in range(s):
            for x in range(k):
                w2 = w + (x - (w // k ** level) % k) * k ** level
                links.append((level * s + w, (level + 1) * s + w2))
    return n * s, links, [k] * s + [0] * ((n - 1) * s)


CASES = [
    ("ring_8", "(Ring 8)", lambda: (*grid([8], True), None)),
    ("ring_7", "(Ring 7)", lambda: (*grid([7], True), None)),
    ("torus_4_4", "(Torus 4 4)", lambda: (*grid([4, 4], True), None)),
    ("torus_4_3", "(Torus 4 3)", lambda: (*grid([4, 3], True), None)),
    ("torus_2_2_2", "(Torus 2 2 2)", lambda: (*grid([2, 2, 2], True), None)),
    ("torus_6_2", "(Torus 6 2)", lambda: (*grid([6, 2], True), None)),
    ("mesh_4_4", "(Mesh 4 4)", lambda: (*grid([4, 4], False), None)),
    ("mesh_4_3", "(Mesh 4 3)", lambda: (*grid([4, 3], False), None)),
    ("mesh_2_7", "(Mesh 2 7)", None),
    ("hypercube_4", "(Hypercube 4)", lambda: (*grid([2, 2, 2, 2], False), None)),
    ("cmesh_4_2_2", "(CMesh 4 2 2)", lambda: (*grid([4, 2], False), [2] * 8)),
    ("flatfly_1_4_2", "(FlattenedButterfly 1 4 2)", lambda: (*hamming(4, 2), None)),
    ("flatfly_3_2_3", "(FlattenedButterfly 3 2 3)", lambda: (*hamming(2, 3), [3] * 8)),
    ("fattree_2_3", "(FatTree 2 3)", lambda: fat_tree(2, 3)),
    ("fattree_4_2", "(FatTree 4 2)", lambda: fat_tree(4, 2)),
]

for name, topology, model in CASES:
    j = info(name, topology)
    if model is None:
        # An odd largest radix of a mesh or torus: no closed form is declared.
        check(f"{name}: no bisection declared (its largest radix is odd)",
              "bisection_links" not in j)
        continue
    routers, links, endpoints = model()
    endpoints = endpoints or [1] * routers
    best = min_bisection(routers, links, endpoints)
    check(f"{name}: model has {routers} routers, {len(links)} links",
          j["routers"] == routers and j["links"] == len(links))
    check(f"{name}: declared bisection {j.get('bisection_links')} = brute force {best}",
          j.get("bisection_links") == best)
    check(f"{name}: bandwidth each way {best} x 32 bit x 1 GHz",
          j["bisection_bits_per_second"] == best * 32 * 1e9)
