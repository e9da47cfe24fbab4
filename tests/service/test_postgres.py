"""The same store on a REAL PostgreSQL server: initdb + pg_ctl on a free loopback port in a
temporary folder (as the postgres user: initdb refuses root), then the session flow, two
replicas sharing it, and kill -9 + restart.

usage: test_postgres.py SERVICE CLI SOURCE_DIR WORK_DIR
"""
import glob
import atexit, os, tempfile
import shutil
import socket
import subprocess
import time
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from service_harness import Service, check, finish, tar_gz_files  # noqa: E402
import test_restart  # noqa: E402
import test_archive  # noqa: E402
import test_history  # noqa: E402

SERVICE, CLI, SRC, WORK = sys.argv[1:5]
bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
if not bins:
    print("FAIL PostgreSQL server not installed (Debian package 'postgresql', see scripts/debian-packages.txt)")
    sys.exit(1)
pgbin = os.path.dirname(bins[-1])
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
# The cluster lives under /tmp, not in the build tree: the postgres user must be able to reach
# its folder, and a checkout under a 0700 folder (mktemp -d) is closed to it.
pgdir = tempfile.mkdtemp(prefix="faultline-pg-")
atexit.register(shutil.rmtree, pgdir, True)
as_pg = []
if os.geteuid() == 0:
    shutil.chown(WORK, "postgres")
    shutil.chown(pgdir, "postgres")
    as_pg = ["runuser", "-u", "postgres", "--"]
s = socket.socket()
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
s.close()
subprocess.run(as_pg + [pgbin + "/initdb", "-D", pgdir + "/data", "-A", "trust", "-U", "faultline"], check=True,
               capture_output=True)


def pg_ctl(*args):
    start = ["-l", pgdir + "/log", "-o", "-p %d -k %s -c listen_addresses=127.0.0.1" % (port, pgdir)] if "start" in args else []
    subprocess.run(as_pg + [pgbin + "/pg_ctl", "-D", pgdir + "/data", "-w"] + start + list(args), check=True,
                   capture_output=True)


