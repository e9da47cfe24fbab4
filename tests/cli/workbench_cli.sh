#!/usr/bin/env bash
# The workbench's command line follows faultline-cli's conventions, without a display: --help and --version
# exit 0, an unknown option exits 2 naming it, --bash-completion prints a script bash accepts. --screenshot
# with nothing to show fails instead of saving an empty window. With FAULTLINE_SERVICE and SAMPLE, a real
# faultline-service on a loopback port: --service URL [--session ID] --screenshot draws its sessions / a result.
# usage: workbench_cli.sh FAULTLINE [FAULTLINE_SERVICE SAMPLE_FOLDER]
set -uo pipefail
prog=$1
service=${2:-}
sample=${3:-}
work=$(mktemp -d)
svc_pid=
cleanup() { [ -n "$svc_pid" ] && kill "$svc_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
unset DISPLAY WAYLAND_DISPLAY QT_QPA_PLATFORM  # parsed before Qt: no display needed
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
out=$("$prog" --help 2>&1); rc=$?
[ $rc -eq 0 ] || fail "--help exit $rc"
for o in --screenshot --notes --version BUNDLE --service --session --token-file "usage: faultline"; do
  grep -q -- "$o" <<<"$out" || fail "--help lacks $o"
done
out=$("$prog" --version 2>&1); [ $? -eq 0 ] && [[ $out == "faultline "* ]] || fail "--version: $out"
out=$("$prog" --no-such-option 2>&1); rc=$?
{ [ $rc -eq 2 ] && grep -q -- "--no-such-option" <<<"$out"; } || fail "unknown option: exit $rc: $out"
out=$("$prog" --notes 2>&1); rc=$?
[ $rc -eq 2 ] || fail "--notes without --screenshot: exit $rc"
out=$("$prog" --session abc 2>&1); rc=$?
[ $rc -eq 2 ] || fail "--session without --service: exit $rc"
out=$("$prog" --service http://127.0.0.1:1 "$work" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "--service with a BUNDLE: exit $rc"
out=$(QT_QPA_PLATFORM=offscreen "$prog" --screenshot "$work/empty.png" 2>&1); rc=$?
{ [ $rc -ne 0 ] && grep -q "needs a BUNDLE or --service" <<<"$out" && [ ! -e "$work/empty.png" ]; } ||
  fail "--screenshot without a bundle: exit $rc, $(ls "$work"): $out"
for o in --quiz --key --tab --step --select --window; do
  grep -q -- "$o" <<<"$out" || "$prog" --help | grep -q -- "$o" || fail "--help lacks $o"
done
out=$("$prog" --key k.json "$work" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "--key without --quiz: exit $rc"
out=$("$prog" --screenshot "$work/w.png" --window 2026-03-14T10:00:00Z..2026-03-14T09:00:00Z "$work" 2>&1); rc=$?
{ [ $rc -eq 2 ] && grep -q -- "--window" <<<"$out" && [ ! -e "$work/w.png" ]; } || fail "--window backwards: exit $rc: $out"
out=$("$prog" --screenshot "$work/t.png" --tab nowhere "$work" 2>&1); rc=$?
[ $rc -eq 2 ] || fail "--tab nowhere: exit $rc"
script=$("$prog" --bash-completion) && bash -n <<<"$script" && grep -q "complete -o filenames -F _faultline faultline" <<<"$script" ||
  fail "--bash-completion"

if [ -n "$service" ]; then
  export QT_QPA_PLATFORM=offscreen
  # Nothing listens on port 1: a clear failure, not a picture of "Not connected".
  out=$("$prog" --service http://127.0.0.1:1 --screenshot "$work/refused.png" 2>&1); rc=$?
  { [ $rc -eq 1 ] && grep -q "127.0.0.1:1" <<<"$out" && [ ! -e "$work/refused.png" ]; } ||
    fail "--service on a closed port: exit $rc: $out"
  printf 'workbench-cli-token-0123456789\n' >"$work/token"
  "$service" --listen 127.0.0.1:0 --data "$work/data" --token-file "$work/token" --workers 1 \
    >"$work/service.out" 2>"$work/service.log" &
  svc_pid=$!
  url=
  for _ in $(seq 100); do
    url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/service.out" | head -1)
    [ -n "$url" ] && break
    sleep 0.2
  done
  [ -n "$url" ] || fail "faultline-service did not say where it listens: $(cat "$work/service.log")"
  tar -C "$sample" -czf "$work/bundle.tar.gz" .
  session=$(curl -sf -H "Authorization: Bearer workbench-cli-token-0123456789" --data-binary @"$work/bundle.tar.gz" \
    "$url/v2/bundles" | grep -o '"session_id": *"[^"]*"' | head -1 | sed 's/.*"\([^"]*\)"$/\1/')
  [ -n "$session" ] || fail "upload to $url gave no session"
  out=$("$prog" --service "$url" --screenshot "$work/no-token.png" 2>&1); rc=$?
  { [ $rc -eq 1 ] && grep -q "401" <<<"$out"; } || fail "--service without its token: exit $rc: $out"
  out=$("$prog" --service "$url" --token-file "$work/token" --screenshot "$work/sessions.png" 2>&1); rc=$?
  { [ $rc -eq 0 ] && [ -s "$work/sessions.png" ]; } || fail "--service --screenshot: exit $rc: $out"
  out=$("$prog" --service "$url" --token-file "$work/token" --session "$session" --tab chain \
    --screenshot "$work/session.png" 2>&1); rc=$?
  { [ $rc -eq 0 ] && [ -s "$work/session.png" ]; } || fail "--session $session --screenshot: exit $rc: $out"
  out=$("$prog" --service "$url" --token-file "$work/token" --session no-such-session --screenshot "$work/x.png" 2>&1); rc=$?
  { [ $rc -eq 1 ] && grep -q "404" <<<"$out"; } || fail "--session of an unknown session: exit $rc: $out"
fi
[ $failures -eq 0 ] && echo "ok: workbench command line"
exit $((failures > 0))
