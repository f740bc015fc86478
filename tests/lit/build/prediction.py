"""prediction.py NDLC DIR: predictive switching (seed 001, docs/prediction.md).

- Zero load, ping-pong along a row of a 3x3 mesh: with Oracle, always right, every router
  takes the predictive path (IB 1, ST 1) instead of the 7-clock pipeline: the one-way latency
  is 3 routers x (7 - 2) clocks lower, and equals, to the clock, that of a router whose whole
  pipeline is (IB 1) (ST 1).
- Detection ports written in NDL (stdlib detection-port): Oracle that does not predict at
  m = 2 and m = 3 columns pays the 7-clock pipeline at exactly those routers.
- Router state: a predictor reading one ring per router (define-router-state) sees the other
  direction's last port on a row and never hits, where LastPort's ring per port always does;
  the estimate counts the router rings.
- A predictor that never predicts measures exactly what the 7-clock router measures without
  a predictor, under load.
- Hit and PST rates lie in [0, 1]; Oracle hits every prediction; the predictor is served
  round robin, so injection ports are refused it no more often than network ports; hits never exceed
  predictions, predictions never exceed hops; network and injection ports add up.
- The tentative reservation: under load some hits lose their output VC to normal requests
  and take the normal pipeline; the PST rate is (hits - lost) / hops and falls with load.
- Under uniform traffic with dimension order on an 8-ary 3-cube, StaticStraight hits more
  often than LastPort (seed 001: SS is the better of the two there).
- `ndlc info` gives the hop on both paths (7 and 2 clocks) and counts the rings in the
  memory estimate exactly as the simulator allocates them.
- Without hint bits (MispredictionCheck None), on the row: one copy per message crosses
  exactly 2 extra links and is discarded where no port is predicted; the packet leaves
  flits - 5 clocks later, after its copy's tail.
- Conservation, counted from the run's records, with predicted headers in flight when the
  run stops; without hint bits, with copies in flight: sent = freed + held, and the copies
  cost accepted throughput.
Prints one line per check; exits non-zero at the first failure.
"""
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from ndltest import check, info, run  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)

SEVEN = "(RouterPipeline (IB 1clock) (RC 3clock) (VA 1clock) (SA 1clock) (ST 1clock))\n"
TWO = "(RouterPipeline (IB 1clock) (RC 0clock) (VA 0clock) (SA 0clock) (ST 1clock))\n"
PST = "(PredictivePath (IB 1clock) (ST 1clock))\n"


def predictor(name):
    return f'(import "predictors")\n(Predictor {name})\n' + PST


# ---- zero load: ping-pong along the first row of a 3x3 mesh
subprocess.run([NDLC, "pattern", "pingpong", "--nodes", "9", "--from", "0", "--to", "2",
                "--iterations", "5", "--size", "16byte", "-o", str(OUT / "pp.cpf")], check=True)
LINE = """(Topology (Mesh 3 3))
(RoutingAlgorithm DimensionOrder)
(Selection First)
(FlowControlMethod VirtualCutThrough)
(NetworkChannelWidth 32bit)
(NetworkFrequency 100MHz)
(NetworkPacketSize 256bit)
(NetworkDataSize 192bit)
(NodeBufferSize 8flit)
(CommunicationPatternFile "pp.cpf")
"""
seven = run(NDLC, OUT, "line-seven", LINE + SEVEN)
oracle = run(NDLC, OUT, "line-oracle", LINE + SEVEN + predictor("Oracle"))
two = run(NDLC, OUT, "line-two", LINE + TWO)
routers = 3
gain = seven["latency_cycles"]["message"]["max"] - oracle["latency_cycles"]["message"]["max"]
check(f"Oracle: one way {routers} x (7 - 2) clocks below the 7-clock router", gain == routers * 5,
      f"{gain} clocks")
