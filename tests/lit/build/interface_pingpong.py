"""Programs through a network interface in exact time (docs/interfaces.md, "In a run").

interface_pingpong.py NDLC DIR: writes programs and patterns into DIR, runs them and checks
every time a program passes a `mark` against a model of the node side written here from the
documentation, to the picosecond:
  send at t: the host is busy SoftwareOverhead + HostWriteTime; the message enters the send
  path at the first edge of its first stage's domain after that, each stage takes it when it
  is there and free (crossings wait for the receiving clock's next edge), and the network
  takes it as the first network clock at or after it leaves the path begins; it is delivered
  T clocks later (T the zero-load latency of docs/runtime.md 2.2) and is at the interface as
  the next clock begins; then the receive path, the host's next poll at or after both that
  and the time the receive was issued, and HostReadTime.
Cases: ping-pong over one link with DIMMnet-1's configuration (A) clocks (15 ns and 16 ns,
edges out of step with the network's 8 ns); the same on a 4x4 mesh between corners; the
internal loop (a node sending to itself: the send path straight into the receive path) after
a compute gap that is no whole number of clocks; the external loop (Loopback External: out by a
cable from the node's router back to itself, a hop of the cable's delay); back-to-back sends that find a stage busy
(occupancy); posted receives and sends after them; time order in the shared receive path, a
send after a receive that completes during the send's write, a blocking receive while another
read ends; a barrier on 8 nodes completing; and the same ping-pong without an interface still
counting network clocks, 2 (T + 1) per round trip.
Prints one line per check; exits non-zero at the first failure.
"""
import json
import pathlib
import subprocess
import sys

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)

PERIOD = 8000  # ps: the network at 125 MHz
DIMM, SWIF = 15000, 16000  # configuration (A)
OVERHEAD, WRITE, READ = 214000, 71000, 184000
POLL, PHASE = 50000, 7000

NET = """(NetworkChannelWidth 32bit)
(NetworkFrequency 125MHz)
(FlowControlMethod VirtualCutThrough)
(NetworkPacketSize 256bit)
(NetworkDataSize 192bit)
(NodeBufferSize 8flit)
"""
FLITS = 8  # every message here is one 256-bit packet
PATHS = """(ClockDomain dimm (Period 15nsec))
(ClockDomain swif (Frequency 62.5MHz))
(Interface aotf
  (SendPath send
    (Stage host-write dimm 3clock)
    (Stage header-tlb dimm 3clock (Occupancy 1clock))
    (Stage swif-send swif 4clock))
  (ReceivePath receive
    (Stage swif-receive swif 9clock)
    (Stage llcm-write dimm 1clock)))
"""
IFACE = PATHS + """(HostWriteTime 71nsec)
(HostReadTime 184nsec)
(SoftwareOverhead 214nsec)
(PollInterval 50nsec)
(PollPhase 7nsec)
"""
# (domain, period, clocks, occupancy clocks); -1 is the host, 0 the network
SEND = [("dimm", DIMM, 3, 3), ("dimm", DIMM, 3, 1), ("swif", SWIF, 4, 4)]
RECEIVE = [("swif", SWIF, 9, 9), ("dimm", DIMM, 1, 1)]


def check(what, ok, detail=""):
    print(f"{what}: {'ok' if ok else 'FAILED'} {detail}")
    if not ok:
        sys.exit(1)


