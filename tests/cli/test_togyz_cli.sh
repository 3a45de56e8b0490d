#!/bin/sh
# test_togyz_cli.sh: the `oware play|perft|best --game togyz` contract
# (docs/cli.md). Usage: tests/cli/test_togyz_cli.sh build/oware
set -u
. "$(dirname "$0")/lib.sh"

# pos PITS SOUTH NORTH TZ_SOUTH TZ_NORTH TURN: a --position JSON.
pos() {
	printf '{"pits":[%s],"captured":{"south":%s,"north":%s},"tuzdyk":{"south":%s,"north":%s},"turn":"%s"}' \
		"$1" "$2" "$3" "$4" "$5" "$6"
}
nines=9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9

start='{"pits":[9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9],"captured":{"south":0,"north":0},"tuzdyk":{"south":null,"north":null},"turn":"south","legal":[1,2,3,4,5,6,7,8,9],"over":false,"winner":null,"reason":null}'
expect_out "start" "$start" play --game togyz
expect_out "--game after --position" "$start" play --position "$(pos $nines 0 0 null null south)" --game togyz
# White's 9th: one seed back into it, 8 on; Black's 8th becomes 10: captured.
expect_out "opening 9" '{"pits":[9,9,9,9,9,9,9,9,1,10,10,10,10,10,10,10,0,9],"captured":{"south":10,"north":0},"tuzdyk":{"south":null,"north":null},"turn":"north","legal":[1,2,3,4,5,6,7,9],"over":false,"winner":null,"reason":null}' \
	play --game togyz 9
# Black's 1st (9): one back, 8 on to its 9th; then White's 1st, now 1 seed, moves on.
expect_out "single seed moves on" '{"pits":[0,11,10,10,10,10,10,10,10,1,10,10,10,10,10,10,10,10],"captured":{"south":0,"north":0},"tuzdyk":{"south":null,"north":null},"turn":"north","legal":[1,2,3,4,5,6,7,8,9],"over":false,"winner":null,"reason":null}' \
	play --game togyz 1 1 1
# White's 7th (4) makes Black's 1st 3: White's tuzdyk; Black's 3rd then sows its own row.
tz=$(pos 0,0,0,0,0,0,4,0,0,2,0,5,0,0,0,0,0,0 75 76 null null south)
expect_out "tuzdyk made" '{"pits":[0,0,0,0,0,0,1,1,1,0,0,5,0,0,0,0,0,0],"captured":{"south":78,"north":76},"tuzdyk":{"south":1,"north":null},"turn":"north","legal":[3],"over":false,"winner":null,"reason":null}' \
	play --game togyz --position "$tz" 7
expect_out "after a tuzdyk" '{"pits":[0,0,0,0,0,0,1,1,1,0,0,1,1,1,1,1,0,0],"captured":{"south":78,"north":76},"tuzdyk":{"south":1,"north":null},"turn":"south","legal":[7,8,9],"over":false,"winner":null,"reason":null}' \
	play --game togyz --position "$tz" 7 3
# A seed sown into a tuzdyk goes to its owner: White's 8th (3) sows 8, 9 and Black's 1st, White's.
expect_out "seed into a tuzdyk" '{"pits":[0,0,0,0,0,0,0,1,1,0,0,5,0,0,0,0,0,0],"captured":{"south":79,"north":76},"tuzdyk":{"south":1,"north":null},"turn":"north","legal":[3],"over":false,"winner":null,"reason":null}' \
	play --game togyz --position "$(pos 0,0,0,0,0,0,0,3,0,0,0,5,0,0,0,0,0,0 78 76 1 null south)" 8
expect_out "score end keeps the board" '{"pits":[0,0,4,0,0,0,0,0,0,0,0,0,5,0,0,0,0,0],"captured":{"south":82,"north":71},"tuzdyk":{"south":null,"north":null},"turn":"north","legal":[],"over":true,"winner":"south","reason":"score"}' \
	play --game togyz --position "$(pos 0,0,4,0,0,0,0,0,1,1,0,0,5,0,0,0,0,0 80 71 null null south)" 9
