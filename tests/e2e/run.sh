#!/bin/sh
# End-to-end tests of x86smc (run by `make e2e` / `make check`).
#
#   sh tests/e2e/run.sh [CASE-GLOB...]
#
# Prints one line per case (PASS / FAIL / SKIP name: reason), then
#   e2e: N passed, N failed, N skipped
# and exits 1 if any case failed.  Environment:
#   X86SMC=./x86smc        binary under test (e.g. ./x86smc-debug)
#   E2E_SAMPLES=build/samples   where `make samples` put NAME-O0 / NAME-O2
#   E2E_TIMEOUT=60         seconds per x86smc run (timeout -k 5 ...)
#   E2E_LOGDIR=build/e2e   one log per case: command, status, stdout, stderr, JSON
# See tests/e2e/README.md.
cd "$(dirname "$0")/../.." || exit 2
if ! command -v python3 >/dev/null 2>&1; then
	echo "e2e: python3 not found" >&2
	exit 2
fi
exec python3 tests/e2e/e2e.py "$@" </dev/null
