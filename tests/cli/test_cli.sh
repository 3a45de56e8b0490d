#!/bin/sh
# test_cli.sh: the `oware` command-line contract (docs/cli.md).
# Usage: tests/cli/test_cli.sh build/oware
set -u
. "$(dirname "$0")/lib.sh"

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

# oware analyse (engine/analysis.h): the shape, a known blunder, a proven win.
# expect_match NAME PATTERN ARGS...: exit 0, stdout matches the grep -E
# pattern, stderr empty.
expect_match() {
	name=$1 pattern=$2
	shift 2
	"$OWARE" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ] || [ -s "$tmp/err" ] || ! grep -Eq -- "$pattern" "$tmp/out"; then
		fail "$name: status $rc, stdout '$(cat "$tmp/out")', stderr '$(cat "$tmp/err")', want /$pattern/"
	else
		ok
	fi
}
ply='\{"ply":[0-9]+,"side":"(south|north)","move":"[a-fA-F]","best":"[a-fA-F]","pv":\["[a-fA-F]"(,"[a-fA-F]")*\],"eval_before":-?[0-9.]+,"eval_after":-?[0-9.]+,"proven_before":(null|\{[^}]*\}),"proven_after":(null|\{[^}]*\}),"loss":[0-9.]+,"class":"(best|good|inaccuracy|mistake|blunder)","depth":[0-9]+,"nodes":[0-9]+\}'
side='\{"moves":[0-9]+,"best":[0-9]+,"good":[0-9]+,"inaccuracy":[0-9]+,"mistake":[0-9]+,"blunder":[0-9]+,"average_loss":[0-9.]+\}'
expect_match "analyse shape" "^\{\"budget\":\{\"nodes\":20000\},\"start\":\{\"pits\":\[4,4,4,4,4,4,4,4,4,4,4,4\],\"captured\":\{\"south\":0,\"north\":0\},\"turn\":\"south\"\},\"plies\":\[$ply,$ply,$ply\],\"summary\":\{\"south\":$side,\"north\":$side\},\"end\":\{\"pits\":.*\"reason\":null\}\}$" \
	analyse --nodes 20000 c F a
expect_match "analyse no moves" '^\{"budget":\{"nodes":300000\},.*"plies":\[\],"summary":\{"south":\{"moves":0,' analyse
expect_match "analyse by time" '^\{"budget":\{"time_per_move_ms":20\},.*"plies":\[\{"ply":1,"side":"south","move":"a",' \
	analyse --time-per-move 20 a
# After c B e D c A b A (a game of the medium level), South's f lets North
# take 3 seeds while e lets North take nothing: never best or good.
blunder_pos='{"pits":[6,0,1,8,1,7,0,3,7,1,7,7],"captured":{"south":0,"north":0},"turn":"south"}'
expect_match "a given capture is a mistake or a blunder" '"move":"f","best":"[a-e]",.*"class":"(mistake|blunder)"' \
	analyse --nodes 20000 --position "$blunder_pos" f
expect_match "the summary counts it" '"summary":\{"south":\{"moves":1,"best":0,"good":0,"inaccuracy":0,"mistake":[01],"blunder":[01],' \
	analyse --nodes 20000 --position "$blunder_pos" f
expect_match "a safe move is best" '"move":"e","best":"[a-f]",.*"loss":0.0,"class":"best"' \
	analyse --nodes 20000 --position "$blunder_pos" e
# South wins in 10 plies from this position (f); a lets the win go.
won_pos='{"pits":[2,0,0,1,0,1,1,0,1,0,0,2],"captured":{"south":21,"north":19},"turn":"south"}'
expect_match "proven win" '^\{"budget":\{"nodes":20000\},.*"plies":\[\{"ply":1,"side":"south","move":"f","best":"f","pv":\["f","C","d","D","a","F","a","E","b","F"\],"eval_before":24.0,"eval_after":24.0,"proven_before":\{"winner":"south","plies":10\},"proven_after":\{"winner":"south","plies":9\},"loss":0.0,"class":"best",.*\{"ply":2,"side":"north","move":"C","best":"C",.*"eval_before":24.0,.*"proven_before":\{"winner":"south","plies":9\},"proven_after":\{"winner":"south","plies":8\},' \
	analyse --nodes 20000 --position "$won_pos" f C
