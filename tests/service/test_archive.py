"""An uploaded archive is stored once, not as its expanded members (Store::putArchive), and
everything that reads the members gets them back from it: evidence lines (also after kill -9 and
a restart), attribution again after more ingest, the trace, a member replaced by a raw file,
a second archive over the first, DELETE.

usage: test_archive.py SERVICE CLI SOURCE_DIR WORK_DIR [DB_URL]
With DB_URL (postgresql://...) the same checks run against that store (test_postgres.py).
"""
import gzip
import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from service_harness import Service, check, finish  # noqa: E402


def tar_gz_tree(folder, prefix="./"):
    """Every file under `folder`, named as `tar czf x.tar.gz -C folder .` names them ("./a/b")."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for dirpath, _, names in sorted(os.walk(folder)):
            for n in sorted(names):
                full = os.path.join(dirpath, n)
                t.add(full, arcname=prefix + os.path.relpath(full, folder))
    return buf.getvalue()


def stored_bytes(data, sid):
    """(bytes in files.content, [archive sizes]) of a session in the SQLite store, read-only."""
    db = sqlite3.connect("file:%s?mode=ro" % os.path.join(data, "faultline.db"), uri=True)
    try:
        inline = db.execute("SELECT COALESCE(SUM(length(content)), 0) FROM files WHERE session_id = ?", (sid,)).fetchone()[0]
        has = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'archives'").fetchone()
        archives = [r[0] for r in db.execute("SELECT length(content) FROM archives WHERE session_id = ? ORDER BY archive",
                                             (sid,))] if has else []
    finally:
        db.close()
    return inline, archives


def lines_of(path, first, last):
    with (gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")) as f:
        text = f.read().decode("utf-8", errors="replace").split("\n")
    return [t.rstrip("\r") for t in text[first - 1:last]]


def evidence_matches(svc, sid, run, ev, folder, what):
    """The evidence endpoint's lines are the file's own lines around the evidence line."""
    st, doc = svc.json("GET", "/v2/sessions/%s/evidence/%s?context=2&run=%d" % (sid, ev["id"], run))
    if not check(st == 200, "%s: evidence %s -> 200 (got %d %s)" % (what, ev["id"], st, doc if st != 200 else "")):
        return None
    got = [l["text"] for l in doc["lines"]]
    want = lines_of(os.path.join(folder, doc["file"]), doc["lines"][0]["line"], doc["lines"][-1]["line"])
    check(got == want and doc["lines"][0]["line"] == max(1, ev["raw"]["line"] - 2) and any(l["evidence"] for l in doc["lines"]),
          "%s: evidence %s gives %s lines %d..%d as they are in the bundle" %
          (what, ev["id"], doc["file"], doc["lines"][0]["line"], doc["lines"][-1]["line"]))
    return doc


def run(service, cli, src, work, db_url=None):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    extra = ["--db", db_url] if db_url else []
    tag = "postgresql" if db_url else "sqlite"
    bundle = os.path.join(work, "b16")
    subprocess.run([cli, "synth", bundle, "--fault", "xid79", "--nodes", "16"], check=True, capture_output=True)
    members = {}
    for dirpath, _, names in os.walk(bundle):
        for n in names:
            full = os.path.join(dirpath, n)
            members[os.path.relpath(full, bundle)] = os.path.getsize(full)
    archive = tar_gz_tree(bundle)
    data = os.path.join(work, "data")
    if not db_url:
        # --scratch: uploads expanded in a folder of the process's own under it; one a killed process left goes.
        scratch = os.path.join(work, "scratch")
        os.makedirs(os.path.join(scratch, "faultline-service.999999999", "faultline-leftover"))
        extra = ["--scratch", scratch]
    svc = Service(service, data, *extra).start()
    try:
        if not db_url:
            own = os.path.join(scratch, "faultline-service.%d" % svc.proc.pid)
            check(sorted(os.listdir(scratch)) == [os.path.basename(own)],
                  "--scratch: the service's own folder is made, a dead process's is removed (%s)" % os.listdir(scratch))
        st, b = svc.json("POST", "/v2/bundles", archive, {"Content-Type": "application/gzip"})
        if not check(st == 201 and b["result"]["evidence"], "%s: POST /v2/bundles of a 16-node bundle -> 201 with evidence (got %d)" % (tag, st)):
            return
        sid, r1 = b["session_id"], b["result"]
        st, s = svc.json("GET", "/v2/sessions/" + sid)
        listed = {f["path"]: f["bytes"] for f in s.get("files", [])}
        check(st == 200 and listed == members,
              "%s: the session lists every member with its size (%d files, %d expected)" % (tag, len(listed), len(members)))
        if not db_url:
            inline, archives = stored_bytes(data, sid)
            check(inline == 0 and archives == [len(archive)],
                  "%s: the archive is stored once (%s bytes), not its %d expanded bytes (%d stored inline)" %
                  (tag, archives, sum(members.values()), inline))
        first = r1["evidence"][0]
        last = r1["evidence"][-1]
        evidence_matches(svc, sid, 1, first, bundle, tag + ": archive-stored session")
        if not db_url:
            check(os.listdir(own) == [], "--scratch: nothing is left in it after an analysis and an evidence read (%s)" % os.listdir(own))

        # kill -9 once the upload was acknowledged: the archive, its members and the run are all there after restart.
        svc.kill9()
        svc = Service(service, data, *extra).start()
        st, s = svc.json("GET", "/v2/sessions/" + sid)
        check(st == 200 and {f["path"]: f["bytes"] for f in s.get("files", [])} == members,
              "%s: after kill -9 and a restart the session still lists every member" % tag)
        evidence_matches(svc, sid, 1, first, bundle, tag + ": after kill -9 + restart")
        evidence_matches(svc, sid, 1, last, bundle, tag + ": after kill -9 + restart (last evidence)")
        st, t = svc.json("GET", "/v2/sessions/%s/trace?run=1" % sid)
        check(st == 200 and t["run"] == 1 and t["trace"], "%s: trace of the archive-stored run 1 (got %d %s)" %
              (tag, st, t.get("detail", "") if isinstance(t, dict) else t))

        # Attribution again, from the stored archive: the same verdict as the upload's.
        st, r2 = svc.json("POST", "/v2/sessions/%s/attribute" % sid)
        check(st == 200 and r2["run"] == 2, "%s: attribute again after restart -> run 2 (got %d)" % (tag, st))
        if st == 200:
            same = all(r2["result"].get(k) == r1.get(k) for k in ("status", "domain", "root_cause", "affected_nodes"))
            check(same and len(r2["result"]["evidence"]) == len(r1["evidence"]),
                  "%s: run 2 from the stored archive gives run 1's verdict (%s %s)" % (tag, r2["result"].get("status"), r2["result"].get("domain")))

        # More ingest: one member replaced by a raw file, one new file; run 3 reads both, the rest from the archive.
        ev_file = first["raw"]["file"]
        with open(os.path.join(bundle, ev_file), "rb") as f:
            replaced = f.read() + b"Mar 14 10:59:59 extra kernel: a line posted later\n"
        st, _, _ = svc.request("POST", "/v2/sessions/%s/observations?path=%s" % (sid, ev_file), replaced)
        check(st == 201, "%s: a member of the archive replaced by a raw file (%d)" % (tag, st))
        st, _, _ = svc.request("POST", "/v2/sessions/%s/observations?path=late/notes.log" % sid, b"a new file\n")
        check(st == 201, "%s: a new raw file beside the archive's (%d)" % (tag, st))
        st, r3 = svc.json("POST", "/v2/sessions/%s/attribute" % sid)
        read = {c["file"]: c.get("bytes") for c in r3["result"].get("connector_reports", [])} if st == 200 else {}
        check(st == 200 and r3["run"] == 3 and read.get(ev_file) == len(replaced) and "late/notes.log" in read
              and len(read) == len(members) + 1,
              "%s: run 3 after more ingest reads the replaced file, the new one and the archive's others (%d files)" % (tag, len(read)))
        st, e = svc.json("GET", "/v2/sessions/%s/evidence/%s?run=1" % (sid, first["id"]))
        check(st == 409 and e["error"] == "result_changed",
              "%s: run 1's evidence in the replaced member -> 409 result_changed (got %d)" % (tag, st))
        other = [e for e in r1["evidence"] if e["raw"]["file"] != ev_file]
        if other:
            evidence_matches(svc, sid, 1, other[0], bundle, tag + ": run 1's evidence in a member not replaced")
        if not db_url:
            inline, archives = stored_bytes(data, sid)
            check(inline == len(replaced) + len(b"a new file\n") and archives == [len(archive)],
                  "%s: only the raw files are stored inline beside the archive (%d bytes, archives %s)" % (tag, inline, archives))

        # The same archive again into the session: its members point at the new copy and the first one goes.
        st, _, _ = svc.request("POST", "/v2/sessions/%s/observations" % sid, archive, {"Content-Type": "application/gzip"})
        check(st == 201, "%s: the archive again as observations (%d)" % (tag, st))
        st, r4 = svc.json("POST", "/v2/sessions/%s/attribute" % sid)
        read = {c["file"]: c.get("bytes") for c in r4["result"].get("connector_reports", [])} if st == 200 else {}
        check(st == 200 and read.get(ev_file) == members[ev_file] and "late/notes.log" in read,
              "%s: run 4 reads the member from the second archive again, the raw file stays" % tag)
        if st == 200:
            ev4 = [e for e in r4["result"]["evidence"] if e["raw"]["file"] == ev_file]
            if check(bool(ev4), "%s: run 4 has evidence in %s again" % (tag, ev_file)):
                evidence_matches(svc, sid, 4, ev4[0], bundle, tag + ": evidence from the second archive")
        if not db_url:
            inline, archives = stored_bytes(data, sid)
            check(archives == [len(archive)] and inline == len(b"a new file\n"),
                  "%s: the first archive, no longer referred to, is gone (archives %s, %d bytes inline)" % (tag, archives, inline))

        st, d = svc.json("DELETE", "/v2/sessions/" + sid)
        check(st == 200 and d["deleted"] == {"files": len(members) + 1, "runs": 4},
              "%s: DELETE counts the archive's members as files (%d %s)" % (tag, st, d))
        if not db_url:
            check(stored_bytes(data, sid) == (0, []), "%s: DELETE removes the stored archive" % tag)
            own = os.path.join(scratch, "faultline-service.%d" % svc.proc.pid)
            check(os.listdir(own) == [], "--scratch: nothing is left in it after attribution from the archive (%s)" % os.listdir(own))
    finally:
        svc.stop()
    if not db_url:
        check(os.listdir(scratch) == [], "--scratch: the service's folder goes when it stops (%s)" % os.listdir(scratch))


def odd_names(service, src, work, db_url=None):
    """Evidence read from archives whose names the loader changes: a top folder every member shares
    (dropped), a member given twice (the last wins), a rotated log compressed inside the archive (expanded)."""
    extra = ["--db", db_url] if db_url else []
    tag = "postgresql" if db_url else "sqlite"
    sample = os.path.join(src, "samples", "xid149-nccl")
    folder = os.path.join(work, "odd")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for n in os.listdir(sample):
        with open(os.path.join(sample, n), "rb") as f:
            data = f.read()
        if n == "syslog-node-02.log":  # the verdict's evidence, now only inside a compressed member
            with gzip.open(os.path.join(folder, n + ".1.gz"), "wb") as g:
                g.write(data)
        else:
            with open(os.path.join(folder, n), "wb") as f:
                f.write(data)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for n in sorted(os.listdir(folder)):
            if n.startswith("applog-"):  # an earlier copy with other bytes, replaced by the one after it
                stale = b"stale copy\n" * 3
                info = tarfile.TarInfo("xid149/" + n)
                info.size = len(stale)
                t.addfile(info, io.BytesIO(stale))
            t.add(os.path.join(folder, n), arcname="xid149/" + n)
    svc = Service(service, os.path.join(work, "odd-data"), *extra).start()
    try:
        st, b = svc.json("POST", "/v2/bundles", buf.getvalue(), {"Content-Type": "application/gzip"})
        if not check(st == 201, "%s: odd names: POST /v2/bundles -> 201 (got %d)" % (tag, st)):
            return
        sid, ev = b["session_id"], b["result"]["evidence"]
        files = {e["raw"]["file"] for e in ev}
        check(any(f.endswith(".gz") for f in files) and any(f.startswith("applog-") for f in files),
              "%s: odd names: evidence in the compressed member and in a member given twice (%s)" % (tag, sorted(files)))
        for f in sorted(files):
            first = [e for e in ev if e["raw"]["file"] == f][0]
            evidence_matches(svc, sid, 1, first, folder, tag + ": odd names (top folder dropped, %s)" % f)
        # Attribution again lays the session out from the stored archive: the member given twice is its
        # last copy there too, so run 2 has run 1's evidence.
        st, r2 = svc.json("POST", "/v2/sessions/%s/attribute" % sid)
        if check(st == 200 and r2["run"] == 2, "%s: odd names: attribute again -> run 2 (got %d)" % (tag, st)):
            again = sorted((e["raw"]["file"], e["raw"]["line"]) for e in r2["result"]["evidence"])
            check(again == sorted((e["raw"]["file"], e["raw"]["line"]) for e in ev),
                  "%s: odd names: run 2 from the stored archive has run 1's evidence (%d vs %d items)" % (tag, len(again), len(ev)))
    finally:
        svc.stop()


# The SQLite schema before archives were stored whole (store_schema.h until then), to check that a data
# dir made by that version opens, keeps working, and takes archives afterwards (the new tables are added).
OLD_SCHEMA = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, workload_id TEXT NOT NULL, attempt INTEGER NOT NULL, user_id TEXT NOT NULL,
  created_ns INTEGER NOT NULL, request_json TEXT NOT NULL, latest_run INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL, domain TEXT NOT NULL DEFAULT '', nodes TEXT NOT NULL DEFAULT '');
CREATE INDEX sessions_created ON sessions(created_ns);
CREATE INDEX sessions_workload ON sessions(workload_id);
CREATE TABLE files (session_id TEXT NOT NULL REFERENCES sessions(id), path TEXT NOT NULL, kind TEXT NOT NULL,
  node TEXT NOT NULL, rank INTEGER NOT NULL, size INTEGER NOT NULL, added_ns INTEGER NOT NULL,
  content BLOB NOT NULL, PRIMARY KEY (session_id, path));
CREATE TABLE runs (session_id TEXT NOT NULL REFERENCES sessions(id), run INTEGER NOT NULL, created_ns INTEGER NOT NULL,
  phase TEXT NOT NULL, status TEXT NOT NULL, domain TEXT NOT NULL, nodes TEXT NOT NULL,
  elapsed_ms REAL NOT NULL, result_json TEXT NOT NULL, PRIMARY KEY (session_id, run));
CREATE TABLE bundle_runs (input_digest TEXT PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions(id), run INTEGER NOT NULL);
CREATE INDEX bundle_runs_session ON bundle_runs(session_id);
"""


