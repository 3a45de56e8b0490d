#!/bin/sh
# pgtmp.sh: a throwaway PostgreSQL 15 for tests, in a folder of its own,
# listening on loopback only, run as an unprivileged user (postgres when
# started as root: PostgreSQL refuses to run as root). Without disk syncs
# unless PGTMP_DURABLE=1.
# Usage: tests/cluster/pgtmp.sh start DIR PORT   prints the connection URI
#        tests/cluster/pgtmp.sh stop DIR [fast|immediate]
#        tests/cluster/pgtmp.sh kill DIR          stops it at once (SIGKILL)
set -eu
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "pgtmp: no PostgreSQL server (Debian's postgresql-15)" >&2; exit 1; }
cmd=$1 dir=$2
as() {
	if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "$cmd" in
start)
	port=$3
	# Tests need no disk syncs; PGTMP_DURABLE=1 (the benchmarks) keeps
	# PostgreSQL's own: every commit flushed to disk before it is answered.
	sync="-c fsync=off -c full_page_writes=off"
	[ "${PGTMP_DURABLE:-0}" = 1 ] && sync=""
	mkdir -p "$dir"
	[ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
	if [ ! -f "$dir/data/PG_VERSION" ]; then
		as "$bin/initdb" -D "$dir/data" -U oware --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
			{ cat "$dir/initdb.log" >&2; exit 1; }
	fi
	as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
		-o "-c listen_addresses=127.0.0.1 -p $port -k $dir $sync" \
		start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
	if ! as "$bin/psql" -h 127.0.0.1 -p "$port" -U oware -d postgres -tAc \
		"SELECT 1 FROM pg_database WHERE datname='oware'" | grep -q 1; then
		as "$bin/createdb" -h 127.0.0.1 -p "$port" -U oware oware
	fi
	echo "postgresql://oware@127.0.0.1:$port/oware"
	;;
stop)
	as "$bin/pg_ctl" -D "$dir/data" -m "${3:-fast}" -w stop >/dev/null 2>&1 || true
	;;
kill)
	pid=$(head -n 1 "$dir/data/postmaster.pid" 2>/dev/null || true)
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
	;;
*) echo "usage: $0 start DIR PORT | stop DIR [mode] | kill DIR" >&2; exit 2 ;;
esac
