"""user_pattern.py NDLC DIR: destination patterns written in NDL (define-pattern, docs/language.md
"Traffic patterns"), as a simulator draws them, against their definitions written out here.
Every pair of nodes of a 4x4 mesh (node = x + 4y) is a ReportPairs pair, so the pairs table
counts each (source, destination)'s messages.
- Transpose written in NDL sends exactly where (x, y) -> (y, x) does: every source off the
  diagonal sends to its transpose and nowhere else (a node on it maps onto itself: no message).
- A row-local random pattern, (random k) for the column: every other node of the row is used,
  no node outside it, and the 48 pairs are equally likely (each count within 40% of the mean
  of about 125; a binomial's standard deviation there is about 11).
- The same seed gives the same pairs table byte for byte; another seed another one.
- A hot spot written with two draws, (if (= (random 4) 0) 5 (random-node)): from a source s != 5
  a message goes to 5 with probability (1/4 + 3/4 * 1/16) / (1 - 3/4 * 1/16) = 0.3115 (a draw
  of s itself makes no message); the share measured is within 0.025 of it (four standard
  deviations of about 5,600 messages).
- Two classes with patterns of their own: each class's mean hops is its pattern's mean distance
  over the pairs it uses (Transpose 40/12, the row 20/12) within 0.15.
- --param Pattern=Uniform on a simulator built with a pattern in NDL runs Uniform; Pattern=Custom
  runs the program's own again; on a simulator whose program has none it is refused (exit 2).
- A pattern whose destination leaves the network only for draws the checker does not enumerate
  (it checks a source's first 2^16 outcomes) stops the run with pattern_error (exit 3), naming
  the pattern, the source and the destination, and the results are still written.
"""
import csv
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import ndltest  # noqa: E402
from ndltest import check  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)
K, N = 4, 16
PAIRS = " ".join(f"({a} {b})" for a in range(N) for b in range(N) if a != b)
PATTERNS = """
(define-pattern (MyTranspose) (+ (* (coord source 0) (radix 0)) (coord source 1)))
(define-pattern (SameRow) (+ (* (coord source 1) (radix 0)) (random (radix 0))))
(define-pattern (HotFive) (if (= (random 4) 0) 5 (random-node)))
(define-pattern (Rare)
  (if (>= (random 1048576) 1000000) (+ (nodes) source) (- 15 source)))
"""
BASE = ("(Topology (Mesh 4 4))\n(NetworkChannelWidth 32bit)\n(NetworkFrequency 100MHz)\n"
        "(NetworkPacketSize 128bit)\n(VirtualChannels 2)\n")


def xy(n):
    return n % K, n // K


def hops(a, b):
    (ax, ay), (bx, by) = xy(a), xy(b)
    return abs(ax - bx) + abs(ay - by)


def counts(name):
    got = {}
    with open(OUT / f"{name}.pairs.csv") as f:
        for row in csv.DictReader(f):
            c = int(row["latency_cycles.message.count"])
            if c:
                got[(int(row["src"]), int(row["dst"]))] = c
    return got


def observed(name, pattern, messages=3000, seed=1):
    program = (PATTERNS + BASE + f"(TrafficPattern {pattern})\n(MessageCreationRate 2%)\n"
               f"(MessageCreationMax {messages})\n(Seed {seed})\n(ReportPairs {PAIRS})\n")
    r = ndltest.run(NDLC, OUT, name, program)
    return r, counts(name)


# Transpose: (x, y) -> (y, x).
r, got = observed("transpose", "MyTranspose")
want = {(s, xy(s)[1] + K * xy(s)[0]) for s in range(N)}
want = {(s, d) for s, d in want if s != d}
check("transpose in NDL: every message goes where Transpose sends it", set(got) <= want,
      str(sorted(set(got) - want)[:4]))
check("transpose in NDL: every source off the diagonal sends", want <= set(got),
      str(sorted(want - set(got))[:4]))

# The row, uniformly.
r, got = observed("row", "SameRow", messages=6000)
want = {(s, d) for s in range(N) for d in range(N) if d != s and xy(d)[1] == xy(s)[1]}
check("same row: every pair of the row is used, and no other", set(got) == want,
      str(sorted(set(got) ^ want)[:4]))
mean = sum(got.values()) / len(want)
check("same row: the pairs are equally likely",
      all(abs(c - mean) <= 0.4 * mean for c in got.values()),
      f"mean {mean:.1f}, min {min(got.values())}, max {max(got.values())}")