expect_out "81-81 by a capture" '{"pits":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"captured":{"south":81,"north":81},"tuzdyk":{"south":null,"north":null},"turn":"north","legal":[],"over":true,"winner":"draw","reason":"score"}' \
	play --game togyz --position "$(pos 0,0,0,0,0,0,0,0,1,1,0,0,0,0,0,0,0,0 79 81 null null south)" 9
expect_out "no moves collects" '{"pits":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"captured":{"south":92,"north":70},"tuzdyk":{"south":null,"north":null},"turn":"north","legal":[],"over":true,"winner":"south","reason":"no_moves"}' \
	play --game togyz --position "$(pos 2,0,0,0,30,0,0,0,0,0,0,0,0,0,0,0,0,0 60 70 null null south)" 1
expect_out "given position over: 81-81 after the collection" '{"pits":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"captured":{"south":81,"north":81},"tuzdyk":{"south":3,"north":4},"turn":"north","legal":[],"over":true,"winner":"draw","reason":"no_moves"}' \
	play --game togyz --position "$(pos 0,4,0,0,0,0,0,2,0,0,0,0,0,0,0,0,0,0 75 81 3 4 north)"

# A printed game reads back as a position.
"$OWARE" play --game togyz 7 4 5 >"$tmp/a" 2>/dev/null
"$OWARE" play --game togyz --position "$(cat "$tmp/a")" 3 2 >"$tmp/b" 2>/dev/null
"$OWARE" play --game togyz 7 4 5 3 2 >"$tmp/c" 2>/dev/null
if [ -s "$tmp/b" ] && cmp -s "$tmp/b" "$tmp/c"; then ok; else fail "printed game reads back: $(cat "$tmp/b") vs $(cat "$tmp/c")"; fi

# PlayStrategy's game FgWSk5be (tests/data/togyz-games.txt): White wins 82-43.
moves=$(sed -n '/^game playstrategy-FgWSk5be/,/^end/p' "$DATA/togyz-games.txt" | sed -n 's/^moves //p' |
	tr ' ' '\n' | cut -c1 | tr '\n' ' ')
# shellcheck disable=SC2086
expect_out "PlayStrategy game" '{"pits":[1,2,2,0,3,2,2,1,1,1,3,4,3,5,0,1,0,6],"captured":{"south":82,"north":43},"tuzdyk":{"south":6,"north":4},"turn":"north","legal":[],"over":true,"winner":"south","reason":"score"}' \
	play --game togyz $moves
# shellcheck disable=SC2086
expect_err "move after the end" 'ply 76: the game is over' play --game togyz $moves 1

expect_err "hole 0" 'ply 1: "0" is not a hole number (1-9)' play --game togyz 0
expect_err "hole 10" 'ply 2: "10" is not a hole number (1-9)' play --game togyz 9 10
expect_err "a letter" 'ply 1: "a" is not a hole number (1-9)' play --game togyz a
expect_err "empty argument" 'ply 1: "" is not a hole number' play --game togyz ""
expect_err "empty hole" 'ply 2: the hole is empty' play --game togyz 9 8
expect_err "the opponent's tuzdyk" "ply 2: the hole is the opponent's tuzdyk" \
	play --game togyz --position "$tz" 7 1
expect_err "unknown game" '--game must be oware or togyz, not "chess"' play --game chess
expect_err "--game without a name" '--game needs oware or togyz' play --game
expect_err "--game twice" '--game given twice' play --game togyz --game oware
# best --game togyz: a reproducible depth, the win in one at every level,
# a finished game and bad options refused.
expect_out "best depth 6" '{"move":9,"score":154,"depth":6,"nodes":3796,"pv":[9,8,6,8,8,1]}' \
	best --game togyz --depth 6 7 4
