"""configured_load.py NDLC DIR: the results' config.OfferedLoad_flits_per_node_cycle, the load a
run's configuration offers in flits per endpoint per clock, against the same figure computed
here from the rate and the message lengths as a source draws them (uniform over the range, in
whole bytes when both ends are; ceil(bits / data bits) packets of the packet's flits each):
- (OfferedLoad 10%) states 0.1 (to 1e-12), and a steady run on a 4x4 mesh offers it (the
  measured offered load within 5%);
- (MessageCreationRate 2%) with lengths of 8 to 40 bytes: 0.02 times their mean flits;
- (MessageCreationInterval 50clock), periodic: 1/50 times the flits of a 256-bit message;
- two classes: the sum of each class's rate times its mean flits;
- a trace: null (its messages are the load).
"""
import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import ndltest  # noqa: E402
from ndltest import check  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)
BASE = ("(Topology (Mesh 4 4))\n(NetworkChannelWidth 32bit)\n(NetworkFrequency 100MHz)\n"
        "(NetworkPacketSize 128bit)\n(VirtualChannels 2)\n")


def mean_flits(cfg, lo, hi):
    step = 8 if lo % 8 == 0 and hi % 8 == 0 else 1
    data, per = cfg["NetworkDataSize_bits"], cfg["NetworkPacketSize_flits"]
    lengths = range(lo, hi + 1, step)
    return sum(math.ceil(b / data) * per for b in lengths) / len(lengths)


r = ndltest.run(NDLC, OUT, "load", BASE + "(OfferedLoad 10%)\n(MessageLength 8byte to 40byte)\n")
got = r["config"]["OfferedLoad_flits_per_node_cycle"]
check("OfferedLoad 10%: the configured load is 0.1", abs(got - 0.1) < 1e-12, str(got))
offered = r["throughput"]["offered_flits_per_node_cycle"]
check("OfferedLoad 10%: the steady run offers it", abs(offered - 0.1) <= 0.005, str(offered))

r = ndltest.run(NDLC, OUT, "rate", BASE + "(MessageCreationRate 2%)\n"
                "(MessageLength 8byte to 40byte)\n(Measurement Burst)\n(MessageCreationMax 500)\n")
cfg = r["config"]
want = 0.02 * mean_flits(cfg, 64, 320)
got = cfg["OfferedLoad_flits_per_node_cycle"]
check("MessageCreationRate 2%: the rate times the mean flits drawn", abs(got - want) < 1e-12,
      f"{got} vs {want}")

r = ndltest.run(NDLC, OUT, "periodic", BASE + "(InjectionProcess Periodic)\n"
                "(MessageCreationInterval 500nsec)\n(MessageLength 256bit)\n(Measurement Burst)\n"
                "(MessageCreationMax 500)\n")
cfg = r["config"]
want = mean_flits(cfg, 256, 256) / 50
got = cfg["OfferedLoad_flits_per_node_cycle"]
check("MessageCreationInterval: a message every 50 clocks times its flits",
      abs(got - want) < 1e-12, f"{got} vs {want}")

r = ndltest.run(NDLC, OUT, "classes", BASE + "(TrafficClass small (MessageCreationRate 1%) "
                "(MessageLength 64bit))\n(TrafficClass large (MessageCreationRate 0.5%) "
                "(MessageLength 512bit))\n(Measurement Burst)\n(MessageCreationMax 500)\n")
cfg = r["config"]
want = 0.01 * mean_flits(cfg, 64, 64) + 0.005 * mean_flits(cfg, 512, 512)
got = cfg["OfferedLoad_flits_per_node_cycle"]
check("classes: the sum of the classes' loads", abs(got - want) < 1e-12, f"{got} vs {want}")

trace = OUT / "t.trace"
trace.write_text("nodes 16\n0 0 5 256bit\n10 3 9 256bit\n")
r = ndltest.run(NDLC, OUT, "trace", BASE + f'(InjectionProcess (Trace "{trace}"))\n')
check("a trace: no configured load", r["config"]["OfferedLoad_flits_per_node_cycle"] is None)
