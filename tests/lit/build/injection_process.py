"""injection_process.py NDLC DIR: the injection processes (InjectionProcess, docs/runtime.md 2.7)
against their formulas. 64 sources on an 8x8 mesh create at 2% per clock for 200,000 clocks;
the data series counts the messages created in each 100-clock window, summed over the
sources. Sources are independent, so a window's count has mean 64 W r and variance 64 times
one source's:
- Bernoulli: W r (1 - r).
- Periodic, one message every 50 clocks: exactly W / 50 per source in every window (0).
- OnOff, a Markov-modulated Bernoulli process (on -> off with b = 1/burst, off -> on with
  a = b d / (1 - d), creating at l = r / d while on): W r (1 - r) + 2 sum_{k=1}^{W-1} (W - k)
  l^2 d (1 - d) (1 - a - b)^k, from the covariance of two clocks k apart, computed here from
  the chain, not from the simulator's code.
Variances are compared within 12% (about 4 standard errors of a sample variance over
2,000 windows), means within 3% (4% for OnOff, whose windows are correlated). A blocked OnOff source (a queue of one message, Block)
creates less than the rate asks and refuses nothing. Traffic classes with processes of
their own add their means and variances (a Bernoulli and an OnOff class; a Periodic class 0
and a Bernoulli one); a top-level process is each class's.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from ndltest import check, run  # noqa: E402

ndlc, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)

SOURCES, RATE, W, CLOCKS = 64, 0.02, 100, 200000
PROGRAM = f"""(Topology (Mesh 8 8))
(NetworkChannelWidth 32bit)
(NetworkFrequency 50MHz)
(NetworkPacketSize 128bit)
(MessageCreationRate {RATE * 100:g}%)
(MessageCreationMax 1000000000)
(SimulationTime {CLOCKS}clock)
(SimulationInterval {W}clock)
"""


def windows(r):
    rows = r["series"]["rows"]
    check("windows of the SimulationInterval", r["series"]["interval_cycles"] == W)
    counts = [x["created"] for x in rows if x["end_cycle"] % W == 0 and x["end_cycle"] > 0]
    check("a whole run of windows", len(counts) == CLOCKS // W, f"{len(counts)}")
    n = len(counts)
    mean = sum(counts) / n
    var = sum((c - mean) ** 2 for c in counts) / (n - 1)
    return counts, mean, var


def on_off_variance(burst, duty):
    lam, b = RATE / duty, 1 / burst
    a = b * duty / (1 - duty)
    rho = 1 - a - b
    cov = sum((W - k) * lam * lam * duty * (1 - duty) * rho ** k for k in range(1, W))
    return SOURCES * (W * RATE * (1 - RATE) + 2 * cov)


def near(x, want, tol):
    return abs(x - want) <= tol * want


MEAN = SOURCES * W * RATE
BERNOULLI = SOURCES * W * RATE * (1 - RATE)

r = run(ndlc, out, "bernoulli", PROGRAM, status="time_limit")
check("Bernoulli is the default process", r["config"]["creation_process"] == "bernoulli")
bernoulli, mean, var = windows(r)
check("Bernoulli: mean per window", near(mean, MEAN, 0.03), f"{mean:.2f} vs {MEAN:.2f}")
check("Bernoulli: variance per window", near(var, BERNOULLI, 0.12), f"{var:.1f} vs {BERNOULLI:.1f}")

r = run(ndlc, out, "periodic", PROGRAM + "(InjectionProcess Periodic)\n", status="time_limit")
check("Periodic: named in the results", r["config"]["creation_process"] == "periodic" and
      r["config"]["MessageCreationInterval_clocks"] == 50)
counts, _, _ = windows(r)
check("Periodic: every window creates exactly 2 messages per source",
      set(counts) == {SOURCES * W // 50}, f"{sorted(set(counts))}")

for burst, duty in ((200, 0.25), (10, 0.2)):
    name = f"onoff-{burst}-{int(duty * 100)}"
    r = run(ndlc, out, name, PROGRAM, status="time_limit",
            sets=[f"InjectionProcess=(OnOff (Burst {burst}clock) (Duty {duty * 100:g}%))"])
    p = r["config"]
    check(f"{name}: named in the results", p["creation_process"] == "on_off" and
          p["OnOffBurst_clocks"] == burst and p["OnOffDuty"] == duty)
    _, mean, var = windows(r)
    want = on_off_variance(burst, duty)
    check(f"{name}: mean per window", near(mean, MEAN, 0.04), f"{mean:.2f} vs {MEAN:.2f}")
    check(f"{name}: variance per window", near(var, want, 0.12), f"{var:.1f} vs {want:.1f}")
    check(f"{name}: burstier than Bernoulli", var > 1.3 * BERNOULLI,
          f"{var:.1f} vs {BERNOULLI:.1f}")

# Always on: the Bernoulli process again, draw for draw.
r = run(ndlc, out, "onoff-always", PROGRAM, status="time_limit",
        sets=["InjectionProcess=(OnOff (Burst 50clock) (Duty 100%))"])
always, _, var = windows(r)
check("OnOff at 100%: Bernoulli's variance", near(var, BERNOULLI, 0.12),
      f"{var:.1f} vs {BERNOULLI:.1f}")
check("OnOff at 100%: the Bernoulli run's creations, window by window", always == bernoulli)

# Blocked: while on, a source asks for 50% of the clocks, 4-flit packets, and its queue holds
# one message; held sources create less than 5% and refuse nothing.
r = run(ndlc, out, "onoff-block", PROGRAM + "(MessageMaxCount 1)\n(InjectionQueueOverflow Block)\n",
        status="time_limit",
        sets=["MessageCreationRate=5%", "InjectionProcess=(OnOff (Burst 400clock) (Duty 10%))"])
m = r["messages"]
created = sum(x["created"] for x in r["series"]["rows"])
check("blocked: the series counts every creation", created == m["created"],
      f"{created} vs {m['created']}")
check("blocked: nothing refused", m["refused"] == 0)
check("blocked: held sources create less than the rate",
      m["created"] < 0.9 * SOURCES * CLOCKS * 0.05, f"{m['created']}")
check("blocked: conservation", r["conservation"]["holds"])
# Traffic classes, each with its process (its own InjectionProcess, or the top level's): the
# classes' creations are independent, so a window's count has the sum of their means and
# variances. The base program's rate goes into the classes.
CLASSES = PROGRAM.replace(f"(MessageCreationRate {RATE * 100:g}%)\n", "")
r = run(ndlc, out, "classes-onoff", CLASSES + f"""(TrafficClass a (MessageCreationRate {RATE * 100:g}%))
(TrafficClass b (MessageCreationRate {RATE * 100:g}%) (InjectionProcess (OnOff (Burst 10clock) (Duty 20%))))
""", status="time_limit")
_, mean, var = windows(r)
want = BERNOULLI + on_off_variance(10, 0.2)
check("classes, Bernoulli and OnOff: mean per window", near(mean, 2 * MEAN, 0.04),
      f"{mean:.2f} vs {2 * MEAN:.2f}")
check("classes, Bernoulli and OnOff: the sum of their variances", near(var, want, 0.12),
      f"{var:.1f} vs {want:.1f}")
check("classes: burstier than two Bernoulli classes", var > 1.3 * 2 * BERNOULLI,
      f"{var:.1f} vs {2 * BERNOULLI:.1f}")
r = run(ndlc, out, "classes-periodic", CLASSES + f"""(TrafficClass a (MessageCreationInterval 50clock) (InjectionProcess Periodic))
(TrafficClass b (MessageCreationRate {RATE * 100:g}%))
""", status="time_limit")
_, mean, var = windows(r)
check("classes, Periodic (class 0) and Bernoulli: mean per window", near(mean, 2 * MEAN, 0.03),
      f"{mean:.2f} vs {2 * MEAN:.2f}")
check("classes, Periodic and Bernoulli: Bernoulli's variance alone", near(var, BERNOULLI, 0.12),
      f"{var:.1f} vs {BERNOULLI:.1f}")
a = r["classes"][0]["messages"]["created"]
check("classes: the periodic class creates every 50 clocks exactly", a == SOURCES * CLOCKS // 50,
      f"{a}")
r = run(ndlc, out, "classes-default", CLASSES + """(InjectionProcess Periodic)
(TrafficClass a (MessageCreationInterval 50clock))
(TrafficClass b (MessageCreationInterval 25clock))
""", status="time_limit")
counts, _, _ = windows(r)
check("classes: the top-level process is every class's",
      set(counts) == {SOURCES * (W // 50 + W // 25)}, f"{sorted(set(counts))}")
# A class sent only in reply has no process, whatever the top level's: class 0 here.
r = run(ndlc, out, "classes-reply-first", CLASSES + """(InjectionProcess Periodic)
(TrafficClass data (MessageLength 64bit))
(TrafficClass read (MessageCreationInterval 50clock) (Reply data))
""", status="time_limit")
data, read = (c["messages"] for c in r["classes"])
check("classes: a reply-only class 0 sends only replies",
      read["created"] == SOURCES * CLOCKS // 50 and data["created"] == read["delivered"],
      f"{read} {data}")
print("injection_process: all checks passed")
