#!/usr/bin/env python3
"""The service's history (table run_causes, docs/service.md) filled with N results, and GET /v2/history/offenders
timed on it (docs/performance.md, "History: repeat offenders").

usage: service_history.py SERVICE STORE [N] [RUNS]
STORE: a data folder (SQLite, faultline.db in it) or a postgresql:// URL (psql must reach it). N = 100000 results,
the same seeded rows as bench/history_offenders.py; RUNS = 5 timed requests per level. Prints the store's own time
(the answer's elapsed_ms), the request's wall time and the service process's CPU time for it (/proc, 10 ms ticks)."""
import csv
import hashlib
import io
import json
import os
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "service"))
from history_offenders import generate  # noqa: E402
from service_harness import Service  # noqa: E402


def rows(n):
    sessions, causes = [], []
    for i, (at, job, fp, node, gpu, bus) in enumerate(generate(n)):
        sid = "s-%024x" % (i + 1)
        created = int(time.mktime(time.strptime(at, "%Y-%m-%dT%H:%M:%SZ"))) * 1_000_000_000
        status = "unattributed" if fp is None else "attributed"
        sessions.append((sid, job, 1, "", created, "{}", 1, status, fp[0] if fp else "", "," + node + "," if node else ","))
        if fp is not None:
            causes.append((sid, 1, sid + "/1", job, "/".join(fp), node, bus, gpu, at))
    return sessions, causes


def fill_sqlite(db, sessions, causes):
    con = sqlite3.connect(db)
    con.executemany("INSERT INTO sessions (id, workload_id, attempt, user_id, created_ns, request_json, latest_run, status,"
                    " domain, nodes) VALUES (?,?,?,?,?,?,?,?,?,?)", sessions)
    con.executemany("INSERT INTO run_causes (session_id, run, id, workload_id, fingerprint, root_node, root_pci, root_gpu,"
                    " collected_at) VALUES (?,?,?,?,?,?,?,?,?)", causes)
    con.commit()
    con.execute("ANALYZE")
    con.commit()
    con.close()


def fill_postgres(url, sessions, causes):
    for table, cols, data in [("sessions", "id, workload_id, attempt, user_id, created_ns, request_json, latest_run, status,"
                               " domain, nodes", sessions),
                              ("run_causes", "session_id, run, id, workload_id, fingerprint, root_node, root_pci, root_gpu,"
                               " collected_at", causes)]:
        buf = io.StringIO()
        csv.writer(buf, quoting=csv.QUOTE_NONNUMERIC).writerows(data)  # "" is an empty text, not NULL
        subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", "COPY %s (%s) FROM STDIN WITH (FORMAT csv)" % (table, cols)],
                       input=buf.getvalue().encode(), check=True)
    # What autovacuum does soon after a bulk load: statistics, and the visibility map an index-only scan needs.
    subprocess.run(["psql", "-q", url, "-c", "VACUUM ANALYZE run_causes"], check=True)


def cpu_ms(pid):
    """User + system CPU of a process so far, in ms (/proc/PID/stat, clock ticks)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def server_cpu_ms():
    """CPU of every PostgreSQL server process so far (ms): the backends answer the queries, not the service."""
    total = 0.0
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if not f.read().startswith(b"postgres"):
                    continue
            total += cpu_ms(int(pid))
        except (OSError, ValueError):
            pass
    return total


def main():
    service, store = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 100000
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    pg = store.startswith("postgres")
    data = store if not pg else "/tmp/service-history-bench-%d" % os.getpid()
    os.makedirs(data, exist_ok=True)
    args = ["--db", store] if pg else []
    Service(service, data, *args).start().stop()  # the schema
    sessions, causes = rows(n)
    (fill_postgres(store, sessions, causes) if pg else fill_sqlite(os.path.join(data, "faultline.db"), sessions, causes))
    print("%s: %d results, %d with a root cause" % (store, len(sessions), len(causes)))
    t0 = time.perf_counter()
    svc = Service(service, data, *args).start()  # counts the loaded rows into the history's summary
    print("service start on the loaded store: %.0f ms wall" % ((time.perf_counter() - t0) * 1000))
    try:
        for level in ("gpu", "node"):
            for _ in range(runs):
                c0, s0, t0 = cpu_ms(svc.proc.pid), server_cpu_ms() if pg else 0, time.perf_counter()
                st, doc = svc.json("GET", "/v2/history/offenders?level=" + level)
                wall = (time.perf_counter() - t0) * 1000
                cpu = cpu_ms(svc.proc.pid) - c0
                server = server_cpu_ms() - s0 if pg else 0
                assert st == 200, (st, doc)
                if _ == 0:  # the same answer before and after a change to the queries
                    print("level=%s answer sha256 %s" % (level, hashlib.sha256(json.dumps(doc["offenders"], sort_keys=True).encode()).hexdigest()[:16]))
                top = doc["offenders"][0]
                print("level=%s: %d offenders (top: %s %s %s, %d jobs); store %.1f ms wall, request %.1f ms wall,"
                      " service CPU %.0f ms%s" % (level, len(doc["offenders"]), top["node"], top["pci_bus"], top["fingerprint"],
                                                  top["jobs"], doc["elapsed_ms"], wall, cpu,
                                                  ", server CPU %.0f ms" % server if pg else ""))
    finally:
        svc.stop()


if __name__ == "__main__":
    main()
