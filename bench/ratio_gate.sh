#!/usr/bin/env bash
# The benchmark's ratio gate, on its own so that tests can drive it
# (bench/test_ratio_gate.sh):
#
#   bash bench/ratio_gate.sh ANALYZE_SECONDS RG_SECONDS MAX_RATIO
#
# exits 0 and prints "ok: ..." when ANALYZE_SECONDS <= MAX_RATIO x RG_SECONDS,
# 1 with "FAIL: ..." on stderr when it is above, and 2 when an argument is not a
# number or a time or the limit is not positive (no ratio can be judged: never a pass).
set -euo pipefail
if (($# != 3)); then
  echo "usage: ratio_gate.sh ANALYZE_SECONDS RG_SECONDS MAX_RATIO" >&2
  exit 2
fi
analyze="$1" rg="$2" max="$3"
for v in "$analyze" "$rg" "$max"; do
  [[ "$v" =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "ratio_gate.sh: '$v' is not a number of seconds" >&2; exit 2; }
done
if awk -v b="$rg" -v m="$max" 'BEGIN {exit !(b <= 0 || m <= 0)}'; then
  echo "ratio_gate.sh: rg time $rg s and limit ${max}x must both be positive" >&2
  exit 2
fi
ratio=$(awk -v a="$analyze" -v b="$rg" 'BEGIN {printf "%.2f", a / b}')
if awk -v a="$analyze" -v b="$rg" -v m="$max" 'BEGIN {exit !(a > m * b)}'; then
  echo "FAIL: analyze took ${ratio}x rg's wall time (limit ${max}x)" >&2
  exit 1
fi
echo "ok: analyze within ${max}x rg (${ratio}x)"
