"""Starts a simulator, sends it SIGINT after a second, and checks that it
exits with code 3 (a reported runtime stop) within a few seconds."""
import signal
import subprocess
import sys
import time

sim, json_path = sys.argv[1], sys.argv[2]
p = subprocess.Popen([sim, "--json", json_path, "--quiet"])
time.sleep(1.0)
p.send_signal(signal.SIGINT)
try:
    code = p.wait(timeout=30)
except subprocess.TimeoutExpired:
    p.kill()
    sys.exit("the simulator did not stop after SIGINT")
if code != 3:
    sys.exit(f"expected exit code 3 after SIGINT, got {code}")
print("stopped with exit code 3")
