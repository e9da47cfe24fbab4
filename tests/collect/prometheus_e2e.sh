#!/bin/bash
# Against a real Prometheus (Debian's prometheus + promtool) on loopback:
# backfills DCGM-exporter and node-exporter series for two hosts through
# `promtool tsdb create-blocks-from openmetrics`, starts Prometheus on a free
# port in a temporary folder, and runs `faultline-cli collect --prometheus`.
# Checks that each node's series land in its own metrics file, that a node
# with no series is reported empty, and that a dead Loki does not stop it.
# Usage: prometheus_e2e.sh FAULTLINE_CLI.  Exit 77 (skipped) without Prometheus.
set -euo pipefail
CLI=${1:?usage: prometheus_e2e.sh path/to/faultline-cli}
for tool in prometheus promtool python3; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed (apt-get install prometheus)"; exit 77; }
done
T=$(mktemp -d /tmp/faultline-prom-XXXXXX)
# promtool and Prometheus preallocate 512 MiB chunk segments (tsdb/chunks DefaultChunkSegmentSize): on a
# nearly full disk they fail with "preallocate: no space left on device", which says nothing about Faultline.
free_mib=$(( $(df -Pk "$T" | awk 'NR==2 {print $4}') / 1024 ))
if [ "$free_mib" -lt 1024 ]; then
    rmdir "$T"; echo "SKIP: only $free_mib MiB free under /tmp; promtool preallocates 512 MiB segments (needs 1024)"; exit 77
fi
PID=
cleanup() {
    if [ -n "$PID" ]; then
        kill "$PID" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$PID" 2>/dev/null || true
    fi
    [ -n "${KEEP:-}" ] && echo "kept $T" || rm -rf "$T"
}
trap cleanup EXIT
start=$(date +%s.%N)

# Two hours ago, 10 minutes of samples every 15 s; gpu-node-02's GPU 1 raises Xid 79 halfway.
T0=$(( $(date +%s) - 7200 ))
python3 - "$T0" > "$T/data.om" <<'PY'
import sys
t0 = int(sys.argv[1])
print("# HELP DCGM_FI_DEV_XID_ERRORS Value of the last XID error encountered.")
print("# TYPE DCGM_FI_DEV_XID_ERRORS gauge")
for host in ("gpu-node-01", "gpu-node-02"):
    for gpu in (0, 1):
        for i in range(40):
            v = 79 if (host == "gpu-node-02" and gpu == 1 and i >= 20) else 0
            print(f'DCGM_FI_DEV_XID_ERRORS{{gpu="{gpu}",UUID="GPU-{host}-{gpu}",device="nvidia{gpu}",modelName="NVIDIA H100 80GB HBM3",Hostname="{host}"}} {v} {t0 + 15 * i}')
print("# HELP DCGM_FI_DEV_GPU_TEMP GPU temperature (in C).")
print("# TYPE DCGM_FI_DEV_GPU_TEMP gauge")
for host in ("gpu-node-01", "gpu-node-02"):
    for i in range(40):
        print(f'DCGM_FI_DEV_GPU_TEMP{{gpu="0",Hostname="{host}"}} {60 + i % 5} {t0 + 15 * i}')
print("# HELP node_infiniband_link_downed_total Number of times the link failed to recover from an error state and went down")
print("# TYPE node_infiniband_link_downed_total counter")
for host in ("gpu-node-01", "gpu-node-02"):
    for i in range(40):
        print(f'node_infiniband_link_downed_total{{instance="{host}:9100",job="node",device="mlx5_0",port="1"}} 0 {t0 + 15 * i}')
# gpu-node-04's node-exporter is scraped by address: no label names the host, only its uname does;
# its IB port 1 goes down 3 times near the end, well after the Xid (a later, separate event).
for i in range(40):
    print(f'node_infiniband_link_downed_total{{instance="10.1.0.4:9100",job="node",device="mlx5_0",port="1"}} {3 if i >= 34 else 0} {t0 + 15 * i}')
print("# HELP node_uname_info Labeled system information as provided by the uname system call.")
print("# TYPE node_uname_info gauge")
for host in ("gpu-node-01", "gpu-node-02"):
    for i in range(40):
        print(f'node_uname_info{{instance="{host}:9100",job="node",nodename="{host}",release="6.1.0"}} 1 {t0 + 15 * i}')
for i in range(40):
    print(f'node_uname_info{{instance="10.1.0.4:9100",job="node",nodename="gpu-node-04.cluster.local",release="6.1.0"}} 1 {t0 + 15 * i}')
print("# HELP node_load1 1m load average.")
print("# TYPE node_load1 gauge")
for host in ("gpu-node-01", "gpu-node-02"):
    for i in range(40):
        print(f'node_load1{{instance="{host}:9100",job="node"}} {1.5 + i / 100} {t0 + 15 * i}')
