#!/bin/sh
# tests/fuzz/run.sh [SECONDS] — run each libFuzzer harness (make fuzz
# builds them into build/fuzz/) for its share of SECONDS (default 20 in
# all), starting from tests/fuzz/corpus/NAME and keeping what it finds in
# build/fuzz/corpus/NAME.  A crash, a leak, a timeout (a hang: -timeout=5
# per input) or an out-of-memory fails the run; the input that caused it
# is saved in build/fuzz/ (crash-*, timeout-*, ...) and named in the output.
# Ends with one line "fuzz: N harnesses, N failed".
cd "$(dirname "$0")/../.." || exit 2
total=${1:-20}
dir=build/fuzz
names="opts sched decode"
n=0
failed=0
share=$((total / 3))
[ "$share" -lt 1 ] && share=1
for name in $names; do
	bin=$dir/fuzz_$name
	n=$((n + 1))
	if [ ! -x "$bin" ]; then
		echo "fuzz/$name: $bin not built (make fuzz; needs clang)"
		failed=$((failed + 1))
		continue
	fi
	mkdir -p "$dir/corpus/$name"
	log=$dir/$name.log
	if "$bin" -max_total_time="$share" -timeout=5 -rss_limit_mb=1024 \
		-max_len=4096 -print_final_stats=1 -artifact_prefix="$dir/$name-" \
		"$dir/corpus/$name" "tests/fuzz/corpus/$name" >"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		echo "fuzz/$name: ok, $runs inputs in ${share} s"
	else
		echo "fuzz/$name: FAILED (log: $log)"
		grep -E "^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" "$log" | head -5
		failed=$((failed + 1))
	fi
done
echo "fuzz: $n harnesses, $failed failed"
[ "$failed" = 0 ]