pg_ctl("start")
url = "postgresql://faultline@127.0.0.1:%d/postgres" % port
try:
    work = os.path.join(WORK, "svc")
    os.makedirs(work)
    a = Service(SERVICE, os.path.join(work, "a"), "--db", url).start()
    b = Service(SERVICE, os.path.join(work, "b"), "--db", url).start()
    try:
        st, h = a.json("GET", "/v2/healthz")
        check(st == 200 and h["store"] == "postgresql", "service runs on PostgreSQL")
        st, s = a.json("POST", "/v2/sessions", {"workload_id": "pg-1", "scope": {"nodes": ["node-02"]}})
        sid = s["session_id"]
        with open(os.path.join(SRC, "samples", "xid149-nccl", "syslog-node-02.log"), "rb") as f:
            st, _, _ = a.request("POST", "/v2/sessions/%s/observations?path=syslog-node-02.log" % sid, f.read())
        check(st == 201, "ingest on replica A")
        st, r = b.json("POST", "/v2/sessions/%s/attribute" % sid)
        check(st == 200 and r["run"] == 1, "replica B attributes the session replica A filled")
        st, r2 = a.json("POST", "/v2/sessions/%s/attribute" % sid)
        check(st == 200 and r2["run"] == 2 and r2["result"] == r["result"], "replica A appends run 2 with the same result")
        st, lst = b.json("GET", "/v2/sessions?workload_id=pg-1")
        check(st == 200 and len(lst["sessions"]) == 1 and lst["sessions"][0]["latest_run"] == 2, "list on B sees A's run")
        ev = r["result"]["evidence"][0]["id"]
        st, lines = b.json("GET", "/v2/sessions/%s/evidence/%s" % (sid, ev))
        check(st == 200 and any(l["evidence"] for l in lines["lines"]), "evidence lines read back from PostgreSQL (bytea)")
        st, t = b.json("GET", "/v2/sessions/%s/trace?run=1" % sid)
        check(st == 200 and t["run"] == 1 and t["trace"], "trace of run 1 on PostgreSQL (got %d)" % st)
        # DELETE on replica A: gone on replica B too, also the run B had read into its result cache.
        st, d = a.json("POST", "/v2/sessions", {"workload_id": "pg-del"})
        did = d["session_id"]
        st, _, _ = a.request("POST", "/v2/sessions/%s/observations?path=syslog-node-02.log" % did, b"Mar 14 10:00:00 node-02 kernel: hello\n")
        st, _ = b.json("POST", "/v2/sessions/%s/attribute" % did)
        check(b.request("GET", "/v2/sessions/%s/result?run=1" % did)[0] == 200, "delete on PostgreSQL: replica B read run 1")
        st, r = a.json("DELETE", "/v2/sessions/" + did)
        check(st == 200 and r["deleted"] == {"files": 1, "runs": 1}, "DELETE on replica A removes its file and run (%d %s)" % (st, r))
        check(b.json("GET", "/v2/sessions/%s/result?run=1" % did)[0] == 404, "replica B no longer serves the deleted run from memory")
        check(b.json("GET", "/v2/sessions?workload_id=pg-del")[1]["sessions"] == [], "replica B no longer lists it")
        check(b.json("DELETE", "/v2/sessions/" + did)[0] == 404, "DELETE again on replica B -> 404")
        check(b.json("GET", "/v2/sessions/" + sid)[0] == 200, "the other session stays")
        # ?reuse=true across replicas: B answers an archive A analysed from the shared store.
        with open(os.path.join(SRC, "samples", "xid149-nccl", "syslog-node-02.log"), "rb") as f:
            one = tar_gz_files({"syslog-node-02.log": f.read()})
        st, ra = a.json("POST", "/v2/bundles?reuse=true", one, {"Content-Type": "application/gzip"})
        st2, rb = b.json("POST", "/v2/bundles?reuse=true", one, {"Content-Type": "application/gzip"})
        check(st == 201 and st2 == 200 and rb["reused"] and rb["session_id"] == ra["session_id"] and rb["result"] == ra["result"],
              "reuse on PostgreSQL: replica B answers with replica A's run (%d, %d)" % (st, st2))
        check(a.json("DELETE", "/v2/sessions/" + ra["session_id"])[1]["deleted"]["runs"] == 1, "reuse: its session deletes")
    finally:
        a.stop()
        b.stop()
    # Retention on PostgreSQL (0.00003 days = 2.6 s): the session pg-1 above, its files and runs go.
    c = Service(SERVICE, os.path.join(work, "c"), "--db", url, "--retain-days", "0.00003").start()
    try:
        deadline = time.time() + 15
        while time.time() < deadline and c.json("GET", "/v2/sessions/" + sid)[0] != 404:
            time.sleep(0.3)
        check(c.json("GET", "/v2/sessions/" + sid)[0] == 404, "retention deletes an idle session on PostgreSQL")
        st, lst = c.json("GET", "/v2/sessions?workload_id=pg-1")
        check(st == 200 and lst["sessions"] == [], "retention: the session is no longer listed")
        check(c.alive(), "retention: the replica is still up")
    finally:
        c.stop()
    # Readiness follows the store, liveness does not: PostgreSQL stopped and started again under a running replica.
    d = Service(SERVICE, os.path.join(work, "d"), "--db", url).start()
    try:
        st, r = d.json("GET", "/v2/readyz")
        check(st == 200 and r["status"] == "ready" and r["store"] == "postgresql", "readyz -> 200 while PostgreSQL is up (%d)" % st)
        pg_ctl("-m", "fast", "stop")
        t0 = time.time()
        st, r = d.json("GET", "/v2/readyz")
        check(st == 503 and r["error"] == "store_unavailable" and time.time() - t0 < 5,
              "readyz -> 503 store_unavailable at once while PostgreSQL is down (%d %s)" % (st, r))
        st, r = d.json("GET", "/v2/readyz")
        check(st == 503 and "connect" in r["detail"], "and again, naming the failed connection (%s)" % r.get("detail"))
        st, r = d.json("GET", "/v2/healthz")
        check(st == 200, "healthz (liveness) stays 200: the process itself is fine (%d)" % st)
        pg_ctl("start")
        st, r = d.json("GET", "/v2/readyz")
        check(st == 200, "readyz -> 200 again once PostgreSQL is back, without a restart (%d %s)" % (st, r))
        st, s2 = d.json("POST", "/v2/sessions", {"workload_id": "after-outage"})
        check(st == 201, "and the replica stores again (%d)" % st)
    finally:
        d.stop()
    # Before the tests below leave results of their own in the shared database.
    test_history.run(SERVICE, CLI, SRC, os.path.join(WORK, "history"), url)
    test_restart.run(SERVICE, CLI, SRC, os.path.join(WORK, "restart"), url)
    test_archive.run(SERVICE, CLI, SRC, os.path.join(WORK, "archive"), url)
    test_archive.odd_names(SERVICE, SRC, os.path.join(WORK, "archive"), url)
finally:
    subprocess.run(as_pg + [pgbin + "/pg_ctl", "-D", pgdir + "/data", "-m", "immediate", "-w", "stop"], capture_output=True)
finish()
