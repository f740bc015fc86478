"""dragonfly_ugal.py NDLC DIR: UGAL-L against minimal routing on a dragonfly (Dragonfly 2 4 2:
9 groups of 4 routers, 72 endpoints, 8 per group), one-flit packets, 64-flit buffers, 3 VCs.

- Group shift: every endpoint sends to the endpoint of the same place in the next group (a
  pattern file, `send +8`), 300 messages each, then receives its 300. Minimal routing puts a
  group's whole load on its one global link to the next group (8 x 300 flits at 1 flit per
  clock: 2,400 clocks at least, the channel-load bound); UGAL-L
  sees that link's queue grow at the source and sends packets through random groups, over
  the group's 8 global links: the pattern completes in under half the clocks, the packets
  wait less, and packets are seen crossing two global links (class crossed-two) under UGAL
  only. Valiant (always through a random group) also beats minimal. UGAL-G (the same rule
  over the queues of the two routes' global links, read anywhere in the group as the clock
  began) beats minimal too; in this burst it is not faster than UGAL-L (docs/topologies.md).
- Uniform traffic at low load: UGAL-L's queues stay short, so it routes minimally: mean
  network latency within 10% of minimal's and the same mean hop count within 2%.
- PAR (DragonflyPar, 4 VCs): UGAL-L's choice at the source and again at the next router of
  the source group. Under the group shift it beats minimal by half as UGAL-L does, and some
  packets turn after their first hop (grants in class `turned`), which UGAL-L cannot do; at
  low uniform load it is minimal's within 10% (latency) and 2% (hops). The static check finds
  PAR deadlock-free, and finds the cycle of the same routing with the turned hop left in its
  class (two local hops of one class in the source group).
Prints one line per check; exits non-zero at the first failure.
"""
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import ndltest  # noqa: E402
from ndltest import check  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)

BASE = """(Topology (Dragonfly 2 4 2))
(FlowControlMethod VirtualCutThrough)
(NetworkChannelWidth 32bit)
(NetworkFrequency 100MHz)
(NetworkPacketSize 32bit)
(NodeBufferSize 64flit)
(VirtualChannels 3)
"""

SHIFT = """nodes 72
node all
  repeat 300
    compute 20nsec
    send +8 4byte
  end
  repeat 300
    recv -8
  end
"""


def program(routing, *forms):
    base = BASE.replace("(VirtualChannels 3)", "(VirtualChannels 4)") if "Par" in routing else BASE
    return base + f"(RoutingAlgorithm {routing})\n" + "\n".join(forms) + "\n"


def run(name, routing, *forms):
    j = ndltest.run(NDLC, OUT, name, program(routing, *forms))
    check(f"{name}: every message delivered",
          j["messages"]["delivered"] == j["messages"]["created"] > 0,
          f"{j['messages']['delivered']} of {j['messages']['created']}")
    return j


def grants(j, cls):
    names = j["vc_classes"]["names"]
    return j["vc_classes"]["grants"][names.index(cls)] if cls in names else 0


def crossed_two(j):
    return grants(j, "crossed-two")


(OUT / "shift.cpf").write_text(SHIFT)
shift = {r: run(f"shift_{r}", r, f'(CommunicationPatternFile "{OUT / "shift.cpf"}")')
         for r in ("DragonflyMinimal", "DragonflyUgal", "DragonflyUgalG", "DragonflyValiant",
                   "DragonflyPar")}
clocks = {r: j["cycles"] for r, j in shift.items()}
lat = {r: j["latency_cycles"]["network"]["mean"] for r, j in shift.items()}
print("group shift: clocks", clocks, "mean packet latency", lat)
check("group shift: 21,600 messages each",
      all(j["messages"]["created"] == 72 * 300 for j in shift.values()))
check("group shift: minimal routing takes at least the 2,400 clocks its global link needs",
      clocks["DragonflyMinimal"] >= 2400)
check("group shift: UGAL-L completes in under half minimal routing's clocks",
      clocks["DragonflyUgal"] * 2 < clocks["DragonflyMinimal"],
      f"{clocks['DragonflyUgal']} vs {clocks['DragonflyMinimal']}")
check("group shift: UGAL-G completes in under half minimal routing's clocks",
      clocks["DragonflyUgalG"] * 2 < clocks["DragonflyMinimal"],
      f"{clocks['DragonflyUgalG']} vs {clocks['DragonflyMinimal']}")
check("group shift: UGAL-G's packets wait less than minimal's",
      lat["DragonflyUgalG"] < lat["DragonflyMinimal"])
check("group shift: UGAL-G sends packets over two global links",
      crossed_two(shift["DragonflyUgalG"]) > 0)
check("group shift: Valiant completes before minimal routing",
      clocks["DragonflyValiant"] < clocks["DragonflyMinimal"])
