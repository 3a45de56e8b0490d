#!/bin/sh
# test_cli.sh: the `oware` command-line contract (README "The oware tool").
# Usage: tests/cli/test_cli.sh build/oware
set -u
OWARE=${1:-build/oware}
DATA=$(dirname "$0")/../data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$*"; }

# expect_out NAME WANT ARGS...: exit 0, stdout exactly WANT, stderr empty.
expect_out() {
	name=$1 want=$2
	shift 2
	"$OWARE" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	got=$(cat "$tmp/out")
	if [ "$rc" -ne 0 ] || [ "$got" != "$want" ] || [ -s "$tmp/err" ]; then
		fail "$name: status $rc, stdout '$got', stderr '$(cat "$tmp/err")', want '$want'"
	else
		ok
	fi
}

# expect_err NAME PATTERN ARGS...: exit 2, stdout empty, one stderr line
# matching the grep pattern.
expect_err() {
	name=$1 pattern=$2
	shift 2
	"$OWARE" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" -ne 2 ] || [ -s "$tmp/out" ] || [ "$lines" -ne 1 ] ||
		! grep -q -- "$pattern" "$tmp/err"; then
		fail "$name: status $rc, stdout '$(cat "$tmp/out")', stderr '$(cat "$tmp/err")', want /$pattern/"
	else
		ok
	fi
}

start='{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"captured":{"south":0,"north":0},"turn":"south","legal":["a","b","c","d","e","f"],"over":false,"winner":null,"reason":null}'
expect_out "start" "$start" play
expect_out "opening a" '{"pits":[0,5,5,5,5,4,4,4,4,4,4,4],"captured":{"south":0,"north":0},"turn":"north","legal":["A","B","C","D","E","F"],"over":false,"winner":null,"reason":null}' play a
# North's A (1 seed) sows B: 5 + 1 = 6, no capture in its own row.
expect_out "position given, moves applied" '{"pits":[0,0,0,0,0,1,0,6,0,0,0,0],"captured":{"south":23,"north":18},"turn":"south","legal":["f"],"over":false,"winner":null,"reason":null}' \
	play --position '{"pits":[0,0,0,0,0,1,1,5,0,0,0,0],"captured":{"south":23,"north":18},"turn":"north"}' A
expect_out "score end keeps the board" '{"pits":[0,0,0,0,0,0,0,5,0,0,0,0],"captured":{"south":25,"north":18},"turn":"north","legal":[],"over":true,"winner":"south","reason":"score"}' \
	play --position '{"pits":[0,0,0,0,0,1,1,5,0,0,0,0],"captured":{"south":23,"north":18},"turn":"south"}' f
expect_out "no moves collects" '{"pits":[0,0,0,0,0,0,0,0,0,0,0,0],"captured":{"south":23,"north":25},"turn":"north","legal":[],"over":true,"winner":"north","reason":"no_moves"}' \
	play --position '{"pits":[0,0,0,0,0,1,0,0,0,0,0,0],"captured":{"south":23,"north":24},"turn":"south"}' f
expect_out "given position already over" '{"pits":[0,0,0,0,0,0,0,0,0,0,0,0],"captured":{"south":24,"north":24},"turn":"south","legal":[],"over":true,"winner":"draw","reason":"no_moves"}' \
	play --position '{"pits":[1,2,0,0,0,0,0,0,0,0,0,0],"captured":{"south":21,"north":24},"turn":"south"}'
expect_out "given position counts for repetition" '{"pits":[0,0,0,0,0,0,0,0,0,0,0,0],"captured":{"south":24,"north":24},"turn":"south","legal":[],"over":true,"winner":"draw","reason":"repetition"}' \
	play --position '{"pits":[1,0,0,0,0,0,1,0,0,0,0,0],"captured":{"south":23,"north":23},"turn":"south"}' \
	a A b B c C d D e E f F a A b B c C d D e E f F

for reason in repetition move_limit; do
	moves=$(grep "^$reason " "$DATA/end-games.txt" | cut -d' ' -f3-)
	# shellcheck disable=SC2086
	"$OWARE" play $moves >"$tmp/out" 2>"$tmp/err"
	if grep -q "\"reason\":\"$reason\"" "$tmp/out" && grep -q '"pits":\[0,0,0,0,0,0,0,0,0,0,0,0\]' "$tmp/out" &&
		grep -q '"over":true' "$tmp/out" && grep -q '"legal":\[\]' "$tmp/out"; then
		ok
	else
		fail "$reason game: $(cat "$tmp/out" "$tmp/err")"
	fi
	# shellcheck disable=SC2086
	expect_err "move after $reason end" "ply $(($(echo $moves | wc -w) + 1)): the game is over" play $moves a
