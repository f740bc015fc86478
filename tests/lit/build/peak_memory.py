"""peak_memory.py INFO.json SIM: runs SIM --quiet and compares its peak resident memory with
the estimate `ndlc info --json` gave (simulator_memory_bytes); fails beyond 5%."""
import json
import resource
import subprocess
import sys

estimate = json.load(open(sys.argv[1]))["simulator_memory_bytes"]
subprocess.run([sys.argv[2], "--quiet"], check=True)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
ok = abs(peak - estimate) <= 0.05 * estimate
print(f"estimate {estimate} bytes, peak resident {peak} bytes: {'within' if ok else 'NOT within'} 5%")
sys.exit(0 if ok else 1)
