# lib.sh: what the CLI contract scripts share (sourced after "set -u";
# $1 is the oware binary): counters, a temporary folder, and the checks.
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
