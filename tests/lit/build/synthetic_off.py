"""synthetic_off.py NDLC DIR: (MessageCreationRate 0%) switches synthetic traffic off.

A ping-pong pattern file with uniform background traffic: under `--set
MessageCreationRate=0%` the run is the pattern's alone, bit for bit the run of the same
program without the synthetic forms (the forms that shape synthetic messages are then
no-effect warnings); with the background on, more messages travel. A rate of 0% without a
pattern file is an error at the form (tests/lit/diagnostics/fail_zero_rate_no_pattern.ndl).
"""
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from ndltest import check, run  # noqa: E402

NDLC, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)
subprocess.run([NDLC, "pattern", "pingpong", "--nodes", "9", "--from", "0", "--to", "8",
                "--iterations", "5", "--size", "16byte", "-o", str(OUT / "pp.cpf")], check=True)
BASE = """(Topology (Mesh 3 3))
(RoutingAlgorithm DimensionOrder)
(FlowControlMethod VirtualCutThrough)
(NetworkChannelWidth 32bit)
(NetworkFrequency 100MHz)
(NetworkPacketSize 256bit)
(NetworkDataSize 192bit)
(CommunicationPatternFile "pp.cpf")
"""
BACKGROUND = "(MessageCreationRate 1%)\n(TrafficPattern Uniform)\n(MessageCreationMax 400)\n"

alone = run(NDLC, OUT, "alone", BASE)
both = run(NDLC, OUT, "both", BASE + BACKGROUND)
src = OUT / "both.ndl"
js = OUT / "off.json"
p = subprocess.run([NDLC, "run", str(src), "--set", "MessageCreationRate=0%", "--", "--json",
                    str(js)], capture_output=True, text=True)
check("--set MessageCreationRate=0% is accepted", p.returncode == 0, p.stderr.strip()[-400:])
check("... and the shaping forms are no-effect warnings",
      "TrafficPattern has no effect" in p.stderr and "[no-effect]" in p.stderr, p.stderr[-400:])
off = json.loads(js.read_text())


def results(r):
    return {k: v for k, v in r.items() if k not in ("config", "wall_seconds", "tables")}


check("the ping-pong alone: 10 messages", alone["messages"]["delivered"] == 10,
      str(alone["messages"]))
check("with the background on, more messages travel",
      both["messages"]["delivered"] > alone["messages"]["delivered"], str(both["messages"]))
check("background off by --set: the run of the program without synthetic traffic, bit for bit",
      results(off) == results(alone))
