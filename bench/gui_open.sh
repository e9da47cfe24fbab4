#!/usr/bin/env bash
# Workbench open benchmark: opens the workbench offscreen on a bundle
# (`faultline --timings --screenshot`) next to ripgrep searching the engine's
# own extract patterns over the same files, alternating runs so both see the
# same page cache and load. Prints time to the painted verdict, time until
# every view landed and peak RSS of each run beside rg's, and their ratios.
# Issue #9's goal: verdict <= 3x rg, peak < 1 GB.
#
#   bash bench/gui_open.sh [--bundle DIR | --nodes N --iterations N] [--runs N]
#                          [--build DIR] [--max-ratio R] [--out DIR]
#
#   --bundle DIR    open this bundle (default: the wide one, 1,250 nodes x 8 GPUs,
#                   30 steps, generated once under bench/out like bench/run.sh --wide)
#   --build DIR     a build folder with app/workbench/faultline and app/cli/faultline-cli
#                   (default: build/gui-bench, configured Release and built here)
#   --max-ratio R   exit 1 when the median time to verdict exceeds R x rg's median
# Times are from process start: "start-up (process start to open)" plus the
# open's own "verdict shown" / "all views" clock that --timings prints.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nodes=1250 iterations=30 runs=3 out="$root/bench/out" bundle="" build="" max_ratio=""
while (($#)); do
  case "$1" in
    --bundle) bundle="$2"; shift 2 ;;
    --nodes) nodes="$2"; shift 2 ;;
    --iterations) iterations="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --max-ratio) max_ratio="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/gui_open.sh: unknown option $1 (--help)" >&2; exit 2 ;;
  esac
done
command -v rg >/dev/null || { echo "bench/gui_open.sh: ripgrep (rg) is needed as the reference" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/gui_open.sh: GNU time (/usr/bin/time) is needed: apt-get install time" >&2; exit 2; }
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "bench/gui_open.sh: --runs wants a positive number, not '$runs'" >&2; exit 2; }

if [ -z "$build" ]; then
  build="$root/build/gui-bench"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  nice -n 10 ninja -C "$build" faultline faultline-cli | grep -v "^\[" || true
fi
exe="$build/app/workbench/faultline" cli="$build/app/cli/faultline-cli"
for x in "$exe" "$cli"; do [ -x "$x" ] || { echo "bench/gui_open.sh: no executable $x" >&2; exit 1; }; done

mkdir -p "$out"
if [ -z "$bundle" ]; then
  bundle="$out/bundle-${nodes}n-${iterations}i"
  if [ ! -f "$bundle/truth.json" ]; then
    rm -rf "$bundle"
    nice -n 10 "$cli" synth "$bundle" --fault xid79 --nodes "$nodes" --iterations "$iterations" --seed 7 >/dev/null
  fi
fi
[ -d "$bundle" ] || { echo "bench/gui_open.sh: no bundle folder $bundle" >&2; exit 1; }
"$cli" validate-rules --patterns "$root/rules" > "$out/patterns.txt"
bytes=$(du -sb "$bundle" | cut -f1)
files=$(find "$bundle" -type f | wc -l)
# The workbench's recent list and notes go to a folder of this run, not the user's.
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT

