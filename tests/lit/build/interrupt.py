"""interrupt.py SIM JSON [SIGNAL]: starts a simulator, sends it SIGNAL
(default SIGINT; SIGTERM is handled alike) after a second, and checks that
it exits with code 3 (a reported runtime stop) within a few seconds."""
import signal
import subprocess
import sys
import time

sim, json_path = sys.argv[1], sys.argv[2]
sig = getattr(signal, sys.argv[3]) if len(sys.argv) > 3 else signal.SIGINT
p = subprocess.Popen([sim, "--json", json_path, "--quiet"])
time.sleep(1.0)
p.send_signal(sig)
try:
    code = p.wait(timeout=30)
except subprocess.TimeoutExpired:
    p.kill()
    sys.exit(f"the simulator did not stop after {sig.name}")
if code != 3:
    sys.exit(f"expected exit code 3 after {sig.name}, got {code}")
print(f"stopped with exit code 3 after {sig.name}")
