#!/bin/sh
# ladder.sh: games between two steps of the computer's ladder (`oware best
# --level`, docs/computer.md), written as records for `oware puzzles
# --records` (docs/lessons.md says where the shipped ones come from).
# Steps 1-7 only (quick, and bounded by depth or nodes, never the clock),
# so the same arguments give the same file with the same engine. Oware's games are OGN records (`oware
# ogn`), Togyz Kumalak's numbered pairs of hole numbers, a result last.
# Usage: cli/records/ladder.sh OWARE oware|togyz GAMES FIRST_SEED >FILE
set -eu
OWARE=$1 GAME=$2 GAMES=$3 SEED=$4
if [ "$GAME" = togyz ]; then
	NAMES="starter easy learner amateur improver steady medium"
else
	NAMES="starter easy learner improver steady medium club"
fi
name() { echo "$NAMES" | cut -d' ' -f"$1"; }
g=0
while [ "$g" -lt "$GAMES" ]; do
	seed=$((SEED + g))
	# Two different steps, varied from game to game.
	south=$((1 + seed % 7)) north=$((1 + (seed * 3 + 2) % 7))
	[ "$south" -ne "$north" ] || north=$((1 + north % 7))
	moves= ply=0
	while :; do
		state=$("$OWARE" play --game "$GAME" $moves)
		case $state in *'"over":true'*) break ;; esac
		if [ $((ply % 2)) -eq 0 ]; then level=$south; else level=$north; fi
		move=$("$OWARE" best --game "$GAME" --level "$level" --seed $((seed * 1000 + ply)) $moves |
			sed 's/^{"move":"\{0,1\}\([^",]*\).*/\1/')
		moves="$moves $move" ply=$((ply + 1))
	done
	if [ "$GAME" = oware ]; then
		[ "$g" -eq 0 ] || echo
		"$OWARE" ogn --south "level $south ($(name $south))" --north "level $north ($(name $north))" \
			--date 2026.12.01 $moves
	else
		[ "$g" -eq 0 ] || echo
		echo "# White: level $south ($(name $south)), Black: level $north ($(name $north)); seed $seed"
		echo $moves | awk '{ for (i = 1; i <= NF; i += 2) print (i + 1) / 2 ". " $i (i < NF ? " " $(i + 1) : "") }'
		echo "$state" | sed 's/.*"captured":{"south":\([0-9]*\),"north":\([0-9]*\)}.*"winner":"\([a-z]*\)".*/\3 \1 \2/' |
			awk '{ print ($1 == "south" ? "1-0" : $1 == "north" ? "0-1" : "1/2-1/2") " (" $2 "-" $3 ")" }'
	fi
	g=$((g + 1))
done
