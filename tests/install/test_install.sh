#!/bin/sh
# test_install.sh: `make install` with PREFIX and DESTDIR puts the server,
# the oware tool, the web client, the systemd unit and the nginx sites in
# place, and the installed server finds its web client with no flag.
# Usage: tests/install/test_install.sh   (from the top folder; MAKE may be set)
set -u
make=${MAKE:-make}
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$*"; }
check() { name=$1; shift; if "$@"; then ok; else fail "$name"; fi; }
# The port a server logs in LOG once it listens (waits up to 10 s; empty if not).
listening_port() {
	for _ in $(seq 1 200); do
		p=$(sed -n 's/.* listening port=\([0-9]*\).*/\1/p' "$1")
		[ -n "$p" ] && break
		sleep 0.05
	done
	echo "$p"
}

prefix=/opt/oware-test
root=$tmp/dest$prefix
$make --no-print-directory -s install DESTDIR="$tmp/dest" PREFIX="$prefix" >"$tmp/make.log" 2>&1 ||
	{ cat "$tmp/make.log"; fail "make install"; }

for f in bin/owared bin/oware share/oware-rooms/web/index.html share/oware-rooms/web/engine.wasm \
	share/oware-rooms/web/app.js lib/systemd/system/oware-rooms.service \
	share/oware-rooms/nginx/oware-rooms.conf share/oware-rooms/nginx/oware-rooms-prefix.conf \
	lib/systemd/system/owared@.service share/oware-rooms/nginx/oware-rooms-cluster.conf; do
	check "installed $f" test -s "$root/$f"
done
# The page is split into modules: every one of them is installed.
for f in web/*.js; do
	check "installed $f" test -s "$root/share/oware-rooms/$f"
done
check "no C sources among the web files" sh -c "! find '$root/share/oware-rooms/web' -name '*.c' -o -name '*.mk' | grep -q ."
check "the unit runs the installed server" grep -q "^ExecStart=$prefix/bin/owared\$" "$root/lib/systemd/system/oware-rooms.service"
check "the unit names the installed web client" grep -q "OW_WEB_ROOT=$prefix/share/oware-rooms/web\$" "$root/lib/systemd/system/oware-rooms.service"
check "no placeholder left in the unit" sh -c "! grep -q @PREFIX@ '$root/lib/systemd/system/oware-rooms.service'"
# systemd's own check of the unit (where systemd-analyze exists), with
# ExecStart pointed into DESTDIR, where the binary really is.
if command -v systemd-analyze >/dev/null 2>&1; then
	sed "s|$prefix/bin/owared|$root/bin/owared|" "$root/lib/systemd/system/oware-rooms.service" \
		>"$tmp/oware-rooms.service"
	check "systemd-analyze verify accepts the unit" systemd-analyze verify "$tmp/oware-rooms.service"
	# The template unit of several servers, as its instance on port 8081.
	sed "s|$prefix/bin/owared|$root/bin/owared|" "$root/lib/systemd/system/owared@.service" \
		>"$tmp/owared@8081.service"
	check "systemd-analyze verify accepts the template unit" systemd-analyze verify "$tmp/owared@8081.service"
fi
check "no placeholder left in the template unit" sh -c "! grep -q @PREFIX@ '$root/lib/systemd/system/owared@.service'"
check "installed oware plays" sh -c "'$root/bin/oware' play a | grep -q '\"turn\":\"north\"'"

# The installed server, started from elsewhere with no --web-root, serves
# the installed client.
mkdir -p "$tmp/run"
(cd "$tmp/run" && exec "$root/bin/owared" --port 0 --listen 127.0.0.1 --db "$tmp/run/o.db") 2>"$tmp/log" &
pid=$!
port=$(listening_port "$tmp/log")
check "installed server started" test -n "$port"
check "it found the installed web client" grep -q "web_root=$root/bin/../share/oware-rooms/web" "$tmp/log"
curl -s -D "$tmp/h" -o "$tmp/index.html" "http://127.0.0.1:$port/"
check "index.html served" cmp -s "$tmp/index.html" web/index.html
check "strict Content-Security-Policy header" grep -qi "^content-security-policy: default-src 'none'; script-src 'self' 'wasm-unsafe-eval'" "$tmp/h"
# Its gzip and brotli copies were installed beside the files, as new as they are.
curl -s -H 'Accept-Encoding: gzip' -D "$tmp/hz" -o "$tmp/index.html.gz" "http://127.0.0.1:$port/"
check "index.html sent compressed to a client that accepts gzip" grep -qi "^content-encoding: gzip" "$tmp/hz"
check "the same page once uncompressed" sh -c "gzip -dc '$tmp/index.html.gz' | cmp -s - web/index.html"
curl -s -H 'Accept-Encoding: gzip, br' -D "$tmp/hb" -o "$tmp/index.html.br" "http://127.0.0.1:$port/"
check "index.html sent as brotli to a client that accepts br" grep -qi "^content-encoding: br" "$tmp/hb"
check "the same page once brotli-decoded" sh -c "brotli -dc '$tmp/index.html.br' | cmp -s - web/index.html"
# The modules and engines by the folder that boot.js names, kept a year.
ver=$(sed -n "s|^import './\(v/[0-9a-f]*\)/app.js';|\1|p" "$root/share/oware-rooms/web/boot.js")
check "boot.js names the folder v/<hash> (got $ver)" test -n "$ver"
for f in app.js engine.wasm oware.egdb lessons/oware.json; do
	code=$(curl -s -D "$tmp/hv" -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/$ver/$f")
	check "$ver/$f served (got $code)" test "$code" = 200
	check "$ver/$f kept a year" grep -qi "^cache-control: public, max-age=31536000, immutable" "$tmp/hv"
done
ctype=$(curl -s -o /dev/null -w '%{content_type}' "http://127.0.0.1:$port/engine.wasm")
check "engine.wasm as application/wasm (got $ctype)" test "$ctype" = application/wasm
kill "$pid"
wait "$pid"
check "SIGTERM exits 0" test $? -eq 0
pid=

# `make run` (the README's set-up) serves the page and both wasm modules
# from the checkout (here with its store moved out of ./data); in a session
# of its own, so one signal stops make and the server together.
(exec setsid $make --no-print-directory -s run \
	ARGS="--port 0 --listen 127.0.0.1 --db $tmp/run/run.db") >/dev/null 2>"$tmp/runlog" &
runpid=$!
port=$(listening_port "$tmp/runlog")
check "make run started the server" test -n "$port"
for f in index.html engine.wasm ai.wasm app.js; do
	code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/$f")
	check "make run serves $f (got $code)" test "$code" = 200
done
kill -TERM -"$runpid"
wait "$runpid" 2>/dev/null

echo "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