check("group shift: UGAL-L's packets wait less than minimal's",
      lat["DragonflyUgal"] < lat["DragonflyMinimal"])
check("group shift: UGAL-L sends packets over two global links, minimal never",
      crossed_two(shift["DragonflyUgal"]) > 0 and crossed_two(shift["DragonflyMinimal"]) == 0,
      f"{crossed_two(shift['DragonflyUgal'])} grants in crossed-two")
check("group shift: PAR completes in under half minimal routing's clocks",
      clocks["DragonflyPar"] * 2 < clocks["DragonflyMinimal"],
      f"{clocks['DragonflyPar']} vs {clocks['DragonflyMinimal']}")
check("group shift: PAR completes before UGAL-L (the improvement its authors report)",
      clocks["DragonflyPar"] < clocks["DragonflyUgal"],
      f"{clocks['DragonflyPar']} vs {clocks['DragonflyUgal']}")
check("group shift: PAR's packets wait less than minimal's",
      lat["DragonflyPar"] < lat["DragonflyMinimal"])
check("group shift: under PAR some packets turn at the second router of their group",
      grants(shift["DragonflyPar"], "turned") > 0 and crossed_two(shift["DragonflyPar"]) > 0,
      f"{grants(shift['DragonflyPar'], 'turned')} grants in turned")
check("group shift: minimal takes at most one global link (3 hops)",
      max(d["hops"] for d in shift["DragonflyMinimal"]["by_distance"]) <= 3)
check("group shift: UGAL-L takes up to two (5 hops at most, more than 3 for some)",
      3 < max(d["hops"] for d in shift["DragonflyUgal"]["by_distance"]) <= 5)

low = {r: run(f"uniform_{r}", r, "(MessageCreationRate 2%)", "(MessageCreationMax 20000)")
       for r in ("DragonflyMinimal", "DragonflyUgal", "DragonflyUgalG", "DragonflyPar")}
lm = {r: j["latency_cycles"]["network"]["mean"] for r, j in low.items()}
hm = {r: j["hops"]["mean"] for r, j in low.items()}
print("uniform 2%: mean packet latency", lm, "hops", hm)
check("uniform, low load: UGAL-L's latency within 10% of minimal's",
      abs(lm["DragonflyUgal"] - lm["DragonflyMinimal"]) <= 0.10 * lm["DragonflyMinimal"])
check("uniform, low load: UGAL-L's mean hops within 2% of minimal's",
      abs(hm["DragonflyUgal"] - hm["DragonflyMinimal"]) <= 0.02 * hm["DragonflyMinimal"])
check("uniform, low load: UGAL-G's latency within 10% of minimal's",
      abs(lm["DragonflyUgalG"] - lm["DragonflyMinimal"]) <= 0.10 * lm["DragonflyMinimal"])
check("uniform, low load: UGAL-G's mean hops within 2% of minimal's",
      abs(hm["DragonflyUgalG"] - hm["DragonflyMinimal"]) <= 0.02 * hm["DragonflyMinimal"])
check("uniform, low load: PAR's latency within 10% of minimal's",
      abs(lm["DragonflyPar"] - lm["DragonflyMinimal"]) <= 0.10 * lm["DragonflyMinimal"])
check("uniform, low load: PAR's mean hops within 2% of minimal's",
      abs(hm["DragonflyPar"] - hm["DragonflyMinimal"]) <= 0.02 * hm["DragonflyMinimal"])

# The static check: PAR is deadlock-free; with its turned hop left in the class it had (two
# local hops of one class in the source group), it is not, and the check finds the cycle.
text = (pathlib.Path(__file__).resolve().parents[3] / "stdlib" / "dragonfly.ndl").read_text()
par = text[text.index("(define-routing (DragonflyPar)"):]
one_less = (par.replace("DragonflyPar", "ParOneClassLess")
            .replace("(turn (if rerouted 1 0))", "(turn 0)")
            .replace("(df-onward a h current dest intermediate true (+ cls 1))",
                     "(df-onward a h current dest intermediate true cls)"))
check("the variant differs from PAR only in the turned hop's class", one_less != par)
for name, routing, prefix in (("check_par", "DragonflyPar", ""),
                              ("check_par_one_less", "ParOneClassLess", one_less + "\n")):
    path = OUT / f"{name}.ndl"
    path.write_text(prefix + program(routing, "(MessageCreationRate 2%)"))
    p = subprocess.run([NDLC, "check", str(path)], capture_output=True, text=True)
    text_out = p.stdout + p.stderr
    if routing == "DragonflyPar":
        check("PAR: the static check finds it deadlock-free",
              p.returncode == 0 and "deadlock" not in text_out, text_out)
    else:
        check("PAR with the turned hop in its old class: the check finds a cycle",
              "[deadlock-possible]" in text_out, text_out)