expect_match "proven win let go" '"move":"a","best":"f",.*"proven_before":\{"winner":"south","plies":10\},"proven_after":null,.*"class":"blunder"' \
	analyse --nodes 20000 --position "$won_pos" a
expect_match "game over: proven end of 0 plies" '"move":"f",.*"proven_after":\{"winner":"south","plies":0\},.*"end":\{.*"over":true,"winner":"south","reason":"score"\}' \
	analyse --nodes 20000 --position '{"pits":[0,0,0,0,0,1,1,5,0,0,0,0],"captured":{"south":23,"north":18},"turn":"south"}' f
expect_err "analyse empty pit" 'oware: analyse: ply 3: the pit is empty' analyse a A a
expect_err "analyse bad letter" 'oware: analyse: ply 1: "x" is not a pit letter' analyse x
expect_err "analyse two budgets" 'give only one of --nodes and --time-per-move' analyse --nodes 5 --time-per-move 5 a
expect_err "analyse nodes 0" '--nodes must be an integer from 1 to 1000000000, not "0"' analyse --nodes 0 a
expect_err "analyse time junk" '--time-per-move must be an integer from 1 to 600000, not "x"' analyse --time-per-move x a
expect_err "analyse unknown option" 'unknown option "--depth"' analyse --depth 3 a
expect_err "analyse bad position" 'oware: analyse: --position: position: pits and captured must add up to 48' \
	analyse --position '{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"captured":{"south":1,"north":0},"turn":"south"}' a
expect_err "analyse after the end" 'ply 2: the game is over' \
	analyse --position '{"pits":[0,0,0,0,0,1,1,5,0,0,0,0],"captured":{"south":23,"north":18},"turn":"south"}' f A

# --egdb FILE (best and analyse): the endgame database in the search.
EGDB=${EGDB:-build/oware.egdb}
lost='{"pits":[0,0,0,0,1,2,0,0,0,1,1,0],"captured":{"south":22,"north":21},"turn":"south"}'
expect_match "best without the database: an estimate" '^\{"move":"e","score":-?[0-9]{1,3},"depth":1,"nodes":3,"pv":\["e"\]\}$' \
	best --depth 1 --position "$lost"
expect_out "best with the database: a lost endgame" '{"move":"e","score":-28063,"depth":1,"nodes":3,"pv":["e"]}' \
	best --depth 1 --egdb "$EGDB" --position "$lost"
expect_match "analyse with the database" '"eval_before":-24.0,"eval_after":-24.0,' \
	analyse --nodes 50 --egdb "$EGDB" --position "$lost" e
expect_err "best --egdb missing" 'oware: best: --egdb /nonexistent/x.egdb: No such file or directory' \
	best --egdb /nonexistent/x.egdb a
printf 'OWEGDB1\nnot really' >"$tmp/bad.egdb"
expect_err "analyse --egdb damaged" 'oware: analyse: --egdb .*/bad.egdb: not an endgame database' \
	analyse --egdb "$tmp/bad.egdb" a
expect_err "analyse --egdb no value" 'oware: analyse: --egdb needs a value' analyse --egdb