check("Oracle's ping-pong completes in the clock of a router whose pipeline is IB 1, ST 1",
      oracle["application"]["completion_clock"] == two["application"]["completion_clock"]
      and oracle["latency_cycles"] == two["latency_cycles"],
      f"{oracle['application']['completion_clock']} and {two['application']['completion_clock']}")
pr = oracle["prediction"]
check("Oracle at zero load: every hop predicted and hit (hit rate 1, PST rate 1)",
      pr["hit_rate"] == 1.0 and pr["pst_rate"] == 1.0 and pr["hops"] == pr["hits"] > 0, str(pr))
check("no prediction section without a predictor", "prediction" not in seven)

# ---- detection ports written in NDL: Oracle that does not predict at the m detection columns
# of each dimension (stdlib detection-port). On the row 0 -> 2 and back, the columns of k = 3
# are 0 and 2 for m = 2 (round(3/2) = 2) and 0, 1, 2 for m = 3. A header from the injection
# port is never at one. m = 2: of each way's 3 routers, the last (column 2 on the way out,
# column 0 back) takes the 7-clock pipeline; m = 3: the middle one too.
def oracle_at_detection(m):
    return (f'(import "predictors")\n(define-predictor (OracleM)\n'
            f'  (OnForward (push history (out-port)))\n'
            f'  (if (detection-port {m} (injected) (arrived-along) current) (no-port)\n'
            f'      (if (= current dest) (ejection-port)\n'
            f'          (let ((d (first-difference current dest 0)))\n'
            f'            (port d (direction (coord current d) (coord dest d) (radix d) (wraps d)))))))\n'
            f'(Predictor OracleM)\n' + PST)


for m, normal_routers in ((2, 1), (3, 2)):
    det = run(NDLC, OUT, f"line-detect-{m}", LINE + SEVEN + oracle_at_detection(m))
    extra = det["latency_cycles"]["message"]["max"] - oracle["latency_cycles"]["message"]["max"]
    check(f"detection columns m = {m}: one way {normal_routers} x (7 - 2) clocks above Oracle",
          extra == normal_routers * 5, f"{extra} clocks")
    dp = det["prediction"]
    check(f"detection columns m = {m}: {normal_routers} of 3 heads per way not predicted, "
          "the others hit",
          dp["hops"] == pr["hops"] and dp["hits"] == dp["predictions"]
          and (dp["hops"] - dp["predictions"]) * 3 == dp["hops"] * normal_routers, str(dp))

# ---- router state (define-router-state): one ring per router, which every port's predictor
# reads. On the row, ping and pong cross each router in turn in opposite directions: the
# router's last output port is always the wrong one (the middle router's last header went the
# other way; an end router's last header ejected there, or left by the port the next one
# arrives from), and only each router's first header, 3 in all, finds it empty. A ring per
# port (LastPort) sees its own direction only: after each of the 6 ports' first header, every
# prediction hits.
ROUTER_LAST = ('(define-router-state last-out (Ring 1 Port))\n'
               '(define-predictor (RouterLast)\n'
               '  (OnForward (push last-out (out-port)))\n'
               '  (if (= (ring-length last-out) 0) (no-port) (ring-ref last-out 0)))\n'
               '(Predictor RouterLast)\n' + PST)
rl = run(NDLC, OUT, "line-router-last", LINE + SEVEN + ROUTER_LAST)["prediction"]
lp_line = run(NDLC, OUT, "line-last-port", LINE + SEVEN + predictor("LastPort"))["prediction"]
check("router state: one ring per router, empty only at each router's first header; every "
      "prediction misses", rl["predictions"] == rl["hops"] - 3 and rl["hits"] == 0, str(rl))
check("port state: one ring per port, empty at each of the 6 ports' first header; every "
      "prediction hits", lp_line["predictions"] == lp_line["hops"] - 6
      and lp_line["hits"] == lp_line["predictions"], str(lp_line))
