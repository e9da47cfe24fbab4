#!/usr/bin/env bash
# Drives bench/ratio_gate.sh (the gate of `bench/run.sh --max-ratio`) with
# figures on both sides of the limit and with bad input; fails when any exit
# status is not the one the gate promises.
set -uo pipefail
gate="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ratio_gate.sh"
failures=0
expect() { # expect STATUS ANALYZE RG MAX
  local want="$1"; shift
  bash "$gate" "$@" >/dev/null 2>&1
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: ratio_gate.sh $* exited $got, expected $want" >&2
    failures=$((failures + 1))
  fi
}
expect 0 1.00 1.00 3        # equal times
expect 0 3.00 1.00 3        # exactly at the limit is within it
expect 1 3.01 1.00 3        # just above
expect 1 92.0 11.8 3        # the 7.8x run of 2026-12-03
expect 0 5.9 2.0 3
expect 1 6.1 2.0 3
expect 0 0.5 4.0 3          # faster than rg
expect 1 2.5 1.0 2          # another limit
expect 2 abc 1.0 3          # not a number
expect 2 1.0 0 3            # no rg time: no ratio
expect 2 1.0 1.0 0          # no limit
expect 2 1.0 1.0            # missing argument
# Its verdict line names the ratio.
out=$(bash "$gate" 2.0 1.0 3 2>&1)
[ "$out" = "ok: analyze within 3x rg (2.00x)" ] || { echo "FAIL: unexpected message '$out'" >&2; failures=$((failures + 1)); }
out=$(bash "$gate" 7.0 2.0 3 2>&1)
[ "$out" = "FAIL: analyze took 3.50x rg's wall time (limit 3x)" ] || { echo "FAIL: unexpected message '$out'" >&2; failures=$((failures + 1)); }
if ((failures)); then
  echo "$failures gate case(s) failed" >&2
  exit 1
fi
echo "ratio gate: all cases as expected"
