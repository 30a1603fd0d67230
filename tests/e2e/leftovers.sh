#!/bin/sh
# leftovers.sh — list processes that x86smc runs left behind: x86smc itself
# or a sample binary ($E2E_SAMPLES/*, default build/samples) in state t/T
# (traced or stopped) or Z (zombie).  Skipped, as parts of a session still in
# progress (someone else's run, a debugger): a process whose tracer is alive
# (not stopped, not a zombie), and one whose parent is a live x86smc.
#
# Output: one line per leftover, "PID PPID STAT COMM ARGS"; exit 1 if any.
# Retries for about 10 s first, so that the kernel can finish killing and
# reaping.  Used by tests/e2e/run.sh (case "leftovers"), also useful by hand.
#
# Note: in a container whose PID 1 does not reap orphans, a target orphaned
# by a killed x86smc stays a zombie forever; run.sh makes itself a child
# subreaper so that its own runs never produce such orphans.
cd "$(dirname "$0")/../.." || exit 2
samples=${E2E_SAMPLES:-build/samples}
tool=$(basename "${X86SMC:-./x86smc}" | cut -c1-15)
# comm is the first 15 bytes of the executable's name
# shellcheck disable=SC2012
names=$(ls "$samples" 2>/dev/null | cut -c1-15 | tr '\n' ' ')

candidates() {
	ps -eo pid=,ppid=,stat=,comm=,args= | awk -v names=" $names " \
		-v tool="$tool" -v dir="$samples/" '
	$3 !~ /^[tTZ]/ { next }
	$4 ~ /^x86smc/ || $4 == tool || index(names, " " $4 " ") || index($0, dir) {
		print
	}'
}

# live PID [any]: PID is running or sleeping (not stopped or dead) and is an
# x86smc, or any program if the second argument is "any"
live() {
	[ -n "$1" ] && [ "$1" != 0 ] || return 1
	want=$2
	# shellcheck disable=SC2046 # split "STAT COMM" into $1 $2
	set -- $(ps -o stat=,comm= -p "$1" 2>/dev/null)
	case "$1" in [tTZX]*|"") return 1 ;; esac
	case "$want:$2" in any:*|*:x86smc*|*:"$tool") return 0 ;; esac
	return 1
}

scan() {
	candidates | while read -r pid ppid stat rest; do
		tracer=$(awk '/^TracerPid:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
		if live "$tracer" any || live "$ppid" x86smc; then
			continue
		fi
		echo "$pid $ppid $stat $rest"
	done
}

try=0
while [ $try -lt 40 ]; do
	found=$(scan)
	[ -z "$found" ] && exit 0
	try=$((try + 1))
	[ $try = 40 ] || sleep 0.25
done
echo "$found"
exit 1
