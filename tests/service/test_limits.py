"""faultline-service's retention, per-client rate limit and --help, against the real service.

- --retain-days: a session idle for longer is deleted with its files and runs (also from the result
  cache), a younger one is kept.
- --rate-limit: a client over its rate gets 429 + Retry-After (integer seconds) and JSON {error, detail};
  another client is not slowed; health probes are never limited; after Retry-After it may go on.
- --help names every option with its environment variable, and docs/service.md documents each.

usage: test_limits.py SERVICE CLI SOURCE_DIR WORK_DIR
"""
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from service_harness import Service, check, finish, tar_gz  # noqa: E402

SERVICE, CLI, SRC, WORK = sys.argv[1:5]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)


# -- --help: complete, and every option documented
helptext = subprocess.run([SERVICE, "--help"], capture_output=True, text=True, timeout=30).stdout
options = sorted(set(re.findall(r"^\s+(--[a-z][a-z-]+)", helptext, re.M)) - {"--help"})
for opt in ("--listen", "--data", "--token-file", "--db", "--workers", "--queue", "--timeout-ms", "--max-body-mib",
            "--retain-days", "--rate-limit", "--rate-burst", "--trust-forwarded-for", "--allow-remote", "--version"):
    check(opt in options, "--help lists " + opt)
for env in ("FAULTLINE_RETAIN_DAYS", "FAULTLINE_RATE_LIMIT", "FAULTLINE_RATE_BURST", "FAULTLINE_LISTEN"):
    check(env in helptext, "--help names the environment variable " + env)
with open(os.path.join(SRC, "docs", "service.md"), encoding="utf-8") as f:
    doc = f.read()
for opt in options:
    check("`" + opt in doc, "docs/service.md documents " + opt)

# -- deploy/: the systemd unit and the Kubernetes manifests use only options and variables the binary has
# (no cluster here: this is what can be checked without one), and probe a route the service serves.
deploy = {}
for rel in ("deploy/faultline-service.service", "deploy/kubernetes/faultline-service.yaml", "deploy/Containerfile"):
    with open(os.path.join(SRC, rel), encoding="utf-8") as f:
        deploy[rel] = f.read()
