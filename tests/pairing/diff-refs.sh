#!/bin/sh
# diff-refs.sh BUILD [--trf]: regenerates the references of the differential
# test (make check-pairing-diff, tests/pairing/diff/): builds bbpPairings
# 5.0.1 (the 2017 rules) and its dutch-2025 branch (the 2025 rules) from a
# fetched copy, pairs every round of every tournament of diff/trf.tar.gz
# with each (`--dutch FILE -p`), and writes diff/ref-2017.txt and
# diff/ref-2025.txt, a line a round: "T R" then the boards as "white
# black" pairs, "N 0" for the bye, or "fail" when no pairing exists.
# With --trf it first makes the tournaments again (pair_sim --set diff).
# With --wide FROM COUNT it writes nothing in the repository: it makes
# COUNT more tournaments of the same kind (numbers FROM on, at most 9999),
# pairs their rounds with both programs into BUILD/pairing-diff-refs/,
# then compares pair_diff's pairing of each round with them (both rules)
# and fails unless every round is equal.
#
# BBP_REPO (default the GitHub repository), BBP_DIR (where it is cloned
# and built, default $BUILD/bbp), or BBP and BBP2025 naming programs
# already built, skip what they give. Needs git, make, a C++20 compiler.
set -eu
build=$1
if [ "${2:-}" = "--wide" ] && [ $# -ne 4 ]; then
	echo "usage: diff-refs.sh BUILD --wide FROM COUNT" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=${BBP_REPO:-https://github.com/BieremaBoyzProgramming/bbpPairings}
src=${BBP_DIR:-$build/bbp}
v5=0433c52a773558608f59e6871d5a7e98806b9ed2       # tag v5.0.1
v6=a9f74a93b7ae98ef19528db86a60a99841ddcae9       # branch dutch-2025
work=$build/pairing-diff-refs
rm -rf "$work"
mkdir -p "$work/trf" "$work/cut"

build_bbp() {                # build_bbp COMMIT DIR: prints the program
	if [ ! -x "$2/bbpPairings.exe" ]; then
		[ -d "$src/.git" ] || git clone -q "$repo" "$src" >&2
		git -C "$src" worktree add -f --detach "$2" "$1" >&2
		make -C "$2" >&2
	fi
	echo "$2/bbpPairings.exe"
}
bbp5=${BBP:-}
bbp6=${BBP2025:-}
[ -n "$bbp5" ] || bbp5=$(build_bbp $v5 "$src-5.0.1")
[ -n "$bbp6" ] || bbp6=$(build_bbp $v6 "$src-dutch-2025")

refs=$here/diff
if [ "${2:-}" = "--wide" ]; then
	"$build/pair_sim" --set diff --from "$3" --count "$4" --final "$work/trf" > /dev/null
	refs=$work
elif [ "${2:-}" = "--trf" ]; then
	"$build/pair_sim" --set diff --final "$work/trf" > /dev/null
	tar -C "$work/trf" -czf "$here/diff/trf.tar.gz" .
else
	tar -C "$work/trf" -xzf "$here/diff/trf.tar.gz"
fi

"$build/pair_diff" --cut "$work/cut" "$work"/trf/t*.trf > "$work/rounds"
for rules in 2017 2025; do
	prog=$bbp5
	[ $rules = 2025 ] && prog=$bbp6
	out=$refs/ref-$rules.txt
	: > "$out"
	while read -r t r; do
		if "$prog" --dutch "$work/cut/t$t-r$r.trf" -p "$work/out" > /dev/null 2>&1; then
			echo "$t $r $(tail -n +2 "$work/out" | tr '\n' ' ' | sed 's/ $//')" >> "$out"
		else
			echo "$t $r fail" >> "$out"
		fi
		rm -f "$work/out"
	done < "$work/rounds"
	echo "diff-refs: $(wc -l < "$out") rounds in $out"
done
[ "$refs" = "$work" ] || exit 0
rc=0
for rules in 2017 2025; do
	"$build/pair_diff" --rules $rules "$work/ref-$rules.txt" "$work"/trf/t*.trf > "$work/diff-$rules" || rc=1
	tail -n 20 "$work/diff-$rules"
done
exit $rc
