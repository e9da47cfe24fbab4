#!/usr/bin/env bash
# The run-time dependency check must be able to fail: run it against copies of the package list with one
# package removed and expect it to fail naming what a fresh machine would then lack.
# usage: selftest.sh CHECK_SCRIPT PACKAGE_LIST PROGRAM...
set -uo pipefail
check=$1 list=$2; shift 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0

# expect NAME EXIT_CODE TEXT LIST: the check on LIST exits EXIT_CODE and prints TEXT
expect() {
  local out rc
  out=$(bash "$check" --list "$4" "${programs[@]}" 2>&1); rc=$?
  if [ "$rc" -ne "$2" ] || ! grep -qF -- "$3" <<<"$out"; then
    echo "FAIL $1: expected exit $2 naming '$3', got exit $rc:"; echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok   $1: exit $rc, names '$3'"
  fi
}
programs=("$@")
without() { grep -vx "$1" "$list" >"$tmp/$1.txt"; echo "$tmp/$1.txt"; }

# a library linked by every program: libre2-dev brings libre2-9
expect "linked library" 1 "libre2-9" "$(without libre2-dev)"
# the Qt SQL driver is loaded at run time by the workbench only
for p in "${programs[@]}"; do
  if ldd "$p" | grep -q libQt6Sql; then
    expect "Qt SQL driver plugin" 1 "libqt6sql6-sqlite" "$(without libqt6sql6-sqlite)"
    break
  fi
done
# a name apt does not know is bad input, not a pass
{ cat "$list"; echo "no-such-package-faultline"; } >"$tmp/unknown.txt"
expect "unknown package" 2 "no-such-package-faultline" "$tmp/unknown.txt"
exit $((failures > 0))
