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
  OWARED=build/owared node tests/tools/orca-game.mjs >'$dir/page.txt'
  sleep 2
"
mkdir -p "$(dirname "$out")"
grep -a 'SPEECH OUTPUT' "$dir/orca.out" >"$out" || true
echo "Orca spoke $(wc -l <"$out") times ($out); of the page's sentences:"
# Each sentence the page said, in order, and whether Orca spoke it whole
# after what it spoke of the one before.
at=0
sed -n 's/^page said: //p' "$dir/page.txt" | while IFS= read -r s; do
  n=$(grep -naF "'$s'" "$out" | cut -d: -f1 | awk -v at="$at" '$1 > at { print; exit }')
  if [ -n "$n" ]; then at=$n; echo "  spoken: $s"; else echo "  NOT spoken: $s"; fi
done
grep -v '^page said: ' "$dir/page.txt"
