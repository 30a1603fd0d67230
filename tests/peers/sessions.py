"""sessions.py -- the checker processes a peers script runs, each in its
own session (tests/fuzz_explore/peers.py, tests/bench/peers.py): killed
with their children when the script is stopped (SIGTERM, ^C)."""
import os
import signal
import sys

ACTIVE = set()   # process groups of the checkers running now


def killpg_quiet(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


def on_signal(sig, frame):
    for pg in list(ACTIVE):
        killpg_quiet(pg)
    sys.stderr.write('%s: stopped by signal %d\n' % (os.path.basename(sys.argv[0]), sig))
    os._exit(130)
