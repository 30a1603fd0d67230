#!/bin/sh
# make bench: tables measured in one run (the machines are shared: compare
# rows of the same run, as ratios).
cd "$(dirname "$0")/../.." || exit 2
X=${X86SMC:-./x86smc}
J=/tmp/x86smc-bench.$$.json

row() { # label model [x86smc options] binary [args]
	label=$1
	shift
	$X --json $J "$@" >/dev/null 2>&1
	python3 - "$label" "$J" <<'PY'
import json, sys
j = json.load(open(sys.argv[2]))
e, t, ev = j["executions"], max(j["elapsed_s"], 1e-6), j["events"]
print("%-30s %-4s %-10s %7d %7d %8.2f %9.1f %8d %8.2f %7.0f%% %s" % (sys.argv[1], j["model"],
      j["strategy"], e, j["blocked_executions"], t, e / t, ev,
      j["ptrace_stops"] / ev if ev else 0,
      100.0 * j.get("replayed_events", 0) / ev if ev else 0,
      "yes" if j["complete"] else "no"))
PY
}

header() {
	printf '%-30s %-4s %-10s %7s %7s %8s %9s %8s %8s %8s %s\n' program model \
		strategy execs blocked seconds exec/s events stops/ev replayed complete
}

# The same search with --jobs 1 and --jobs 2, one after the other.
jobs_row() { # label [x86smc options] binary [args]
	label=$1
	shift
	$X --jobs 1 --json $J.1 "$@" >/dev/null 2>&1
	$X --jobs 2 --json $J.2 "$@" >/dev/null 2>&1
	python3 - "$label" "$J.1" "$J.2" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[2:4])
ta, tb = max(a["elapsed_s"], 1e-6), max(b["elapsed_s"], 1e-6)
ev = a["events"]
same = "same" if (a["complete"] == b["complete"] and a["hb_classes"] == b["hb_classes"]
                  and sorted((o["stdout"], o["status"]) for o in a["outcomes"]) ==
                  sorted((o["stdout"], o["status"]) for o in b["outcomes"])) else "DIFFER"
print("%-26s %-4s %-10s %6d %7.2f %8.1f %8.2f | %6d %7.2f %8.1f %6.2fx  %s" % (
    sys.argv[1], a["model"], a["strategy"], a["executions"], ta, a["executions"] / ta,
    a["ptrace_stops"] / ev if ev else 0, b["executions"], tb, b["executions"] / tb,
    ta / tb, same))
PY
	rm -f $J.1 $J.2
}

echo "== exploration under sc, tso and pso (dpor, default options, every error)"
header
for s in disjoint counter_racy:2:2 counter_mutex:2:1 dekker dekker_fenced \
	 peterson_fenced bakery_fenced szymanski_fenced mp_flag condvar_ok \
	 barrier_ok semaphore_ok spin_tas ticket_lock seqlock chase_lev_fenced; do
	name=${s%%:*}
	args=$(echo "$s" | tr ':' ' ' | cut -d' ' -f2-)
	[ "$args" = "$name" ] && args=
	for m in sc tso pso; do
		row "$name $args" --model $m --keep-going build/samples/$name-O2 $args
	done
done
echo
echo "== where the time goes (--profile, issue 24): the search against its floor"
echo "   (floor = ptrace stops x one stop measured in that run + one restore per"
echo "   execution, in place or a fork, at that run's mean; parts in % of the"
echo "   search; start%: forks, kills and restores in place)"
printf '%-22s %-4s %6s %7s %7s %6s %6s %6s %6s %6s %6s %6s\n' program model \
	execs seconds floor xfloor wait% ptrc% mem% start% replay% dpor%
