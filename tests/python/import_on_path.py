"""`python3 -c "import ndl; print(ndl.sweep(...))"` as the README promises, with the python3
on PATH: the package imports, finds its ndlc, and returns a DataFrame of a small sweep."""
import sys
from pathlib import Path

import ndl

# The small mesh of the pytest suite (conftest.py's MESH), read as text: conftest itself
# imports pytest, which this interpreter need not have.
conftest = (Path(__file__).resolve().parent / "conftest.py").read_text()
program = conftest.split('MESH = """', 1)[1].split('"""', 1)[0]
df = ndl.sweep(program, {"OfferedLoad": ["5%", "15%"]})
print(df[["OfferedLoad", "status", "throughput.accepted_flits_per_node_cycle"]])
accepted = list(df["throughput.accepted_flits_per_node_cycle"])
# Below saturation the network accepts what is offered: within 10% of 0.05 and 0.15.
if len(df) != 2 or not (0.045 < accepted[0] < 0.055 and 0.135 < accepted[1] < 0.165):
    sys.exit(f"unexpected sweep: {accepted}")
print("ndl", Path(ndl.__file__).parent, "with pandas", ndl.frames.pandas().__version__)