table_1 = (OUT / "row.pairs.csv").read_bytes()
observed("row-again", "SameRow", messages=6000)
observed("row-seed2", "SameRow", messages=6000, seed=2)
check("same seed, same messages; another seed, others",
      (OUT / "row-again.pairs.csv").read_bytes() == table_1
      and (OUT / "row-seed2.pairs.csv").read_bytes() != table_1)

# Two draws: a hot node, else any node.
r, got = observed("hot", "HotFive", messages=6000)
to_five = sum(c for (s, d), c in got.items() if s != 5 and d == 5)
from_others = sum(c for (s, d), c in got.items() if s != 5)
p_five = (1 / 4 + 3 / 4 / 16) / (1 - 3 / 4 / 16)
check("hot node in NDL: its share of the messages is the formula's",
      abs(to_five / from_others - p_five) <= 0.025,
      f"{to_five}/{from_others} = {to_five / from_others:.4f}, formula {p_five:.4f}")

# Classes with patterns of their own.
program = (PATTERNS + BASE + "(TrafficClass row (OfferedLoad 3%) (TrafficPattern SameRow))\n"
           "(TrafficClass transpose (OfferedLoad 3%) (TrafficPattern MyTranspose))\n"
           "(MessageLength 16byte)\n(Measurement Burst)\n(MessageCreationMax 6000)\n")
r = ndltest.run(NDLC, OUT, "classes", program)
by = {c["name"]: c for c in r["classes"]}
row_mean = sum(hops(s, d) for s, d in want) / len(want)
t_pairs = [(s, xy(s)[1] + K * xy(s)[0]) for s in range(N) if xy(s)[0] != xy(s)[1]]
t_mean = sum(hops(s, d) for s, d in t_pairs) / len(t_pairs)
check("classes: each class's mean hops is its pattern's",
      abs(by["row"]["hops_mean"] - row_mean) <= 0.15
      and abs(by["transpose"]["hops_mean"] - t_mean) <= 0.15,
      f"row {by['row']['hops_mean']} vs {row_mean:.3f}, transpose "
      f"{by['transpose']['hops_mean']} vs {t_mean:.3f}")

# --param Pattern on a built simulator.
src = OUT / "built.ndl"
src.write_text(PATTERNS + BASE + "(TrafficPattern MyTranspose)\n(MessageCreationRate 2%)\n"
               "(MessageCreationMax 500)\n")
sim = OUT / "built-sim"
subprocess.run([NDLC, "build", str(src), "-o", str(sim)], check=True)


def sim_run(path, *params):
    js = OUT / "p.json"
    js.unlink(missing_ok=True)
    cmd = [str(path)] + [a for p in params for a in ("--param", p)] + ["--json", str(js)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p, json.loads(js.read_text()) if js.exists() else {}


p, r = sim_run(sim, "Pattern=Uniform")
check("--param Pattern=Uniform replaces the program's pattern",
      p.returncode == 0 and r["config"]["TrafficPattern"] == "Uniform", p.stderr)
p, r = sim_run(sim, "Pattern=Uniform", "Pattern=Custom")
check("--param Pattern=Custom is the program's own pattern again",
      p.returncode == 0 and r["config"]["TrafficPattern"] == "MyTranspose", p.stderr)
plain = OUT / "plain.ndl"
plain.write_text(BASE + "(MessageCreationRate 2%)\n(MessageCreationMax 500)\n")
subprocess.run([NDLC, "build", str(plain), "-o", str(OUT / "plain-sim")], check=True)
p, r = sim_run(OUT / "plain-sim", "Pattern=Custom")
check("--param Pattern=Custom is refused by a simulator whose program has none",
      p.returncode == 2 and "Custom is the program's own pattern written in NDL" in p.stderr
      and not r, p.stderr)

# A failure the checker's enumeration does not reach.
r = ndltest.run(NDLC, OUT, "rare", PATTERNS + BASE + "(TrafficPattern Rare)\n"
                "(MessageCreationRate 2%)\n", status="pattern_error")
msg = r.get("status_message", "")
check("a destination outside the network at run time: pattern_error",
      "pattern 'Rare' sends node" in msg and "outside the network's nodes 0 to 15" in msg
      and r["messages"]["created"] > 0, msg)
