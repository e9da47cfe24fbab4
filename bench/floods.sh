#!/usr/bin/env bash
# Storms of one line: does the analysis grow with the lines, or faster? Real incidents print the same
# line thousands of times (AER corrected-error storms, NCCL WARN per retry, a watchdog per collective).
# For each shape, a file of N and of 4N lines, analysed by the release CLI (--json --detail), beside rg
# counting the same lines. A ratio of times near 4 is linear; near 16, quadratic.
#
#   bash bench/floods.sh [N] [CLI]   (default: 25000 lines; the release build's faultline-cli)
#
# The lines follow their upstream message sites: the kernel's AER report (drivers/pci/pcie/aer.c),
# NVIDIA's Xid report (NVRM), NCCL's WARN from transport/net_ib.cc, PyTorch's watchdog timeout
# (ProcessGroupNCCL.cpp); each is matched by a shipped rule.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-25000}"
[[ "$n" =~ ^[0-9]+$ ]] && ((n > 0)) || { echo "bench/floods.sh: N must be a positive number of lines" >&2; exit 2; }
cli="${2:-$root/build/release/app/cli/faultline-cli}"
if [ ! -x "$cli" ]; then
  cmake --preset release -S "$root" -DFAULTLINE_BUILD_GUI=OFF >/dev/null
  nice -n 10 cmake --build --preset release --target faultline-cli | grep -v "^\[" || true
fi
command -v rg >/dev/null || { echo "bench/floods.sh: rg (ripgrep) is the reference and is missing" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

make_flood() { # SHAPE LINES DIR
  python3 - "$1" "$2" "$3" <<'EOF'
import os, sys
shape, n, d = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def clock(i): return f"Mar 14 {9 + i // 3600 % 10:02d}:{i // 60 % 60:02d}:{i % 60:02d}"
shapes = {
    "aer": ("syslog-node-0002.log", lambda i: f"{clock(i)} node-0002 kernel: [2602423.{i % 1000000:06d}] pcieport 0000:00:03.0: AER: Corrected error received: 0000:00:03.0\n"),
    "xid": ("syslog-node-0001.log", lambda i: f"{clock(i)} node-0001 kernel: [2602423.{i % 1000000:06d}] NVRM: Xid (PCI:0000:{i % 8:02x}:00): 79, pid=1234, GPU has fallen off the bus.\n"),
    # one Xid line from each of N hosts, as an aggregated syslog (one file for the whole cluster) holds them
    "xid-hosts": ("syslog-all.log", lambda i: f"{clock(i)} node-{i:05d} kernel: [2602423.{i % 1000000:06d}] NVRM: Xid (PCI:0000:{i % 8:02x}:00): 79, pid=1234, GPU has fallen off the bus.\n"),
    "nccl-warn": ("applog-node-0001-rank0.log", lambda i: "node-0001:30422:30488 [0] transport/net_ib.cc:101 NCCL WARN NET/IB : mlx5_1:1 Got async event : local work queue catastrophic error\n"),
    "watchdog": ("applog-node-0001-rank0.log", lambda i: f"[rank0]:[E314 10:11:53.{i % 1000000000:09d} ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={i}, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600024 milliseconds before timing out.\n"),
}
name, line = shapes[shape]
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, name), "w") as out:
    if shape == "nccl-warn":  # one stamped line first: the untimed WARNs inherit its time
        out.write("[rank0]: [2026-03-14 10:01:10] iteration 1/ 10 | consumed samples: 1 | elapsed time per iteration (ms): 1.0 |\n")
    for i in range(n):
        out.write(line(i))
EOF
}

seconds() { # CMD... -> user+system CPU seconds of one run, output discarded
  /usr/bin/time -f "%U %S" -o "$work/t" "$@" >/dev/null 2>&1 || { echo "bench/floods.sh: failed: $*" >&2; exit 1; }
  awk '{printf "%.2f", $1 + $2}' "$work/t"
}

printf 'load %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %8s %12s %12s %7s %9s %9s\n' shape N "analyze N" "analyze 4N" ratio "rg N" "rg 4N"
for shape in aer xid xid-hosts nccl-warn watchdog; do
  make_flood "$shape" "$n" "$work/$shape-1"
  make_flood "$shape" "$((4 * n))" "$work/$shape-4"
  a1=$(seconds "$cli" analyze "$work/$shape-1" --json --detail)
  a4=$(seconds "$cli" analyze "$work/$shape-4" --json --detail)
  r1=$(seconds rg -c -j1 "kernel|NCCL|rank" "$work/$shape-1")
  r4=$(seconds rg -c -j1 "kernel|NCCL|rank" "$work/$shape-4")
  ratio=$(awk -v a="$a1" -v b="$a4" 'BEGIN {printf "%.1f", (a > 0) ? b / a : 0}')
  printf '%-10s %8s %11ss %11ss %7s %8ss %8ss\n' "$shape" "$n" "$a1" "$a4" "$ratio" "$r1" "$r4"
  rm -rf "$work/$shape-1" "$work/$shape-4"
done