win=$(pos 0,0,4,0,0,0,0,0,1,1,0,0,5,0,0,0,0,0 80 71 null null south)
expect_out "best easy takes the win" '{"move":9,"score":29999,"depth":1,"nodes":2,"pv":[9]}' \
	best --game togyz --position "$win" --level easy
# A forced result stops the deepening once the next depth has confirmed it.
expect_out "best medium takes the win" '{"move":9,"score":29999,"depth":2,"nodes":6,"pv":[9]}' \
	best --game togyz --position "$win" --level medium
expect_out "best hard takes the win" '{"move":9,"score":29999,"depth":2,"nodes":7,"pv":[9]}' \
	best --game togyz --position "$win" --level hard
expect_err "best after the end" 'best: the game is over' best --game togyz --position "$win" 9
expect_err "best bad level" 'best: --level must be 1-11 or starter, easy, learner, amateur, improver, steady, medium, advanced, strong, master or hard, not "nope"' best --game togyz --level nope
expect_err "best level 12" 'best: --level must be 1-11 or starter, easy, learner, amateur, improver, steady, medium, advanced, strong, master or hard, not "12"' best --game togyz --level 12
expect_err "best club (Oware's)" 'best: --level must be 1-11 or starter, easy, learner, amateur, improver, steady, medium, advanced, strong, master or hard, not "club"' best --game togyz --level club
expect_err "best level 0" 'best: --level must be 1-11 or starter, easy, learner, amateur, improver, steady, medium, advanced, strong, master or hard, not "0"' best --game togyz --level 0
# the ladder's levels by number and name: the win in one at each
expect_out "best level 1 takes the win" '{"move":9,"score":29999,"depth":1,"nodes":2,"pv":[9]}' \
	best --game togyz --position "$win" --level 1
expect_out "best starter takes the win" '{"move":9,"score":29999,"depth":1,"nodes":2,"pv":[9]}' \
	best --game togyz --position "$win" --level starter
expect_out "best level 2 (easy) takes the win" '{"move":9,"score":29999,"depth":1,"nodes":2,"pv":[9]}' \
	best --game togyz --position "$win" --level 2
for lv in 3 learner 4 amateur 5 improver 6 steady 7 medium; do
	expect_out "best level $lv takes the win" '{"move":9,"score":29999,"depth":2,"nodes":6,"pv":[9]}' \
		best --game togyz --position "$win" --level $lv
done
for lv in 8 advanced 9 strong 10 master 11; do
	expect_out "best level $lv takes the win" '{"move":9,"score":29999,"depth":2,"nodes":7,"pv":[9]}' \
		best --game togyz --position "$win" --level $lv
done
expect_out "best level 8: 1,600 nodes" '{"move":5,"score":8,"depth":5,"nodes":1600,"pv":[5,9,1,8,2]}' best --game togyz --level 8 --seed 2 7 4
expect_out "best level 8 is advanced" '{"move":5,"score":8,"depth":5,"nodes":1600,"pv":[5,9,1,8,2]}' best --game togyz --level advanced --seed 2 7 4
expect_err "best bad hole" 'best: ply 1: "a" is not a hole number (1-9)' best --game togyz a
expect_err "best two budgets" 'best: give only one of' best --game togyz --depth 3 --time-ms 5
expect_err "best depth 65" 'best: --depth must be an integer from 1 to 64' best --game togyz --depth 65
expect_err "--position without JSON" '--position needs a JSON argument' play --game togyz --position
expect_err "malformed JSON" '--position: position: malformed JSON' play --game togyz --position '{"pits":[9,9'
expect_err "not an object" '--position: position: must be a JSON object' play --game togyz --position '[1,2]'
expect_err "an Oware position" '--position: pits: must be an array of 18 integers' \
	play --game togyz --position '{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"captured":{"south":0,"north":0},"turn":"south"}'
expect_err "pit not an integer" '--position: pits\[2\]: must be an integer' \
	play --game togyz --position "$(pos 9,9,\"9\",9,9,9,9,9,9,9,9,9,9,9,9,9,9,9 0 0 null null south)"
