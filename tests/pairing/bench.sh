#!/bin/sh
# bench.sh BUILD: `make bench-pairing`. The time to pair each recorded
# worst case at 256 players, under each rules (2017, then 2025), whole
# process (pair_trf reading the TRF, pairing, printing): its CPU time
# (user + system, what a shared machine does not inflate) and wall time,
# the run of median CPU time of PAIR_BENCH_RUNS (3) runs; and beside it
# bbpPairings' on the same TRF when it is given: $BBP (else bbpPairings.exe
# or bbpPairings on PATH) for the 2017 rules, $BBP2025 (its dutch-2025
# branch) for the 2025 rules, with whether the two paired alike. The cases
# are the three 256-player tournaments of pair_sim's worst set (9 rounds
# each: white always wins, all draws, random results), played under each
# rules by its own pairings, each round written as a TRF of the rounds
# before it. PAIR_BENCH_CASES (1 2 3), PAIR_BENCH_ROUNDS (1 to 9) and
# PAIR_BENCH_RULES (2017 2025) choose fewer.
set -eu
build=$1
runs=${PAIR_BENCH_RUNS:-3}
cases=${PAIR_BENCH_CASES:-1 2 3}
rounds=${PAIR_BENCH_ROUNDS:-1 2 3 4 5 6 7 8 9}
rulesets=${PAIR_BENCH_RULES:-2017 2025}
dir=$build/bench-pairing
rm -rf "$dir"
mkdir -p "$dir"
bbp5=${BBP:-}
[ -n "$bbp5" ] || bbp5=$(command -v bbpPairings.exe || command -v bbpPairings || true)
bbp6=${BBP2025:-}

# the CPU time (user + system) of this shell's children so far, in
# milliseconds (`times` in this shell, not in a command substitution's)
cpu_now() {
	times > "$dir/times"
	awk 'NR == 2 { split($1, u, "m"); split($2, s, "m");
		printf "%d\n", (u[1] * 60 + u[2] + s[1] * 60 + s[2]) * 1000 }' "$dir/times"
}

# "CPU WALL" in milliseconds of the run of median CPU time of `runs` runs
time_of() {
	i=0
	while [ "$i" -lt "$runs" ]; do
		cpu_now > "$dir/c0"
		t0=$(date +%s%N)
		"$@" > /dev/null 2>&1 || true
		t1=$(date +%s%N)
		cpu_now > "$dir/c1"
		c0=$(cat "$dir/c0")
		c1=$(cat "$dir/c1")
		echo "$((c1 - c0)) $(( (t1 - t0) / 1000000 ))"
		i=$((i + 1))
	done | sort -n | awk '{ v[NR] = $0 } END { print v[int((NR + 1) / 2)] }'
}

echo "bench-pairing: 256 players, whole process, ms of CPU (wall), median of $runs runs"
for rules in $rulesets; do
	bbp=$bbp5
	[ "$rules" = 2025 ] && bbp=$bbp6
	mkdir -p "$dir/$rules"
	for t in $cases; do
		"$build/pair_sim" --rules "$rules" --set worst --only "$t" --trf "$dir/$rules" > /dev/null
	done
	echo "rules $rules"
	if [ -n "$bbp" ]; then
		echo "reference: $bbp"
		printf '%-11s %5s %14s %14s %7s %s\n' results round ours bbpPairings ratio boards
	else
		echo "reference: none (set BBP=, BBP2025= the bbpPairings 5.0.1 and dutch-2025 programs to time them beside)"
		printf '%-11s %5s %14s\n' results round ours
	fi
	for t in $cases; do
		case $t in
		1) kind=white-wins ;;
		2) kind=draws ;;
		*) kind=random ;;
		esac
		for r in $rounds; do
			f=$dir/$rules/t$t-r$r.trf
			set -- $(time_of "$build/pair_trf" --rules "$rules" "$f")
			ours=$(printf '%6d (%5d)' "$1" "$2")
			oc=$1
			if [ -z "$bbp" ]; then
				printf '%-11s %5d %14s\n' "$kind" "$r" "$ours"
				continue
			fi
			set -- $(time_of "$bbp" --dutch "$f" -p "$dir/bbp.out")
			theirs=$(printf '%6d (%5d)' "$1" "$2")
			ratio=$(awk -v a="$1" -v b="$oc" 'BEGIN { printf "%.1f", a / (b > 0 ? b : 1) }')
			"$build/pair_trf" --rules "$rules" "$f" | sort > "$dir/ours.sorted" || true
			sort "$dir/bbp.out" > "$dir/bbp.sorted" 2>/dev/null || true
			same=differ
			cmp -s "$dir/ours.sorted" "$dir/bbp.sorted" && same=same
			printf '%-11s %5d %14s %14s %6sx %s\n' "$kind" "$r" "$ours" "$theirs" "$ratio" "$same"
		done
	done
done
