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

# The shipped files: every puzzle proved at its depth and two plies deeper
# (a verdict that a deeper search takes back is no puzzle), within the budget.
for game in oware togyz; do
	f=$WEB/puzzles-$game.json
	n=$(grep -c '"id":' "$f")
	[ "$n" -ge 200 ] && ok || fail "$f holds $n puzzles, fewer than 200"
	size=$(wc -c <"$f")
	[ "$size" -le 81920 ] && ok || fail "$f is $size bytes, over the 80 KiB budget"
	egdb=; [ $game = oware ] && egdb="--egdb $EGDB"
	check "$game shipped" 0 "puzzles: $n passed, 0 failed" --game $game --check "$f" $egdb
	deeper=2; [ $game = oware ] && deeper=4
	check "$game shipped, $deeper plies deeper" 0 "puzzles: $n passed, 0 failed" --game $game --check "$f" --deeper $deeper $egdb
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

# From game records (--records): the records' puzzles first (o-rN, t-rN),
# then self-play's; each proved, its position one of its record's, the
# same file again from the same records; a bad record refused.
REC=$(dirname "$0")/../../cli/records
awk '/^\[Variant/ { n++ } n <= 12' "$REC/oware.ogn" >"$tmp/r.ogn"
"$OWARE" puzzles --records "$tmp/r.ogn" --count 14 --depth 6 >"$tmp/r1" &&
	"$OWARE" puzzles --records "$tmp/r.ogn" --count 14 --depth 6 >"$tmp/r2" && cmp -s "$tmp/r1" "$tmp/r2" &&
	ok || fail "the same records gave different puzzles"
ids=$(grep -o '"id":"[^"]*"' "$tmp/r1" | tr '\n' ' ')
case $ids in
'"id":"o-r1" "id":"o-r2" '*'"id":"o-1" '*) ok ;;
*) fail "records' puzzles first, then self-play's: $ids" ;;
esac
check "record puzzles proved" 0 "puzzles: 14 passed, 0 failed" --check "$tmp/r1"
# o-r1's position occurs in one of the records: replay each move by move.
want=$(grep '"id":"o-r1"' "$tmp/r1" | sed 's/.*"position":{"pits":\(\[[^]]*\]\),"captured":\({[^}]*}\),"turn":\("[a-z]*"\).*/\1 \2 \3/')
found=0
awk -v d="$tmp" '/^\[Variant/ { n++ } { print > (d "/rec" n ".ogn") }' "$tmp/r.ogn"
for r in "$tmp"/rec*.ogn; do
	moves=$("$OWARE" ogn --read "$r" | sed 's/.*"moves":\[\([^]]*\)\].*/\1/' | tr -d '",' | sed 's/./& /g')
	sofar=
	for m in $moves; do
		sofar="$sofar $m"
		"$OWARE" play $sofar | sed 's/^{"pits":\(\[[^]]*\]\),"captured":\({[^}]*}\),"turn":\("[a-z]*"\).*/\1 \2 \3/' |
			grep -qxF "$want" && found=1 && break 2
	done
done
[ "$found" = 1 ] && ok || fail "o-r1's position ($want) is in none of the records"
awk '/^\[Variant/ { n++ } n == 3 && /^1\. / && !done { sub(/^1\. [A-F]/, "1. Q"); done = 1 } { print }' "$tmp/r.ogn" >"$tmp/bad.ogn"
line=$(grep -n '^1\. Q' "$tmp/bad.ogn" | cut -d: -f1)
expect_err "a bad Oware record" "records $tmp/bad.ogn: record 3 (line $line): unexpected \"Q\"" puzzles --records "$tmp/bad.ogn" --count 2 --depth 4
sed -n '/^# kazakhstan-2022-kabiyev/,/^$/p' "$REC/togyz.txt" >"$tmp/r.txt"
awk '/^# White/ { n++ } n >= 1 && n <= 4' "$REC/togyz.txt" >>"$tmp/r.txt"
"$OWARE" puzzles --game togyz --records "$tmp/r.txt" --count 5 --depth 4 >"$tmp/rt"
grep -q '"id":"t-r1"' "$tmp/rt" && ok || fail "no Togyz puzzle from records: $(cat "$tmp/rt")"
check "Togyz record puzzles proved" 0 "puzzles: 5 passed, 0 failed" --game togyz --check "$tmp/rt"
# Kazakh notation is checked: 76 is hole 7 ending in hole 6 of the opponent.
printf '# a wrong landing hole\n1. 75 98\n' >"$tmp/bad.txt"
expect_err "a Togyz move whose landing hole is wrong" 'record 1 (line 2): move 1 "75": the engine plays it as 76' \
	puzzles --game togyz --records "$tmp/bad.txt" --count 1 --depth 4
