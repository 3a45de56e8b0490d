#!/bin/sh
# cluster-load.sh: the standard load on three owared sharing one PostgreSQL
# behind nginx with the shipped cluster upstream (a consistent hash of the
# room id), as `make bench-load-pg3` runs it. Prints owload's table
# (latency through nginx) and the servers' CPU a move (the three together)
# and how their rooms spread. Usage: cluster-load.sh BUILD [owload options]
# (tests/cluster/with-pg.sh provides OW_TEST_PG).
set -u
B=$1
shift
dir=$(mktemp -d /tmp/owpg3.XXXXXX)
chmod 755 "$dir"
fail=0
pids="" npid=""
bad() { echo "bench-load-pg3: FAIL: $*"; fail=1; }
cleanup() {
	for p in $pids; do kill -TERM "$p" 2>/dev/null; done
	[ -n "$npid" ] && kill "$npid" 2>/dev/null
	wait 2>/dev/null
	if [ "${KEEP:-0}" = 1 ]; then echo "bench-load-pg3: kept $dir"; else rm -rf "$dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
nofile=$(ulimit -Hn)
[ "$nofile" = unlimited ] && nofile=1000000
per=$(((nofile - 32) / 2))
set_ports() { P1=$1 P2=$2 P3=$3; }
set_ports "$(free_port)" "$(free_port)" "$(free_port)"
for n in 1 2 3; do
	eval "p=\$P$n"
	# shellcheck disable=SC2154,SC2086
	"$B/owared" --port "$p" --listen 127.0.0.1 --store "$OW_TEST_PG" --node-id "b$n" \
		--ping-seconds 10 --web-root web --log-level warn --max-connections $((nofile - 64)) \
		--max-conns-per-ip "$per" --rooms-per-ip-per-min 1000000 --joins-per-ip-per-min 1000000 \
		--max-rooms-per-ip 10000000 --max-rooms-per-net 10000000 --max-sockets-per-ip "$per" --max-msgs-per-sec 1000 \
		--max-spectators 1000 ${SERVER_ARGS:-} >>"$dir/s$n.log" 2>&1 &
	pids="$pids $!"
	i=0
	until curl -fs -o /dev/null "http://127.0.0.1:$p/healthz"; do
		i=$((i + 1))
		[ $i -gt 300 ] && { echo "bench-load-pg3: server $n did not start"; cat "$dir/s$n.log"; exit 1; }
		sleep 0.1
	done
done
NP=$(free_port)
. tests/cluster/ngx-cluster.sh
# Two workers: each proxied connection takes two of a worker's descriptors.
NGX_WORKERS=2 ngx_start "$dir/ngx" "$NP" "$P1" "$P2" "$P3" 15s || { echo "bench-load-pg3: nginx did not start"; exit 1; }
cpu() { # the three servers' user + system seconds
	for p in $pids; do awk '{ print $14 + $15 }' "/proc/$p/stat"; done |
		awk -v hz="$(getconf CLK_TCK)" '{ s += $1 } END { printf "%.2f", s / hz }'
}
echo "servers: three owared on one PostgreSQL behind nginx ${SERVER_ARGS:-}"
c0=$(cpu)
"$B/owload" --port "$NP" --procs 2 --sources 8 --ramp 5 --quiet "$@" >"$dir/load.out" || fail=1
c1=$(cpu)
cat "$dir/load.out"
moves=$(sed -n 's/^moves acknowledged (steady) *\([0-9]*\) in.*/\1/p' "$dir/load.out")
all=$(sed -n 's/^moves acknowledged.*(\([0-9]*\) sent.*/\1/p' "$dir/load.out")
awk -v a="$c0" -v b="$c1" -v m="${moves:-0}" 'BEGIN {
	printf "%-34s %.2f s over the whole run", "servers CPU (three, whole run)", b - a
	if (m > 0) printf " (%.1f us per steady move acknowledged, ramp included)", (b - a) * 1e6 / m
	printf "\n" }'
for n in 1 2 3; do
	eval "p=\$P$n"
	r=$(curl -fs "http://127.0.0.1:$p/metrics" | awk '$1 == "oware_rooms" { print $2 }')
	rl=$(curl -fs "http://127.0.0.1:$p/metrics" | awk '$1 == "oware_relays_total" { print $2 }')
	printf '%-34s %s rooms, %s connections relayed\n' "server b$n" "${r:-?}" "${rl:-?}"
done
for p in $pids; do kill -TERM "$p" 2>/dev/null && wait "$p" || bad "a server did not stop cleanly"; done
pids=""
exit $fail
