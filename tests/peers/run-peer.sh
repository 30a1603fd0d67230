#!/usr/bin/env bash
# run-peer.sh — run a peer model checker (GenMC or Nidhugg, built outside
# this repository: README.md) on one C file, pinned to
# one CPU, and print one machine-readable summary line on stdout:
#
#   peer=NAME model=M result=ok|error|unknown executions=N blocked=N seconds=S \
#     tool_seconds=S exit=RC [peer-specific fields]
#
# Usage: run-peer.sh genmc|nidhugg MODEL FILE.c [extra peer options...]
#   MODEL  genmc:   sc (--sc), tso (--tso); also its own rc11 ra imm
#          nidhugg: sc (--sc), tso (--tso), pso (--pso); also power arm
#   extra options go to the checker itself (genmc [opts] / nidhugg [opts]).
#
# Fields: executions = complete executions (GenMC "Number of complete
# executions explored", Nidhugg "Trace count"); blocked = executions cut
# short (GenMC "Number of blocked executions seen", Nidhugg assume- +
# await- + sleepset-blocked trace counts, also given one by one);
# seconds = wall time of the whole run including the clang front end,
# measured here; tool_seconds = the checker's own "Total wall-clock time";
# "-" where the checker printed no such figure (timeout, compile error).
# result: ok = exploration finished, no error; error = the checker reported
# an error (assertion, ...); unknown = anything else (timeout, compile
# error, crash, unsupported model).
# Exit status: 0 ok, 1 error, 3 unknown, 2 usage.
#
# The source file is compiled by the peer's own clang with
# -DX86SMC_PEER_GENMC=1 or -DX86SMC_PEER_NIDHUGG=1 (plus $PEER_CFLAGS), so a
# portable test can #ifdef around the few differences (README.md).
#
# Environment (all optional):
#   X86SMC_PEERS_CACHE  where the peers were built (default /work/.cache/x86smc-peers)
#   GENMC, NIDHUGGC     paths of the genmc binary / nidhuggc driver
#   PEER_CPU            CPU to pin to with taskset (default: the last one)
#   PEER_TIMEOUT        seconds before the run is killed (default: none)
#   PEER_CFLAGS         extra compiler flags (e.g. -O1), for both peers
#   PEER_QUIET=1        do not copy the checker's output to stderr
#   PEER_LOG=FILE       keep the checker's output in FILE
#   GENMC_DEFAULTS      options always given to genmc (default
#                       "--disable-estimation --disable-sr"; set it empty for
#                       GenMC's own defaults).  --disable-estimation: no
#                       sampling pass before the exploration (it adds time
#                       and, on an error, ends the run before the exploration
#                       proper); --disable-sr: no symmetry reduction (threads
#                       running the same function with the same argument
#                       are otherwise explored once per symmetry class, and
#                       two such threads writing the same location trip an
#                       "Unordered writes" warning that SR turns into an
#                       error), so counts compare with a checker without SR
#   NIDHUGG_DEFAULTS    options always given to nidhugg (default
#                       "--no-check-mutex-init": accept mutexes initialised
#                       with PTHREAD_MUTEX_INITIALIZER, which Nidhugg
#                       otherwise reports as "uninitialized mutex")
set -uo pipefail

usage() {
	sed -n '/^# Usage:/,/^#   extra/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
[ $# -ge 3 ] || usage
peer=$1 model=$2 file=$3
shift 3
[ -f "$file" ] || { echo "run-peer: no file $file" >&2; exit 2; }

CACHE=${X86SMC_PEERS_CACHE:-/work/.cache/x86smc-peers}
cpu=${PEER_CPU:-$(($(nproc) - 1))}
read -r -a cflags <<<"${PEER_CFLAGS:-}"

summary() { # result executions blocked seconds tool_seconds exit [extra]
	echo "peer=$peer model=$model result=$1 executions=$2 blocked=$3 seconds=$4 tool_seconds=$5 exit=$6${7:+ $7}"
	case $1 in ok) exit 0 ;; error) exit 1 ;; *) exit 3 ;; esac
}