# oware ogn (engine/ogn.h): Aualé's records out and in.
tags='[Variant "Oware Abapa"]
[Event "?"]
[Site "?"]
[Date "?"]
[Round "?"]
[South "?"]
[North "?"]'
expect_out "ogn from the start" "$tags
[Result \"*\"]

1. C f 2. A b" ogn c F a B
expect_out "ogn from a position, names, date, capture mark, result" '[Variant "Oware Abapa"]
[Event "?"]
[Site "?"]
[Date "2026.11.30"]
[Round "?"]
[South "Ama \"A\" \\"]
[North "Kofi"]
[Result "25-18"]
[FEN "0-0-0-0-0-1-1-5-0-0-0-0-23-18-S"]

1. F+2 25-18' ogn --south 'Ama "A" \' --north Kofi --date 2026.11.30 \
	--position '{"pits":[0,0,0,0,0,1,1,5,0,0,0,0],"captured":{"south":23,"north":18},"turn":"south"}' f
expect_out "ogn no moves" "$tags
[Result \"*\"]" ogn
"$OWARE" ogn --south Ama c F a B d >"$tmp/rec.ogn"
expect_out "ogn --read" '{"pits":[0,6,2,0,7,7,6,1,6,6,6,1],"captured":{"south":0,"north":0},"turn":"north","legal":["A","B","C","D","E","F"],"over":false,"winner":null,"reason":null,"moves":["c","F","a","B","d"],"start":{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"captured":{"south":0,"north":0},"turn":"south"},"tags":{"Variant":"Oware Abapa","Event":"?","Site":"?","Date":"?","Round":"?","South":"Ama","North":"?","Result":"*"}}' \
	ogn --read "$tmp/rec.ogn"
"$OWARE" play c F a B d >"$tmp/play"
if "$OWARE" ogn --read - <"$tmp/rec.ogn" | grep -q "^$(sed 's/}$//' "$tmp/play" | sed 's/[][]/\\&/g'),\"moves\""; then ok; else fail "ogn --read - prints the game as play"; fi
# Round trip over whole games: the repetition and move-limit games.
for reason in repetition move_limit; do
	moves=$(grep "^$reason " "$DATA/end-games.txt" | cut -d' ' -f3-)
	# shellcheck disable=SC2086
	"$OWARE" ogn $moves >"$tmp/r.ogn" && "$OWARE" ogn --read "$tmp/r.ogn" >"$tmp/out" 2>"$tmp/err"
	want=$(echo $moves | sed 's/\([a-fA-F]\)/"\1"/g; s/ /,/g')
	if grep -q "\"reason\":\"$reason\".*\"moves\":\[$want\]" "$tmp/out" && [ ! -s "$tmp/err" ]; then ok; else fail "ogn round trip $reason: $(cat "$tmp/err")"; fi
done
printf '[Variant "Oware Abapa"]\n\n1. A a 2. A\n' >"$tmp/bad.ogn"
expect_err "ogn illegal record" "oware: ogn: $tmp/bad.ogn: line 3: move 3 \"A\": the pit is empty" ogn --read "$tmp/bad.ogn"
printf '[South "x"]\n[South "y"]\n' | { "$OWARE" ogn --read - >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; }
if [ "$(cat "$tmp/rc")" = 2 ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/err")" = 'oware: ogn: -: line 2: tag "South" given twice' ]; then ok; else fail "ogn malformed from stdin: $(cat "$tmp/err")"; fi
expect_err "ogn missing file" "oware: ogn: $tmp/nothing.ogn: No such file or directory" ogn --read "$tmp/nothing.ogn"
head -c 1048577 /dev/zero | tr '\0' ' ' >"$tmp/big.ogn"
expect_err "ogn file too big" 'larger than 1 MB' ogn --read "$tmp/big.ogn"
expect_err "ogn --read and more" '--read takes one FILE' ogn --read "$tmp/rec.ogn" a
expect_err "ogn bad name" 'oware: ogn: --south: must be UTF-8 text of at most 255 bytes without control characters' ogn --south "$(printf 'a\tb')" a
expect_err "ogn illegal move" 'oware: ogn: ply 2: pit belongs to south; north is to move' ogn a b
expect_err "ogn unknown option" 'unknown option "--event"' ogn --event x a

"$OWARE" --help >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q 'oware play' "$tmp/out" && grep -q 'oware perft' "$tmp/out" &&
	grep -q 'oware analyse' "$tmp/out" && grep -q 'oware ogn --read' "$tmp/out"; then ok; else fail "--help"; fi
"$OWARE" frobnicate >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q usage "$tmp/err"; then ok; else fail "unknown command"; fi

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
