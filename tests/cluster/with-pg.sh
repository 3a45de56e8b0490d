#!/bin/sh
# with-pg.sh: runs a command beside a throwaway PostgreSQL (pgtmp.sh) on a
# free loopback port, with OW_TEST_PG (its URI), OW_TEST_PGDIR and
# OW_TEST_PGPORT set; the server and its folder are gone afterwards.
# Usage: tests/cluster/with-pg.sh COMMAND [ARG...]
set -u
dir=$(mktemp -d /tmp/owpg.XXXXXX)
chmod 755 "$dir"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cleanup() { sh tests/cluster/pgtmp.sh stop "$dir" immediate; rm -rf "$dir"; }
trap cleanup EXIT
uri=$(sh tests/cluster/pgtmp.sh start "$dir" "$port") || exit 1
OW_TEST_PG=$uri OW_TEST_PGDIR=$dir OW_TEST_PGPORT=$port "$@"
