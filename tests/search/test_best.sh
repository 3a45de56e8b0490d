#!/bin/sh
# test_best.sh: the `oware best` contract (cli/best.h, engine/search.h).
# Usage: tests/search/test_best.sh build/oware
set -u
OWARE=${1:-build/oware}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$*"; }

# expect_json NAME REGEX ARGS...: exit 0, one stdout line matching the
# extended regex, stderr empty.
expect_json() {
	name=$1 re=$2
	shift 2
	"$OWARE" best "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ] || [ "$(wc -l <"$tmp/out")" -ne 1 ] ||
		! grep -Eq -- "$re" "$tmp/out" || [ -s "$tmp/err" ]; then
		fail "$name: status $rc, stdout '$(cat "$tmp/out")', stderr '$(cat "$tmp/err")', want /$re/"
	else
		ok
	fi
}

# expect_err NAME PATTERN ARGS...: exit 2, stdout empty, one stderr line.
expect_err() {
	name=$1 pattern=$2
	shift 2
	"$OWARE" best "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 2 ] || [ -s "$tmp/out" ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
		! grep -q -- "$pattern" "$tmp/err"; then
		fail "$name: status $rc, stdout '$(cat "$tmp/out")', stderr '$(cat "$tmp/err")', want /$pattern/"
	else
		ok
	fi
}

# same NAME ARGS...: two runs print the same line.
same() {
	name=$1
	shift
	a=$("$OWARE" best "$@" 2>&1) b=$("$OWARE" best "$@" 2>&1)
	if [ "$a" != "$b" ] || [ -z "$a" ]; then
		fail "$name: '$a' then '$b'"
	else
		ok
	fi
}

shape='^\{"move":"[a-fA-F]","score":-?[0-9]+,"depth":[0-9]+,"nodes":[0-9]+,"pv":\["[a-fA-F]"(,"[a-fA-F]")*\]\}$'
expect_json "depth 6 from the start" "$shape" --depth 6
expect_json "depth is reported" '"depth":6,' --depth 6
expect_json "south moves from the start" '^\{"move":"[a-f]"' --depth 4
expect_json "north after a" '^\{"move":"[A-F]".*"pv":\["[A-F]","[a-f]"' --depth 4 a
expect_json "easy" "$shape" --level easy
expect_json "medium" "$shape" --level medium
expect_json "time budget" "$shape" --time-ms 50 a B
expect_json "seed accepted" "$shape" --level easy --seed 77 c
# South has 23: f sows into A (1 -> 2) and wins at once.
win='{"pits":[2,0,0,0,0,1,1,0,0,0,0,3],"captured":{"south":23,"north":18},"turn":"south"}'
expect_json "forced win" '^\{"move":"f","score":29999,' --position "$win" --depth 5
expect_json "forced win, hard" '^\{"move":"f","score":29999,' --position "$win"
# North must feed: only E (10) with 2 seeds reaches a.
feed='{"pits":[0,0,0,0,0,0,3,1,0,0,2,0],"captured":{"south":20,"north":22},"turn":"north"}'
expect_json "feeding" '^\{"move":"E"' --position "$feed" --depth 8
same "reproducible depth" --depth 9 a F
same "reproducible easy" --level easy --seed 5 b
same "reproducible medium" --level medium d

# the ladder: levels 1-12 by number or name; 2, 6 and 12 are easy, medium
# and hard exactly (the same line for the same seed)
# alike NAME "ARGS1" "ARGS2": both runs print the same line (ARGS split at spaces).
alike() {
	name=$1
	a=$("$OWARE" best $2 2>&1) b=$("$OWARE" best $3 2>&1)
	if [ "$a" != "$b" ] || [ -z "$a" ]; then
		fail "$name: '$a' then '$b'"
	else
		ok
	fi
}
n=1
for lvname in starter easy learner amateur improver steady medium club advanced strong expert master; do
	expect_json "level $n" "$shape" --level $n --seed 9 c F
	alike "level $n is $lvname" "--level $n --seed 9 c F" "--level $lvname --seed 9 c F"
	same "reproducible level $n" --level $n --seed 3 a
	n=$((n + 1))
done
expect_json "level 13" "$shape" --level 13 b
alike "level 2 is easy" "--level 2 --seed 4 d C" "--level easy --seed 4 d C"
alike "level 7 is medium" "--level 7 --seed 4 d C" "--level medium --seed 4 d C"
# 2 plies for the starter; depth 1 and at most 6 nodes for easy's 1 ply;
# 2 and 3 plies; medium's 4; club's 3 (with quiescence); the node budgets
expect_json "level 1: 2 plies" '"depth":2,' --level 1 --seed 2 a F
expect_json "level 2: 1 ply" '"depth":1,"nodes":[1-6],' --level 2 --seed 2 a F
expect_json "level 3: 2 plies" '"depth":2,' --level 3 --seed 2 a F
expect_json "level 4: 2 plies" '"depth":2,' --level 4 --seed 2 a F
expect_json "level 5: 2 plies" '"depth":2,' --level 5 --seed 2 a F
expect_json "level 6: 3 plies" '"depth":3,' --level 6 --seed 2 a F
expect_json "level 7: 4 plies" '"depth":4,' --level 7 --seed 2 a F
expect_json "level 8: 3 plies" '"depth":3,' --level 8 --seed 2 a F
expect_json "level 9: its node budget" '"nodes":600,' --level 9 --seed 2 a F
expect_json "level 10: its node budget" '"nodes":2000,' --level 10 --seed 2 a F
expect_json "level 11: its node budget" '"nodes":10000,' --level 11 --seed 2 a F
expect_json "level 12: its node budget" '"nodes":100000,' --level 12 --seed 2 a F
expect_json "forced win, level 1" '^\{"move":"f","score":29999,"depth":2,' --position "$win" --level 1
expect_json "forced win, level 10" '^\{"move":"f","score":29999,' --position "$win" --level strong
expect_json "forced win, level 12" '^\{"move":"f","score":29999,' --position "$win" --level master

expect_err "depth 0" "--depth must be" --depth 0
expect_err "depth 65" "--depth must be" --depth 65
expect_err "depth junk" "--depth must be" --depth 3x
expect_err "time 0" "--time-ms must be" --time-ms 0
expect_err "bad level" "--level must be" --level grandmaster
for bad in 0 14 01 010 +3 Easy '' ' 1' '1 ' 1x 100; do
	expect_err "bad level '$bad'" "best: --level must be 1-13 or starter, easy, learner, amateur, improver, steady, medium, club, advanced, strong, expert, master or hard, not \"$bad\"" --level "$bad"
done
expect_err "bad seed" "--seed must be" --seed -1
expect_err "two budgets" "only one of" --depth 3 --level easy
expect_err "unknown option" "unknown option" --fast
expect_err "missing value" "needs a value" --depth
expect_err "bad position" "--position" --position '{"pits":[1]}'
expect_err "not a letter" "ply 1" x
expect_err "wrong side" "ply 2" a b
expect_err "game over" "game is over" --position '{"pits":[0,0,0,0,0,0,1,0,0,0,0,3],"captured":{"south":25,"north":19},"turn":"north"}'

printf 'test_best: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