expect_err "negative pit" '--position: pits\[5\]: negative count' \
	play --game togyz --position "$(pos 9,9,9,9,9,-1,9,9,9,9,9,9,9,9,9,9,9,19 0 0 null null south)"
expect_err "huge pit" '--position: pits\[0\]: more than 162 seeds' \
	play --game togyz --position "$(pos 99999999999,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9,9 0 0 null null south)"
expect_err "captured missing" '--position: captured: must be an object' \
	play --game togyz --position '{"pits":['$nines'],"tuzdyk":{"south":null,"north":null},"turn":"south"}'
expect_err "negative score" '--position: captured.north: negative count' \
	play --game togyz --position "$(pos $nines 1 -1 null null south)"
expect_err "sum not 162" '--position: position: pits and captured must add up to 162' \
	play --game togyz --position "$(pos $nines 1 0 null null south)"
expect_err "tuzdyk missing" '--position: tuzdyk: must be an object' \
	play --game togyz --position '{"pits":['$nines'],"captured":{"south":0,"north":0},"turn":"south"}'
expect_err "tuzdyk key missing" '--position: tuzdyk.north: must be a hole number or null' \
	play --game togyz --position '{"pits":['$nines'],"captured":{"south":0,"north":0},"tuzdyk":{"south":null},"turn":"south"}'
expect_err "tuzdyk a string" '--position: tuzdyk.south: must be a hole number or null' \
	play --game togyz --position "$(pos $nines 0 0 '"3"' null south)"
expect_err "tuzdyk 0" '--position: tuzdyk.south: must be a hole number from 1 to 8 or null' \
	play --game togyz --position "$(pos 9,9,9,9,9,9,9,9,9,0,9,9,9,9,9,9,9,9 9 0 0 null south)"
expect_err "tuzdyk on a 9th hole" '--position: tuzdyk.north: must be a hole number from 1 to 8 or null' \
	play --game togyz --position "$(pos 9,9,9,9,9,9,9,9,0,9,9,9,9,9,9,9,9,9 0 9 null 9 south)"
expect_err "twin tuzdyks" "--position: tuzdyk.north: cannot have the same hole number as south's tuzdyk" \
	play --game togyz --position "$(pos 9,9,9,0,9,9,9,9,9,9,9,9,0,9,9,9,9,9 9 9 4 4 south)"
expect_err "seeds in a tuzdyk" "--position: tuzdyk.south: north's hole 4 must be empty" \
	play --game togyz --position "$(pos $nines 0 0 4 null south)"
expect_err "bad turn" '--position: turn: must be "south" or "north"' \
	play --game togyz --position "$(pos $nines 0 0 null null east)"

while read -r d n; do
	case "$d" in '#'*) continue ;; esac
	[ "$d" -gt 6 ] && continue
	expect_out "perft $d" "$n" perft --game togyz "$d"
done <"$DATA/togyz-perft.txt"
expect_out "perft, --game after DEPTH" 73 perft 2 --game togyz
expect_out "perft from a position" 1 perft --game togyz 2 --position "$tz"
expect_out "perft 0" 1 perft --game togyz 0
expect_out "perft of a finished game" 0 perft --game togyz 1 --position "$(pos 0,0,4,0,0,0,0,0,0,0,0,0,5,0,0,0,0,0 82 71 null null south)"
expect_err "perft bad depth" 'DEPTH must be an integer' perft --game togyz x
expect_err "perft bad position" '--position: turn' perft --game togyz 2 --position "$(pos $nines 0 0 null null 1)"
# --game oware is the default.
expect_out "--game oware" "$("$OWARE" play a)" play --game oware a
expect_out "perft --game oware" 36 perft --game oware 2

"$OWARE" --help >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q 'oware play --game togyz' "$tmp/out" && grep -q 'oware perft --game togyz' "$tmp/out"; then ok; else fail "--help"; fi

echo "cli togyz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
