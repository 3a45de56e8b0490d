#!/bin/sh
# cluster.sh: three owared on one throwaway PostgreSQL behind nginx with the
# shipped upstream (deploy/nginx/oware-rooms-cluster.conf: a consistent
# hash of the room id), under load from owload through nginx:
#   1. every server holds rooms (their /metrics);
#   2. kill -9 of the busiest: its clients are back in their rooms (taken
#      over by the others once its lease, 3 s here, runs out) and play on;
#   3. the killed server is restarted (same node id): it takes back what
#      nobody took, and is routed to again;
#   4. SIGSTOP of another server for twice the lease: its clients notice
#      (owload --stall-ms: a move with no answer; nginx: an upgrade not
#      answered, a silent tunnel) and carry on elsewhere, where the others
#      take its rooms *during* the pause (their /metrics); after SIGCONT
#      its lease is found lost and it drops the rooms it held (4002);
#   5. PostgreSQL stopped for 3 s: moves get `internal` (owload comes back
#      with its tokens), the servers reconnect by themselves;
# An idle connection (nothing sent for three times nginx's timeout) stays
# open and answering: the servers' pings keep nginx's tunnel alive.
# Then every game's stored moves replay through the engine and every move a
# client saw acknowledged is stored (owcheck, on a copy of the rooms).
# Times are scaled down from the shipped ones (lease 10 s, owared
# --ping-seconds 10, nginx proxy_read_timeout 15 s, the web client's 10 s
# without an answer): lease 3 s, --ping-seconds 1 (--hangup-seconds 5),
# proxy_read_timeout and proxy_send_timeout 2 s in the shipped WebSocket
# location, owload --stall-ms 1500.
# Run by `make test-cluster` (tests/cluster/with-pg.sh provides OW_TEST_PG,
# OW_TEST_PGDIR, OW_TEST_PGPORT). Usage: cluster.sh BUILD
set -u
B=${1:-build}
LEASE=3
NGX_TIMEOUT=2s
psql=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)/psql
dir=$(mktemp -d /tmp/owcluster.XXXXXX)
chmod 755 "$dir"
fail=0
pids="" npid="" lpid="" ipid=""
say() { echo "cluster: $*"; }
bad() { echo "cluster: FAIL: $*"; fail=1; }
cleanup() {
	for p in $pids $npid $lpid $ipid; do kill -CONT "$p" 2>/dev/null; kill -9 "$p" 2>/dev/null; done
	wait 2>/dev/null
	if [ "${KEEP:-0}" = 1 ]; then echo "cluster: kept $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# ---- three servers ----
set -- "$(free_port)" "$(free_port)" "$(free_port)"
P1=$1 P2=$2 P3=$3
start() { # start N PORT
	"$B/owared" --port "$2" --listen 127.0.0.1 --store "$OW_TEST_PG" --node-id "n$1" \
		--lease-seconds $LEASE --ping-seconds 1 --hangup-seconds 5 --web-root web --log-level info --max-conns-per-ip 1000000 \
		--rooms-per-ip-per-min 1000000 --joins-per-ip-per-min 1000000 \
		--max-rooms-per-ip 10000000 --max-rooms-per-net 10000000 --max-sockets-per-ip 1000000 --max-msgs-per-sec 1000 \
		>>"$dir/s$1.log" 2>&1 &
	eval "S$1=$!"
	i=0
	until curl -fs -o /dev/null "http://127.0.0.1:$2/healthz"; do
		i=$((i + 1))
		[ $i -gt 100 ] && { bad "server $1 did not start"; cat "$dir/s$1.log"; return 1; }
		sleep 0.1
	done
}
start 1 "$P1" && start 2 "$P2" && start 3 "$P3" || exit 1
pids="$S1 $S2 $S3"
# A server that logs without end (a loop) must not fill the disk.
logs_ok() {
	if [ -n "$(find "$dir" -maxdepth 1 -name 's*.log' -size +50M)" ]; then
		bad "a server log passed 50 MB"
		exit 1
	fi
}
metric() { # metric PORT NAME
	curl -fs -m 5 "http://127.0.0.1:$1/metrics" | awk -v n="$2" '$1 == n { print $2 }'
}

# ---- nginx with the shipped upstream ----
NP=$(free_port)
. tests/cluster/ngx-cluster.sh
ngx_start "$dir/ngx" "$NP" "$P1" "$P2" "$P3" "$NGX_TIMEOUT" || { bad "nginx did not start"; exit 1; }

# An idle connection outlives nginx's timeout (the servers' pings).
node tests/cluster/idle.mjs "$NP" 6 >"$dir/idle.out" 2>&1 &
ipid=$!

# ---- the load, through nginx ----
"$B/owload" --port "$NP" --rooms 300 --spectators 0 --think 40 --ramp 2 --duration 40 \
	--games 0 --retry --reconnect-ms 200 --allow-internal --stall-ms 1500 --quiet --views "$dir/views" \
	>"$dir/load.out" 2>"$dir/load.err" &
lpid=$!
sleep 7

# 1. every server holds rooms
r1=$(metric "$P1" oware_rooms) r2=$(metric "$P2" oware_rooms) r3=$(metric "$P3" oware_rooms)
say "rooms held: n1=$r1 n2=$r2 n3=$r3"
for r in "$r1" "$r2" "$r3"; do [ "${r:-0}" -gt 0 ] || bad "a server holds no room"; done

wait "$ipid" || bad "an idle connection through nginx did not last"
ipid=""
sed 's/^/cluster: /' "$dir/idle.out"

logs_ok
# 2. kill -9 the busiest
k=1 kp=$P1 kr=$r1
[ "${r2:-0}" -gt "$kr" ] && k=2 kp=$P2 kr=$r2
[ "${r3:-0}" -gt "$kr" ] && k=3 kp=$P3 kr=$r3
eval "kpid=\$S$k"
m0=$(($(metric "$P1" oware_moves_total) + $(metric "$P2" oware_moves_total) + $(metric "$P3" oware_moves_total)))
kill -9 "$kpid"
say "killed n$k (held $kr rooms)"
sleep $((LEASE + 3))
total=0 taken=0
for n in 1 2 3; do
	[ $n = $k ] && continue
	eval "p=\$P$n"
	total=$((total + $(metric "$p" oware_rooms)))
	taken=$((taken + $(metric "$p" oware_rooms_taken_total)))
done
say "after the kill: the others hold $total rooms, took $taken"
[ "$taken" -gt 0 ] || bad "no room was taken over"
[ "$total" -ge 300 ] || bad "rooms missing after the kill: $total of 300 held"

logs_ok
# 3. restart it
start "$k" "$kp" || fail=1
eval "pids=\"\$S1 \$S2 \$S3\""
sleep 4

logs_ok
# 4. SIGSTOP another one for twice the lease. Its clients must carry on
# elsewhere while it is paused: the others take its rooms (their
# /metrics), and the database shows them held elsewhere (polled until
# the paused server holds none, or the pause ends).
s=$((k % 3 + 1))
eval "spid=\$S$s sp=\$P$s"
others() { # others NAME: the sum of a metric over the servers but n$s
	t=0
	for n in 1 2 3; do
		[ $n = $s ] && continue
		eval "p=\$P$n"
		t=$((t + $(metric "$p" "$1")))
	done
	echo $t
}
# held_in_db: the rooms held by any incarnation of n$s (the paused server
# gives none up: only takes by the others lower it).
held_in_db() {
	"$psql" "$OW_TEST_PG" -qAt -c "SELECT count(*) FROM rooms r JOIN incarnations i ON r.holder = i.id WHERE i.node = 'n$s'"
}
held=$(held_in_db)
taken0=$(others oware_rooms_taken_total)
moves0=$(others oware_moves_total)
drops0=$(grep -c 'rooms_dropped.*reason=lease_lost' "$dir/s$s.log")
fenced0=$(grep -c fenced "$dir/s$s.log")
kill -STOP "$spid"
t0=$(date +%s%N)
say "paused n$s (it holds $held rooms)"
pause_ns=$((2 * LEASE * 1000000000))
until [ "$(held_in_db)" = 0 ] || [ $(($(date +%s%N) - t0)) -ge $pause_ns ]; do
	sleep 0.2
done
took_ms=$((($(date +%s%N) - t0) / 1000000))
[ "$(held_in_db)" = 0 ] && all="all of them after $took_ms ms" || all="not all"
left=$(((pause_ns - ($(date +%s%N) - t0)) / 1000000))
[ $left -gt 0 ] && sleep "$(awk -v l=$left 'BEGIN { print l / 1000 }')"
still=$(held_in_db)
taken=$(($(others oware_rooms_taken_total) - taken0))
moved=$(($(others oware_moves_total) - moves0))
kill -CONT "$spid"
say "during the pause ($((2 * LEASE)) s) the others took $((held - still)) of its $held rooms ($all; their takes: $taken) and played $moved moves"
[ "$taken" -ge 1 ] || bad "the other servers took no room during the pause"
[ "$((2 * (held - still)))" -ge "$held" ] || bad "less than half of the paused server's rooms were taken over during the pause"
[ "$moved" -ge 1 ] || bad "no move was played on the other servers during the pause"
# After SIGCONT: its lease is found lost and it drops every room it held
# (closing their connections with 4002 "moved").
i=0
until [ "$(metric "$sp" oware_leases_lost_total)" -ge 1 ] 2>/dev/null &&
	[ "$(grep -c 'rooms_dropped.*reason=lease_lost' "$dir/s$s.log")" -gt "$drops0" ]; do
	i=$((i + 1))
	[ $i -gt 100 ] && break
	sleep 0.1
done
lost=$(metric "$sp" oware_leases_lost_total)
dropped=$(grep 'rooms_dropped.*reason=lease_lost' "$dir/s$s.log" | tail -n 1 | sed -n 's/.*rooms=\([0-9]*\).*/\1/p')
say "n$s woke: leases lost ${lost:-?}, rooms dropped ${dropped:-none}; fenced writes logged: $(($(grep -c fenced "$dir/s$s.log") - fenced0))"
[ "${lost:-0}" -ge 1 ] || bad "the paused server did not find its lease lost"
[ "${dropped:-0}" -ge 1 ] || bad "the paused server did not drop its rooms on waking"

logs_ok
# 5. PostgreSQL stopped for 3 s
sh tests/cluster/pgtmp.sh stop "$OW_TEST_PGDIR" fast
say "PostgreSQL stopped"
sleep 3
sh tests/cluster/pgtmp.sh start "$OW_TEST_PGDIR" "$OW_TEST_PGPORT" >/dev/null || bad "PostgreSQL did not start again"
say "PostgreSQL started"
i=0
for p in $P1 $P2 $P3; do
	until [ "$(metric "$p" oware_store_reachable)" = 1 ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && { bad "a server did not reconnect to PostgreSQL"; break; }
		sleep 0.1
	done
done

logs_ok
wait "$lpid" || bad "owload failed"
lpid=""
sed 's/^/  /' "$dir/load.out"
grep -v '^$' "$dir/load.err" | head -5 | sed 's/^/  owload: /'
m1=$(($(metric "$P1" oware_moves_total) + $(metric "$P2" oware_moves_total) + $(metric "$P3" oware_moves_total)))
say "moves since the kill (servers' counts): $((m1 - m0 < 0 ? 0 : m1 - m0))"
for n in 1 2 3; do
	eval "p=\$P$n"
	say "n$n: holds $(metric "$p" oware_rooms) rooms; took $(metric "$p" oware_rooms_taken_total), gave up $(metric "$p" oware_rooms_released_total), leases renewed $(metric "$p" oware_leases_renewed_total), lost $(metric "$p" oware_leases_lost_total) (since its start)"
done
for n in 1 2 3; do
	eval "p=\$S$n"
	kill -TERM "$p"
	wait "$p" || bad "server n$n did not stop cleanly"
done
pids=""
kill "$npid" 2>/dev/null
wait "$npid" 2>/dev/null
npid=""

# Every stored game replays; every acknowledged move is stored (owcheck
# reads a SQLite copy of the rooms' id, game, end and moves).
"$psql" "$OW_TEST_PG" -qAtF '|' -c "SELECT id, game_number, reason, winner, encode(moves, 'hex') FROM rooms" |
	awk -F'|' 'BEGIN { print "BEGIN; CREATE TABLE rooms (id TEXT PRIMARY KEY, game_number INTEGER, reason INTEGER, winner INTEGER, moves BLOB);" }
		{ printf "INSERT INTO rooms VALUES (\x27%s\x27, %d, %d, %d, X\x27%s\x27);\n", $1, $2, $3, $4, $5 }
		END { print "COMMIT;" }' | sqlite3 "$dir/copy.db" || bad "the rooms could not be copied"
"$B/owcheck" "$dir/copy.db" "$dir/views" || bad "owcheck"
for n in 1 2 3; do
	grep -E " error " "$dir/s$n.log" | grep -vE "store_(error|batch_lost|disconnected|failing)|lease_(lost|failed)|take_failed|room_reload_failed|client_error|chat_history_failed" |
		head -5 | sed "s/^/  n$n: /" | grep . && bad "server n$n logged unexpected errors"
done
if [ $fail = 0 ]; then say "passed"; else
	for n in 1 2 3; do echo "--- n$n (last lines)"; tail -20 "$dir/s$n.log"; done
	say "failed"
fi
exit $fail