def edge(t, period):
    return -(-t // period) * period


HOST = (OVERHEAD, WRITE, READ, POLL, PHASE)
NO_HOST = (0, 0, 0, 0, 0)  # PATHS alone: no host costs, continuous polling


class Node:
    """One node's interface and host: when each stage is free again."""

    def __init__(self, host=HOST):
        self.send_free = [0] * len(SEND)
        self.receive_free = [0] * len(RECEIVE)
        self.host = host

    @staticmethod
    def through(stages, free, t, domain):
        for k, (d, period, clocks, occupancy) in enumerate(stages):
            if d != domain:
                t = edge(t, period)
            start = max(t, free[k])
            free[k] = start + occupancy * period
            t = start + clocks * period
            domain = d
        return t

    def send(self, t):
        """The program sends at t: (when it goes on, the clock the network takes it)."""
        ready = t + self.host[0] + self.host[1]
        out = self.through(SEND, self.send_free, ready, "host")
        return ready, edge(out, PERIOD) // PERIOD

    def loop(self, t):
        """The internal loop: when the message has left the receive path."""
        ready = t + self.host[0] + self.host[1]
        out = self.through(SEND, self.send_free, ready, "host")
        return ready, self.through(RECEIVE, self.receive_free, out, SEND[-1][0])

    def arrive(self, delivered_clock):
        """Delivered during that clock: when it has left the receive path."""
        return self.through(RECEIVE, self.receive_free, (delivered_clock + 1) * PERIOD, "network")


    def seen(self, at, issued):
        """A receive issued at `issued` whose message is there at `at` has read it."""
        _, _, read, poll, phase = self.host
        t = max(at, issued)
        if poll > 0:
            t = phase if t <= phase else phase + -(-(t - phase) // poll) * poll
        return t + read


def zero_load(hops, delay=1, link=1):
    """docs/runtime.md 2.2, cut-through: (H+1) D + H L + (P-1)."""
    return (hops + 1) * delay + hops * link + FLITS - 1


def run(name, program, pattern):
    (OUT / f"{name}.cpf").write_text(pattern)
    (OUT / f"{name}.ndl").write_text(program + f'(CommunicationPatternFile "{name}.cpf")\n')
    js = OUT / f"{name}.json"
    p = subprocess.run([NDLC, "run", str(OUT / f"{name}.ndl"), "--", "--json", str(js),
                        "--quiet"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{name}: exit {p.returncode}\n{p.stdout}{p.stderr}")
    return json.loads(js.read_text())


def marks(r, label, node):
    for m in r["application"]["marks"]:
        if m["label"] == label and m["node"] == node:
            return m
    sys.exit(f"no mark {label} at node {node}: {json.dumps(r['application'])}")


def pingpong_model(rounds, hops):
    """Node a's mark times: at 0, then after each return."""
    a, b = Node(), Node()
    T = zero_load(hops)
    t_a, t_b = 0, 0  # b's program waits in its receive from time 0
    times = [0]
    for _ in range(rounds):
        t_a, clock = a.send(t_a)  # a waits in its receive from t_a on
        t_b = b.seen(b.arrive(clock + T), t_b)
        t_b, clock = b.send(t_b)
        t_a = a.seen(a.arrive(clock + T), t_a)
        times.append(t_a)
    return times


rounds = 4
subprocess.run([NDLC, "pattern", "pingpong", "--nodes", "2", "--iterations", str(rounds),
                "--size", "16byte", "-o", str(OUT / "pp2.cpf")], check=True)
r = run("pp2", "(Topology (Mesh 2))\n" + NET + IFACE, (OUT / "pp2.cpf").read_text())
want = pingpong_model(rounds, 1)
m = marks(r, "round-trip", 0)
a = r["application"]
check("ping-pong over one link: every round trip to the picosecond", m["times_ps"] == want,
      f"{m['times_ps']} vs {want}")
check("ping-pong over one link: the application completes at the last return, exactly",
      a["complete"] and a["completion_time_ps"] == want[-1]
      and a["completion_time_ns"] == want[-1] / 1000
      and a["completion_clock"] == -(-want[-1] // PERIOD), f"{a['completion_time_ps']}")
gaps = [y - x for x, y in zip(want, want[1:])]
check("ping-pong over one link: interval_ps and interval_ns are the round trips",
      m["interval_ps"] == {"count": rounds, "mean": sum(gaps) / rounds, "min": min(gaps),
                           "max": max(gaps)}
      and m["interval_ns"]["min"] == min(gaps) / 1000, json.dumps(m["interval_ps"]))
check("ping-pong over one link: the run's JSON names the interface and its host costs",
      r["config"]["Interface"] == "aotf" and r["config"]["HostWriteTime_ps"] == WRITE
      and r["config"]["PollPhase_ps"] == PHASE, json.dumps(r["config"].get("Interface")))
# The round trip against its parts: twice the host costs, paths, network and poll, at least;
# with edges out of step it is never less than the plain sum.
plain = 2 * (OVERHEAD + WRITE + READ + sum(c * p for _, p, c, _ in SEND + RECEIVE)
             + (zero_load(1) + 1) * PERIOD)
check("ping-pong over one link: a round trip is at least the plain sum of its parts",
      min(gaps) >= plain and max(gaps) < plain + 2 * (POLL + SWIF + DIMM + PERIOD),
      f"{min(gaps)}..{max(gaps)} vs {plain}")

# ---- any topology: corners of a 4x4 mesh, 6 hops
subprocess.run([NDLC, "pattern", "pingpong", "--nodes", "16", "--from", "0", "--to", "15",
                "--iterations", "3", "--size", "16byte", "-o", str(OUT / "pp16.cpf")],
               check=True)
r = run("pp16", "(Topology (Mesh 4 4))\n(RoutingAlgorithm DimensionOrder)\n" + NET + IFACE,
        (OUT / "pp16.cpf").read_text())
want = pingpong_model(3, 6)
check("ping-pong across a 4x4 mesh (6 hops): every round trip to the picosecond",
      marks(r, "round-trip", 0)["times_ps"] == want,
      f"{marks(r, 'round-trip', 0)['times_ps']} vs {want}")

# ---- the internal loop, after a compute gap of no whole number of clocks
loop = """nodes 2
node 0
  compute 1001psec
  mark loop
  repeat 3
    send 0 16byte
    recv 0
    mark loop
  end
"""
r = run("loop", "(Topology (Mesh 2))\n" + NET + IFACE, loop)
n, t, want = Node(), 1001, [1001]
for _ in range(3):
    issued, back = n.loop(t)
    t = n.seen(back, issued)
    want.append(t)
got = marks(r, "loop", 0)["times_ps"]
check("internal loop: send path into receive path, no network, to the picosecond",
      got == want and r["packets"]["created"] == 0, f"{got} vs {want}")

# ---- the external loop: (Loopback External), a cable from node 0's router back to itself.
# The same messages leave by the send path into the network, take the cable (one hop, its
# delay 3 clocks) and come back in by the receive path.
CABLED = """(define-topology (Cabled) (Nodes 2) (Link 0 1 0) (UnidirectionalLink 0 0 1 (Delay 3)))
(define-routing (TakeTheCable)
  (if (and (injected) (= current dest)) (port 1 1) (port 0 (if (< current dest) 1 -1))))
(Topology (Cabled))
(RoutingAlgorithm TakeTheCable)
(Loopback External)
"""
r = run("external", CABLED + NET + IFACE, loop)
n, t, want = Node(), 1001, [1001]
for _ in range(3):
    issued, clock = n.send(t)
    t = n.seen(n.arrive(clock + zero_load(1, link=3)), issued)
    want.append(t)
got = marks(r, "loop", 0)["times_ps"]
check("external loop: send path, the cable (one hop of 3 clocks), receive path, to the picosecond",
      got == want and r["packets"]["created"] == 3 and r["hops"]["mean"] == 1
      and r["config"]["Loopback"] == "External", f"{got} vs {want}")

# ---- back-to-back sends without host costs: the header TLB takes a message every DIMM
# clock, but the host-write stage and the send SWIF hold each for 3 and 4 clocks, so the
# second message waits for them; the receive SWIF (9 clocks) paces them again, less the
# DIMM clock edge the LLCM write waits for
burst = """nodes 2
node 0
  send 1 16byte tag 1
  send 1 16byte tag 2
  send 1 16byte tag 3
node 1
  recv 0 tag 1
  mark got
  recv 0 tag 2
  mark got
  recv 0 tag 3
  mark got
"""
r = run("burst", "(Topology (Mesh 2))\n" + NET + PATHS, burst)
a_node, b_node = Node(NO_HOST), Node(NO_HOST)
T = zero_load(1)
want, t = [], 0
for _ in range(3):
    _, clock = a_node.send(0)
    t = b_node.seen(b_node.arrive(clock + T), t)
    want.append(t)
got = marks(r, "got", 1)["times_ps"]
gaps = [y - x for x, y in zip(want, want[1:])]
check("back-to-back sends: each waits for the stages the one before holds, to the picosecond",
      got == want and min(gaps) >= 9 * SWIF - DIMM, f"{got} vs {want}")

# ---- posted receives pay the same poll and read: one posted before its message arrives
# (completes at the poll after the arrival, then the read), one posted after (at the poll
# after the post). A send `after` a posted receive costs the host as its line is passed and
# enters the send path once the receive has completed.
posted = """nodes 2
node 0
  send 1 16byte tag 1
  send 1 16byte tag 2
  recv 1 tag 3
  mark back
node 1
  recv 0 tag 1 as early
  send 0 16byte tag 3 after early
  compute 100nsec
  wait early
  mark got
  compute 3usec
  recv 0 tag 2 as late
  wait late
  mark got
"""
r = run("posted", "(Topology (Mesh 2))\n" + NET + IFACE, posted)
a_node, b_node = Node(), Node()
T = zero_load(1)
t_a, c1 = a_node.send(0)
t_a, c2 = a_node.send(t_a)
early = b_node.seen(b_node.arrive(c1 + T), OVERHEAD + WRITE + 100000)
late_at = b_node.arrive(c2 + T)
out = b_node.through(SEND, b_node.send_free, early, "host")
late = b_node.seen(late_at, early + 3000000)
back = a_node.seen(a_node.arrive(edge(out, PERIOD) // PERIOD + T), t_a)
got = marks(r, "got", 1)["times_ps"]
check("posted receives: completed at the poll after the message or the post, then the read",
      got == [early, late] and late_at < early + 3000000, f"{got} vs {[early, late]}")
check("posted receives: a send after a posted receive enters the send path once it is read",
      marks(r, "back", 0)["times_ps"] == [back], f"{marks(r, 'back', 0)['times_ps']} vs {back}")

# ---- time order on the node side: stages are booked as messages reach them. A message from
# the network that reaches the interface before a looped message leaves the send path is not
# held behind it in the shared receive path.
order = """nodes 2
node 0
  compute 300nsec
  send 0 16byte tag 2
  recv 1 tag 1
  mark net
  recv 0 tag 2
  mark loop
node 1
  send 0 16byte tag 1
"""
r = run("order", "(Topology (Mesh 2))\n" + NET + IFACE, order)
a_node, b_node = Node(), Node()
_, clock = b_node.send(0)
net_at = a_node.arrive(clock + zero_load(1))
issued = 300000 + OVERHEAD + WRITE
out = a_node.through(SEND, a_node.send_free, issued, "host")
loop_at = a_node.through(RECEIVE, a_node.receive_free, out, SEND[-1][0])
t_net = a_node.seen(net_at, issued)
want = [t_net, a_node.seen(loop_at, t_net)]
got = [marks(r, "net", 0)["times_ps"][0], marks(r, "loop", 0)["times_ps"][0]]
check("time order: the network's message goes through the receive path before a later loop",
      got == want, f"{got} vs {want}")

# A send `after` a posted receive that completes while the host is still writing it enters the
# send path when the write has ended, not before.
early = """nodes 2
node 0
  send 1 16byte tag 1
  recv 1 tag 2
  mark back
node 1
  recv 0 tag 1 as r
  compute 800nsec
  send 0 16byte tag 2 after r
"""
r = run("early", "(Topology (Mesh 2))\n" + NET + IFACE, early)
a_node, b_node = Node(), Node()
t_a, clock = a_node.send(0)
done = b_node.seen(b_node.arrive(clock + zero_load(1)), 0)
written = 800000 + OVERHEAD + WRITE
out = b_node.through(SEND, b_node.send_free, max(done, written), "host")
want = a_node.seen(a_node.arrive(edge(out, PERIOD) // PERIOD + zero_load(1)), t_a)
check("a send after a receive completed during its write leaves once it is written",
      done < written and marks(r, "back", 0)["times_ps"] == [want],
      f"{marks(r, 'back', 0)['times_ps']} vs {want}")

# A blocking receive whose message is here is not cut short by another receive completing
# during its poll and read: node 1 waits for node 2's message while its posted receive of
# node 0's earlier message completes first.
overlap = """nodes 3
node 0
  send 1 16byte tag 1
node 1
  recv 0 tag 1 as r
  recv 2 tag 2
  mark got
  wait r
node 2
  compute 100nsec
  send 1 16byte tag 2
"""
r = run("overlap", "(Topology (Mesh 3))\n(RoutingAlgorithm DimensionOrder)\n" + NET + IFACE,
        overlap)
a_node, b_node, c_node = Node(), Node(), Node()
_, c0 = a_node.send(0)
_, c2 = c_node.send(100000)
t1 = b_node.arrive(c0 + zero_load(1))
t2 = b_node.arrive(c2 + zero_load(1))
done1, done2 = b_node.seen(t1, 0), b_node.seen(t2, 0)
check("a blocking receive ends when its own read does, not at another's",
      t1 < t2 < done1 < done2 and marks(r, "got", 1)["times_ps"] == [done2],
      f"{marks(r, 'got', 1)['times_ps']} vs {done2} (the other read ends at {done1})")

# ---- a barrier on 8 nodes with the interface completes in exact time
subprocess.run([NDLC, "pattern", "barrier", "--nodes", "8", "--iterations", "2", "-o",
                str(OUT / "bar.cpf")], check=True)
r = run("bar", "(Topology (Mesh 8))\n(RoutingAlgorithm DimensionOrder)\n" + NET + IFACE,
        (OUT / "bar.cpf").read_text())
a = r["application"]
# Each of log2 8 = 3 rounds per barrier costs at least one send, one network hop, the
# paths and a read.
one_way = OVERHEAD + WRITE + READ + sum(c * p for _, p, c, _ in SEND + RECEIVE) \
    + (zero_load(1) + 1) * PERIOD
check("barrier on 8 nodes through the interface completes, no faster than its messages",
      a["complete"] and a["messages_delivered"] == 2 * 3 * 8
      and a["completion_time_ps"] >= 2 * 3 * one_way, f"{a['completion_time_ps']} ps")

# ---- without an interface nothing changes: network clocks, 2 (T + 1) per round trip
r = run("plain", "(Topology (Mesh 2))\n" + NET, (OUT / "pp2.cpf").read_text())
m = marks(r, "round-trip", 0)
rtt = 2 * (zero_load(1) + 1)
check("without an interface: round trips of 2 (T + 1) network clocks, no picoseconds",
      m["clocks"] == [k * rtt for k in range(rounds + 1)] and "times_ps" not in m
      and "completion_time_ps" not in r["application"] and "Interface" not in r["config"],
      json.dumps(m))
