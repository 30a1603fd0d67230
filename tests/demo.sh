#!/bin/sh
# make demo: run x86smc on a bundled sample and show a real bug.
cd "$(dirname "$0")/.." || exit 2
X=${X86SMC:-./x86smc}
echo "== samples/lock_order.c: two threads take mutexes A and B in"
echo "== opposite orders.  Natively it usually finishes:"
./build/samples/lock_order-O0
echo
echo "== x86smc drives it, under the schedule in"
echo "== tests/e2e/schedules/lock_order.sched, into the deadlock:"
$X --replay tests/e2e/schedules/lock_order.sched build/samples/lock_order-O0 2>/dev/null
rc=$?
echo
echo "== x86smc exit status $rc (1 = error found)"
[ "$rc" = 1 ]
