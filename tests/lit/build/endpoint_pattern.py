"""endpoint_pattern.py NDLC DIR: destination patterns written over endpoints,
(define-pattern (Name (s Endpoint)) ...) (docs/language.md, "Patterns written in NDL"), on
networks whose routers have several endpoints or none, against maps written out here.
- On a 4 x 4 CMesh with 4 endpoints per router (endpoint e at router e div 4, index e mod 4),
  "the endpoint of the same index at the router one step east, wrapping" is a permutation:
  every message of source s arrives at its image (the pairs table over the 64 image pairs
  holds every delivered message, and each source's messages all reach its image), and the
  mean hops is the map's own (3 of 4 columns one hop, the last column three back).
- On a fat tree (FatTree 4 2: 4 leaves of 4 endpoints, 4 switches with none),
  (random-endpoint) reaches every one of the 16 endpoints about equally often (each within
  30% of the mean) and never a switch (the endpoint table has 16 rows, their receptions add
  up to the delivered messages).
- On a mesh with one endpoint per router, a pattern over endpoints and the same map written
  over nodes give the same results byte for byte (the pattern's name apart): the endpoint
  builtins fold to the identity there.
- At run time a destination outside the endpoints (past the checker's enumeration) ends the
  run as pattern_error naming the endpoint."""
import csv
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import ndltest  # noqa: E402
from ndltest import check  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)
COMMON = ("(FlowControlMethod VirtualCutThrough)\n(NetworkChannelWidth 32bit)\n"
          "(NetworkFrequency 1GHz)\n(NetworkPacketSize 128bit)\n(NodeBufferSize 8flit)\n"
          "(MessageLength 16byte)\n(Measurement Burst)\n")


def table(name, kind):
    with open(OUT / f"{name}.{kind}.csv") as f:
        return list(csv.DictReader(f))


# CMesh 4 x 4, 4 endpoints a router.
KX, C = 4, 4
E = KX * KX * C


def east_twin(e):
    r, i = divmod(e, C)
    x, y = r % KX, r // KX
    return ((x + 1) % KX + KX * y) * C + i


image = {s: east_twin(s) for s in range(E)}
check("the CMesh map written out is a permutation", sorted(image.values()) == list(range(E)))
pairs = " ".join(f"({s} {d})" for s, d in image.items())
program = ("(Topology (CMesh 4 4 4))\n" + COMMON +
           "(define-pattern (EastTwin (s Endpoint))\n"
           "  (router-endpoint (neighbor (endpoint-router s) 0 1) (endpoint-index s)))\n"
           "(TrafficPattern EastTwin)\n(OfferedLoad 5%)\n(MessageCreationMax 6000)\n"
           f"(ReportPairs {pairs})\n")
r = ndltest.run(NDLC, OUT, "cmesh", program)
delivered = r["messages"]["delivered"]
got = {(int(p["src"]), int(p["dst"])): int(p["latency_cycles.message.count"])
       for p in table("cmesh", "pairs")}
sent = {int(n["node"]): int(n["sent"]) for n in table("cmesh", "nodes")}
check("cmesh: every delivered message went to its source's image",
      delivered == 6000 and sum(got.values()) == delivered, f"{sum(got.values())} of {delivered}")
check("cmesh: each source's messages all reach its image",
      len(sent) == E and all(got[(s, image[s])] == sent[s] and sent[s] > 0 for s in range(E)),
      str([(s, got.get((s, image[s])), sent.get(s)) for s in range(E)
           if got.get((s, image[s])) != sent.get(s)][:4]))
check("cmesh: mean hops is the map's (3/4 of one hop, 1/4 of three)",
      abs(r["hops"]["mean"] - 1.5) <= 0.05, str(r["hops"]["mean"]))

# A fat tree: endpoints on the leaves only.
program = ("(Topology (FatTree 4 2))\n" + COMMON +
           "(define-pattern (AnyEndpoint (s Endpoint)) (random-endpoint))\n"
           "(TrafficPattern AnyEndpoint)\n(OfferedLoad 5%)\n(MessageCreationMax 8000)\n")
r = ndltest.run(NDLC, OUT, "fattree", program)
rows = table("fattree", "nodes")
received = [int(n["received"]) for n in rows]
mean = sum(received) / len(received)
check("fat tree: the endpoint table has the 16 endpoints, whose receptions add up",
      len(rows) == 16 and sum(received) == r["messages"]["delivered"] > 0,
      f"{len(rows)} rows, {sum(received)} of {r['messages']['delivered']}")
check("fat tree: (random-endpoint) reaches every endpoint about equally often",
      all(abs(c - mean) <= 0.3 * mean for c in received),
      f"mean {mean:.0f}, min {min(received)}, max {max(received)}")

# One endpoint a router: the endpoint form of a map is the node form's.
base = ("(Topology (Mesh 4 4))\n" + COMMON + "(OfferedLoad 10%)\n(MessageCreationMax 3000)\n"
        "(define-pattern (EastE (s Endpoint))\n"
        "  (router-endpoint (neighbor (endpoint-router s) 0 1) (endpoint-index s)))\n"
        "(define-pattern (EastN) (neighbor source 0 1))\n")
a = ndltest.run(NDLC, OUT, "mesh-endpoint", base + "(TrafficPattern EastE)\n")
b = ndltest.run(NDLC, OUT, "mesh-node", base + "(TrafficPattern EastN)\n")


def comparable(res):
    res = dict(res)
    for k in ("wall_seconds", "config", "tables"):
        res.pop(k, None)
    return json.dumps(res, sort_keys=True)


check("one endpoint a router: the pattern over endpoints gives the results over nodes",
      comparable(a) == comparable(b) and a["messages"]["delivered"] == 3000
      and (OUT / "mesh-endpoint.nodes.csv").read_bytes() == (OUT / "mesh-node.nodes.csv").read_bytes())

# Past the checker's enumeration, outside the endpoints.
program = ("(Topology (CMesh 4 4 4))\n" + COMMON +
           "(define-pattern (RareE (s Endpoint))\n"
           "  (if (>= (random 1048576) 1000000) (+ (endpoints) s) (endpoint (- 63 (int s)))))\n"
           "(TrafficPattern RareE)\n(OfferedLoad 5%)\n")
r = ndltest.run(NDLC, OUT, "rare", program, status="pattern_error")
msg = r.get("status_message", "")
check("a destination outside the endpoints at run time: pattern_error",
      "pattern 'RareE' sends node" in msg and "outside the network's nodes 0 to 63" in msg, msg)
