#!/bin/sh
# make bench: a table of program, model, strategy, executions, seconds,
# executions/s, events, ptrace stops per event — measured in one run (the
# machines are shared: compare rows of the same run, as ratios).
cd "$(dirname "$0")/../.." || exit 2
X=${X86SMC:-./x86smc}
printf '%-28s %-5s %-9s %6s %8s %8s %8s %10s\n' program model strategy execs seconds exec/s events stops/ev
for s in mutex_counter condvar_pc barrier rwlock semaphore tls printf_threads \
	 eight_threads nested_create join_value long_main; do
	for opt in O0 O2; do
		b=build/samples/$s-$opt
		[ -x "$b" ] || continue
		$X --model sc --json /tmp/x86smc-bench.json "$b" >/dev/null 2>&1
		python3 - "$s-$opt" <<'PY'
import json, sys
j = json.load(open("/tmp/x86smc-bench.json"))
e, t = j["executions"], max(j["elapsed_s"], 1e-6)
ev = j["events"]
print("%-28s %-5s %-9s %6d %8.3f %8.1f %8d %10.2f" % (sys.argv[1], j["model"],
      j["strategy"], e, t, e / t, ev, j["ptrace_stops"] / ev if ev else 0))
PY
	done
done
echo
echo "native vs x86smc, long_main (10^8 iterations before the first thread):"
for opt in O0 O2; do
	b=build/samples/long_main-$opt
	n0=$(date +%s.%N); $b >/dev/null; n1=$(date +%s.%N)
	$X $b >/dev/null; n2=$(date +%s.%N)
	python3 -c "import sys; a,b,c=map(float,sys.argv[1:]); print('  %s: native %.3f s, x86smc %.3f s, ratio %.2f' % ('$opt', b-a, c-b, (c-b)/(b-a)))" $n0 $n1 $n2
done
echo
[ -x build/decode-diff ] && ./build/decode-diff --bench 2>/dev/null | tail -3
exit 0