def old_store(service, src, work):
    data = os.path.join(work, "old-data")
    shutil.rmtree(data, ignore_errors=True)
    os.makedirs(data)
    log = os.path.join(src, "samples", "xid149-nccl", "syslog-node-02.log")
    with open(log, "rb") as f:
        content = f.read()
    db = sqlite3.connect(os.path.join(data, "faultline.db"))
    db.executescript("PRAGMA journal_mode=WAL;" + OLD_SCHEMA)
    db.execute("INSERT INTO sessions (id, workload_id, attempt, user_id, created_ns, request_json, status) VALUES "
               "('s-0000000000000000000000a1', 'old-1', -1, '', 1, '{\"failure_context\":{},\"scope\":{},\"workload_context\":{}}', 'open')")
    db.execute("INSERT INTO files VALUES ('s-0000000000000000000000a1', 'syslog-node-02.log', '', '', -1, ?, 1, ?)", (len(content), content))
    db.commit()
    db.close()
    svc = Service(service, data).start()
    try:
        st, r = svc.json("POST", "/v2/sessions/s-0000000000000000000000a1/attribute")
        check(st == 200 and r["run"] == 1 and r["result"]["evidence"],
              "old store: a session stored before archives attributes (got %d)" % st)
        if st != 200:
            return
        ev = r["result"]["evidence"][0]
        evidence_matches(svc, "s-0000000000000000000000a1", 1, ev, os.path.dirname(log), "old store: a file stored inline")
        st, b = svc.json("POST", "/v2/sessions/s-0000000000000000000000a1/observations", tar_gz_tree(os.path.join(src, "samples", "xid149-nccl"), ""),
                         {"Content-Type": "application/gzip"})
        check(st == 201, "old store: an archive into the old session (the archive tables were added) (got %d)" % st)
        inline, archives = stored_bytes(data, "s-0000000000000000000000a1")
        check(len(archives) == 1 and inline == 0,
              "old store: its files now come from the archive (%d bytes inline, archives %s)" % (inline, archives))
        st, r2 = svc.json("POST", "/v2/sessions/s-0000000000000000000000a1/attribute")
        check(st == 200 and r2["run"] == 2, "old store: attribute after the archive -> run 2 (got %d)" % st)
    finally:
        svc.stop()


if __name__ == "__main__":
    service, cli, src, work = sys.argv[1:5]
    run(service, cli, src, work, sys.argv[5] if len(sys.argv) > 5 else None)
    odd_names(service, src, work, sys.argv[5] if len(sys.argv) > 5 else None)
    if len(sys.argv) <= 5:
        old_store(service, src, work)
    finish()
