#!/bin/sh
# run-suites.sh: runs each test suite (a make target) even when an earlier
# one fails, then prints one closing line: "suites: N passed, M failed".
# Usage: tests/run-suites.sh TARGET...   (MAKE may name the make to use)
set -u
make=${MAKE:-make}
passed=0 failed=0 failures=""
for t in "$@"; do
	echo "=== $t"
	if $make --no-print-directory "$t"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		failures="$failures $t"
	fi
done
[ -n "$failures" ] && echo "failed suites:$failures"
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
