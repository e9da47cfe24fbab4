"""faultline-service over HTTP: same verdict as the CLI, sessions, v1, hostile input, token, limits.

usage: test_service.py SERVICE CLI SOURCE_DIR WORK_DIR
"""
import gzip
import http.client
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from service_harness import Service, check, finish, multipart, tar_gz  # noqa: E402

SERVICE, CLI, SRC, WORK = sys.argv[1:5]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)


svc = Service(SERVICE, os.path.join(WORK, "data"), "--max-body-mib", "32", "--max-expanded-mib", "32").start()
try:
    # -- health and contract
    st, h = svc.json("GET", "/v2/healthz")
    check(st == 200 and h["status"] == "ok" and h["rules_digest"].startswith("sha256:"), "healthz answers with rules digest")
    check("analyses_waiting" in h["queue_depth"], "healthz reports queue depth")
    st, doc = svc.json("GET", "/openapi.json")
    check(st == 200 and "/v1/attribution" in doc["paths"] and "/v2/bundles" in doc["paths"], "OpenAPI document served")
    with open(os.path.join(SRC, "docs", "openapi.json")) as f:
        check(json.load(f) == doc, "served OpenAPI equals docs/openapi.json")

    # -- upload a bundle -> byte-identical result to the CLI
    samples = sorted(d for d in os.listdir(os.path.join(SRC, "samples"))
                     if os.path.isdir(os.path.join(SRC, "samples", d)))
    check(len(samples) >= 3, "samples found")
    first_session = None
    for name in samples:
        archive = os.path.join(WORK, name + ".tar.gz")
        with open(archive, "wb") as f:
            f.write(tar_gz(os.path.join(SRC, "samples", name)))
        cli = subprocess.run([CLI, "analyze", archive, "--json", "--no-user-rules"], capture_output=True)
        with open(archive, "rb") as f:
            st, hdrs, body = svc.request("POST", "/v2/bundles", f.read(), {"Content-Type": "application/gzip"})
        check(st == 201, "%s: POST /v2/bundles -> 201 (got %d)" % (name, st))
        sid = json.loads(body)["session_id"]
        first_session = first_session or sid
        st, hdrs, result = svc.request("GET", "/v2/sessions/%s/result" % sid)
        check(st == 200 and result == cli.stdout,
              "%s: service result byte-identical to faultline-cli analyze (%d vs %d bytes)" % (name, len(result), len(cli.stdout)))
        if name == samples[0]:
            # A client that asks first (Expect: 100-continue, as curl does over 1 MiB) gets 100 and the same answer.
            with open(archive, "rb") as f:
                st, _, asked, sent = svc.expect_first("/v2/bundles", f.read())
            check(st == 201 and sent > 0 and svc.request("GET", "/v2/sessions/%s/result" % asked["session_id"])[2] == cli.stdout,
                  "%s: POST with Expect: 100-continue -> 100, then 201 and the same result (%s)" % (name, st))
            st, hdrs, r, sent = svc.expect_first("/v2/bundles", b"\0" * (33 << 20))
            check(st == 413 and sent == 0 and r["error"] == "payload_too_large",
                  "33 MiB announced, --max-body-mib 32, Expect: 100-continue -> 413 before the body is sent (%s)" % st)
        st, hdrs, again = svc.request("GET", "/v2/sessions/%s/result?run=1" % sid)
        check(st == 200 and again == result, "%s: second read (from the result cache) identical" % name)
        st, hdrs, packed = svc.request("GET", "/v2/sessions/%s/result" % sid, headers={"Accept-Encoding": "gzip"})
        if len(result) >= 32768:
            check(st == 200 and hdrs.get("Content-Encoding") == "gzip" and gzip.decompress(packed) == result
                  and len(packed) < len(result) / 3, "%s: gzip on request, same document (%d -> %d bytes)" % (name, len(result), len(packed)))
        else:
            check(st == 200 and "Content-Encoding" not in hdrs and packed == result, "%s: small result sent as is" % name)
        doc = json.loads(result)
        if doc["evidence"]:
            ev = doc["evidence"][0]
            st, lines = svc.json("GET", "/v2/sessions/%s/evidence/%s?context=0" % (sid, ev["id"]))
            marked = [l["text"] for l in lines.get("lines", []) if l["evidence"]]
            check(st == 200 and lines["file"] == ev["raw"]["file"] and lines["line"] == ev["raw"]["line"] and marked,
                  "%s: evidence %s of an uploaded archive read back (%s:%d)" % (name, ev["id"], ev["raw"]["file"], ev["raw"]["line"]))

    # curl --data-binary sends application/x-www-form-urlencoded: an archive must still be read as one
    with open(os.path.join(WORK, samples[0] + ".tar.gz"), "rb") as f:
        st, r = svc.json("POST", "/v2/bundles", f.read(), {"Content-Type": "application/x-www-form-urlencoded"})
    check(st == 201 and "session_id" in r, "bundle sent as application/x-www-form-urlencoded -> 201 (got %d)" % st)

    # -- a session built from raw files, attributed twice as evidence arrives
    sample = os.path.join(SRC, "samples", "xid149-nccl")
    st, s = svc.json("POST", "/v2/sessions", {"workload_id": "job-77", "attempt": 2,
                                              "scope": {"nodes": ["node-01", "node-02"], "start_time": "2026-03-14T09:00:00Z"},
                                              "failure_context": {"detected_at": "2026-03-14T10:05:00Z",
                                                                  "detection_signal": "nccl watchdog"}})
    check(st == 201 and s["session_id"].startswith("s-"), "POST /v2/sessions -> 201 with session_id")
    sid = s["session_id"]
    st, r = svc.json("GET", "/v2/sessions/%s/result" % sid)
    check(st == 404 and r["error"] == "not_found", "no result before the first attribute -> 404 JSON")
    with open(os.path.join(sample, "applog-node-01-rank0.log"), "rb") as f:
        app0 = f.read()
    body, ctype = multipart({"kind": "applog", "node": "node-01", "rank": "0"}, [("file", "rank0.out", app0)])
    st, r = svc.json("POST", "/v2/sessions/%s/observations" % sid, body, {"Content-Type": ctype})
    check(st == 201 and r["files"][0]["rank"] == 0 and r["files"][0]["kind"] == "applog", "multipart ingest with kind/node/rank")
    st, r = svc.json("POST", "/v2/sessions/%s/attribute" % sid)
    check(st == 200 and r["run"] == 1, "first attribute -> run 1")
    first_status = r["result"]["status"]
    with open(os.path.join(sample, "syslog-node-02.log"), "rb") as f:
        st, hdrs, _ = svc.request("POST", "/v2/sessions/%s/observations?path=node-02/messages&kind=syslog&node=node-02" % sid, f.read(),
                                  {"Content-Type": "text/plain"})
    check(st == 201, "raw single-file ingest with ?path=&kind=&node=")
    st, r = svc.json("POST", "/v2/sessions/%s/attribute" % sid)
    check(st == 200 and r["run"] == 2, "attribute again after more ingest -> run 2")
    res2 = r["result"]
    check(res2["status"] == "attributed" and res2["root_cause"]["node"] == "node-02",
          "late syslog evidence moves the verdict to node-02 (first run: %s)" % first_status)
    check(res2["workload"]["id"] == "job-77" and res2["workload"]["attempt"] == 2, "session scope reaches the engine as the manifest")
    st, runs = svc.json("GET", "/v2/sessions/%s/results" % sid)
    check(st == 200 and [x["run"] for x in runs["runs"]] == [1, 2], "GET /results lists every run")
    ev = res2["root_cause"]["evidence"][0]
    st, lines = svc.json("GET", "/v2/sessions/%s/evidence/%s?context=2" % (sid, ev))
    marked = [l for l in lines.get("lines", []) if l["evidence"]]
    excerpt = [e for e in res2["evidence"] if e["id"] == ev][0]["excerpt"]
    check(st == 200 and marked and excerpt.strip()[:40] in marked[0]["text"], "evidence endpoint returns the raw line")
    check(len(lines["lines"]) >= 2, "evidence endpoint returns context lines")
    # -- the trace of the latest run: the analysis again, with the trace on
    st, t = svc.json("GET", "/v2/sessions/%s/trace" % sid)
    steps = t.get("trace", []) if st == 200 else []
    check(st == 200 and t["run"] == 2 and steps, "GET /trace -> the trace of run 2 (got %d)" % st)
    check(any(x["action"] == "chose" and x["phase"] == "outcome" for x in steps) and
          all(set(x) == {"phase", "rule", "action", "events", "detail", "change"} for x in steps),
          "the trace has typed steps, the outcome's choice among them")
    st, _, _ = svc.request("POST", "/v2/sessions/%s/observations?path=late.log&kind=syslog&node=node-03" % sid,
                           b"Mar 14 10:09:00 node-03 kernel: eth0: link up\n", {"Content-Type": "text/plain"})
    st, r = svc.json("GET", "/v2/sessions/%s/trace" % sid)
    check(st == 200 and r["run"] == 2 and r["trace"] == steps,
          "GET /trace after more evidence still explains run 2 from the files it read (got %d)" % st)
    st, r = svc.json("POST", "/v2/sessions/%s/attribute" % sid)
    check(st == 200 and r["run"] == 3, "attribute again -> run 3")
    check(svc.json("GET", "/v2/sessions/%s/trace" % sid)[0] == 200, "then its trace is given")
    st, lst = svc.json("GET", "/v2/sessions?workload_id=job-77&node=node-02&status=attributed")
    check(st == 200 and [x["session_id"] for x in lst["sessions"]] == [sid], "list sessions filtered by workload, node, status")
    st, lst = svc.json("GET", "/v2/sessions?workload_id=job-77&domain=no-such-domain")
    check(st == 200 and lst["sessions"] == [], "domain filter excludes")
    import datetime  # noqa: E402
    iso = lambda dt: dt.strftime("%Y-%m-%dT%H:%M:%SZ")  # noqa: E731
    now = datetime.datetime.now(datetime.timezone.utc)
    hour = datetime.timedelta(hours=1)
    st, lst = svc.json("GET", "/v2/sessions?workload_id=job-77&since=%s&until=%s" % (iso(now - hour), iso(now + hour)))
    check(st == 200 and [x["session_id"] for x in lst["sessions"]] == [sid], "time filter: since/until around now includes it")
    st, lst = svc.json("GET", "/v2/sessions?workload_id=job-77&since=%s" % iso(now + hour))
    check(st == 200 and lst["sessions"] == [], "time filter: since an hour ahead excludes it")
    st, lst = svc.json("GET", "/v2/sessions?workload_id=job-77&until=%s" % iso(now - hour))
    check(st == 200 and lst["sessions"] == [], "time filter: until an hour ago excludes it")

    # -- a run's evidence and trace stay that run's after more evidence and a newer run
    st, s = svc.json("POST", "/v2/sessions", {"workload_id": "runs-1"})
    rsid = s["session_id"]
    with open(os.path.join(sample, "syslog-node-02.log"), "rb") as f:
        syslog2 = f.read()
    st, _, _ = svc.request("POST", "/v2/sessions/%s/observations?path=syslog-node-02.log" % rsid, syslog2)
    st, r1 = svc.json("POST", "/v2/sessions/%s/attribute" % rsid)
    check(st == 200 and r1["run"] == 1 and r1["result"]["evidence"], "runs: run 1 from one syslog")
    st, _, _ = svc.request("POST", "/v2/sessions/%s/observations?path=applog-node-01-rank0.log&kind=applog&node=node-01&rank=0"
                           % rsid, app0)
    st, r2 = svc.json("POST", "/v2/sessions/%s/attribute" % rsid)
    check(st == 200 and r2["run"] == 2 and r2["result"] != r1["result"], "runs: run 2 after more evidence, another result")
    ev1 = r1["result"]["evidence"][-1]
    st, lines = svc.json("GET", "/v2/sessions/%s/evidence/%s?context=0&run=1" % (rsid, ev1["id"]))
    check(st == 200 and lines["run"] == 1 and lines["file"] == ev1["raw"]["file"] and lines["line"] == ev1["raw"]["line"],
          "runs: evidence %s of run 1 read back as run 1 holds it (%d %s)" % (ev1["id"], st, lines.get("detail", "")))
    st, t1 = svc.json("GET", "/v2/sessions/%s/trace?run=1" % rsid)
    st2, t2 = svc.json("GET", "/v2/sessions/%s/trace" % rsid)
    check(st == 200 and t1["run"] == 1 and st2 == 200 and t2["run"] == 2 and t1["trace"] != t2["trace"],
          "runs: GET /trace?run=1 explains run 1, /trace run 2 (%d, %d)" % (st, st2))
    st, r = svc.json("GET", "/v2/sessions/%s/trace?run=9" % rsid)
    check(st == 404 and "run 9" in r["detail"], "runs: trace of a run that does not exist -> 404")
    # The file run 1 read, posted again with other content: neither its lines nor a trace are given as run 1's.
    st, _, _ = svc.request("POST", "/v2/sessions/%s/observations?path=syslog-node-02.log" % rsid,
                           syslog2 + b"Mar 14 10:09:00 node-02 kernel: eth0: link up\n")
    st, r = svc.json("GET", "/v2/sessions/%s/evidence/%s?run=1" % (rsid, ev1["id"]))
    check(st == 409 and r["error"] == "result_changed" and "replaced" in r["detail"],
          "runs: evidence of a file replaced since -> 409 result_changed (%d %s)" % (st, r.get("detail")))
    st, r = svc.json("GET", "/v2/sessions/%s/trace?run=1" % rsid)
    check(st == 409 and r["error"] == "result_changed", "runs: trace of a run whose file was replaced -> 409 (got %d)" % st)

    # -- DELETE /v2/sessions/{id}: the session, its files and every run, also from the result cache
    st, hdrs, cached = svc.request("GET", "/v2/sessions/%s/result?run=1" % rsid)
    check(st == 200, "delete: run 1 read (and cached) before")
    st, r = svc.json("DELETE", "/v2/sessions/%s" % rsid)
    check(st == 200 and r["deleted"] == {"files": 2, "runs": 2}, "delete: 200 with 2 files and 2 runs deleted (%d %s)" % (st, r))
    for path in ["", "/result", "/result?run=1", "/results", "/evidence/%s?run=1" % ev1["id"], "/trace?run=1"]:
        st, r = svc.json("GET", "/v2/sessions/%s%s" % (rsid, path))
        check(st == 404 and r["error"] == "not_found", "delete: GET %s of the deleted session -> 404 (got %d)" % (path or "/", st))
    st, r = svc.json("POST", "/v2/sessions/%s/attribute" % rsid)
    check(st == 404, "delete: attribute a deleted session -> 404")
    st, lst = svc.json("GET", "/v2/sessions?workload_id=runs-1")
    check(st == 200 and lst["sessions"] == [], "delete: no longer listed")
    st, r = svc.json("DELETE", "/v2/sessions/%s" % rsid)
    check(st == 404 and r["error"] == "not_found", "delete: again -> 404")
    st, r = svc.json("DELETE", "/v2/sessions/s-ffffffffffffffff")
    check(st == 404 and r["error"] == "not_found", "delete: unknown session -> 404")
    with open(os.path.join(WORK, "xid149-nccl.tar.gz"), "rb") as f:
        st, b = svc.json("POST", "/v2/bundles", f.read(), {"Content-Type": "application/gzip"})
    nfiles = len(svc.json("GET", "/v2/sessions/%s" % b["session_id"])[1]["files"])
    st, r = svc.json("DELETE", "/v2/sessions/%s" % b["session_id"])
    check(st == 200 and r["deleted"] == {"files": nfiles, "runs": 1} and nfiles > 3,
          "delete: an uploaded bundle's session goes with its %d stored files (%s)" % (nfiles, r))
    check(svc.json("GET", "/v2/sessions/%s/result" % b["session_id"])[0] == 404, "delete: the bundle's result is gone")

    # -- ?reuse=true: the same archive, rules and engine again -> the stored run, byte for byte, no analysis
    synth_small = os.path.join(WORK, "reuse-bundle")
    subprocess.run([CLI, "synth", synth_small, "--fault", "xid79", "--nodes", "4"], check=True, capture_output=True)
    reuse_archive = tar_gz(synth_small)
    st, hdrs, first = svc.request("POST", "/v2/bundles?reuse=true", reuse_archive, {"Content-Type": "application/gzip"})
    first_doc = json.loads(first)
    check(st == 201 and first_doc["reused"] is False, "reuse: a new archive is analysed (201, reused false; got %d)" % st)
    st, hdrs, again = svc.request("POST", "/v2/bundles?reuse=true", reuse_archive, {"Content-Type": "application/gzip"})
    again_doc = json.loads(again)
    check(st == 200 and again_doc["reused"] is True and hdrs.get("X-Faultline-Reused") == "true"
          and again_doc["session_id"] == first_doc["session_id"] and again_doc["run"] == first_doc["run"],
          "reuse: the same archive again -> 200 with the stored session and run (got %d)" % st)
    check(again == first.replace(b'"reused":false', b'"reused":true'), "reuse: the same result document, byte for byte")
    cli = subprocess.run([CLI, "analyze", synth_small, "--json", "--no-user-rules"], capture_output=True)
    st, _, stored = svc.request("GET", "/v2/sessions/%s/result?run=%d" % (again_doc["session_id"], again_doc["run"]))
    check(stored == cli.stdout, "reuse: the reused run is what faultline-cli analyze says of the bundle")
    st, r = svc.json("POST", "/v2/bundles", reuse_archive, {"Content-Type": "application/gzip"})
    check(st == 201 and r["session_id"] != first_doc["session_id"], "reuse: off by default -> a new session, analysed")
    st, r = svc.json("POST", "/v2/bundles?reuse=maybe", reuse_archive, {"Content-Type": "application/gzip"})
    check(st == 400 and "reuse" in r["detail"], "reuse: a value other than true/false -> 400")
    svc.json("DELETE", "/v2/sessions/" + first_doc["session_id"])
    st, r = svc.json("POST", "/v2/bundles?reuse=true", reuse_archive, {"Content-Type": "application/gzip"})
    check(st == 201 and not r["reused"] and r["session_id"] != first_doc["session_id"],
          "reuse: once the session it named is deleted, the archive is analysed again (got %d)" % st)
    st, r2 = svc.json("POST", "/v2/bundles?reuse=true", reuse_archive, {"Content-Type": "application/gzip"})
    check(st == 200 and r2["session_id"] == r["session_id"], "reuse: and that analysis answers next time")

    # -- NVIDIA Recovery v1 request
    v1 = {"schema_version": "1.0", "workload_id": "12345", "phase": "fast",
          "scope": {"nodes": ["node-01"], "ranks": [0, 1], "start_time": "2026-03-14T09:00:00Z", "end_time": None},
          "failure_context": {"detected_at": "2026-03-14T10:05:00+00:00", "detection_signal": "STRAGGLER"},
          "timeout_ms": 30000, "workload_context": {"workflow_id": "wf-1", "attempt_index": 0, "job_end_time": None},
          "continue_session": None, "user_id": "recovery", "trace_flags": {"unknown": True}}
    st, r = svc.json("POST", "/v1/attribution", v1)
    check(st == 200 and r["phase"] == "fast" and r["result"]["status"] == "unattributed",
          "v1 fast on an empty session -> unattributed, unknown fields tolerated")
    v1sid = r["session_id"]
    with open(os.path.join(sample, "syslog-node-02.log")) as f:
        slow = dict(v1, phase="slow", continue_session=v1sid,
                    files=[{"path": "syslog-node-02.log", "content": f.read()}])
    st, r = svc.json("POST", "/v1/attribution", slow)
    check(st == 200 and r["session_id"] == v1sid and r["run"] == 2 and r["status"] != "", "v1 slow continues the session")
    st, r = svc.json("POST", "/v1/attribution", dict(v1, phase="fast", continue_session=v1sid))
    check(st == 200 and r["run"] == 2, "v1 fast with nothing new answers the latest run")
    st, r = svc.json("POST", "/v1/attribution", dict(v1, phase="medium"))
    check(st == 400 and r["error"] == "bad_request" and "phase" in r["detail"], "v1 bad phase -> 400 naming the field")
    st, r = svc.json("POST", "/v1/attribution", dict(v1, continue_session="s-0000000000000000"))
    check(st == 404, "v1 unknown continue_session -> 404")

    # -- hostile bodies: 4xx JSON, never a crash
    hostile = [
        ("POST", "/v2/sessions", b"{not json", 400),
        ("POST", "/v2/sessions", b"[" * 100000 + b"]" * 100000, 400),
        ("POST", "/v2/sessions", b"\"just a string\"", 400),
        ("POST", "/v2/sessions", b"{\"workload_id\": {\"a\": 1}}", 400),
        ("POST", "/v2/sessions", b"{\"scope\": {\"start_time\": \"yesterday\"}}", 400),
        ("POST", "/v2/sessions", b"{\"attempt\": 1e400}", 400),
        ("POST", "/v2/sessions", b"{\"user_id\": \"\xff\xfe\"}", 400),
        ("POST", "/v1/attribution", b"{\"phase\": \"fast\", \"timeout_ms\": -5}", 400),
        ("POST", "/v1/attribution", b"{\"phase\": \"fast\", \"scope\": []}", 400),
        ("POST", "/v2/sessions/%s/observations?path=../../etc/passwd" % sid, b"x", 400),
        ("POST", "/v2/sessions/%s/observations?path=/abs" % sid, b"x", 400),
        ("POST", "/v2/sessions/%s/observations?path=a.log&kind=nonsense" % sid, b"x", 400),
        ("POST", "/v2/sessions/%s/observations?path=a.log&rank=-3" % sid, b"x", 400),
        ("POST", "/v2/sessions/%s/observations" % sid, b"this is not an archive", 400),
        ("POST", "/v2/bundles", b"\x1f\x8b\x08\x00garbage", 400),
        ("POST", "/v2/bundles", b"", 400),
        ("GET", "/v2/sessions?limit=999999", None, 400),
        ("GET", "/v2/sessions?since=not-a-time", None, 400),
        ("GET", "/v2/sessions/s-ffffffffffffffff/result", None, 404),
        ("GET", "/v2/sessions/../../etc/passwd", None, 404),
        ("GET", "/v2/nowhere", None, 404),
        ("POST", "/v2/bundles", b"x" * (33 << 20), 413),
    ]
    for method, path, body, want in hostile:
        st, r = svc.json(method, path, body, {"Content-Type": "application/json"} if path.startswith(("/v2/sessions?", "/v1", "/v2/sessions")) and "observations" not in path else {"Content-Type": "application/octet-stream"})
        ok = st == want and isinstance(r, dict) and "error" in r and "detail" in r
        check(ok, "hostile %s %s -> %d {error, detail} (got %d %s)" % (method, path[:50], want, st, str(r)[:80]))
    check(svc.alive(), "service alive after hostile bodies")
    st, r = svc.json("POST", "/v2/sessions", {})
    csid = r["session_id"]
    st, r = svc.json("POST", "/v2/sessions/%s/observations" % csid, {"files": [{"path": "a", "content": "x"}]})
    st, r = svc.json("POST", "/v2/sessions/%s/observations" % csid, {"files": [{"path": "a/b", "content": "y"}]})
    check(st == 409 and r["error"] == "path_conflict", "a file that would be another file's folder -> 409 at ingest")
    st, r = svc.json("POST", "/v2/sessions/%s/observations" % csid, {"files": [{"path": "workload.json", "content": "{bad"}]})
    st, r = svc.json("POST", "/v2/sessions/%s/attribute" % csid)
    check(st == 422 and r["error"] == "bad_bundle" and "workload.json" in r["detail"] and "/tmp/" not in r["detail"],
          "an invalid uploaded manifest -> 422 naming workload.json, not our temporary folder (%s)" % r.get("detail"))

    # archive members escaping the bundle, and a bomb over --max-expanded-mib
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for name, data in [("../escape.log", b"kernel: NVRM: Xid (PCI:0000:41:00): 79\n"), ("ok/syslog-node-01.log", b"hello\n")]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("ok/link")
        link.type = tarfile.SYMTYPE
        link.linkname = "/etc/passwd"
        t.addfile(link)
    st, r = svc.json("POST", "/v2/sessions/%s/observations" % sid, buf.getvalue(), {"Content-Type": "application/gzip"})
    stored = [f["path"] for f in r.get("files", [])]
    check(st == 201 and any(p.endswith("syslog-node-01.log") for p in stored) and not any(".." in p or "link" in p for p in stored),
          "escaping member and link refused, the rest stored (%s)" % stored)
    check(any("escape" in w for w in r.get("warnings", [])), "refused member named in warnings")
    check(not os.path.exists(os.path.join(WORK, "escape.log")) and not os.path.exists(os.path.join(WORK, "data", "escape.log")),
          "nothing written outside the data folder")
    bomb = io.BytesIO()
    with tarfile.open(fileobj=bomb, mode="w:gz") as t:
        info = tarfile.TarInfo("syslog-node-09.log")
        info.size = 64 << 20
        t.addfile(info, io.BytesIO(b"\0" * info.size))
    check(len(bomb.getvalue()) < (1 << 20), "bomb is small compressed (%d bytes)" % len(bomb.getvalue()))
    st, r = svc.json("POST", "/v2/bundles", bomb.getvalue(), {"Content-Type": "application/gzip"})
    check(st in (201, 400) and svc.alive(), "archive bomb answered (%d) and service alive" % st)
    if st == 201:
        st2, hdrs, res = svc.request("GET", "/v2/sessions/%s/result" % r["session_id"])
        check(b"syslog-node-09.log" in res and b"error" in res, "bomb member reported as refused in the result")

    # deadline: a 16-node synthetic bundle cannot be analysed in 1 ms
    synth = os.path.join(WORK, "synth16")
    subprocess.run([CLI, "synth", synth, "--fault", "xid79", "--nodes", "16"], check=True, capture_output=True)
    st, r = svc.json("POST", "/v2/sessions", {"workload_id": "deadline"})
    dsid = r["session_id"]
    files = [{"path": n, "content": open(os.path.join(synth, n), errors="replace").read()} for n in sorted(os.listdir(synth))
             if os.path.isfile(os.path.join(synth, n))]
    st, r = svc.json("POST", "/v2/sessions/%s/observations" % dsid, {"files": files}, timeout=300)
    check(st == 201 and len(r["files"]) == len(files), "JSON ingest of %d files" % len(files))
    st, r = svc.json("POST", "/v2/sessions/%s/attribute?timeout_ms=1" % dsid)
    check(st == 504 and r["error"] == "deadline_exceeded", "timeout_ms=1 -> 504 deadline_exceeded (got %d)" % st)
    st, r = svc.json("POST", "/v2/sessions/%s/attribute?timeout_ms=120000" % dsid, timeout=300)
    check(st == 200 and r["result"]["root_cause"] is not None, "the same session attributes with a real deadline")