field() { # the ms figure of a --timings line
  awk -v k="$1" 'index($0, k) == 1 {v = $NF == "ms" ? $(NF - 1) : $NF} END {print v + 0}' "$2"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

: > "$out/gui-rg.txt"; : > "$out/gui-wb.txt"
find "$bundle" -type f -exec cat {} + >/dev/null 2>&1 || true   # warm the page cache once for both
for ((i = 0; i < runs; i++)); do
  nice -n 10 /usr/bin/time -f "%e %M" -o "$out/time.txt" sh -c 'rg -n --no-heading -f "$1" "$2" > "$3"' rg \
    "$out/patterns.txt" "$bundle" "$out/rg.out" 2>/dev/null || true
  awk '{printf "%d %d\n", $1 * 1000, $2}' "$out/time.txt" >> "$out/gui-rg.txt"
  status=0
  XDG_DATA_HOME="$home" XDG_CONFIG_HOME="$home" XDG_RUNTIME_DIR="$home" QT_QPA_PLATFORM=offscreen \
    nice -n 10 /usr/bin/time -f "%e %M" -o "$out/time.txt" \
    "$exe" --timings --screenshot "$out/gui-open.png" --tab timeline "$bundle" 2> "$out/gui-timings.txt" || status=$?
  [ "$status" = 0 ] || { echo "bench/gui_open.sh: the workbench failed (exit $status):" >&2; tail -5 "$out/gui-timings.txt" >&2; exit 1; }
  start=$(field "start-up (process start to open)" "$out/gui-timings.txt")
  verdict=$(field "verdict shown (since open)" "$out/gui-timings.txt")
  views=$(field "all views (since open)" "$out/gui-timings.txt")
  awk -v s="$start" -v v="$verdict" -v a="$views" '{printf "%d %d %d %d\n", s + v, s + a, $1 * 1000, $2}' "$out/time.txt" >> "$out/gui-wb.txt"
done
col() { cut -d' ' -f"$1" "$2" | median; }
peak() { cut -d' ' -f"$1" "$2" | sort -n | tail -1; }
rg_ms=$(col 1 "$out/gui-rg.txt"); rg_kb=$(peak 2 "$out/gui-rg.txt")
v_ms=$(col 1 "$out/gui-wb.txt"); a_ms=$(col 2 "$out/gui-wb.txt"); w_ms=$(col 3 "$out/gui-wb.txt"); wb_kb=$(peak 4 "$out/gui-wb.txt")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", (b > 0 ? a / b : 0)}'; }
sec() { awk -v m="$1" 'BEGIN {printf "%.2f", m / 1000}'; }
mb() { awk -v k="$1" 'BEGIN {printf "%.0f", k / 1024}'; }
printf 'bundle: %s (%.0f MB, %s files), %s cores, load %s, %s runs each, warm page cache, build %s\n' \
  "$bundle" "$(awk -v b="$bytes" 'BEGIN {print b / 1048576}')" "$files" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$runs" "$build"
printf '%-46s %10s %10s %12s\n' "" "median s" "x rg" "peak RSS MB"
printf '%-46s %10s %10s %12s\n' "rg -n -f <rule patterns>, same files" "$(sec "$rg_ms")" "1.00x" "$(mb "$rg_kb")"
printf '%-46s %10s %10s %12s\n' "workbench: verdict painted (from process start)" "$(sec "$v_ms")" "$(ratio "$v_ms" "$rg_ms")" ""
printf '%-46s %10s %10s %12s\n' "workbench: every view landed" "$(sec "$a_ms")" "$(ratio "$a_ms" "$rg_ms")" ""
printf '%-46s %10s %10s %12s\n' "workbench: whole --screenshot process" "$(sec "$w_ms")" "$(ratio "$w_ms" "$rg_ms")" "$(mb "$wb_kb")"
printf 'runs (rg ms, verdict ms, views ms, RSS MB): %s\n' \
  "$(paste -d' ' "$out/gui-rg.txt" "$out/gui-wb.txt" | awk '{printf "%s%d/%d/%d/%.0f", (NR > 1 ? "; " : ""), $1, $3, $4, $6 / 1024}')"
printf 'goals (#9): verdict <= 3x rg: %s; peak < 1 GB: %s\n' \
  "$(awk -v a="$v_ms" -v b="$rg_ms" 'BEGIN {print (a <= 3 * b ? "met" : "missed")}')" \
  "$(awk -v k="$wb_kb" 'BEGIN {print (k < 1048576 ? "met" : "missed")}')"
sed -n 's/^engine: \(.*\) ms$/\1/p' "$out/gui-timings.txt" | awk '{printf "%s%s %s ms", (NR > 1 ? ", " : "last run, engine stages: "), $1, $(NF)}' && echo
if [ -n "$max_ratio" ]; then
  printf "gate: time to verdict against rg: "
  bash "$root/bench/ratio_gate.sh" "$(sec "$v_ms")" "$(sec "$rg_ms")" "$max_ratio"   # exits 1 above the limit
fi
