#!/bin/sh
# Installs the Debian 12 packages this project needs, only those missing.
# Usage: deploy/install-deps.sh [build|test|all]   (default: build)
#   build: what `make` and `make run` need (compiler, libraries, wasm toolchain)
#   test:  build + Check, sanitizer runtimes, node, Chromium and nginx for tests
set -eu

group=${1:-build}

# chromium-headless-shell: the browser tests' Chromium, a third of the
# full browser's CPU less (docs/testing.md); the full one runs what the
# shell lacks (the Push API).
# libicu-dev: Unicode's confusable skeletons (UTS #39) for the names that
# read as a side's name (protocol/text.c); at run time libicu72.
build_pkgs="gcc make pkg-config libwebsockets-dev libjansson-dev uuid-dev
libsqlite3-dev libev-dev libpq-dev libicu-dev clang-14 lld-14 brotli"
test_pkgs="check libclang-rt-14-dev nodejs npm chromium chromium-headless-shell nginx-light curl sqlite3 procps openssl
podman mmdebstrap postgresql-15"

case "$group" in
build) want=$build_pkgs ;;
test|all) want="$build_pkgs $test_pkgs" ;;
*) echo "usage: $0 [build|test|all]" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
	# node and npm may come from elsewhere than Debian (e.g. a newer nodejs
	# package that bundles npm): a working command is enough.
	case "$p" in
	nodejs) command -v node >/dev/null 2>&1 && continue ;;
	npm) command -v npm >/dev/null 2>&1 && continue ;;
	esac
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done

[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >&2
