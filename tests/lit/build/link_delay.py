"""link_delay.py NDLC DIR: links with their own wire delay, (Link a b (Delay t)).

- Ping-pong between the two ends of a link: each round trip takes exactly twice the
  link's extra clocks more than over a link of LinkDelay (zero load, cut-through model of
  docs/runtime.md 2.2: a hop's link term is that link's delay), whether the delay is given in
  clocks or as a time. A time is exact: a flit sent at an edge is at the far end that much
  later and is taken at the next edge there, so 95 ns on a 10 ns clock is 10 clocks, with no
  rounding warning; the same for the program's LinkDelay.
- Credits come back over the same wire: a saturated stream over a 20-clock link with 8-flit
  buffers moves 8 flits per credit loop of 2 x 20 clocks and the routers' R, where with
  LinkDelay 20 and CreditDelay 1 the loop is 21 + R; in a network whose links' credits take
  different delays (a long link beside a short one) too.
Prints one line per check; exits non-zero at the first failure.
"""
import json
import pathlib
import subprocess
import sys

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)

BASE = """(FlowControlMethod VirtualCutThrough)
(NetworkChannelWidth 32bit)
(NetworkFrequency 100MHz)
(NetworkPacketSize 256bit)
(NetworkDataSize 192bit)
(NodeBufferSize 8flit)
"""
P = 8  # flits per packet


def check(what, ok, detail=""):
    print(f"{'ok' if ok else 'FAILED'}: {what}{' (' + detail + ')' if detail else ''}")
    if not ok:
        sys.exit(1)


def run(name, program, *extra, status="ok"):
    (OUT / f"{name}.ndl").write_text(program)
    js = OUT / f"{name}.json"
    p = subprocess.run([NDLC, "run", str(OUT / f"{name}.ndl"), "--", "--json", str(js),
                        "--quiet", *extra], capture_output=True, text=True)
    r = json.loads(js.read_text()) if js.exists() else {}
    if r.get("status") != status:
        sys.exit(f"{name}: exit {p.returncode}, status {r.get('status')}\n{p.stdout}{p.stderr}")
    return r


# A line of three nodes: 0 - 1 over the link under test, 1 - 2 over a plain one.
def line(delay):
    link = f"(Link 0 1 {delay})" if delay else "(Link 0 1)"
    return f"(Topology (Nodes 3) {link} (Link 1 2))\n(RoutingAlgorithm ShortestPath)\n" + BASE


rounds = 5
subprocess.run([NDLC, "pattern", "pingpong", "--nodes", "3", "--from", "0", "--to", "2",
                "--iterations", str(rounds), "--size", "16byte", "-o", str(OUT / "pp.cpf")],
               check=True)
pattern = '(CommunicationPatternFile "pp.cpf")\n'
plain = run("plain", line(None) + pattern)
for name, delay in (("clocks", "(Delay 10)"), ("clock-unit", "(Delay 10clock)"),
                    ("time", "(Delay 100nsec)"), ("time-between-edges", "(Delay 95nsec)")):
    r = run(name, line(delay) + pattern)
    extra = r["application"]["completion_clock"] - plain["application"]["completion_clock"]
    check(f"ping-pong over a link of {delay}: each round trip 2 x 9 clocks longer",
          r["application"]["complete"] and extra == rounds * 2 * 9,
          f"{extra} clocks more over {rounds} round trips")
    check(f"one-way latency over {delay} is 9 clocks more",
          r["latency_cycles"]["message"]["max"] == plain["latency_cycles"]["message"]["max"] + 9)

# LinkDelay as a time between two edges: taken at the next edge, as a link's own delay is, and
# not warned of (nothing is rounded away).
between = line(None) + "(LinkDelay 95nsec)\n"
(OUT / "between.ndl").write_text(between + pattern)
chk = subprocess.run([NDLC, "check", str(OUT / "between.ndl")], capture_output=True, text=True)
check("LinkDelay 95nsec at 100 MHz checks without a warning",
      chk.returncode == 0 and "warning" not in chk.stdout + chk.stderr, chk.stdout + chk.stderr)
r = run("linkdelay-between", between + pattern)
extra = r["application"]["completion_clock"] - plain["application"]["completion_clock"]
check("LinkDelay 95nsec: both links take 10 clocks, each round trip 4 x 9 clocks longer",
      r["application"]["complete"] and extra == rounds * 4 * 9, f"{extra} clocks more")

# Saturated streams both ways over one long link.
stream = """(Topology (Nodes 2) (Link 0 1 {delay}))
(RoutingAlgorithm ShortestPath)
""" + BASE + """(MessageLength 24byte)
(MessageCreationRate 100%)
(MessageCreationMax 100000000)
(SimulationTime 20000clock)
"""
# The streams never drain: the runs end at their time limit.
r = run("stream-own", stream.replace("{delay}", "(Delay 20)"), status="time_limit")
acc = r["throughput"]["accepted_flits_per_node_cycle"]
r = run("stream-forms", stream.replace("{delay}", "") + "(LinkDelay 20clock)\n(CreditDelay 1clock)\n",
        status="time_limit")
fast = r["throughput"]["accepted_flits_per_node_cycle"]
# A VC's 8 flits per credit loop: the flit's wire, the credit's wire and the rest of the loop
# (R clocks of router and buffer), so 8 / (20 + 20 + R) against 8 / (20 + 1 + R); R from the
# second run, whose credits take CreditDelay.
R = 8 / fast - 21
check("with LinkDelay 20 and CreditDelay 1, a VC's credit loop is 21 clocks and the routers'",
      abs(R - round(R)) < 0.05 and 1 <= round(R) <= 12, f"accepted {fast:.4f}, R = {R:.2f}")
want = 8 / (40 + round(R))
check("credits over a link of (Delay 20) take its 20 clocks: 8 flits per 40 + R clocks",
      abs(acc - want) <= 0.01 * want, f"accepted {acc:.4f} flits/node/clock, expected {want:.4f}")

# Credits of different delays in one network: on a line 0 -(Delay 20)- 1 - 2 the long link's
# credits wait beyond the short link's. One message of 43 packets from 0 to 1 moves at the
# long link's rate found above.
(OUT / "bulk.cpf").write_text("nodes 3\nnode 0\n  send 1 1032byte tag 1\nnode 1\n  recv 0 tag 1\n")
r = run("bulk", line("(Delay 20)") + '(CommunicationPatternFile "bulk.cpf")\n')
flits = 43 * P  # 1032 bytes in packets of 24 data bytes
done = r["application"]["completion_clock"]
want = flits / acc
check("a line with a long and a short link: the long link's credits take its 20 clocks",
      r["application"]["complete"] and abs(done - want) <= 0.05 * want,
      f"{flits} flits in {done} clocks, {want:.0f} at 8 flits per 40 + R")
