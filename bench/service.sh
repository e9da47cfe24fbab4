#!/usr/bin/env bash
# faultline-service load benchmark, loopback only and bounded in time (about 7 x SECONDS).
# wrk (Debian) drives the real service started on a free loopback port in a temporary folder:
#   1. reference: GET /v2/healthz (the HTTP stack's floor, same run)
#   2. reading a stored result: GET /v2/sessions/{id}/result
#   3. analysing a ~20 MB 64-node bundle (synth --nodes 64 --iterations 10): POST /v2/bundles at capacity,
#      beside `faultline-cli analyze` of the same archive (reference: the engine without HTTP and store);
#      then the same archive with ?reuse=true (answered from the store, no analysis)
#   4. the same at 4x overload (4 x (workers + queue) connections): status counts (201 vs 429/503),
#      and GET /v2/healthz latency measured alongside by curl; then from clients that send
#      "Expect: 100-continue" (bench/expect_load.py), which are refused before their upload is sent.
# Prints p50/p99/throughput from wrk --latency; figures go into docs/performance.md.
#
#   bash bench/service.sh [--build DIR] [--seconds N] [--workers N] [--scratch DIR|none] [--rest N]
# --rest: seconds idle before each analysis phase (default 30). On the 2-core VM this was measured on, 40 s of
# full load left the next analyses at 0.14 s CPU each instead of 0.085 s (12.8 instead of 21.1/s); after 30 s
# idle they were back at 0.085 s (docs/performance.md, "Keeping freed memory"). The analysis figures should
# describe the service, not what the phase before left of the host. 0: no rest. The rest does not make a slow
# host fast: on a later machine the host's speed swung by up to 2x within an hour, rest or not; read the
# analysis figures beside the CLI reference of the same run ("Typed relation keys; jemalloc tried").
# --scratch: where the service expands uploads (its --scratch); default a folder on /dev/shm when that is a tmpfs,
# as docs/service.md recommends; "none": the service's default ($TMPDIR or /tmp, --data/tmp).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build/release" secs=10 workers=$(nproc) scratch= rest=30
[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && scratch=/dev/shm/faultline-bench-$$
while (($#)); do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --seconds) secs="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --scratch) scratch="$2"; [ "$scratch" = none ] && scratch=; shift 2 ;;
    --rest) rest="$2"; shift 2 ;;
    *) echo "bench/service.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { echo "bench/service.sh: wrk is needed: apt-get install wrk" >&2; exit 2; }
if [ "$build" = "$root/build/release" ]; then
  cmake --preset release -S "$root" -DFAULTLINE_BUILD_GUI=OFF >/dev/null
  cmake --build "$build" --target faultline-service faultline-cli | grep -v "^\[" || true
fi
svc="$build/app/service/faultline-service" cli="$build/app/cli/faultline-cli"
[ -x "$svc" ] && [ -x "$cli" ] || { echo "bench/service.sh: $svc or $cli missing" >&2; exit 1; }

work=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$work"
  case "$scratch" in /dev/shm/faultline-bench-*) rm -rf "$scratch" ;; esac
}
trap cleanup EXIT
lua="$root/bench/service-status.lua"

"$cli" synth "$work/b64" --fault xid79 --nodes 64 --iterations 10 >/dev/null
tar czf "$work/b64.tar.gz" -C "$work/b64" .
queue=$((2 * workers))
"$svc" --listen 127.0.0.1:0 --data "$work/data" --workers "$workers" --queue "$queue" ${scratch:+--scratch "$scratch"} \
  >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 100); do grep -q listening "$work/out" 2>/dev/null && break; sleep 0.1; done
port=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$work/out")
[ -n "$port" ] || { cat "$work/err"; exit 1; }
base="http://127.0.0.1:$port"
sid=$(curl -sf --data-binary @"$work/b64.tar.gz" "$base/v2/bundles" | sed -n 's/.*"session_id":"\([^"]*\)".*/\1/p')
[ -n "$sid" ] || { echo "bench/service.sh: the first analysis failed" >&2; cat "$work/err"; exit 1; }
result_bytes=$(curl -sf "$base/v2/sessions/$sid/result" | wc -c)
tar czf "$work/small.tar.gz" -C "$root/samples/xid149-nccl" .
small=$(curl -sf --data-binary @"$work/small.tar.gz" "$base/v2/bundles" | sed -n 's/.*"session_id":"\([^"]*\)".*/\1/p')
small_bytes=$(curl -sf "$base/v2/sessions/$small/result" | wc -c)

summary() { # label wrk-output-file
  awk -v label="$1" '
    /Latency Distribution/ {d=1}
    d && $1=="50%" {p50=$2} d && $1=="99%" {p99=$2}
    /Requests\/sec/ {rps=$2}
    /^status / {codes=codes " " $2 ":" $3}
    /^socket_errors/ {errs=$0}
    END {printf "%-34s p50 %8s  p99 %8s  %9s req/s  statuses%s  %s\n", label, p50, p99, rps, codes, errs}' "$2"
}

