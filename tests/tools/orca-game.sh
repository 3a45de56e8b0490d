#!/bin/sh
# orca-game.sh: what Orca speaks during a game by ear (docs/testing.md).
# Needs Debian's orca, speech-dispatcher, espeak-ng and xvfb; run from the
# top of the tree after `make`. Prints Orca's SPEECH OUTPUT lines.
set -e
out=${ORCA_LOG:-build/orca-speech.txt}
dir=$(mktemp -d)
Xvfb :97 -screen 0 1280x1024x24 >"$dir/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$dir"' EXIT
export DISPLAY=:97 NO_AT_BRIDGE=0 GTK_MODULES=gail:atk-bridge ACCESSIBILITY_ENABLED=1 XDG_RUNTIME_DIR="$dir"
dbus-run-session -- sh -c "
  /usr/libexec/at-spi-bus-launcher --launch-immediately >'$dir/atspi.log' 2>&1 &
  sleep 1
  gsettings set org.gnome.desktop.a11y.applications screen-reader-enabled true 2>/dev/null || true
  orca --replace --debug-file='$dir/orca.out' -u '$dir/prefs' >'$dir/orca.log' 2>&1 &
  sleep 3
  ORCA_OUT='$dir/orca.out' OWARED=build/owared node tests/tools/orca-game.mjs
  sleep 2
"
mkdir -p "$(dirname "$out")"
grep -a 'SPEECH OUTPUT' "$dir/orca.out" >"$out" || true
wc -l "$out"
cat "$out"
