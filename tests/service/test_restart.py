"""kill -9 during ingest and attribution loses nothing that was acknowledged.

usage: test_restart.py SERVICE CLI SOURCE_DIR WORK_DIR [DB_URL]
With DB_URL (postgresql://...) the same checks run against that store.
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from service_harness import Service, check, finish  # noqa: E402


def run(service, cli, src, work, db_url=None):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    extra = ["--db", db_url] if db_url else []
    synth = os.path.join(work, "synth")
    subprocess.run([cli, "synth", synth, "--fault", "xid79", "--nodes", "16"], check=True, capture_output=True)
    names = sorted(n for n in os.listdir(synth) if os.path.isfile(os.path.join(synth, n)))
    data = os.path.join(work, "data")
    svc = Service(service, data, *extra).start()
    acked = {}          # session -> files acknowledged
    results = {}        # session -> (run, result bytes)
    stop = threading.Event()

    def writer():
        # Keeps ingesting and attributing until the process dies under it; records what was acknowledged.
        i = 0
        while not stop.is_set():
            try:
                st, s = svc.json("POST", "/v2/sessions", {"workload_id": "w%d" % i})
                if st != 201:
                    return
                sid = s["session_id"]
                for n in names[i % 4::4][:12]:
                    with open(os.path.join(synth, n), "rb") as f:
                        st, _, _ = svc.request("POST", "/v2/sessions/%s/observations?path=%s" % (sid, n), f.read())
                    if st != 201:
                        return
                    acked.setdefault(sid, []).append(n)
                st, _, body = svc.request("POST", "/v2/sessions/%s/attribute" % sid)
                if st == 200:
                    doc = json.loads(body)
                    results[sid] = doc["run"]
                i += 1
            except OSError:
                return

    t = threading.Thread(target=writer)
    t.start()
    time.sleep(3.0)
    svc.kill9()
    stop.set()
    t.join()
    check(len(acked) >= 1, "writer got acknowledgements before kill -9 (%d sessions, %d runs)" % (len(acked), len(results)))

    svc = Service(service, data, *extra).start()
    try:
        lost_files = lost_runs = 0
        for sid, files in acked.items():
            st, s = svc.json("GET", "/v2/sessions/%s" % sid)
            have = {f["path"] for f in s.get("files", [])} if st == 200 else set()
            lost_files += len([n for n in files if n not in have])
        for sid, run in results.items():
            st, r = svc.json("GET", "/v2/sessions/%s/results" % sid)
            runs = [x["run"] for x in r.get("runs", [])] if st == 200 else []
            lost_runs += 0 if run in runs else 1
            st, _, body = svc.request("GET", "/v2/sessions/%s/result?run=%d" % (sid, run))
            lost_runs += 0 if st == 200 and body.startswith(b"{") else 1
        check(lost_files == 0, "no acknowledged file lost after kill -9 (%d files)" % sum(map(len, acked.values())))
        check(lost_runs == 0, "no acknowledged run lost after kill -9 (%d runs)" % len(results))
        # The restarted service carries on with the interrupted session.
        if acked:
            sid = sorted(acked)[-1]
            st, r = svc.json("POST", "/v2/sessions/%s/attribute" % sid)
            check(st == 200 and r["run"] >= 1, "a session interrupted by kill -9 attributes after restart")
        st, h = svc.json("GET", "/v2/healthz")
        check(st == 200 and h["store"] == ("postgresql" if db_url else "sqlite"), "healthz names the store")
        if not db_url:
            # A new SQLite store has 64 KiB pages (store_sqlite.cpp): a bundle's 20 MB of files took ~5x more WAL
            # and checkpoint writes with 4 KiB ones. WAL (for kill -9 above) must still be on.
            db = sqlite3.connect("file:%s?mode=ro" % os.path.join(data, "faultline.db"), uri=True)
            page, mode = db.execute("PRAGMA page_size").fetchone()[0], db.execute("PRAGMA journal_mode").fetchone()[0]
            db.close()
            check(page == 65536 and mode == "wal", "a new SQLite store has 64 KiB pages, WAL (page_size %s, %s)" % (page, mode))
    finally:
        svc.stop()


if __name__ == "__main__":
    service, cli, src, work = sys.argv[1:5]
    run(service, cli, src, work, sys.argv[5] if len(sys.argv) > 5 else None)
    finish()
