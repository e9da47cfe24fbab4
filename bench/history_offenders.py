#!/usr/bin/env python3
"""A history database of N results (collect --history's table `results`, docs/collector.md) for timing
`faultline-cli history --db DB offenders` (docs/performance.md, "History: repeat offenders").

usage: history_offenders.py DB [N]   (N = 100000). Seeded: the same N gives the same rows.
The fleet: 1,250 nodes x 8 GPUs, 20 fingerprints; most results are one-off causes on a random GPU, 2 % are
50 bad GPUs that fail again and again (the offenders the query must find), 30 % have no root cause.
bench/service_history.py fills the service's store with the same rows (generate())."""
import random
import sqlite3
import sys

BUSES = ["0000:18:00", "0000:2a:00", "0000:3a:00", "0000:5d:00", "0000:9a:00", "0000:ab:00", "0000:ba:00", "0000:db:00"]


def generate(n):
    """(collected_at, job, fingerprint parts or None, node, gpu, bus) for N results, seeded."""
    rng = random.Random(46)
    prints = [("gpu", "gpu_lost", "gpu.xid.%d" % x) for x in (79, 48, 64, 119, 94, 95, 149, 13)] + \
             [("network", "ib_link", "network.ib.port_error"), ("host", "oom", "host.oom_kill")] + \
             [("workload", "exception", "workload.exc.%d" % i) for i in range(10)]
    bad = [(rng.randrange(1250), rng.randrange(8), rng.choice(prints)) for _ in range(50)]
    for i in range(n):
        day = i * 365 // n
        at = "2026-%02d-%02dT%02d:%02d:00Z" % (1 + day // 31 % 12, 1 + day % 28, rng.randrange(24), rng.randrange(60))
        job = "slurm-%d" % (100000 + i)
        r = rng.random()
        if r < 0.30:
            yield at, job, None, None, None, None
            continue
        node, gpu, fp = bad[rng.randrange(50)] if r < 0.32 else (rng.randrange(1250), rng.randrange(8), rng.choice(prints))
        yield at, job, fp, "node-%04d" % (node + 1), gpu, BUSES[gpu]


def main():
    db, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100000
    con = sqlite3.connect(db)
    con.executescript("""
PRAGMA journal_mode=WAL;
CREATE TABLE IF NOT EXISTS results (id INTEGER PRIMARY KEY, collected_at TEXT NOT NULL, scheduler TEXT,
 workload_id TEXT, attempt INTEGER, status TEXT NOT NULL, outcome TEXT, domain TEXT, sub_domain TEXT,
 root_symptom TEXT, root_node TEXT, root_gpu INTEGER, root_pci TEXT, root_rank INTEGER, root_time TEXT,
 fingerprint TEXT, summary TEXT, bundle TEXT, result_json TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS results_workload ON results(workload_id, attempt);
CREATE INDEX IF NOT EXISTS results_fingerprint ON results(fingerprint, root_node);
CREATE INDEX IF NOT EXISTS results_offender_rows ON results (fingerprint, root_node, root_pci, root_gpu, workload_id, collected_at, id);
""")
    rows = []
    for at, job, fp, node, gpu, bus in generate(n):
        if fp is None:
            rows.append((at, "slurm", job, 1, "unattributed", "failed", "unknown", None, None, None, None, None, None, None, "{}"))
        else:
            rows.append((at, "slurm", job, 1, "attributed", "failed", fp[0], fp[1], fp[2], node, gpu, bus, gpu, "/".join(fp), "{}"))
    con.executemany("INSERT INTO results (collected_at, scheduler, workload_id, attempt, status, outcome, domain, sub_domain,"
                    " root_symptom, root_node, root_gpu, root_pci, root_rank, fingerprint, result_json)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    con.commit()
    con.execute("ANALYZE")
    con.commit()
    print("%s: %d results" % (db, n))


if __name__ == "__main__":
    main()
