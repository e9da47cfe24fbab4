#!/usr/bin/env bash
# Engine benchmark: times `faultline-cli analyze` next to ripgrep searching the
# same rule patterns over the same files, alternating runs so both see the same
# page cache and the same load. Prints wall time (median), throughput, peak RSS
# and output size of each, and their ratios. CPU seconds (user + system) are
# printed too: on a shared, loaded machine they move less than wall time.
#
#   bash bench/run.sh [--wide | --deep | --nodes N --iterations N] [--runs N] [--out DIR]
#                     [--max-ratio R] [--cli PATH] [--keep]
#
#   --wide          1,250 nodes x 8 GPUs, 30 steps (~490 MB, 13,755 files): the width case
#   --deep          64 nodes x 8 GPUs, 1,700 steps (~410 MB, ~700 files): the depth case
#   --max-ratio R   exit 1 when analyze's median wall time exceeds R x rg's (a quadratic
#                   rule or a slow pre-filter cannot come back unnoticed)
#   --cli PATH      use this faultline-cli instead of building the release preset
#   --keep          keep the generated bundle (--wide and --deep always keep theirs)
# Generated bundles live under bench/out (git-ignored) and are reused when present.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nodes=64 iterations=5000 runs=3 out="$root/bench/out" keep=0 mode=custom max_ratio="" cli=""
while (($#)); do
  case "$1" in
    --wide) mode=wide; nodes=1250; iterations=30; keep=1; shift ;;
    --deep) mode=deep; nodes=64; iterations=1700; keep=1; shift ;;
    --nodes) nodes="$2"; shift 2 ;;
    --iterations) iterations="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --max-ratio) max_ratio="$2"; shift 2 ;;
    --cli) cli="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/run.sh: unknown option $1 (--help)" >&2; exit 2 ;;
  esac
done
command -v rg >/dev/null || { echo "bench/run.sh: ripgrep (rg) is needed as the reference" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/run.sh: GNU time (/usr/bin/time) is needed: apt-get install time" >&2; exit 2; }

if [ -z "$cli" ]; then
  bash "$root/scripts/setup-deps.sh"
  cmake --preset release -S "$root" -DFAULTLINE_BUILD_GUI=OFF >/dev/null
  nice -n 10 cmake --build --preset release --target faultline-cli | grep -v "^\[" || true
  cli="$root/build/release/app/cli/faultline-cli"
fi
[ -x "$cli" ] || { echo "bench/run.sh: no faultline-cli at $cli" >&2; exit 1; }

mkdir -p "$out"
bundle="$out/bundle-${nodes}n-${iterations}i"
if [ ! -f "$bundle/truth.json" ]; then
  rm -rf "$bundle"
  nice -n 10 "$cli" synth "$bundle" --fault xid79 --nodes "$nodes" --iterations "$iterations" --seed 7 >/dev/null
fi
"$cli" validate-rules --patterns "$root/rules" > "$out/patterns.txt"
bytes=$(du -sb "$bundle" | cut -f1)
files=$(find "$bundle" -type f | wc -l)

measure() { # prints "seconds maxrss_kb cpu_seconds"
  nice -n 10 /usr/bin/time -f "%e %M %U %S" -o "$out/time.txt" "$@" 2>/dev/null
  awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}' "$out/time.txt" > "$out/time2.txt" && mv "$out/time2.txt" "$out/time.txt"
  cat "$out/time.txt"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

: > "$out/rg.txt"; : > "$out/fl.txt"
find "$bundle" -type f -exec cat {} + >/dev/null 2>&1 || true   # warm the page cache once for both
for ((i = 0; i < runs; i++)); do
  measure sh -c 'rg -n --no-heading -f "$1" "$2" > "$3"' rg "$out/patterns.txt" "$bundle" "$out/rg.out" >> "$out/rg.txt"
  measure "$cli" analyze "$bundle" --json --no-user-rules -o "$out/result.json" >> "$out/fl.txt"
done
rg_s=$(cut -d' ' -f1 "$out/rg.txt" | median); rg_kb=$(cut -d' ' -f2 "$out/rg.txt" | sort -n | tail -1)
fl_s=$(cut -d' ' -f1 "$out/fl.txt" | median); fl_kb=$(cut -d' ' -f2 "$out/fl.txt" | sort -n | tail -1)
rg_cpu=$(cut -d' ' -f3 "$out/rg.txt" | median); fl_cpu=$(cut -d' ' -f3 "$out/fl.txt" | median)
rg_out=$(stat -c %s "$out/rg.out"); fl_out=$(stat -c %s "$out/result.json")
verdict=$("$cli" analyze "$bundle" --text --no-user-rules | sed -n 's/^  Status *//p; s/^              \(.* at .*\)$/\1/p' | head -2 | tr -s ' ' | paste -sd ';')
mb() { awk -v b="$1" 'BEGIN {printf "%.1f", b / 1048576}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}'; }
rate() { awk -v b="$1" -v s="$2" 'BEGIN {printf "%.0f", (s > 0 ? b / 1048576 / s : 0)}'; }
printf 'bundle (%s): %s MB in %s files (%s nodes, %s iterations), %s cores, load %s, %s runs, warm page cache\n' \
  "$mode" "$(mb "$bytes")" "$files" "$nodes" "$iterations" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$runs"
printf '%-30s %9s %9s %9s %12s %14s\n' "" "wall (s)" "CPU (s)" "MB/s" "peak RSS MB" "output MB"
printf '%-30s %9s %9s %9s %12s %14s\n' "rg -n -f <rule patterns>" "$rg_s" "$rg_cpu" "$(rate "$bytes" "$rg_s")" "$(mb $((rg_kb * 1024)))" "$(mb "$rg_out")"
printf '%-30s %9s %9s %9s %12s %14s\n' "faultline-cli analyze --json" "$fl_s" "$fl_cpu" "$(rate "$bytes" "$fl_s")" "$(mb $((fl_kb * 1024)))" "$(mb "$fl_out")"
printf '%-30s %9s %9s %9s %12s %14s\n' "ratio analyze / rg" "$(ratio "$fl_s" "$rg_s")" "$(ratio "$fl_cpu" "$rg_cpu")" "" "$(ratio "$fl_kb" "$rg_kb")" "$(ratio "$fl_out" "$rg_out")"
printf 'verdict: %s\n' "$verdict"
[ "$keep" = 1 ] || rm -rf "$bundle"
if [ -n "$max_ratio" ]; then
  bash "$root/bench/ratio_gate.sh" "$fl_s" "$rg_s" "$max_ratio"   # exits 1 above the limit
fi
