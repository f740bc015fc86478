"""recover_x.py NDLC EXAMPLES DIR: the Recover-x comparison (seed 000) on an
8x8 torus, with the paper's setup (examples/recover-x/paper.ndl) and a
shorter measured window.

- Relations: under the paper's hot-spot traffic at saturation RecoverX
  delivers at least the bandwidth of StarChannel and of DimensionOrder, each
  at its synthesized clock; no message is lost (blocking sources refuse
  nothing, created = delivered + in flight).
- Statistics: RecoverX's recoveries are counted router by router (the nodes
  sum to the totals, every recovery is a recovery hop); routings without a RecoveryField
  report none; the VC-class grants of a drained run are its packets' link
  hops (flit hops / flits per packet).
- DISHA: every recovery takes the token (captures = recoveries), every
  deadlock-buffer grant is a hop in recovery and back, the token is held for
  less than the run and is free once a run drains.
- Deadlock: without its escape classes StarChannel's adaptive VCs deadlock
  and Detect names the cycle; without recovery (a timeout longer than the
  run) RecoverX and DISHA stop with status deadlock, results written,
  instead of hanging; with them, long runs at saturation under hot-spot and
  all-to-all traffic end ok.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_tables import with_tables  # noqa: E402

ndlc, examples, out = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
# The simulators' stderr (their deadlock messages) interleaves with these lines.
sys.stdout.reconfigure(line_buffering=True)
HOT = "(TrafficPattern (HotSpot 10% (Nodes 4 12 20 28 36 44 52 60)))"
ALL = "(TrafficPattern AllToAll)"
WINDOW = ["WarmupMessages=2000", "MeasuredMessages=12000"]


def run(name, router, body, sets=WINDOW, expect_exit=0):
    """Builds the paper's setup with a router (examples/recover-x/routers)
    and the forms of body; runs it (ndlc run) with --set for each of sets."""
    src = f"{out}/{name}.ndl"
    with open(src, "w") as f:
        f.write(f'(import "{examples}/paper.ndl")\n')
        if router:
            f.write(f'(import "{examples}/routers/{router}.ndl")\n')
        f.write("(Topology (Torus 8 8))\n(MessageLength 128byte)\n" + body)
    js = f"{out}/{name}.json"
    cmd = [ndlc, "run", src]
    for s in sets:
        cmd += ["--set", s]
    cmd += ["--", "--quiet", "--json", js]
    code = subprocess.run(cmd).returncode
    if code != expect_exit:
        sys.exit(f"{name}: exit code {code}, expected {expect_exit}")
    with open(js) as f:
        return with_tables(json.load(f), js)  # the per-router rows too


def lossless(name, r):
    m = r["messages"]
    if m["refused"] or m["dropped"] or m["created"] != m["delivered"] + m["in_flight"]:
        sys.exit(f"{name}: messages lost: {m}")


def check_recovery_sums(name, r):
    rec, nodes = r["recovery"], r["nodes"]
    for key in ("recoveries", "recovery_hops"):
        if sum(n[key] for n in nodes) != rec[key]:
            sys.exit(f"{name}: per-router {key} do not sum to {rec[key]}")
    grants = r["vc_classes"]["grants"]
    for c in range(len(grants)):
        if sum(n["class_grants"][c] for n in nodes) != grants[c]:
            sys.exit(f"{name}: per-router grants of class {c} do not sum to {grants[c]}")


# Relations under hot-spot at saturation.
bw = {}
def check_token(name, r, drained=False):
    """DISHA: the token is taken once per recovery, and only the recovering
    packet (the holder) is granted deadlock-buffer VCs."""
    rec, cls = r["recovery"], r["vc_classes"]
    lane = cls["grants"][cls["names"].index("deadlock-buffer")]
    tok = rec["token"]
    if not 0 < tok["captures"] == rec["recoveries"] <= rec["recovery_hops"] == lane:
        sys.exit(f"{name}: token {tok}, recovery {rec}, deadlock-buffer grants {lane}")
    if not tok["held_clocks"] < r["cycles"]:
        sys.exit(f"{name}: token held {tok['held_clocks']} of {r['cycles']} clocks")
    if drained and r["messages"]["in_flight"]:
        sys.exit(f"{name}: not drained: {r['messages']}")


for router in ("dimension-order", "star-channel", "recover-x", "disha"):
    r = run(f"hot-{router}", router, f"{HOT}\n(MessageCreationRate 100%)\n")
    if r["status"] != "ok":
        sys.exit(f"{router}: status {r['status']}: {r['status_message']}")
    lossless(router, r)
    check_recovery_sums(router, r)
    bw[router] = r["throughput"]["bandwidth_bytes_per_s"]
    rec = r["recovery"]
    if router == "recover-x":
        names = r["vc_classes"]["names"]
        if rec["field"] != "escaped" or names != ["adaptive", "recovery", "recovery-crossing"]:
            sys.exit(f"recover-x: recovery field {rec['field']!r}, classes {names}")
        if not 0 < rec["recoveries"] <= rec["recovery_hops"]:
            sys.exit(f"recover-x: recoveries {rec['recoveries']}, hops {rec['recovery_hops']}")
        print(f"recover-x: recoveries counted in "
              f"{sum(n['recoveries'] > 0 for n in r['nodes'])} of 64 routers")
    elif router == "disha":
        check_token(router, r)
        print(f"disha: {rec['recoveries']} recoveries, each took the token")
    elif rec["field"] or rec["recoveries"] or rec["recovery_hops"]:
        sys.exit(f"{router}: recovery statistics without a recovery field: {rec}")
    print(f"{router}: {bw[router] / 1e9:.2f} GB/s")
for other in ("dimension-order", "star-channel"):
    if bw["recover-x"] < bw[other]:
        sys.exit(f"hot-spot: RecoverX {bw['recover-x']:.4g} B/s below {other} {bw[other]:.4g}")
print("hot-spot: RecoverX >= StarChannel, RecoverX >= DimensionOrder")

# A drained run: every grant of a network VC is one link hop of one packet.
r = run("drained", "recover-x",
        f"{HOT}\n(MessageCreationRate 5%)\n",
        ["MessageCreationMax=4000", "WarmupMessages=0", "MeasuredMessages=4000"])
flits = 32  # 128 bytes over 4-byte flits, one packet per message
if r["messages"]["delivered"] != 4000 or r["messages"]["in_flight"]:
    sys.exit(f"drained: {r['messages']}")
if sum(r["vc_classes"]["grants"]) * flits != r["flit_hops"]:
    sys.exit(f"drained: grants {r['vc_classes']['grants']} x {flits} != "
             f"flit hops {r['flit_hops']}")
print("drained: grants x flits = flit hops")
r = run("drained-disha", "disha", f"{ALL}\n(MessageCreationRate 100%)\n",
        ["MessageCreationMax=3000", "WarmupMessages=0", "MeasuredMessages=3000"])
check_token("drained-disha", r, drained=True)
if sum(r["vc_classes"]["grants"]) * flits != r["flit_hops"]:
    sys.exit(f"drained-disha: grants {r['vc_classes']['grants']} x {flits} != "
             f"flit hops {r['flit_hops']}")
print(f"drained disha: {r['recovery']['recoveries']} recoveries, token free at the end")

# Atomic VC allocation: with 32-byte messages (one buffer each) StarChannel
# deadlocks when a packet may be given an escape VC behind another packet's
# tail (NonAtomic), and runs without deadlock as its routing declares it.
for va, status in (("NonAtomic", "deadlock"), ("Atomic", "ok")):
    r = run(f"star-32-{va}", "star-channel", f"{HOT}\n(MessageCreationRate 100%)\n",
            WINDOW + ["MessageLength=32byte", f"VcAllocation={va}"],
            expect_exit=3 if status == "deadlock" else 0)
    if r["status"] != status or r["config"]["VcAllocation"] != va:
        sys.exit(f"star-channel, 32 bytes, {va}: status {r['status']}: {r['status_message']}")
    lossless(f"star-channel 32 bytes {va}", r)
    print(f"star-channel 32-byte messages, {va}: {status}")

# Without their deadlock resources.
# (all-to-all: hot-spot takes over 100,000 clocks to lock up).
r = run("star-no-escape", None, f"""{ALL}
(MessageCreationRate 100%)
(NetworkFrequency 120.4MHz)
(DeadlockHandling Detect)
(define-routing (AdaptiveOnly)
  (VcClass adaptive (vcs))
  (DefaultSelection MostCredits)
  (minimal-from current dest 0 adaptive))
