#!/bin/bash
# collect --service against the real faultline-service on a free loopback port:
# the bundle goes up as a .tar.gz to POST /v2/bundles, the service's verdict
# must equal the local one for the same bundle, and --history keeps both.
# Usage: service_e2e.sh FAULTLINE_CLI FAULTLINE_SERVICE SAMPLE_DIR
set -euo pipefail
CLI=${1:?}; SERVICE=${2:?}; SAMPLE=${3:?}
T=$(mktemp -d /tmp/faultline-collect-svc-XXXXXX)
PID=
cleanup() {
    [ -n "$PID" ] && { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; }
    rm -rf "$T"
}
trap cleanup EXIT
"$SERVICE" --listen 127.0.0.1:0 --data "$T/data" > "$T/service.log" 2>&1 &
PID=$!
for _ in $(seq 100); do grep -q 'listening on' "$T/service.log" && break; sleep 0.1; done
URL=$(grep -o 'http://127.0.0.1:[0-9]*' "$T/service.log" | head -1)
[ -n "$URL" ] || { echo "FAIL: service did not start"; cat "$T/service.log"; exit 1; }

# The sample's logs laid out per node, as they would be on a shared file system.
for f in "$SAMPLE"/*.log; do
    b=$(basename "$f" .log); node=$(echo "$b" | grep -o 'node-[0-9]*')
    mkdir -p "$T/logs/$node"; cp "$f" "$T/logs/$node/$b.log"
done
args=(--nodes 'node-0[1-4]' --from 2026-03-14T09:55:00Z --to 2026-03-14T10:15:00Z --workload-id svc-e2e
      --files "$T/logs/{node}/*.log" --no-journal --no-user-rules --quiet --json --history "$T/history.db")
"$CLI" collect "${args[@]}" --out "$T/local" > "$T/local.json"
"$CLI" collect "${args[@]}" --out "$T/remote" --service "$URL" > "$T/remote.json"
# Text: the service's verdict as the typed result reader reads it.
textArgs=(); for a in "${args[@]}"; do [ "$a" = --json ] || textArgs+=("$a"); done
"$CLI" collect "${textArgs[@]}" --out "$T/remote-text" --service "$URL" > "$T/remote.txt"
python3 - "$T/local.json" "$T/remote.json" "$T/history.db" "$T/remote.txt" <<'PY'
import json, sys, sqlite3
local, remote = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
text = open(sys.argv[4]).read().splitlines()
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
check(remote["session_id"], "session id")
r = remote["result"]
for key in ("status", "domain", "sub_domain", "summary"):
    check(r[key] == local[key], "%s: service %r, local %r" % (key, r[key], local[key]))
check(any(c["file"] == "collect:files/node-02" for c in r["connector_reports"]), "collect reports added to the service's result")
check(text[0].startswith("session ") and text[1] == "status %s, domain %s" % (local["status"], local["domain"])
      and text[2] == local["summary"], "text answer %r" % text[:3])
rows = sqlite3.connect(sys.argv[3]).execute("select workload_id, status, fingerprint from results").fetchall()
check(len(rows) == 3 and rows[0] == rows[1] == rows[2] and rows[0][0] == "svc-e2e", "history rows %r" % rows)
print("ok:", r["status"], r["domain"], "| session", remote["session_id"])
PY
echo PASS
