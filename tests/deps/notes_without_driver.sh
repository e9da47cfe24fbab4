#!/usr/bin/env bash
# The workbench on a machine without Qt's SQLite driver: it must say so (log) and, in --screenshot mode, exit
# non-zero only when notes were asked for (--notes). A copy of the program runs with a qt.conf whose plugin
# folder holds only the offscreen platform plugin, so this holds whether or not the driver is installed here.
# usage: notes_without_driver.sh FAULTLINE QT_PLUGIN_DIR BUNDLE
set -uo pipefail
prog=$1 plugins=$2 bundle=$3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/plugins/platforms"
cp "$prog" "$tmp/bin/faultline"
ln -s "$plugins/platforms/libqoffscreen.so" "$tmp/plugins/platforms/"
printf '[Paths]\nPlugins = %s\n' "$tmp/plugins" >"$tmp/bin/qt.conf"
export QT_QPA_PLATFORM=offscreen XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config"
unset QT_PLUGIN_PATH
failures=0
check() {  # NAME WANTED_EXIT ARGS...
  local name=$1 want=$2; shift 2
  "$tmp/bin/faultline" --screenshot "$tmp/$name.png" "$@" "$bundle" >"$tmp/$name.log" 2>&1; local rc=$?
  if [ "$rc" -ne "$want" ] || ! grep -q "Notes cannot be stored.*libqt6sql6-sqlite" "$tmp/$name.log"; then
    echo "FAIL $name: want exit $want and a log line naming libqt6sql6-sqlite, got exit $rc:"
    sed 's/^/    /' "$tmp/$name.log"; failures=$((failures + 1))
  else
    echo "ok   $name: exit $rc, $(grep -o 'Notes cannot be stored.*' "$tmp/$name.log")"
  fi
  [ -s "$tmp/$name.png" ] || { echo "FAIL $name: no screenshot"; failures=$((failures + 1)); }
}
check notes-wanted 1 --notes
check notes-not-wanted 0
exit $((failures > 0))
