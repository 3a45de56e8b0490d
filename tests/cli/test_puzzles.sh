#!/bin/sh
# test_puzzles.sh: `oware puzzles` (docs/cli.md) and the puzzles the web
# client ships (web/puzzles-*.json), proved again by the engine.
# Usage: tests/cli/test_puzzles.sh build/oware   (EGDB: the endgame database)
set -u
. "$(dirname "$0")/lib.sh"
EGDB=${EGDB:-build/oware.egdb}
WEB=$(dirname "$0")/../../web

# check NAME WANT_STATUS WANT_LAST_LINE ARGS...: the check's status and last line.
check() {
	name=$1 want=$2 last=$3
	shift 3
	"$OWARE" puzzles "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	got=$(tail -n 1 "$tmp/out")
	if [ "$rc" -ne "$want" ] || [ "$got" != "$last" ]; then
		fail "$name: status $rc, last line '$got', stderr '$(cat "$tmp/err")', want $want and '$last'"
	else
		ok
	fi
}

# The shipped files: every puzzle proved at its depth, within the budget.
for game in oware togyz; do
	f=$WEB/puzzles-$game.json
	n=$(grep -c '"id":' "$f")
	[ "$n" -ge 200 ] && ok || fail "$f holds $n puzzles, fewer than 200"
	size=$(wc -c <"$f")
	[ "$size" -le 81920 ] && ok || fail "$f is $size bytes, over the 80 KiB budget"
	egdb=; [ $game = oware ] && egdb="--egdb $EGDB"
	check "$game shipped" 0 "puzzles: $n passed, 0 failed" --game $game --check "$f" $egdb
	# Every difficulty occurs; every puzzle ends with the solver's move.
	for d in 1 2 3 4 5; do
		grep -q "\"difficulty\":$d}" "$f" && ok || fail "$f: no puzzle of difficulty $d"
	done
	grep '"id":' "$f" | sed 's/.*"moves":\[\([^]]*\)\].*/\1/' | awk -F, 'NF % 2 == 0 { bad++ } END { exit bad > 0 }' &&
		ok || fail "$f: a puzzle with an even number of moves"
done

# Reproducible: the same arguments, the same text; another seed, others.
"$OWARE" puzzles --count 4 --depth 6 --seed 7 >"$tmp/a" && "$OWARE" puzzles --count 4 --depth 6 --seed 7 >"$tmp/b" &&
	cmp -s "$tmp/a" "$tmp/b" && ok || fail "the same seed gave different puzzles"
"$OWARE" puzzles --count 4 --depth 6 --seed 8 >"$tmp/c"
cmp -s "$tmp/a" "$tmp/c" && fail "another seed gave the same puzzles" || ok
check "a fresh file" 0 "puzzles: 4 passed, 0 failed" --check "$tmp/a"
"$OWARE" puzzles --game togyz --count 3 --depth 4 --seed 7 >"$tmp/t"
check "a fresh Togyz file" 0 "puzzles: 3 passed, 0 failed" --game togyz --check "$tmp/t"
check "from stdin" 0 "puzzles: 4 passed, 0 failed" --check - <"$tmp/a"

# The check can fail: the first move changed, a margin raised, a deeper
# depth where the search may prefer another, a wrong game's file.
sed '2s/"moves":\["\([a-fA-F]\)"/"moves":["Z"/' "$tmp/a" >"$tmp/bad1"
check "a move not legal" 1 "puzzles: 3 passed, 1 failed" --check "$tmp/bad1"
sed '2s/"margin":[0-9]*/"margin":24/' "$tmp/a" >"$tmp/bad2"
check "a margin too large" 1 "puzzles: 3 passed, 1 failed" --check "$tmp/bad2"
check "Togyz puzzles read as Oware" 1 "puzzles: 0 passed, 3 failed" --check "$tmp/t"
grep -q 'is not legal\|position:' "$tmp/out" && ok || fail "the failing check names why: $(cat "$tmp/out")"

# Bad input: one line on stderr, nothing on stdout, status 2.
expect_err "unknown option" 'unknown option "--nope"' puzzles --nope 1
expect_err "count out of range" '--count must be a whole number from 1 to 2000' puzzles --count 0
expect_err "depth out of range" '--depth must be a whole number from 2 to 12' puzzles --depth 13
expect_err "margin out of range" '--margin must be a whole number from 1 to 24' puzzles --margin x
expect_err "a value missing" '--seed needs a value' puzzles --seed
expect_err "egdb for Togyz" '--egdb is Oware' puzzles --game togyz --egdb "$EGDB"
expect_err "no such file" 'puzzles: --check /nonexistent' puzzles --check /nonexistent
expect_err "bad game" '--game must be oware or togyz' puzzles --game chess

echo "puzzles cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