done

expect_err "unknown letter" 'ply 2: "g" is not a pit letter' play a g
expect_err "two letters in one move" 'ply 1: "ab" is not a pit letter' play ab
expect_err "empty argument" 'ply 1: "" is not a pit letter' play ""
expect_err "empty pit" 'ply 3: the pit is empty' play a A a
expect_err "opponent's pit" 'ply 2: pit belongs to south; north is to move' play a b
expect_err "opponent's pit (north)" 'ply 1: pit belongs to north; south is to move' play A
expect_err "must feed" 'ply 1: the opponent has no seeds and this move does not feed them' \
	play --position '{"pits":[1,0,0,0,2,1,0,0,0,0,0,0],"captured":{"south":20,"north":24},"turn":"south"}' a
expect_err "move after score end" 'ply 2: the game is over' \
	play --position '{"pits":[0,0,0,0,0,1,1,5,0,0,0,0],"captured":{"south":23,"north":18},"turn":"south"}' f B
expect_err "malformed JSON" '--position: position: malformed JSON' play --position '{"pits":[4,4'
expect_err "not an object" '--position: position: must be a JSON object' play --position '[1,2]'
expect_err "pits missing" '--position: pits: must be an array of 12 integers' play --position '{"captured":{"south":0,"north":0},"turn":"south"}'
expect_err "11 pits" '--position: pits: must be an array of 12 integers' play --position '{"pits":[4,4,4,4,4,4,4,4,4,4,8],"captured":{"south":0,"north":0},"turn":"south"}'
expect_err "pit not an integer" '--position: pits\[2\]: must be an integer' play --position '{"pits":[4,4,"4",4,4,4,4,4,4,4,4,4],"captured":{"south":0,"north":0},"turn":"south"}'
expect_err "fractional pit" '--position: pits\[0\]: must be an integer' play --position '{"pits":[4.5,4,4,4,4,4,4,4,4,4,4,3.5],"captured":{"south":0,"north":0},"turn":"south"}'
expect_err "negative pit" '--position: pits\[5\]: negative count' play --position '{"pits":[4,4,4,4,4,-1,4,4,4,4,4,9],"captured":{"south":0,"north":0},"turn":"south"}'
expect_err "huge pit" '--position: pits\[0\]: more than 48 seeds' play --position '{"pits":[99999999999,4,4,4,4,4,4,4,4,4,4,4],"captured":{"south":0,"north":0},"turn":"south"}'
expect_err "captured missing" '--position: captured: must be an object' play --position '{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"turn":"south"}'
expect_err "negative score" '--position: captured.north: negative count' play --position '{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"captured":{"south":1,"north":-1},"turn":"south"}'
expect_err "score not integer" '--position: captured.south: must be an integer' play --position '{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"captured":{"south":null,"north":0},"turn":"south"}'
expect_err "sum not 48" '--position: position: pits and captured must add up to 48' play --position '{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"captured":{"south":1,"north":0},"turn":"south"}'
expect_err "bad turn" '--position: turn: must be "south" or "north"' play --position '{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"captured":{"south":0,"north":0},"turn":"east"}'
expect_err "turn missing" '--position: turn: must be "south" or "north"' play --position '{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"captured":{"south":0,"north":0}}'
expect_err "--position without JSON" '--position needs a JSON argument' play --position

while read -r d n; do
	case "$d" in '#'*) continue ;; esac
	[ "$d" -gt 7 ] && continue
	expect_out "perft $d" "$n" perft "$d"
done <"$DATA/perft.txt"
expect_out "perft from a position" 36 perft 2 --position '{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"captured":{"south":0,"north":0},"turn":"north"}'
expect_out "perft 0" 1 perft 0
expect_err "perft bad depth" 'DEPTH must be an integer' perft x
expect_err "perft negative depth" 'DEPTH must be an integer' perft -1
expect_err "perft bad position" '--position: turn' perft 2 --position '{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"captured":{"south":0,"north":0},"turn":1}'

"$OWARE" --help >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q 'oware play' "$tmp/out" && grep -q 'oware perft' "$tmp/out"; then ok; else fail "--help"; fi
"$OWARE" frobnicate >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q usage "$tmp/err"; then ok; else fail "unknown command"; fi

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
