#!/usr/bin/env bash
# Engine benchmark: generates a large synthetic bundle (default ~1.2 GB over
# ~700 files), then times `faultline-cli analyze` next to ripgrep searching the
# same rule patterns over the same files, alternating runs so both see the same
# page cache. Prints wall time (median), throughput and peak RSS of each.
#
#   bash bench/run.sh [--nodes N] [--iterations N] [--runs N] [--out DIR] [--keep]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nodes=64 iterations=5000 runs=3 out="$root/bench/out" keep=0
while (($#)); do
  case "$1" in
    --nodes) nodes="$2"; shift 2 ;;
    --iterations) iterations="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "bench/run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
bash "$root/scripts/setup-deps.sh"
command -v rg >/dev/null || { echo "bench/run.sh: ripgrep (rg) is needed as the reference" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/run.sh: GNU time (/usr/bin/time) is needed: apt-get install time" >&2; exit 2; }

cmake --preset release -S "$root" -DFAULTLINE_BUILD_GUI=OFF >/dev/null
cmake --build --preset release --target faultline-cli | grep -v "^\[" || true
[ -x "$root/build/release/app/cli/faultline-cli" ] || { echo "bench/run.sh: build failed" >&2; exit 1; }
cli="$root/build/release/app/cli/faultline-cli"

bundle="$out/bundle-${nodes}n-${iterations}i"
if [ ! -f "$bundle/truth.json" ]; then
  rm -rf "$bundle"
  "$cli" synth "$bundle" --fault xid79 --nodes "$nodes" --iterations "$iterations" --seed 7 >/dev/null
fi
"$cli" validate-rules --patterns "$root/rules" > "$out/patterns.txt"
bytes=$(du -sb "$bundle" | cut -f1)
files=$(find "$bundle" -type f | wc -l)

measure() { # prints "seconds maxrss_kb"
  /usr/bin/time -f "%e %M" -o "$out/time.txt" "$@" >/dev/null 2>&1
  cat "$out/time.txt"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

: > "$out/rg.txt"; : > "$out/fl.txt"
cat "$bundle"/* >/dev/null 2>&1 || true   # warm the page cache once for both
for ((i = 0; i < runs; i++)); do
  measure rg -n --no-heading -f "$out/patterns.txt" "$bundle" >> "$out/rg.txt"
  measure "$cli" analyze "$bundle" --json -o /dev/null >> "$out/fl.txt"
done
rg_s=$(cut -d' ' -f1 "$out/rg.txt" | median); rg_kb=$(cut -d' ' -f2 "$out/rg.txt" | sort -n | tail -1)
fl_s=$(cut -d' ' -f1 "$out/fl.txt" | median); fl_kb=$(cut -d' ' -f2 "$out/fl.txt" | sort -n | tail -1)
verdict=$("$cli" analyze "$bundle" --text | sed -n 's/^  Status *//p; s/^              \(.* at .*\)$/\1/p' | head -2 | tr -s ' ' | paste -sd ';')
mb=$(awk -v b="$bytes" 'BEGIN {printf "%.0f", b / 1048576}')
printf 'bundle: %s MB in %s files (%s nodes, %s iterations), %s cores, %s runs, warm page cache\n' "$mb" "$files" "$nodes" "$iterations" "$(nproc)" "$runs"
printf '%-28s %9s %12s %12s\n' "" "wall (s)" "MB/s" "peak RSS MB"
printf '%-28s %9s %12.0f %12.1f\n' "rg -n -f <rule patterns>" "$rg_s" "$(awk -v b="$bytes" -v s="$rg_s" 'BEGIN {print b/1048576/s}')" "$(awk -v k="$rg_kb" 'BEGIN {print k/1024}')"
printf '%-28s %9s %12.0f %12.1f\n' "faultline-cli analyze" "$fl_s" "$(awk -v b="$bytes" -v s="$fl_s" 'BEGIN {print b/1048576/s}')" "$(awk -v k="$fl_kb" 'BEGIN {print k/1024}')"
printf 'ratio analyze / rg: %.2fx   verdict: %s\n' "$(awk -v a="$fl_s" -v b="$rg_s" 'BEGIN {print a/b}')" "$verdict"
[ "$keep" = 1 ] || rm -rf "$bundle"
