"""Runs a command and succeeds only when it exits with the given status.

  expect-status.py STATUS COMMAND [ARGS...]
"""
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write("expected exit status %d, got %d\n" % (want, got))
    sys.exit(1)