# The router rings in the estimate and the allocation: 9 routers x (1 one-byte symbol + 4).
ri = info(NDLC, OUT, "info-router-last", LINE + SEVEN + ROUTER_LAST)
pi = info(NDLC, OUT, "info-line", LINE + SEVEN)
check("the memory estimate counts the router rings the simulator allocated",
      ri["simulator_memory_bytes"] - pi["simulator_memory_bytes"] == 9 * (1 + 4)
      == rl["port_state_bytes"],
      f"{ri['simulator_memory_bytes'] - pi['simulator_memory_bytes']} estimated, "
      f"{rl['port_state_bytes']} allocated")

# ---- without hint bits (MispredictionCheck None): a predictor that sends every injected header
# up (Y+) and every other straight on. On the row 0 -> 2 and back each way's first prediction
# misses: a copy of the packet leaves by Y+ and, followed straight on, crosses 2 links to the
# top row, where the router has no Y+ port and so no prediction: RC finds the copy there and it
# is discarded. The others hit or name a port the router does not have.
WRONG = ('(import "predictors")\n(define-predictor (UpFirst)\n'
         '  (OnForward (push history (out-port)))\n'
         '  (if (injected) (port 1 1) (arrived-along)))\n(Predictor UpFirst)\n' + PST
         + "(DeadlockHandling Avoid)\n")
hint = run(NDLC, OUT, "line-upfirst-hint", LINE + SEVEN + WRONG)
none = run(NDLC, OUT, "line-upfirst-none", LINE + SEVEN + WRONG + "(MispredictionCheck None)\n")
flits = none["config"]["NetworkPacketSize_flits"]
ways = none["messages"]["delivered"]
hp, np_ = hint["prediction"], none["prediction"]
check("hint bits: a miss sends nothing the wrong way; the links carry what the 7-clock router's do",
      hp["mispredicted_packets"] == 0 and hint["flit_hops"] == seven["flit_hops"], str(hp))
check("no hint bits: one copy per message, each found and discarded, its flits counted",
      np_["mispredicted_packets"] == ways == np_["mispredicted_found"] == np_["mispredicted_freed"]
      and np_["mispredicted_in_flight"] == 0 and np_["discarded_flits"] == ways * flits, str(np_))
check("no hint bits: each copy crosses exactly 2 extra links (flit hops counted by the links)",
      none["flit_hops"] - hint["flit_hops"] == ways * flits * 2,
      f"{none['flit_hops']} - {hint['flit_hops']} for {ways} copies of {flits} flits")
# The source's VC sends the copy's flits from the predictive path's clock (IB 1) on, one a
# clock; the packet itself leaves the clock after the copy's tail, not at the normal
# pipeline's 6: each way is exactly flits - (6 - 1) clocks later.
delay = none["latency_cycles"]["message"]["max"] - hint["latency_cycles"]["message"]["max"]
check("no hint bits: the packet leaves after its copy's tail, flits - 5 clocks later than with them",
      delay == flits - 5, f"{delay} clocks, {flits}-flit packets")

# ---- a predictor that never predicts: the 7-clock router's results, under load
TORUS = """(Topology (Torus 4 4 4))
(RoutingAlgorithm DimensionOrder)
(DeadlockHandling Avoid)
(FlowControlMethod VirtualCutThrough)
(NetworkChannelWidth 32bit)
(NetworkFrequency 1GHz)
(NetworkPacketSize 512bit)
(NetworkDataSize 448bit)
(VirtualChannels 2)
(NodeBufferSize 16flit)
(MessageCreationRate 2%)
(MessageCreationMax 3000)
"""
NEVER = """(define-predictor (Never) (OnForward (push history (out-port))) (no-port))\n"""


def results(r):
    return {k: v for k, v in r.items()
            if k not in ("config", "wall_seconds", "tables", "prediction")}


plain = run(NDLC, OUT, "torus-plain", TORUS + SEVEN)
never = run(NDLC, OUT, "torus-never", TORUS + SEVEN + predictor("Never") + NEVER)
check("a predictor that never predicts measures what the 7-clock router does",
      results(plain) == results(never) and never["prediction"]["predictions"] == 0)

