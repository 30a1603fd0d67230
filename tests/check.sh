#!/bin/sh
# make check: unit tests (CUnit), the differential decoder test, 20 s of
# fuzzing (tests/fuzz), make demo and the end-to-end tests.  Exits non-zero if any
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
echo "check: $passed passed, $failed failed"
[ "$failed" = 0 ]