# "+N", the seeds a move captured, as the page's copied record has them,
# is read and checked.
printf '1. 76+10 98\n' >"$tmp/plus.txt"
"$OWARE" puzzles --game togyz --records "$tmp/plus.txt" --count 1 --depth 4 >/dev/null 2>"$tmp/plus.err" &&
	ok || fail "a record with +N captures not read: $(cat "$tmp/plus.err")"
printf '1. 76+9 98\n' >"$tmp/bad.txt"
expect_err "a Togyz move with wrong captures" 'record 1 (line 1): move 1 "76+9": the engine plays it as 76+10' \
	puzzles --game togyz --records "$tmp/bad.txt" --count 1 --depth 4
printf '1. 76 98\n\n1. 7 0\n' >"$tmp/bad.txt"
expect_err "a Togyz move that is not one" 'record 2 (line 3): move 2 "0": not a move' \
	puzzles --game togyz --records "$tmp/bad.txt" --count 1 --depth 4
expect_err "records and check" 'give only one of --check and --records' puzzles --check "$tmp/r1" --records "$tmp/r.ogn"
expect_err "no records file" 'puzzles: --records /nonexistent: No such file' puzzles --records /nonexistent

# The check can fail: the first move changed, a margin raised, a deeper
# depth where the search may prefer another, a wrong game's file.
sed '2s/"moves":\["\([a-fA-F]\)"/"moves":["Z"/' "$tmp/a" >"$tmp/bad1"
check "a move not legal" 1 "puzzles: 3 passed, 1 failed" --check "$tmp/bad1"
sed '2s/"margin":[0-9]*/"margin":24/' "$tmp/a" >"$tmp/bad2"
check "a margin too large" 1 "puzzles: 3 passed, 1 failed" --check "$tmp/bad2"
check "Togyz puzzles read as Oware" 1 "puzzles: 0 passed, 3 failed" --check "$tmp/t"
grep -q 'is not legal\|position:' "$tmp/out" && ok || fail "the failing check names why: $(cat "$tmp/out")"
# Once shipped (issue 43): o-r90's third step had one legal move; o-190's
# second is lost whatever is played, which depth 12 did not see and 20 does.
cat >"$tmp/old" <<'JSON'
[
{"id":"o-r90","position":{"pits":[2,7,5,0,1,7,1,0,0,0,0,5],"captured":{"south":18,"north":2},"turn":"north"},"moves":["A","c","F","c","A"],"margin":3,"depth":12,"found":3,"tempting":1,"difficulty":3},
{"id":"o-190","position":{"pits":[2,1,0,3,1,4,1,0,2,1,1,1],"captured":{"south":13,"north":18},"turn":"south"},"moves":["a","E","b"],"margin":16,"depth":12,"found":1,"tempting":2,"difficulty":2}
]
JSON
check "a step with one legal move" 1 "puzzles: 1 passed, 1 failed" --check "$tmp/old" --egdb "$EGDB"
grep -q 'puzzle o-r90: move 5 is the only legal move' "$tmp/out" && ok || fail "one legal move: $(cat "$tmp/out")"
check "a verdict a deeper search takes back" 1 "puzzles: 0 passed, 2 failed" --check "$tmp/old" --deeper 8 --egdb "$EGDB"
grep -q 'puzzle o-190: move 3 leads by 0/16 seeds' "$tmp/out" && ok || fail "deeper: $(cat "$tmp/out")"

# Bad input: one line on stderr, nothing on stdout, status 2.
expect_err "unknown option" 'unknown option "--nope"' puzzles --nope 1
expect_err "count out of range" '--count must be a whole number from 1 to 2000' puzzles --count 0
expect_err "depth out of range" '--depth must be a whole number from 2 to 12' puzzles --depth 13
expect_err "deeper out of range" '--deeper must be a whole number from 0 to 12' puzzles --check "$tmp/a" --deeper 13
expect_err "deeper without check" '--deeper goes with --check' puzzles --deeper 2
expect_err "margin out of range" '--margin must be a whole number from 1 to 24' puzzles --margin x
expect_err "a value missing" '--seed needs a value' puzzles --seed
expect_err "egdb for Togyz" '--egdb is Oware' puzzles --game togyz --egdb "$EGDB"
expect_err "no such file" 'puzzles: --check /nonexistent' puzzles --check /nonexistent
expect_err "bad game" '--game must be oware or togyz' puzzles --game chess

echo "puzzles cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