echo "faultline-service $("$svc" --version | awk '{print $2}'), $(nproc) cores, load average $(cut -d" " -f1-3 /proc/loadavg)"
echo "bundle: $(du -sb "$work/b64" | cut -f1) bytes in $(ls "$work/b64" | wc -l) files, 64 nodes; archive $(stat -c %s "$work/b64.tar.gz") bytes; result $result_bytes bytes"
echo "small result: samples/xid149-nccl, $small_bytes bytes"
echo "workers $workers, queue $queue, $secs s per run, $rest s idle before each analysis phase, scratch ${scratch:-none (service default: \$TMPDIR or /tmp)}"
wrk -t2 -c8 -d"${secs}s" --latency -s "$lua" "$base/v2/healthz" >"$work/w1"
summary "reference GET /v2/healthz c=8" "$work/w1"
wrk -t2 -c8 -d"${secs}s" --latency -s "$lua" "$base/v2/sessions/$small/result" >"$work/w2"
summary "GET result (sample) c=8" "$work/w2"
wrk -t2 -c8 -d"${secs}s" --latency -s "$lua" "$base/v2/sessions/$sid/result" >"$work/w2b"
summary "GET result (64-node) c=8" "$work/w2b"
wrk -t2 -c8 -d"${secs}s" --latency -H "Accept-Encoding: gzip" -s "$lua" "$base/v2/sessions/$sid/result" >"$work/w2c"
summary "GET result (64-node) gzip c=8" "$work/w2c"
for i in 1 2 3; do
  /usr/bin/env time -f "%e %U %S" "$cli" analyze "$work/b64.tar.gz" --no-user-rules -o /dev/null 2>>"$work/cli-times" >/dev/null
done
sort -n "$work/cli-times" | awk 'NR==2 {printf "%-34s median %.2fs wall, %.2fs CPU (of 3 runs, same archive, one process each)\n", "reference faultline-cli analyze", $1, $2 + $3}'
cpu_ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
# Analyses that ended (healthz completed.analyses), after waiting for the service to go idle: the ones wrk
# left unanswered at its deadline still run to their end, and their CPU is in the ticks, so they are counted.
analyses_done() {
  local h
  for _ in $(seq 600); do
    h=$(curl -sf "$base/v2/healthz") || { sleep 0.1; continue; }
    if [[ $h == *'"analyses_running":0'* && $h == *'"analyses_waiting":0'* ]]; then
      sed -E 's/.*"completed":\{"analyses":([0-9]+)\}.*/\1/' <<<"$h"
      return
    fi
    sleep 0.1
  done
  echo "service never went idle" >&2; exit 1
}
n0=$(analyses_done)
sleep "$rest"
t0=$(cpu_ticks)
wrk -t1 -c"$workers" -d"${secs}s" --timeout 60s --latency -s "$lua" "$base/v2/bundles" -- "$work/b64.tar.gz" application/gzip >"$work/w3"
n1=$(analyses_done)
t1=$(cpu_ticks)
summary "POST /v2/bundles c=$workers" "$work/w3"
awk -v d=$((t1 - t0)) -v n=$((n1 - n0)) -v hz="$(getconf CLK_TCK)" '/^status 201/ {a=$3} END {if (n) printf "%-34s %.2fs CPU per analysis in the service (%d analyses ended, %d answered 201)\n", "", d / hz / n, n, a}' "$work/w3"
# The same archive again with ?reuse=true: answered from the store (its SHA-256 names the earlier run), no analysis.
t0=$(cpu_ticks)
wrk -t2 -c8 -d"${secs}s" --timeout 60s --latency -s "$lua" "$base/v2/bundles?reuse=true" -- "$work/b64.tar.gz" application/gzip >"$work/w3r"
t1=$(cpu_ticks)
summary "POST /v2/bundles?reuse=true c=8" "$work/w3r"
awk -v d=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" '/^status 200/ {n=$3} END {if (n) printf "%-34s %.4fs CPU per reused answer in the service (%d answers)\n", "", d / hz / n, n}' "$work/w3r"
over=$((4 * (workers + queue)))
sleep "$rest"
( for _ in $(seq $((secs * 4))); do curl -s -o /dev/null -w '%{time_total}\n' "$base/v2/healthz"; sleep 0.25; done ) >"$work/probe" &
probe=$!
wrk -t2 -c"$over" -d"${secs}s" --timeout 60s --latency -s "$lua" "$base/v2/bundles" -- "$work/b64.tar.gz" application/gzip >"$work/w4"
wait "$probe"
summary "POST /v2/bundles 4x overload c=$over" "$work/w4"
sort -n "$work/probe" | awk '{v[NR]=$1} END {printf "%-34s p50 %7.1fms  p99 %7.1fms  (%d probes)\n", "  healthz during overload", v[int(NR*0.5)+1]*1000, v[int(NR*0.99)+1]*1000, NR}'
# The same overload from clients that ask first (Expect: 100-continue, as curl sends over 1 MiB): a refusal comes
# before the upload is sent. wrk cannot ask first; bench/expect_load.py does (Python, one thread per connection).
t0=$(cpu_ticks)
python3 "$root/bench/expect_load.py" "$base" "$work/b64.tar.gz" "$over" "$secs" | sed "s/^/  Expect: 100-continue c=$over: /"
t1=$(cpu_ticks)
echo "  Expect: 100-continue c=$over: service CPU $(awk -v d=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.1f", d / hz}') s in ${secs} s"
curl -sf "$base/v2/healthz"; echo
kill -0 "$pid" && echo "service alive after overload"
