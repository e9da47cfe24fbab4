#!/usr/bin/env bash
# The workbench on a machine without Qt's SQLite driver: the notes are core's (core/store/notes_store, on
# sqlite3), so they are still stored, and --screenshot --notes succeeds. A copy of the program runs with a
# qt.conf whose plugin folder holds only the offscreen platform plugin, so this holds whether or not the driver
# is installed here.
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
  if [ "$rc" -ne "$want" ] || grep -q "Notes cannot be stored" "$tmp/$name.log"; then
    echo "FAIL $name: want exit $want and no 'Notes cannot be stored', got exit $rc:"
    sed 's/^/    /' "$tmp/$name.log"; failures=$((failures + 1))
  else
    echo "ok   $name: exit $rc"
  fi
  [ -s "$tmp/$name.png" ] || { echo "FAIL $name: no screenshot"; failures=$((failures + 1)); }
}
check notes-wanted 0 --notes
check notes-not-wanted 0
exit $((failures > 0))
