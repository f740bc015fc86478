#!/usr/bin/env python3
"""Runs a command and succeeds only if it exits with the given code:
   expect_exit.py CODE COMMAND [ARGS...]   (output passes through)."""
import subprocess
import sys

code = subprocess.call(sys.argv[2:])
if code != int(sys.argv[1]):
    print(f"expected exit code {sys.argv[1]}, got {code}", file=sys.stderr)
    sys.exit(1)