case $peer in
genmc)
	bin=${GENMC:-$CACHE/genmc-v0.11.0/genmc}
	case $model in sc | tso | rc11 | ra | imm) ;; *)
		echo "run-peer: GenMC v0.11 has no model '$model' (sc tso rc11 ra imm)" >&2
		summary unknown - - 0 - - "unsupported=1" ;;
	esac
	read -r -a defs <<<"${GENMC_DEFAULTS---disable-estimation --disable-sr}"
	cmd=("$bin" "--$model" "${defs[@]}" "$@" -- -DX86SMC_PEER_GENMC=1 "${cflags[@]}" "$file")
	;;
nidhugg)
	bin=${NIDHUGGC:-$CACHE/nidhugg-0.4/src/nidhuggc}
	case $model in sc | tso | pso | power | arm) ;; *)
		echo "run-peer: Nidhugg has no model '$model' (sc tso pso power arm)" >&2
		summary unknown - - 0 - - "unsupported=1" ;;
	esac
	read -r -a defs <<<"${NIDHUGG_DEFAULTS---no-check-mutex-init}"
	cmd=("$bin" -DX86SMC_PEER_NIDHUGG=1 "${cflags[@]}" -- "--$model" "${defs[@]}" "$@" "$file")
	;;
*) usage ;;
esac
[ -x "$bin" ] || { echo "run-peer: no $peer at $bin (build it outside this tree: tests/peers/README.md; or set GENMC / NIDHUGGC)" >&2; exit 2; }

log=${PEER_LOG:-$(mktemp)}
[ -n "${PEER_LOG:-}" ] || trap 'rm -f "$log"' EXIT
tmo=()
[ -n "${PEER_TIMEOUT:-}" ] && tmo=(timeout -k 5 "$PEER_TIMEOUT")

t0=$(date +%s.%N)
if [ "${PEER_QUIET:-0}" = 1 ]; then
	"${tmo[@]}" taskset -c "$cpu" "${cmd[@]}" >"$log" 2>&1
	rc=$?
else
	"${tmo[@]}" taskset -c "$cpu" "${cmd[@]}" 2>&1 | tee "$log" >&2
	rc=${PIPESTATUS[0]}
fi
t1=$(date +%s.%N)
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
# GenMC v0.11 leaves /tmp/__genmc.ll.XXXXXX behind on every run (a path
# fixed in its main.cpp; it reads the file back within a second): remove
# ours once they are 5 s old (a parallel run may be reading a newer one)
[ "$peer" = genmc ] &&
	find /tmp -maxdepth 1 -name '__genmc.ll.*' -user "$(id -u)" \
		! -newermt '-5 seconds' -delete 2>/dev/null

# first number after a label, "-" if the label is absent
num() { # label
	local v
	v=$(grep -a -m1 -F "$1" "$log" | sed -n "s/.*$1 *\([0-9][0-9.]*\).*/\1/p")
	echo "${v:--}"
}
extra=
[ "$rc" = 124 ] || [ "$rc" = 137 ] && [ ${#tmo[@]} -gt 0 ] && extra="timeout=1"

case $peer in
genmc)
	execs=$(num 'Number of complete executions explored:')
	blocked=$(num 'Number of blocked executions seen:')
	tsecs=$(num 'Total wall-clock time:')
	# the blocked line is printed only when the count is not 0
	[ "$execs" != - ] && [ "$blocked" = - ] && blocked=0
	if grep -aq '^No errors were detected' "$log" && [ "$rc" = 0 ]; then
		result=ok
	elif [ "$rc" = 42 ] || grep -aq -e '^Error: ' -e 'Verification unsuccessful' "$log"; then
		result=error
	else
		result=unknown
	fi
	;;
nidhugg)
	execs=$(num 'Trace count:')
	ab=$(num 'Assume-blocked trace count:')
	wb=$(num 'Await-blocked trace count:')
	sb=$(num 'Sleepset-blocked trace count:')
	tsecs=$(num 'Total wall-clock time:')
	blocked=-
	if [ "$execs" != - ]; then
		ab=${ab/-/0} wb=${wb/-/0} sb=${sb/-/0}
		blocked=$((ab + wb + sb))
		extra="assume_blocked=$ab await_blocked=$wb sleepset_blocked=$sb${extra:+ $extra}"
	fi
	if grep -aq '^No errors were detected' "$log" && [ "$rc" = 0 ]; then
		result=ok
	elif [ "$rc" = 42 ] || grep -aq '^ Error detected:' "$log"; then
		result=error
	else
		result=unknown
	fi
	;;
esac
summary "$result" "$execs" "$blocked" "$secs" "$tsecs" "$rc" "$extra"
