#!/bin/bash
# run-suites.sh: runs test suites (make targets) side by side, each even when
# another failed, and prints each suite's output whole when it ends, then a
# table (suite, result, seconds, seconds of CPU), the whole log of every
# suite that failed, and one closing line: "suites: N passed, M failed". A
# suite passes only if it passes the first time: nothing is run again.
#
# Usage: tests/run-suites.sh [-j JOBS] SUITE...
#   MAKE   the make to use (default make)
#   ALONE  suites that run with no other suite beside them (timing-bound
#          ones), before the others
#   LOGS   where each suite's log goes (default build/test-logs)
#   BUILD_FIRST  more targets to build before the suites (build-all)
#   CPU_OF the tests' cpu-of (tests/tools/cpu-of.c), once built
#
# First every file the suites need is built by one make (-j2), so that the
# suites' own makes find nothing to build and never race on an object. The
# suites then start longest first (seconds of the last run, from
# LOGS/times, else tests/suite-seconds), JOBS at a time (default 3; make
# test passes TEST_JOBS, 4: the suites that wait on timers beside those
# that keep both cores busy).
#
# A suite's CPU (user + system) is counted by CPU_OF: its make and every
# process under it that ended before it, those whose parent ended first (a
# browser's renderers, a daemon) too. Without it the column shows "?"
# (bash's `times` would miss most of a browser suite's Chromium).
set -u
make=${MAKE:-make}
jobs=3
if [ "${1:-}" = -j ]; then jobs=$2; shift 2; fi
logs=${LOGS:-build/test-logs}
alone=" ${ALONE:-} "
mkdir -p "$logs"
rm -f "$logs"/*.log "$logs"/*.rc "$logs"/*.cpu

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }

# The files the suites need, from make's database (-pq runs nothing): the
# prerequisites of each suite, and of the test-* targets those name (the
# unit tests' test-engine, ...), which are runners, not files to build.
# MAKE=true: -q still runs the lines of recursive makes.
prereqs=$($make --no-print-directory MAKE=true -pq "$@" 2>/dev/null | awk -v want="$*" '
	/^# Not a target/ { skip = 1; next }
	/^[^#\t ][^:=]*:([^=]|$)/ && !skip {
		t = $0; sub(/:.*/, "", t)
		line = $0; sub(/^[^:]*:/, "", line); sub(/\|.*/, "", line)
		deps[t] = deps[t] " " line
	}
	{ skip = 0 }
	function walk(t,    n, p, i) {
		if (seen[t]++) return
		n = split(deps[t], p, " ")
		for (i = 1; i <= n; i++)
			if (p[i] ~ /^test-/) walk(p[i]); else out[p[i]] = 1
	}
	END { n = split(want, w, " "); for (i = 1; i <= n; i++) walk(w[i]); for (f in out) print f }' | sort)
start=$(now)
echo "=== building what the suites need"
if ! $make --no-print-directory -j2 ${BUILD_FIRST:-} $prereqs >"$logs/build.log" 2>&1; then
	cat "$logs/build.log"
	echo "the build failed: no suite was run"
	echo "suites: 0 passed, $# failed"
	exit 1
fi
echo "built in $(secs "$start" "$(now)") s"

# Longest first by the last run's seconds (unknown suites last, in order).
times=$logs/times
[ -f "$times" ] || times=tests/suite-seconds
order=$(i=0; for t in "$@"; do
	s=$(awk -v t="$t" '$1 == t { print $2 }' "$times" 2>/dev/null)
	i=$((i + 1)); echo "${s:-0} $i $t"
done | sort -k1,1nr -k2,2n | awk '{ print $3 }')

declare -A pid=() began=()
passed=0 failed=0 failures="" cpus=0
table=""

run() { # run SUITE: in the background, its log and its result in $logs
	local t=$1
	began[$t]=$(now)
	local count=()
	[ -x "${CPU_OF:-}" ] && count=("$CPU_OF" "$logs/$t.cpu")
	( "${count[@]}" $make --no-print-directory "$t" >"$logs/$t.log" 2>&1; echo $? >"$logs/$t.rc.tmp"
	  mv "$logs/$t.rc.tmp" "$logs/$t.rc" ) &
	pid[$t]=$!
}
finish() { # finish SUITE: print its log and count it
	local t=$1 rc s cpu
	rc=$(cat "$logs/$t.rc")
	cpu=$(cat "$logs/$t.cpu" 2>/dev/null)
	cpus=$((cpus + ${cpu:-0}))
	s=$(secs "${began[$t]}" "$(now)")
	unset "pid[$t]"
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1)); r=passed
	else
		failed=$((failed + 1)); failures="$failures $t"; r=FAILED
	fi
	echo "=== $t: $r in $s s (CPU ${cpu:-?} s)"
	cat "$logs/$t.log"
	table="$table$(printf '%-24s %-7s %5s %5s' "$t" "$r" "$s" "${cpu:-?}")"$'\n'
	echo "$t $s" >>"$logs/times.new"
}
reap() { # wait for one running suite to end
	local t
	while :; do
		for t in "${!pid[@]}"; do
			if [ -f "$logs/$t.rc" ]; then wait "${pid[$t]}" 2>/dev/null; finish "$t"; return; fi
		done
		wait -n 2>/dev/null || sleep 0.2
	done
}

rm -f "$logs/times.new"
for t in $order; do
	case "$alone" in *" $t "*) run "$t"; reap ;; esac
done
for t in $order; do
	case "$alone" in *" $t "*) continue ;; esac
	while [ "${#pid[@]}" -ge "$jobs" ]; do reap; done
	run "$t"
done
while [ "${#pid[@]}" -gt 0 ]; do reap; done
mv "$logs/times.new" "$logs/times"

echo
echo "=== summary ($(secs "$start" "$(now)") s in all, $jobs at a time; alone:${ALONE:+ $ALONE}; suites' CPU $cpus s)"
printf '%-24s %-7s %5s %5s\n' suite result seconds cpu
printf '%s' "$table"
for t in $failures; do
	echo
	echo "=== the whole log of $t, which failed"
	cat "$logs/$t.log"
done
[ -n "$failures" ] && echo "failed suites:$failures"
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