for rel, text in deploy.items():
    used = set(re.findall(r'(?<![\w-])(--[a-z][a-z-]+)', "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))))
    if rel.endswith("Containerfile"):
        used = set()  # its options are apt-get's and useradd's; its ENV lines are checked below
    for opt in sorted(used):
        check(opt in options, "%s: option %s exists in --help" % (rel, opt))
    for env in sorted(set(re.findall(r"\bFAULTLINE_[A-Z_]+", text)) - {"FAULTLINE_RULES_DIR"}):
        check(env in helptext, "%s: environment variable %s is one --help names" % (rel, env))
k8s = deploy["deploy/kubernetes/faultline-service.yaml"]
for kind in ("Deployment", "Service", "HorizontalPodAutoscaler"):
    check(re.search(r"^kind: %s$" % kind, k8s, re.M) is not None, "kubernetes: a %s" % kind)
check(re.search(r"scaleTargetRef: \{apiVersion: apps/v1, kind: Deployment, name: faultline-service\}", k8s) is not None
      and re.search(r"^  name: faultline-service$", k8s, re.M) is not None, "kubernetes: the autoscaler targets the Deployment")
# Readiness follows the store (a pod whose database is unreachable is taken out of the Service), liveness only
# the process (a database outage must not restart every pod).
probes = dict(re.findall(r"(readinessProbe|livenessProbe):\s*\n\s*httpGet: \{path: (/[^,]+),", k8s))
check(probes == {"readinessProbe": "/v2/readyz", "livenessProbe": "/v2/healthz"},
      "kubernetes: readiness probe /v2/readyz, liveness probe /v2/healthz (%s)" % probes)

# -- retention: 0.0001 days = 8.64 s, checked every second
KEEP_S = 8.64
data = os.path.join(WORK, "retain")
svc = Service(SERVICE, data, "--retain-days", "0.0001").start()
try:
    bundle = tar_gz(os.path.join(SRC, "samples", "xid149-nccl"))
    st, r = svc.json("POST", "/v2/bundles", bundle, {"Content-Type": "application/gzip"})
    check(st == 201, "retention: a bundle analysed (got %d)" % st)
    old = r["session_id"]
    t_old = time.time()
    st, _ = svc.json("GET", "/v2/sessions/%s/result?run=1" % old)
    check(st == 200, "retention: its result is served (and cached)")
    time.sleep(4.5)
    st, young = svc.json("POST", "/v2/sessions", {"workload_id": "young"})
    check(st == 201, "retention: a second, younger session")
    young = young["session_id"]
    t_young = time.time()
    gone_at = None
    while time.time() - t_old < KEEP_S + 8:
        st, _ = svc.json("GET", "/v2/sessions/" + old)
        if st == 404:
            gone_at = time.time()
            break
        time.sleep(0.2)
    check(gone_at is not None and gone_at - t_old >= KEEP_S - 0.5,
          "retention: the idle session is deleted after the retention period (%.1f s)"
          % ((gone_at or time.time()) - t_old))
    st, _ = svc.json("GET", "/v2/sessions/%s/result?run=1" % old)
    check(st == 404, "retention: its result is no longer served, not even from memory (got %d)" % st)
    st, _ = svc.json("GET", "/v2/sessions/" + young)
    check(st == 200 or time.time() - t_young >= KEEP_S - 0.5, "retention: the younger session is kept")
    db = sqlite3.connect(os.path.join(data, "faultline.db"))
    left = [db.execute("SELECT count(*) FROM %s WHERE %s = ?" % (table, col), (old,)).fetchone()[0]
            for table, col in (("files", "session_id"), ("runs", "session_id"), ("sessions", "id"))]
    db.close()
    check(left == [0, 0, 0], "retention: its files, runs and row are gone from the store (left %s)" % left)
    check(svc.alive(), "retention: the service is still up")
finally:
    svc.stop()
with open(data + ".log", encoding="utf-8", errors="replace") as f:
    check("retention: deleted 1 session idle for more than 0.0001 days" in f.read(), "retention: the deletion is logged")

# -- rate limit: 2 requests/s, bursts of 3, per client (behind a proxy: X-Forwarded-For)
svc = Service(SERVICE, os.path.join(WORK, "rate"), "--rate-limit", "2", "--rate-burst", "3",
              "--trust-forwarded-for").start()
try:
    a = {"X-Forwarded-For": "198.51.100.7, 10.0.0.1"}
    b = {"X-Forwarded-For": "10.0.0.2"}
    codes = [svc.request("GET", "/v2/sessions", headers=a)[0] for _ in range(3)]
    check(codes == [200, 200, 200], "rate: a burst of 3 is served (%s)" % codes)
    st, hdrs, body = svc.request("GET", "/v2/sessions", headers=a)
    retry = hdrs.get("Retry-After", "")
    check(st == 429, "rate: the 4th request at once gets 429 (got %d)" % st)
    check(retry.isdigit() and int(retry) >= 1, "rate: with Retry-After in whole seconds (%r)" % retry)
    check(b'"error":"rate_limited"' in body and b"requests/s" in body, "rate: and a JSON {error, detail}: %r" % body[:160])
    check(svc.request("GET", "/v2/sessions", headers=b)[0] == 200, "rate: another client is not slowed")
    check(all(svc.request("GET", "/v2/healthz", headers=a)[0] == 200 for _ in range(10)), "rate: health probes are exempt")
    st, h = svc.json("GET", "/v2/healthz")
    check(st == 200 and h["refused"]["rate_limited"] >= 1, "rate: healthz counts the refusals")
    time.sleep(int(retry or "1") + 0.1)
    check(svc.request("GET", "/v2/sessions", headers=a)[0] == 200, "rate: after Retry-After the client goes on")
    # Asking first (Expect: 100-continue): the question is only looked at, the request charged once; over the
    # rate, the answer comes before the body is sent.
    c = {"X-Forwarded-For": "10.0.0.3", "Content-Type": "application/json"}
    asked = [svc.expect_first("/v2/sessions", b'{"workload_id": "asks-first"}', c) for _ in range(4)]
    check([q[0] for q in asked[:3]] == [201] * 3 and all(q[3] > 0 for q in asked[:3]),
          "rate: a burst of 3 that asks first is served, each charged once (%s)" % [q[0] for q in asked])
    check(asked[3][0] == 429 and asked[3][3] == 0 and asked[3][2]["error"] == "rate_limited"
          and asked[3][1].get("retry-after", "").isdigit(),
          "rate: the 4th, asking first, gets 429 with Retry-After before its body is sent (%s)" % (asked[3][:3:2],))
    check(svc.alive(), "rate: the service is still up")
finally:
    svc.stop()

finish()