print("# EOF")
PY
mkdir -p "$T/data"
promtool tsdb create-blocks-from openmetrics "$T/data.om" "$T/data" > "$T/promtool.log"
: > "$T/prometheus.yml"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/data" --web.listen-address="127.0.0.1:$PORT" \
           --storage.tsdb.retention.time=100y > "$T/prometheus.log" 2>&1 &
PID=$!
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$PORT/-/ready" >/dev/null 2>&1 && break
    python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$PORT/-/ready')" 2>/dev/null && break
    sleep 0.1
done
up=$(date +%s.%N)

FROM=$(date -u -d "@$T0" +%Y-%m-%dT%H:%M:%SZ)
TO=$(date -u -d "@$((T0 + 600))" +%Y-%m-%dT%H:%M:%SZ)
OUT=$T/bundle
# A Loki that refuses connections: its error must not stop Prometheus.
"$CLI" collect --nodes 'gpu-node-0[1-4]' --from "$FROM" --to "$TO" --workload-id prom-e2e --out "$OUT" \
       --prometheus "http://127.0.0.1:$PORT" --loki "http://127.0.0.1:1" --no-journal --no-user-rules --json \
       > "$T/result.json" 2> "$T/collect.err"
done_at=$(date +%s.%N)
cat "$T/collect.err"

python3 - "$OUT" "$T/result.json" <<'PY'
import json, sys, os
out, result = sys.argv[1], json.load(open(sys.argv[2]))
manifest = json.load(open(os.path.join(out, "workload.json")))
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
src = {(s["source"], s["node"]): s for s in manifest["collection"]["sources"]}
for n in ("gpu-node-01", "gpu-node-02"):
    check(src[("prometheus", n)]["status"] == "ok", "prometheus ok for %s: %r" % (n, src[("prometheus", n)]))
    doc = json.load(open(os.path.join(out, "metrics", "prometheus-%s.json" % n)))
    series = doc["data"]["result"]
    names = sorted({s["metric"]["__name__"] for s in series})
    # exactly the series the metric rules read (rules/metrics-*.jsonc) and node_uname_info, which names the
    # host of a series known by its scrape address: node_load1 is read by none
    check(names == ["DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_XID_ERRORS", "node_infiniband_link_downed_total", "node_uname_info"],
          "%s metrics %r" % (n, names))
    check(all(s["metric"]["node"] == n for s in series), "node label on every series of %s" % n)
    check(all(len(s["values"]) >= 40 for s in series), "every step of the window answered")
check(src[("prometheus", "gpu-node-03")]["status"] == "empty", "gpu-node-03 has no series: empty")
# Scraped by address: found through its node_uname_info, written to its own file with its node label.
check(src[("prometheus", "gpu-node-04")]["status"] == "ok", "gpu-node-04 scraped by address: %r" % (src[("prometheus", "gpu-node-04")],))
four = json.load(open(os.path.join(out, "metrics", "prometheus-gpu-node-04.json")))["data"]["result"]
check(sorted(s["metric"]["__name__"] for s in four) == ["node_infiniband_link_downed_total", "node_uname_info"],
      "gpu-node-04 series %r" % [s["metric"] for s in four])
check(all(s["metric"]["node"] == "gpu-node-04" and s["metric"]["instance"] == "10.1.0.4:9100" for s in four),
      "gpu-node-04's series keep their address and get its node")
check(four[0]["values"][-1][1] == "3", "link_downed value kept")
check(src[("loki", "gpu-node-01")]["status"] == "error", "dead Loki reported as error")
xid = [s for s in json.load(open(os.path.join(out, "metrics", "prometheus-gpu-node-02.json")))["data"]["result"]
       if s["metric"]["__name__"] == "DCGM_FI_DEV_XID_ERRORS" and s["metric"]["gpu"] == "1"][0]
check(xid["values"][-1][1] == "79", "Xid 79 value kept")
reports = {c["file"]: c for c in result["connector_reports"]}
check(reports["metrics/prometheus-gpu-node-02.json"]["kind"] == "metrics", "loader takes the file for metrics")
check(reports["metrics/prometheus-gpu-node-02.json"]["node"] == "gpu-node-02", "loader places it on its node")
check(reports["collect:loki/gpu-node-01"]["status"] == "error", "Loki failure in the result's coverage")
check(any("loki of gpu-node-01" in m for m in result["missing"]), "missing names the Loki failure")
rc = result["root_cause"] or {}
check(rc.get("symptom") == "gpu.xid.79" and rc.get("node") == "gpu-node-02" and rc.get("gpu") == 1,
      "the metric rule reads the Xid from the scrape: %r" % rc)
downed = [e for e in result["evidence"] if e.get("symptom") == "network.metric.ib_link_downed"]
check(any(e.get("node") == "gpu-node-04" for e in downed), "the address-scraped port's link_downed is evidence on gpu-node-04: %r" % downed)
print("ok: status", result["status"], "| link_downed events on", sorted({e.get("node") for e in downed}))
PY
printf 'timings: backfill+start %.1f s, collect+analyse %.2f s\n' "$(echo "$up - $start" | bc)" "$(echo "$done_at - $up" | bc)"
echo PASS