prow() { # label model binary [args]
	label=$1
	shift
	$X --profile --keep-going --fence-check off --json $J --model "$@" \
		>/dev/null 2>$J.err
	python3 - "$label" "$J" "$J.err" <<'PY'
import json, re, sys
j = json.load(open(sys.argv[2]))
p = j["profile"]
err = open(sys.argv[3]).read()
m = re.search(r"= ([0-9.]+) s;", err)
floor = float(m.group(1)) if m else 0
search = p["total_s"] - p["fence_check_s"] - p["report_s"]
pc = lambda k: 100 * p[k] / search if search > 0 else 0
print("%-22s %-4s %6d %7.2f %7.3f %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f" % (
    sys.argv[1], j["model"], j["executions"], search, floor,
    search / floor if floor else 0, pc("wait_s"), pc("ptrace_s"), pc("memory_s"),
    pc("fork_s") + pc("kill_s") + pc("recycle_s"), pc("replay_s"),
    pc("dpor_s")))
PY
	rm -f $J.err
}
prow "dekker_fenced" tso build/samples/dekker_fenced-O2
prow "szymanski_fenced" tso build/samples/szymanski_fenced-O2
prow "spin_tas" tso build/samples/spin_tas-O2
prow "condvar_ok" tso build/samples/condvar_ok-O2
prow "counter_mutex 2 1" sc build/samples/counter_mutex-O2 2 1
prow "seqlock" sc build/samples/seqlock-O2
prow "fib_rf2" sc build/samples/fib_rf2-O2
echo
echo "== strategies on dekker (tso): icb up to 2 preemptions, random and pct seeded"
header
row "dekker_fenced icb 2" --model tso --strategy icb --preemptions 2 build/samples/dekker_fenced-O2
row "dekker icb 2" --model tso --strategy icb --preemptions 2 build/samples/dekker-O2
row "dekker random 1000" --model tso --strategy random --seed 1 --keep-going --max-executions 1000 build/samples/dekker-O2
row "dekker pct 1000" --model tso --strategy pct --seed 1 --keep-going --max-executions 1000 build/samples/dekker-O2
echo
echo "== litmus tests (all executions)"
header
for t in sb mp iriw n6 mixed_forward; do
	for m in sc tso pso; do
		row "litmus/$t" --model $m build/samples/litmus/$t-O2
	done
done
echo
echo "== --jobs 2 against --jobs 1 (2 workers, each pinned to its own CPU)"
printf '%-26s %-4s %-10s %6s %7s %8s %8s | %6s %7s %8s %7s  %s\n' program model \
	strategy execs seconds exec/s stops/ev execs seconds exec/s speedup results
