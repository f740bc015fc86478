"""The pattern reader on a large file: writes a pattern of about SIZE_MB megabytes with every
operation spelled out (no repeat: the worst case for the reader), then times `ndlc check` on a
4,096-node hypercube naming it (its own checks take 0.2 s) and reports its peak memory (bench/RESULTS.md, "Workloads").

reader.py NDLC OUT_DIR [SIZE_MB]
"""
import pathlib
import resource
import subprocess
import sys
import time

ndlc, out = sys.argv[1], pathlib.Path(sys.argv[2])
size_mb = float(sys.argv[3]) if len(sys.argv) > 3 else 100
out.mkdir(parents=True, exist_ok=True)
nodes = 4096
# Per node and iteration: a send to the right neighbour and a receive from the left one,
# about 40 bytes: iterations to reach the size.
iterations = int(size_mb * 1e6 / (nodes * 40))
cpf = out / "large.cpf"
with open(cpf, "w") as f:
    f.write(f"; {iterations} explicit ring exchanges per node\nnodes {nodes}\n")
    for n in range(nodes):
        f.write(f"node {n}\n")
        for i in range(iterations):
            f.write(f"  send {(n + 1) % nodes} 64byte tag {i}\n  recv {(n - 1) % nodes} tag {i}\n")
ndl = out / "large.ndl"
ndl.write_text("(Topology (Hypercube 12))\n(NetworkChannelWidth 32bit)\n(NetworkFrequency 100MHz)\n"
               '(NetworkPacketSize 256bit)\n(CommunicationPatternFile "large.cpf")\n')
ops = 2 * nodes * iterations
start = time.perf_counter()
r = subprocess.run([ndlc, "check", str(ndl)], capture_output=True, text=True)
wall = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
if r.returncode != 0:
    sys.exit(r.stderr)
mb = cpf.stat().st_size / 1e6
print(f"pattern {mb:.1f} MB, {ops:,} operations ({nodes} nodes x {iterations} exchanges): "
      f"ndlc check {wall:.1f} s, peak memory {peak:.0f} MB = {peak * 1048576 / ops:.1f} bytes "
      f"per operation, {peak / mb:.2f} per byte of file")