(RoutingAlgorithm AdaptiveOnly)
""", expect_exit=3)
if r["status"] != "deadlock" or not r["deadlock"] or len(r["deadlock"]["cycle"]) < 2:
    sys.exit(f"star-no-escape: status {r['status']}, deadlock {r.get('deadlock')}")
lossless("star-no-escape", r)
print(f"StarChannel without escape classes: deadlock, a cycle of "
      f"{len(r['deadlock']['cycle'])} channels")
r = run("recover-x-no-recovery", None, f"""{HOT}
(MessageCreationRate 100%)
(NetworkFrequency 142.8MHz)
(DeadlockHandling Detect)
(RoutingAlgorithm RecoverX)
(RecoveryTimeout 100000000clock)
""", expect_exit=3)
if r["status"] != "deadlock" or "no flit moved" not in r["status_message"]:
    sys.exit(f"recover-x-no-recovery: status {r['status']}: {r['status_message']}")
lossless("recover-x-no-recovery", r)
print("RecoverX without recovery: deadlock, stopped with its results written")
r = run("disha-no-recovery", None, f"""{ALL}
(MessageCreationRate 100%)
(NetworkFrequency 142.8MHz)
(DeadlockHandling Detect)
(RoutingAlgorithm DISHA)
(RecoveryTimeout 100000000clock)
""", expect_exit=3)
if r["status"] != "deadlock" or r["recovery"]["token"]["captures"] != 0:
    sys.exit(f"disha-no-recovery: status {r['status']}: {r['status_message']}")
lossless("disha-no-recovery", r)
print("DISHA without recovery: deadlock, stopped with its results written")

# With them: long runs at saturation.
for router in ("star-channel", "recover-x", "disha"):
    for name, traffic in (("hot-spot", HOT), ("all-to-all", ALL)):
        r = run(f"long-{router}-{name}", router,
                f"{traffic}\n(MessageCreationRate 100%)\n",
                ["WarmupMessages=0", "MeasuredMessages=100000"])
        if r["status"] != "ok":
            sys.exit(f"{router} {name}: status {r['status']}: {r['status_message']}")
        lossless(f"{router} {name}", r)
        print(f"{router} {name}: {r['messages']['delivered']} messages at saturation, no deadlock")
