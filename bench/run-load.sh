#!/bin/sh
# run-load.sh: starts owared on a fresh store and drives it with owload.
# Usage: bench/run-load.sh MODE BUILD [owload options...]
#   bench  the standard load table of `make bench` (options passed through)
#   soak   churn for --duration S: RSS must stay flat, no unexplained error,
#          the store must replay through the engine (owcheck)
#   crash  kill -9 the server under load, restart it on the same store,
#          everyone reconnects with tokens: nothing acknowledged is lost
# Environment: KEEP=1 keeps the work folder; SERVER_ARGS adds server flags;
# SERVER_WRAP runs the server under a wrapper (e.g. "valgrind -q"); SERVER_BIN
# names another server binary (e.g. build/asan/owared).
set -u
mode=$1 B=$2
shift 2

dir=$(mktemp -d "${TMPDIR:-/tmp}/owload.XXXXXX")
spid=""
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null && wait "$spid" 2>/dev/null
	if [ "${KEEP:-0}" = 1 ]; then echo "run-load: kept $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A free TCP port on 127.0.0.1 in the range no ephemeral port uses.
pick_port() {
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		p=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 12000))
		ss -Hltn "sport = :$p" 2>/dev/null | grep -q . || { echo "$p"; return; }
	done
	echo 28431
}
port=$(pick_port)

# High limits: the load comes from a few loopback addresses on purpose.
# --max-rooms stays at its default (20,000): the room hash table is sized
# from it, and its pages, touched as room ids land in them, would read as
# RSS growth in the soak.
# Connections are bounded by the descriptors the server may open; exactly
# the limit less the server's 64 spare: owared sets lws's
# fd_limit_per_thread to max-connections + 64, and below the descriptor
# limit lws 4.1 finds each socket's wsi by a linear scan (wsi_from_fd).
nofile=$(ulimit -Hn)
[ "$nofile" = unlimited ] && nofile=1000000
maxconn=$((nofile - 64))
# valgrind keeps a few descriptors of its own out of the server's reach
[ -n "${SERVER_WRAP:-}" ] && maxconn=$((maxconn - 64))
# The most one address may hold: owared lowers larger per-address limits
# to half the descriptors past its reserve of 32 (and warns).
perip=$(((nofile - 32) / 2))
start_server() {
	# shellcheck disable=SC2086
	${SERVER_WRAP:-} "${SERVER_BIN:-$B/owared}" --port "$port" --listen 127.0.0.1 --db "$dir/ow.db" \
		--web-root web --log-level warn --max-connections "$maxconn" \
		--max-conns-per-ip "$perip" --rooms-per-ip-per-min 1000000 \
		--joins-per-ip-per-min 1000000 --max-rooms-per-ip 10000000 --max-rooms-per-net 10000000 --max-sockets-per-ip "$perip" \
		--max-msgs-per-sec 1000 --max-spectators 1000 \
		${SERVER_ARGS:-} "$@" >>"$dir/server.log" 2>&1 &
	spid=$!
	echo "$spid" >"$dir/server.pid"
	i=0
	while ! curl -fs -o /dev/null "http://127.0.0.1:$port/healthz"; do
		i=$((i + 1))
		if [ $i -gt 300 ] || ! kill -0 "$spid" 2>/dev/null; then
			echo "run-load: the server did not start:" >&2
			cat "$dir/server.log" >&2
			return 1
		fi
		sleep 0.1
	done
}

stop_server() {
	[ -z "$spid" ] && return 0
	kill -TERM "$spid" 2>/dev/null
	wait "$spid"
	rc=$?
	spid=""
	return $rc
}

# The WAL must stay bounded under steady writes: owared starts it over
# once it holds 16 MiB (and SQLite cuts the file back to that).
wal_check() {
	w=$(stat -c %s "$dir/ow.db-wal" 2>/dev/null || echo 0)
	echo "server WAL file                    $((w / 1024)) KiB"
	if [ "$w" -gt $((32 * 1024 * 1024)) ]; then
		echo "FAIL: the WAL grew past 32 MiB"
		return 1
	fi
}

# The server's commits (from /metrics): how many, and their time from
# start to answer (a sync each with SQLite's full; PostgreSQL's round trip
# and flush).
commit_metrics() {
	curl -fs "http://127.0.0.1:$port/metrics" | awk '
		/^oware_store_commits_total / { n = $2 }
		/^oware_store_commit_seconds_total / { s = $2 }
		/^oware_store_commit_max_seconds / { m = $2 }
		END { if (n > 0) printf "%-34s %d, %.3f ms each on average, longest %.1f ms\n", "server commits", n, s * 1000 / n, m * 1000 }'
}

# What the server counted of the attacks (from /metrics).
server_metrics() {
	curl -fs "http://127.0.0.1:$port/metrics" | awk '
		/^oware_clients_dropped_total/ { split($1, a, "\""); d = d " " a[2] "=" $2 }
		/^oware_errors_total\{code="rate_limited"\}/ { rl = $2 }
		/^oware_connections_refused_total/ { split($1, a, "\""); r = r " " a[2] "=" $2 }
		END {
			printf "%-34s%s\n", "server: clients dropped", d
			printf "%-34s %s\n", "server: rate_limited answers", rl
			printf "%-34s%s\n", "server: connections refused", r
		}'
}