jobs_row "spin_tas" --model tso build/samples/spin_tas-O2
jobs_row "lost_wakeup" --model sc --keep-going build/samples/lost_wakeup-O2
jobs_row "szymanski" --model tso --keep-going build/samples/szymanski-O0
jobs_row "condvar_ok" --model tso build/samples/condvar_ok-O2
jobs_row "counter_mutex 2 2" --model sc build/samples/counter_mutex-O2 2 2
jobs_row "dekker_fenced icb 2" --model tso --strategy icb --preemptions 2 build/samples/dekker_fenced-O2
jobs_row "dekker random 2000" --model tso --strategy random --seed 1 --keep-going --max-executions 2000 build/samples/dekker-O2
echo
# One search over MPI ranks (x86smc-mpi, docs/DISTRIBUTED.md) against
# --jobs on this machine: -np 4 is oversubscribed on 2 CPUs.
XM=${X86SMC_MPI:-./x86smc-mpi}
MPIRUN="mpirun --oversubscribe --allow-run-as-root"
mpi_row() { # label [x86smc options] binary [args]
	label=$1
	shift
	for run in "j1:$X --jobs 1" "j2:$X --jobs 2" "np1:$MPIRUN -np 1 $XM" \
		   "np2:$MPIRUN -np 2 $XM" "np4:$MPIRUN -np 4 $XM"; do
		# shellcheck disable=SC2086 # the command is words
		${run#*:} --json $J.${run%%:*} "$@" >/dev/null 2>&1
	done
	python3 - "$label" $J <<'PY'
import json, sys
label, J = sys.argv[1:3]
r = {k: json.load(open("%s.%s" % (J, k))) for k in ("j1", "j2", "np1", "np2", "np4")}
rate = lambda j: j["executions"] / max(j["elapsed_s"], 1e-6)
base = r["j1"]
same = all(j["complete"] == base["complete"] and j["hb_classes"] == base["hb_classes"]
           for j in r.values())
bad = [k for k, j in r.items() if j["complete"] != base["complete"] or j["hb_classes"] != base["hb_classes"]]
print("%-24s %6d %s  %s" % (label, base["executions"], "  ".join(
    "%6.0f %5.2fx" % (rate(r[k]), rate(r[k]) / rate(base)) for k in r),
    "same" if same else "DIFFER: " + " ".join("%s %s %d" % (k, r[k]["complete"], r[k]["hb_classes"]) for k in bad)))
PY
	rm -f $J.j1 $J.j2 $J.np1 $J.np2 $J.np4
}
echo "== MPI ranks (mpirun, x86smc-mpi) against --jobs: executions/s and speedup over --jobs 1"
printf '%-24s %6s %13s %13s %13s %13s %13s\n' program execs "--jobs 1" "--jobs 2" \
	"-np 1" "-np 2" "-np 4 (over)"
mpi_row "counter_racy 3 2 sc" --model sc --keep-going build/samples/counter_racy-O2 3 2
mpi_row "dekker_fenced icb 2 tso" --model tso --strategy icb --preemptions 2 build/samples/dekker_fenced-O2
mpi_row "szymanski tso" --model tso --keep-going build/samples/szymanski-O0
echo
echo "== fork snapshot cost against resident memory: big_rss MB (20 executions)"
header
for mb in 1 16 64; do
	row "big_rss $mb snapshots" --model sc build/samples/big_rss-O2 $mb
	X86SMC_NO_SNAPSHOTS=1 row "big_rss $mb re-execute" --model sc build/samples/big_rss-O2 $mb
done
echo
echo "== fork snapshots against re-execution (same program, same run)"
header
row "counter_mutex 2 1 snapshots" --model sc build/samples/counter_mutex-O2 2 1
X86SMC_NO_SNAPSHOTS=1 row "counter_mutex 2 1 re-execute" --model sc build/samples/counter_mutex-O2 2 1
row "counter_racy 2 2 snapshots" --model sc build/samples/counter_racy-O2 2 2
X86SMC_NO_SNAPSHOTS=1 row "counter_racy 2 2 re-execute" --model sc build/samples/counter_racy-O2 2 2
echo
echo "== every sample: one execution of the default schedule (ptrace stops per visible event)"
header
for src in samples/*.c; do
	s=$(basename "$src" .c)
	args=$(sed -n 's|^// args:||p' "$src" | head -1)
	row "$s" --model sc --max-executions 1 build/samples/$s-O2 $args
done
echo
echo "== one long execution (tests/bench/long_exec.c): us per event at 10^4, 10^5, 10^6 events (sc)"
mkdir -p build/bench
for opt in O1 O0; do
	b=build/bench/long_exec-$opt
	cc -$opt -g -pthread -o $b tests/bench/long_exec.c || continue
	for n in 5000 50000 500000; do
		$X --model sc --max-executions 1 --max-steps 0 --json $J $b $n \
			>/dev/null 2>&1
		python3 - "$opt" "$J" <<'PY'
import json, sys
j = json.load(open(sys.argv[2]))
ev, t = j["events"], j["elapsed_s"]
print("  -%s: %9d events %7.2f s %6.1f us/event %5.2f stops/event" % (
      sys.argv[1], ev, t, 1e6 * t / max(ev, 1), j["ptrace_stops"] / max(ev, 1)))
PY
	done
done
echo
echo "== native vs x86smc, long_main (10^8 iterations before the first thread)"
for opt in O0 O2; do
	b=build/samples/long_main-$opt
	n0=$(date +%s.%N); $b >/dev/null; n1=$(date +%s.%N)
	$X --max-executions 1 $b >/dev/null 2>&1; n2=$(date +%s.%N)
	python3 -c "import sys; a,b,c=map(float,sys.argv[1:]); print('  %s: native %.3f s, x86smc %.3f s, ratio %.2f' % ('$opt', b-a, c-b, (c-b)/(b-a)))" $n0 $n1 $n2
done
echo
# Soak: x86smc's own memory must depend on the depth of the search, not on
# the number of executions: its peak RSS (getrusage, printed under -v)
# after 10% of the executions and after all of them.  10,000 take ~50 s
# here; SOAK=100000 for the long run (8 minutes idle, 27 beside other jobs).
N=${SOAK:-10000}
echo "== soak: counter_racy 4 2 (sc), x86smc's peak RSS after 10% and 100% of $N executions"
E=/tmp/x86smc-bench.$$.err
for n in $((N / 10)) $N; do
	$X -v --model sc --max-executions $n --json $J \
		build/samples/counter_racy-O2 4 2 >/dev/null 2>$E
	rss=$(sed -n 's/.*resources: max RSS \([0-9]*\) KB.*/\1/p' $E)
	python3 - "$J" "${rss:-0}" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
n = j["executions"] + j["blocked_executions"]
print("  %7d executions (%d complete, %d sleep-set blocked): max RSS %s KB" % (
    n, j["executions"], j["blocked_executions"], sys.argv[2]))
PY
done
rm -f $E
echo
echo "== decoder"
[ -x build/decode-diff ] && ./build/decode-diff 2>/dev/null | tail -3
rm -f $J
exit 0