finally:
    svc.stop()

# -- bearer token
token_file = os.path.join(WORK, "token")
with open(token_file, "w") as f:
    f.write("test-token-0123456789abcdef\n")
svc = Service(SERVICE, os.path.join(WORK, "data-token"), "--token-file", token_file).start()
try:
    st, r = svc.json("GET", "/v2/sessions")
    check(st == 401 and r["error"] == "unauthorized", "no token -> 401")
    st, hdrs, r, sent = svc.expect_first("/v2/bundles", b"x" * (2 << 20))
    check(st == 401 and sent == 0 and hdrs.get("connection") == "close" and r["error"] == "unauthorized",
          "no token, Expect: 100-continue -> 401 before the body is sent (%s, %d bytes sent)" % (st, sent))
    st, r = svc.json("GET", "/v2/sessions", headers={"Authorization": "Bearer wrong-token-0123456789abcde"})
    check(st == 401, "wrong token -> 401")
    st, r = svc.json("GET", "/v2/healthz")
    check(st == 200, "healthz needs no token (probes)")
    # Refused before its body is read, an upload must not leave that body on a kept-alive connection to be
    # parsed as the next request (was: the next request on the connection got 400 "malformed HTTP request").
    conn = http.client.HTTPConnection("127.0.0.1", svc.port, timeout=60)
    conn.request("POST", "/v2/bundles", body=b"x" * 65536, headers={"Content-Type": "application/gzip"})
    first = conn.getresponse()
    first.read()
    conn.request("GET", "/v2/healthz")
    second = conn.getresponse()
    second.read()
    conn.close()
    check(first.status == 401 and second.status == 200,
          "the request after a refused upload on the same connection is answered as itself (%d, %d)"
          % (first.status, second.status))
    svc.token = "test-token-0123456789abcdef"
    st, r = svc.json("GET", "/v2/sessions")
    check(st == 200, "right token -> 200")
    st, s = svc.json("POST", "/v2/sessions", {"workload_id": "tok"})
    st, r = svc.json("DELETE", "/v2/sessions/" + s["session_id"], headers={"Authorization": "Bearer wrong-token-0123456789abcde"})
    check(st == 401 and svc.json("GET", "/v2/sessions/" + s["session_id"])[0] == 200, "DELETE with a wrong token -> 401, nothing deleted")
    st, r = svc.json("DELETE", "/v2/sessions/" + s["session_id"])
    check(st == 200, "DELETE with the token -> 200")
