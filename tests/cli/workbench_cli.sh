#!/usr/bin/env bash
# The workbench's command line follows faultline-cli's conventions, without a display: --help and --version
# exit 0, an unknown option exits 2 naming it, --bash-completion prints a script bash accepts.
# usage: workbench_cli.sh FAULTLINE
set -uo pipefail
prog=$1
unset DISPLAY WAYLAND_DISPLAY QT_QPA_PLATFORM  # parsed before Qt: no display needed
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
out=$("$prog" --help 2>&1); rc=$?
[ $rc -eq 0 ] || fail "--help exit $rc"
for o in --screenshot --notes --version BUNDLE "usage: faultline"; do
  grep -q -- "$o" <<<"$out" || fail "--help lacks $o"
done
out=$("$prog" --version 2>&1); [ $? -eq 0 ] && [[ $out == "faultline "* ]] || fail "--version: $out"
out=$("$prog" --no-such-option 2>&1); rc=$?
{ [ $rc -eq 2 ] && grep -q -- "--no-such-option" <<<"$out"; } || fail "unknown option: exit $rc: $out"
out=$("$prog" --notes 2>&1); rc=$?
[ $rc -eq 2 ] || fail "--notes without --screenshot: exit $rc"
script=$("$prog" --bash-completion) && bash -n <<<"$script" && grep -q "complete -o filenames -F _faultline faultline" <<<"$script" ||
  fail "--bash-completion"
[ $failures -eq 0 ] && echo "ok: workbench command line"
exit $((failures > 0))
