#!/usr/bin/env bash
# Metric rules' cost (issue #42): a DCGM scrape of 1,250 nodes x 8 GPUs, 10 minutes at 15 s (41 scrapes),
# 16 dcgm-exporter default fields, one Prometheus query_range JSON per node as `collect --prometheus` writes
# it (~150 MB, 6.6 M samples), one GPU's Xid turning 79. Times, alternating in one run so all see the same
# load and page cache:
#   rg -n -f <rule patterns> over the files (the reference: reading every byte once),
#   faultline-cli analyze with the shipped rules,
#   faultline-cli analyze with the shipped rules minus rules/metrics-*.jsonc (no metric rule: samples are
#   checked and counted, not judged).
# Prints median wall / CPU seconds of each and the metric rules' share: (with - without) / without.
#
#   bash bench/metrics.sh [--cli PATH] [--runs N] [--nodes N] [--keep]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cli="$root/build/dev/app/cli/faultline-cli"
runs=3 nodes=1250 keep=0
while (($#)); do
  case "$1" in
    --cli) cli="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --nodes) nodes="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "usage: bench/metrics.sh [--cli PATH] [--runs N] [--nodes N] [--keep]" >&2; exit 2 ;;
  esac
done
command -v rg >/dev/null || { echo "bench/metrics.sh: ripgrep (rg) is needed as the reference" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/metrics.sh: GNU time (/usr/bin/time) is needed" >&2; exit 2; }
out="$root/bench/out/metrics-$nodes"
bundle="$out/bundle"
mkdir -p "$out"
if [ ! -f "$bundle/workload.json" ]; then
  rm -rf "$bundle"
  python3 - "$bundle" "$nodes" <<'PY'
import json, os, sys
bundle, nodes = sys.argv[1], int(sys.argv[2])
os.makedirs(os.path.join(bundle, "metrics"), exist_ok=True)
t0 = 1773482400  # 2026-03-14T10:00:00Z
steps = [t0 + 15 * i for i in range(41)]
fields = ["DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_MEM_CLOCK", "DCGM_FI_DEV_MEMORY_TEMP", "DCGM_FI_DEV_GPU_TEMP",
          "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
          "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_MEM_COPY_UTIL", "DCGM_FI_DEV_ENC_UTIL", "DCGM_FI_DEV_DEC_UTIL",
          "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_FB_USED",
          "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "DCGM_FI_DEV_ROW_REMAP_FAILURE"]
def value(f, n, g, i):
    x = (n * 131 + g * 17 + i * 7) % 97
    if f == "DCGM_FI_DEV_XID_ERRORS": return "79" if (n == nodes // 2 and g == 3 and i >= 20) else "0"
    if f == "DCGM_FI_DEV_GPU_UTIL": return str(95 + x % 6)
    if f == "DCGM_FI_DEV_POWER_USAGE": return "%.3f" % (600 + x)
    if f == "DCGM_FI_DEV_GPU_TEMP": return str(60 + x % 10)
    if f == "DCGM_FI_DEV_FB_FREE": return str(20000 + x)
    if f == "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": return str(10**9 + i * 9000 + x)
    if f in ("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "DCGM_FI_DEV_ROW_REMAP_FAILURE",
             "DCGM_FI_DEV_ENC_UTIL", "DCGM_FI_DEV_DEC_UTIL"): return "0"
    return str(1000 + x)
for n in range(nodes):
    host = "gpu-%04d" % n
    result = []
    for f in fields:
        for g in range(8):
            m = {"__name__": f, "gpu": str(g), "UUID": "GPU-%08x-0000-4000-8000-%012x" % (n, g), "device": "nvidia%d" % g,
                 "modelName": "NVIDIA H100 80GB HBM3", "Hostname": host, "pci_bus_id": "00000000:%02X:00.0" % (0x18 + 16 * g),
                 "DCGM_FI_DRIVER_VERSION": "550.54.15", "node": host}
            result.append({"metric": m, "values": [[s, value(f, n, g, i)] for i, s in enumerate(steps)]})
    text = '{"status":"success","data":{"resultType":"matrix","result":[\n' + ",\n".join(
        json.dumps(r, separators=(",", ":")) for r in result) + "\n]}}\n"
    open(os.path.join(bundle, "metrics", "prometheus-%s.json" % host), "w").write(text)
json.dump({"workload_id": "metrics-bench", "attempt": 1, "nodes": ["gpu-%04d" % n for n in range(nodes)],
           "window": {"start": "2026-03-14T09:55:00Z", "end": "2026-03-14T10:15:00Z"}},
          open(os.path.join(bundle, "workload.json"), "w"), indent=1)
PY
fi
# The same rules without the metric rule files.
norules="$out/rules-without-metrics"
rm -rf "$norules" && mkdir -p "$norules"
for f in "$root"/rules/*.jsonc; do
  case "$(basename "$f")" in metrics-*) ;; *) cp "$f" "$norules/" ;; esac
done
"$cli" validate-rules --patterns "$root/rules" > "$out/patterns.txt"
bytes=$(du -sb "$bundle" | cut -f1)
measure() { # wall max_rss_kb cpu_s
  /usr/bin/time -f "%e %M %U %S" -o "$out/time.txt" "$@" 2>/dev/null
  awk '{printf "%s %s %.2f\n", $1, $2, $3 + $4}' "$out/time.txt"
}
: > "$out/rg.txt"; : > "$out/with.txt"; : > "$out/without.txt"
for _ in $(seq "$runs"); do
  measure sh -c 'rg -n --no-heading -f "$1" "$2" > /dev/null || true' rg "$out/patterns.txt" "$bundle" >> "$out/rg.txt"
  measure "$cli" analyze "$bundle" --json --no-user-rules -o "$out/with.json" >> "$out/with.txt"
  FAULTLINE_RULES_DIR="$norules" measure "$cli" analyze "$bundle" --json --no-user-rules -o "$out/without.json" >> "$out/without.txt"
done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
col() { awk -v c="$2" '{print $c}' "$1" | median; }
rg_s=$(col "$out/rg.txt" 1) w_s=$(col "$out/with.txt" 1) wo_s=$(col "$out/without.txt" 1)
rg_c=$(col "$out/rg.txt" 3) w_c=$(col "$out/with.txt" 3) wo_c=$(col "$out/without.txt" 3)
w_kb=$(col "$out/with.txt" 2) wo_kb=$(col "$out/without.txt" 2)
verdict=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); c=r.get("root_cause") or {}; print(r["status"], c.get("symptom"), c.get("node"), "gpu", c.get("gpu"))' "$out/with.json")
echo "bundle: $nodes nodes x 8 GPUs, 41 scrapes, $((bytes / 1000000)) MB; median of $runs runs; verdict with metric rules: $verdict"
printf '%-44s %9s %9s %12s\n' "" "wall (s)" "CPU (s)" "peak RSS MB"
printf '%-44s %9s %9s %12s\n' "rg -n -f <rule patterns>" "$rg_s" "$rg_c" "-"
printf '%-44s %9s %9s %12s\n' "analyze, shipped rules" "$w_s" "$w_c" "$((w_kb / 1024))"
printf '%-44s %9s %9s %12s\n' "analyze, without rules/metrics-*.jsonc" "$wo_s" "$wo_c" "$((wo_kb / 1024))"
awk -v a="$w_s" -v b="$wo_s" -v c="$w_c" -v d="$wo_c" -v r="$rg_s" 'BEGIN {
  printf "metric rules add %+.1f %% wall, %+.1f %% CPU; analyze / rg %.2fx (with) %.2fx (without)\n", 100 * (a - b) / b, 100 * (c - d) / d, a / r, b / r }'
[ "$keep" = 1 ] || rm -rf "$norules"