finally:
    svc.stop()

# -- overload: one worker, no wait list -> 429s, not a collapse
svc = Service(SERVICE, os.path.join(WORK, "data-load"), "--workers", "1", "--queue", "0").start()
try:
    with open(os.path.join(WORK, "xid149-nccl.tar.gz"), "rb") as f:
        bundle = f.read()
    statuses = []
    lock = threading.Lock()

    def post():
        st, r = svc.json("POST", "/v2/bundles", bundle, {"Content-Type": "application/gzip"})
        with lock:
            statuses.append((st, isinstance(r, dict) and ("session_id" in r or "error" in r)))

    threads = [threading.Thread(target=post) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(s for s, _ in statuses)
    check(all(ok for _, ok in statuses) and set(codes) <= {201, 429} and 201 in codes,
          "8 concurrent analyses on 1 worker: only 201/429 JSON answers (%s)" % codes)
    st, h = svc.json("GET", "/v2/healthz")
    check(st == 200, "healthy after overload (refused %s)" % h["refused"])
    # Each 201 is an analysis that ran and ended; each 429 never took a slot.
    check(h["completed"]["analyses"] == codes.count(201) and h["refused"]["analyses"] == codes.count(429),
          "healthz counts the analyses that ended (%s) and those refused (%s) as the answers say (%s)"
          % (h["completed"], h["refused"], codes))
    # A client that asks first is refused before it sends its upload while the only slot is busy. The slot is
    # held by an analysis of a 64-node bundle, seen running in healthz; if it ends before the question
    # arrives, the service says 100 and the try is repeated.
    big = os.path.join(WORK, "b64")
    subprocess.run([CLI, "synth", big, "--fault", "xid79", "--nodes", "64"], check=True, capture_output=True)
    big_bundle = tar_gz(big)
    early = None
    for attempt in range(10):
        busy = threading.Thread(target=svc.json, args=("POST", "/v2/bundles", big_bundle, {"Content-Type": "application/gzip"}))
        busy.start()
        while busy.is_alive() and svc.json("GET", "/v2/healthz")[1]["queue_depth"]["analyses_running"] == 0:
            pass
        if busy.is_alive():
            st, hdrs, r, sent = svc.expect_first("/v2/bundles", big_bundle)
            if st == 429:
                early = (st, hdrs, r, sent)
        busy.join()
        if early:
            break
    check(early is not None and early[3] == 0 and early[2]["error"] == "overloaded" and early[1].get("connection") == "close",
          "the only slot busy, Expect: 100-continue -> 429 before the upload is sent (%s)" % (early and early[:3:2],))
finally:
    svc.stop()

# -- command line: usage errors exit 2 naming the option; remote listening needs --allow-remote
r = subprocess.run([SERVICE, "--no-such-option"], capture_output=True)
check(r.returncode == 2 and b"--no-such-option" in r.stderr, "unknown option -> exit 2 naming it")
r = subprocess.run([SERVICE, "--version"], capture_output=True)
check(r.returncode == 0 and r.stdout.startswith(b"faultline-service "), "--version")
r = subprocess.run([SERVICE, "--listen", "0.0.0.0:0", "--data", os.path.join(WORK, "data-remote")], capture_output=True)
check(r.returncode == 2 and b"--allow-remote" in r.stderr, "non-loopback listen without --allow-remote refused")
r = subprocess.run([SERVICE, "--data", os.path.join(WORK, "data-env")], capture_output=True, env=dict(os.environ, FAULTLINE_LISTEN="nonsense"))
check(r.returncode == 2 and b"--listen" in r.stderr, "FAULTLINE_LISTEN from the environment is read and checked")

# -- connection backlog: 2 threads and a backlog of 1 held by idle connections -> 503, at once
import socket  # noqa: E402
import time  # noqa: E402
svc = Service(SERVICE, os.path.join(WORK, "data-conn"), "--http-threads", "2", "--backlog", "1").start()
try:
    # Idle connections, one at a time, until two hold the threads and one waits in the backlog; which
    # thread takes a connection is a race on a busy machine, so add idle ones until a request is refused.
    idle, st, took = [], 0, 0.0
    for _ in range(6):
        idle.append(socket.create_connection(("127.0.0.1", svc.port)))
        time.sleep(0.4)
        if len(idle) < 3:
            continue
        t0 = time.time()
        st, r = svc.json("GET", "/v2/sessions", timeout=10)
        took = time.time() - t0
        if st == 503:
            break
    check(st == 503 and r["error"] == "unavailable" and took < 1.0,
          "threads and backlog full -> 503 without waiting for a worker (%d in %.2f s, %d idle connections)"
          % (st, took, len(idle)))
    for s in idle:
        s.close()
    time.sleep(0.5)
    st, r = svc.json("GET", "/v2/healthz", timeout=30)
    check(st == 200 and r["refused"]["connections"] >= 1, "serves again once the idle connections go")
finally:
    svc.stop()

finish()