# ---- rates and counts of every stdlib predictor
state_bytes = {}
for name in ("StaticStraight", "LastPort", "SampledPatternMatching", "AntiDictionary", "Oracle"):
    r = run(NDLC, OUT, f"torus-{name}", TORUS + SEVEN + predictor(name))
    state_bytes[name] = r["prediction"]["port_state_bytes"]
    p = r["prediction"]
    net, inj = p["network_ports"], p["injection_ports"]
    check(f"{name}: hit and PST rates in [0, 1], hits <= predictions <= hops, kinds add up",
          0 <= p["hit_rate"] <= 1 and 0 <= p["pst_rate"] <= 1
          and p["hits"] <= p["predictions"] <= p["hops"]
          and net["hits"] + inj["hits"] == p["hits"]
          and net["predictions"] + inj["predictions"] == p["predictions"]
          and net["hops"] + inj["hops"] == p["hops"] > 0, str(p))
    if name == "Oracle":
        check("Oracle hits every prediction it makes", p["hit_rate"] == 1.0, str(p))
        # One predictor per router, served round robin: an injection port, the router's last
        # VCs, is refused it about as often as a network port (lowest VC first refused it 2.5
        # times as often: 6.4% of its hops against 2.5%).
        share = {k: p[k]["not_predicted_busy"] / p[k]["hops"]
                 for k in ("network_ports", "injection_ports")}
        check("round robin: injection ports wait for the predictor no more than network ports",
              share["injection_ports"] < 1.5 * share["network_ports"], str(share))
        check("Oracle lowers the mean latency below the 7-clock router's",
              r["latency_cycles"]["packet"]["mean"] < plain["latency_cycles"]["packet"]["mean"])

# ---- ndlc info: the hop on both paths, and the rings in the memory estimate
plain_info = info(NDLC, OUT, "info-plain", TORUS + SEVEN)
ad_info = info(NDLC, OUT, "info-ad", TORUS + SEVEN + predictor("AntiDictionary"))
pipe = ad_info["pipeline"]
check("ndlc info: a hop costs 7 clocks on the normal path, 2 (IB 1 + ST 1) when predicted",
      pipe["zero_load_hop_clocks"] == 7 and pipe["predictive"]["zero_load_hop_clocks"] == 2
      and "predictive" not in plain_info["pipeline"], str(pipe))
# 64 routers x (6 input + 1 injection ports) x (170 one-byte symbols + 4 bytes of head)
rings = 64 * 7 * (170 + 4)
check("the memory estimate counts the rings the simulator allocated",
      ad_info["simulator_memory_bytes"] - plain_info["simulator_memory_bytes"] == rings
      == state_bytes["AntiDictionary"],
      f"{ad_info['simulator_memory_bytes'] - plain_info['simulator_memory_bytes']} estimated, "
      f"{state_bytes['AntiDictionary']} allocated, {rings} expected")

# ---- the tentative reservation: a hit asks for its output VC after every normal request, and
# takes the normal pipeline when it gets none. At zero load none is lost (above); under load
# some are, and the PST rate (hits whose reservation held, over hops) falls (seed 001, 5.2).
light = run(NDLC, OUT, "torus-oracle-light",
            TORUS.replace("(MessageCreationRate 2%)", "(MessageCreationRate 0.5%)")
            + SEVEN + predictor("Oracle"))["prediction"]
heavy = run(NDLC, OUT, "torus-oracle-heavy",
            TORUS.replace("(MessageCreationRate 2%)", "(MessageCreationRate 4%)")
            + SEVEN + predictor("Oracle"))["prediction"]
check("under load some tentative reservations are lost, and PST rate = (hits - lost) / hops",
      heavy["reservations_lost"] > 0 and heavy["reservations_lost"] <= heavy["hits"]
      and abs(heavy["pst_rate"] - (heavy["hits"] - heavy["reservations_lost"]) / heavy["hops"])
      < 1e-12, str(heavy))
