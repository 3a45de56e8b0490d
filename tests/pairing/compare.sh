#!/bin/sh
# compare.sh PAIR_TRF [compare.py options]: the Dutch pairing against
# bbpPairings on random tournaments (tests/pairing/compare.py), when
# bbpPairings is found ($BBP, else bbpPairings.exe or bbpPairings on PATH);
# skipped (exit 0) otherwise.
pair_trf=$1
shift
bbp=${BBP:-}
[ -n "$bbp" ] || bbp=$(command -v bbpPairings.exe || command -v bbpPairings || true)
if [ -z "$bbp" ] || [ ! -x "$bbp" ]; then
	echo "compare-pairing: skipped (no bbpPairings: set BBP=/path/to/bbpPairings.exe)"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	echo "compare-pairing: skipped (no python3)"
	exit 0
fi
exec python3 "$(dirname "$0")/compare.py" "$pair_trf" "$bbp" "$@"
