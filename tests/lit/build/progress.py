"""progress.py SIM [ARGS...]: runs a simulator with its stderr on a
terminal (a pseudo-terminal) for 3 seconds, stops it with SIGINT and prints
what it wrote there: the progress line that appears after 2 s."""
import os
import pty
import signal
import subprocess
import sys
import time

master, slave = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=slave)
os.close(slave)
time.sleep(3.0)
p.send_signal(signal.SIGINT)
out = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:  # the terminal closed with the process
        break
    if not chunk:
        break
    out += chunk
p.wait(timeout=30)
# Each refresh starts with a carriage return: one line per refresh.
print(out.decode(errors="replace").replace("\r", "\n"))