check("the PST rate falls with load while Oracle's hit rate stays 1",
      heavy["pst_rate"] < light["pst_rate"] and heavy["hit_rate"] == light["hit_rate"] == 1.0,
      f"{light['pst_rate']:.3f} at 0.5%, {heavy['pst_rate']:.3f} at 4%")

# ---- StaticStraight against LastPort, uniform traffic, dimension order, 8-ary 3-cube
CUBE = TORUS.replace("(Torus 4 4 4)", "(Torus 8 8 8)").replace("3000", "6000")
ss = run(NDLC, OUT, "cube-ss", CUBE + SEVEN + predictor("StaticStraight"))["prediction"]
lp = run(NDLC, OUT, "cube-lp", CUBE + SEVEN + predictor("LastPort"))["prediction"]
check("uniform, dimension order: StaticStraight hits more often than LastPort",
      ss["hit_rate"] > lp["hit_rate"], f"SS {ss['hit_rate']:.3f}, LP {lp['hit_rate']:.3f}")

# ---- conservation with predicted headers in flight
busy = run(NDLC, OUT, "torus-busy",
           TORUS.replace("(MessageCreationRate 2%)", "(MessageCreationRate 30%)")
           .replace("(MessageCreationMax 3000)",
                    "(MessageCreationMax 100000000)\n(SimulationTime 4000clock)")
           + SEVEN + predictor("LastPort"), status="time_limit")
pk = busy["packets"]
check("past saturation with a predictor: packets created = delivered + dropped + in flight",
      pk["created"] == pk["delivered"] + pk["dropped"] + pk["in_flight"] and pk["in_flight"] > 0
      and busy["conservation"]["holds"], str(pk))

# ---- without hint bits, past saturation: copies in flight when the run stops. Copies are
# counted as they are sent (the network), as their records are freed and as records still held
# (the simulator): sent = freed + held. Packets' conservation leaves them out. The copies take
# link bandwidth from the packets: fewer flits are accepted than with hint bits.
LP_M2 = ('(import "predictors")\n(define-predictor (LastPortM2)\n'
         '  (OnForward (push history (out-port)))\n'
         '  (if (detection-port 2 (injected) (arrived-along) current) (no-port)\n'
         '      (if (= (ring-length history) 0) (no-port) (ring-ref history 0))))\n'
         '(Predictor LastPortM2)\n' + PST)
SATURATED = (TORUS.replace("(MessageCreationRate 2%)", "(MessageCreationRate 30%)")
             .replace("(MessageCreationMax 3000)",
                      "(MessageCreationMax 100000000)\n(SimulationTime 4000clock)") + SEVEN + LP_M2)
busy_hint = run(NDLC, OUT, "torus-busy-hint", SATURATED, status="time_limit")
busy_none = run(NDLC, OUT, "torus-busy-none", SATURATED + "(MispredictionCheck None)\n",
                status="time_limit")
pk, bp = busy_none["packets"], busy_none["prediction"]
check("no hint bits, past saturation: packets created = delivered + dropped + in flight",
      pk["created"] == pk["delivered"] + pk["dropped"] + pk["in_flight"] and pk["in_flight"] > 0
      and busy_none["conservation"]["holds"], str(pk))
check("no hint bits: copies sent = copies freed + copies held, some still travelling",
      bp["mispredicted_packets"] == bp["mispredicted_freed"] + bp["mispredicted_in_flight"]
      and bp["mispredicted_in_flight"] > 0 and bp["mispredicted_freed"] > 0
      and bp["mispredicted_found"] >= bp["mispredicted_freed"], str(bp))
acc_hint = busy_hint["throughput"]["accepted_flits_per_node_cycle"]
acc_none = busy_none["throughput"]["accepted_flits_per_node_cycle"]
check("past saturation the copies cost accepted throughput (seed 001, figure 5)",
      acc_none < acc_hint, f"{acc_none:.4f} without hint bits, {acc_hint:.4f} with")
