#!/bin/sh
# make check: unit tests (CUnit), the differential decoder test, 20 s of
# fuzzing (tests/fuzz), make demo, the end-to-end tests, the differential
# fuzzing of the exploration on a fixed seed set (tests/fuzz_explore, about
# a minute) and, when GenMC and Nidhugg are installed (tests/peers), a fixed
# set of programs compared with them.  Exits non-zero if any
# part fails; ends with one closing line "check: N passed, N failed".
cd "$(dirname "$0")/.." || exit 2
passed=0
failed=0
part() {
	name=$1
	shift
	echo "=== $name"
	if "$@"; then
		passed=$((passed + 1))
	else
		echo "=== $name FAILED"
		failed=$((failed + 1))
	fi
}
part unit ./build/unit-tests
part decode-diff ./build/decode-diff build/samples/decode_mix-O0 build/samples/decode_mix-O2
part fuzz sh tests/fuzz/run.sh 20
part demo sh tests/demo.sh
part e2e sh tests/e2e/run.sh
part fuzz-explore python3 tests/fuzz_explore/run.py --quick
part fuzz-peers python3 tests/fuzz_explore/peers.py --quick
echo "check: $passed passed, $failed failed"
[ "$failed" = 0 ]