load() {
	"$B/owload" --port "$port" --pidfile "$dir/server.pid" ${LOAD_QUIET---quiet} "$@"
}

fail=0
case "$mode" in
bench)
	# The floor under a durable commit's latency on this disk, just before.
	[ -x "$B/syncprobe" ] && "$B/syncprobe" "$dir" 1000
	start_server || exit 1
	echo "server: owared ${SERVER_ARGS:-} (store on $(df --output=source "$dir" | tail -1))"
	load --procs 2 --sources 8 --ramp 5 "$@" >"$dir/load.out" || fail=1
	cat "$dir/load.out"
	commit_metrics
	wal_check || fail=1
	# MAX_CONN_KIB: the server's RSS per connection (owload's row) must
	# not pass it.
	if [ -n "${MAX_CONN_KIB:-}" ]; then
		k=$(sed -n 's/.*: \([0-9.]*\) KiB per connection.*/\1/p' "$dir/load.out")
		if [ -z "$k" ] || awk -v k="$k" -v m="$MAX_CONN_KIB" 'BEGIN { exit !(k > m) }'; then
			echo "FAIL: ${k:-no} KiB per connection, more than $MAX_CONN_KIB"
			fail=1
		fi
	fi
	stop_server || fail=1
	;;
soak)
	# Finished rooms expire after 20 s idle, unfinished (abandoned) after
	# 30 s; players reclaimable after 5 s. Rooms play 2 games, a mover drops
	# and comes back with its token at 1% of moves, both players abandon at
	# 0.3% of moves. RSS is judged from the end of the warm-up (a third).
	# Attackers beside them from the steady phase on (owload --attack-*,
	# each kind from its own address after the players' 16): a ping flood,
	# spectators joining and leaving at once, spectators that read late,
	# chat flooders reconnecting to their seats, POST bodies trickled a
	# byte a second, spectators pulling the flooders' chat histories, and
	# sockets that send nothing, more than the header buffers, so that the
	# players' reconnections make them go (server/net/gate.c).
	# The server keeps its default message rate (the players send at most
	# ~10 a second) and a join limit per address ten times its default,
	# which the players' ~350 joins a minute per address stay well under.
	start_server --expire-finished 20 --expire-unfinished 30 --abandon-seconds 5 \
		--max-msgs-per-sec 20 --joins-per-ip-per-min 1200 || exit 1
	dur=600
	prev=""
	for a in "$@"; do [ "$prev" = --duration ] && dur=$a; prev=$a; done
	warm=$((dur / 3))
	load --procs 2 --sources 16 --rooms 400 --spectators 1 --think 100 --ramp 5 \
		--games 2 --drop 1 --abandon 0.3 --reconnect-ms 300 \
		--attack-pings 4 --attack-churn 8 --attack-slow 16 \
		--attack-chat 8 --attack-trickle 16 --attack-history 8 --attack-silent 300 \
		--warmup "$warm" --rss-check 5 --views "$dir/views" ${SOAK_ARGS:-} "$@" || fail=1
	server_metrics
	if ! kill -0 "$spid" 2>/dev/null; then
		echo "run-load: the server exited during the soak"
		fail=1
	fi
	stop_server || fail=1
	"$B/owcheck" "$dir/ow.db" "$dir/views" || fail=1
	# the attackers' drops (flood, slow) are theirs; a player's would be
	# an error of owload's
	warnings() {
		grep -E " (error|warn) " "$dir/server.log" |
			grep -vE "seat_claimable|slow_client|client_dropped reason=(flood|slow) |log_suppressed event=(client_dropped|flood_ban) |flood_ban addr="
	}
	if warnings | head -1 | grep -q .; then
		echo "run-load: the server logged warnings or errors:"
		warnings | head -20
		fail=1
	fi
	;;
crash)
	start_server || exit 1
	load --procs 1 --rooms 100 --spectators 1 --think 20 --ramp 1 --duration 8 \
		--retry --reconnect-ms 100 --kill-at 3 --views "$dir/views" "$@" &
	lpid=$!
	# owload kills the server; bring it back on the same store and port
	old=$spid
	i=0
	while kill -0 "$old" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 300 ] && { echo "run-load: the server was not killed"; fail=1; break; }
		sleep 0.1
	done
	wait "$old" 2>/dev/null
	spid=""
	sleep 0.5
	start_server || fail=1
	wait "$lpid" || fail=1
	wal_check || fail=1
	stop_server || fail=1
	"$B/owcheck" "$dir/ow.db" "$dir/views" || fail=1
	;;
*)
	echo "usage: $0 bench|soak|crash BUILD [owload options]" >&2
	exit 2
	;;
esac
if [ $fail -ne 0 ]; then
	echo "run-load: $mode FAILED (server log: $dir/server.log)"
	tail -20 "$dir/server.log"
	KEEP=1
	exit 1
fi
echo "run-load: $mode passed"
