"""Issue #46 over HTTP: a failed attempt analysed against a healthy one (?baseline=SESSION on POST /v2/bundles and
POST .../attribute), repeat offenders (GET /v2/history/offenders) and "seen before?" (GET .../history), with the
same queries on SQLite and PostgreSQL.

usage: test_history.py SERVICE CLI SOURCE_DIR WORK_DIR [DB_URL]
With DB_URL (postgresql://...) the same checks run against that store (test_postgres.py).
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from service_harness import Service, check, finish, tar_gz_files  # noqa: E402
from test_archive import tar_gz_tree  # noqa: E402

GZ = {"Content-Type": "application/gzip"}


def xid_bundle(job, node, pci, xid=79, hour=10):
    """One node's syslog whose only failure is an Xid on GPU `pci`, as job `job`."""
    syslog = ("Dec  7 %02d:00:01 %s systemd[1]: Started Session 12 of user train.\n"
              "Dec  7 %02d:05:00 %s kernel: [1200.445102] NVRM: Xid (PCI:%s): %d, pid='<unknown>', name=<unknown>, "
              "GPU has fallen off the bus.\n" % (hour, node, hour, node, pci, xid))
    manifest = {"workload_id": job, "attempt": 1, "nodes": [node]}
    return tar_gz_files({"syslog-%s.log" % node: syslog.encode(), "workload.json": json.dumps(manifest).encode()})


def marks(result):
    """symptom -> status of the baseline's family marks."""
    return {m["symptom"]: m["status"] for m in result["baseline"]["families"]}


def baseline_checks(svc, cli, src):
    pair = os.path.join(src, "samples", "baseline-pair")
    st, h = svc.json("POST", "/v2/bundles", tar_gz_tree(os.path.join(pair, "healthy")), GZ)
    check(st == 201 and "baseline" not in h["result"], "the healthy attempt uploaded as a bundle (%d)" % st)
    hid = h["session_id"]
    failed_tgz = tar_gz_tree(os.path.join(pair, "failed"))
    st, f = svc.json("POST", "/v2/bundles?baseline=" + hid, failed_tgz, GZ)
    check(st == 201 and f.get("baseline_session") == hid and "baseline" in f["result"],
          "POST /v2/bundles?baseline=SESSION -> 201 with result.baseline (%d)" % st)
    if st != 201:
        return
    want = json.loads(subprocess.run([cli, "analyze", os.path.join(pair, "failed"), "--baseline", os.path.join(pair, "healthy"),
                                      "--json"], check=True, capture_output=True).stdout)
    check(f["result"]["baseline"] == want["baseline"],
          "the service's baseline object equals faultline-cli analyze --baseline's")
    m = marks(f["result"])
    check(m.get("gpu.xid.79") == "new", "the Xid 79 is new (%s)" % m.get("gpu.xid.79"))
    also = [s for s, v in m.items() if v == "also_in_baseline"]
    check(len(also) >= 3, "the benign noise is also_in_baseline (%s)" % also)
    # The same against a session filled by observations and attributed.
    st, s = svc.json("POST", "/v2/sessions", {"workload_id": "slurm-722324"})
    sid = s["session_id"]
    st, _, _ = svc.request("POST", "/v2/sessions/%s/observations" % sid, failed_tgz, GZ)
    st, a = svc.json("POST", "/v2/sessions/%s/attribute?baseline=%s" % (sid, hid))
    check(st == 200 and a["result"]["baseline"] == f["result"]["baseline"],
          "POST .../attribute?baseline=SESSION gives the same comparison (%d)" % st)
    st, stored = svc.json("GET", "/v2/sessions/%s/result" % sid)
    check(st == 200 and stored == a["result"], "GET .../result serves the run with its baseline")
    st, plain = svc.json("POST", "/v2/sessions/%s/attribute" % sid)
    check(st == 200 and "baseline" not in plain["result"], "attribute without baseline: no baseline key")
    # Refusals.
    check(svc.json("POST", "/v2/sessions/%s/attribute?baseline=nope" % sid)[0] == 400, "baseline=nope -> 400")
    st, e = svc.json("POST", "/v2/sessions/%s/attribute?baseline=s-00000000" % sid)
    check(st == 404 and "baseline" in e["detail"], "an unknown baseline session -> 404 naming it (%d)" % st)
    check(svc.json("POST", "/v2/sessions/%s/attribute?baseline=%s" % (sid, sid))[0] == 400, "a session against itself -> 400")
    check(svc.json("POST", "/v2/bundles?reuse=true&baseline=" + hid, failed_tgz, GZ)[0] == 400,
          "reuse=true with a baseline -> 400")


def history_checks(svc):
    # Three jobs whose root cause is one GPU (node-07, PCI 0000:91:00); noise around it: the same cause on another
    # node, another cause on that GPU, one job twice on another GPU, one line with no cause at all.
    ids = {}
    for job, node, pci, xid in [("hist-1", "node-07", "0000:91:00", 79), ("hist-2", "node-07", "0000:91:00", 79),
                                ("hist-3", "node-07", "0000:91:00", 79), ("hist-4", "node-08", "0000:91:00", 79),
                                ("hist-5", "node-07", "0000:91:00", 48), ("hist-6", "node-09", "0000:1b:00", 79),
                                ("hist-6", "node-09", "0000:1b:00", 79)]:
        st, r = svc.json("POST", "/v2/bundles", xid_bundle(job, node, pci, xid), GZ)
        check(st == 201 and r["result"]["status"] != "unattributed", "history: %s on %s %s analysed (%d)" % (job, node, pci, st))
        ids.setdefault(job, []).append(r["session_id"])
    st, quiet = svc.json("POST", "/v2/bundles", tar_gz_files({"syslog-node-07.log": b"Dec  7 10:00:01 node-07 systemd[1]: ok\n"}), GZ)
    st, o = svc.json("GET", "/v2/history/offenders")
    offs = o.get("offenders", [])
    check(st == 200 and len(offs) == 1, "one repeat offender at GPU level (%d %s)" % (st, [(x["node"], x["pci_bus"], x["jobs"]) for x in offs]))
    if offs:
        x = offs[0]
        check(x["node"] == "node-07" and x["pci_bus"] == "0000:91:00" and x["jobs"] == 3 and x["results"] == 3,
              "it is node-07's GPU at 0000:91:00 in 3 jobs (%s)" % {k: x[k] for k in ("node", "pci_bus", "gpu", "jobs", "results")})
        check(x["fingerprint"].endswith("/gpu.xid.79"), "its fingerprint is the Xid 79 (%s)" % x["fingerprint"])
        jobs = sorted(r["workload_id"] for r in x["rows"])
        check(jobs == ["hist-1", "hist-2", "hist-3"], "its rows are the three jobs (%s)" % jobs)
        check(x["first"] <= x["last"] and x["first"].endswith("Z"), "with first and last dates (%s .. %s)" % (x["first"], x["last"]))
        r0 = x["rows"][0]
        st, doc = svc.json("GET", r0["result_url"])
        check(st == 200 and doc["workload"]["id"] == r0["workload_id"], "a row's result_url opens that result (%d)" % st)
    st, byNode = svc.json("GET", "/v2/history/offenders?level=node")
    check(st == 200 and [(x["node"], x["jobs"]) for x in byNode["offenders"]] == [("node-07", 3)] and byNode["offenders"][0]["pci_bus"] is None,
          "at node level node-07 offends in 3 jobs (%s)" % [(x["node"], x["jobs"]) for x in byNode.get("offenders", [])])
    check(svc.json("GET", "/v2/history/offenders?min_jobs=4")[1]["offenders"] == [], "min_jobs=4: none")
    check(svc.json("GET", "/v2/history/offenders?level=rack")[0] == 400, "level=rack -> 400")
    # Seen before? for the third job: the two others at the same GPU.
    sid3 = ids["hist-3"][0]
    st, seen = svc.json("GET", "/v2/sessions/%s/history" % sid3)
    levels = {s["level"]: s for s in seen.get("seen", [])}
    check(st == 200 and seen["node"] == "node-07" and seen["pci_bus"] == "0000:91:00", "seen before? names the run's place (%d)" % st)
    check(levels.get("gpu", {}).get("jobs") == 2 and sorted(r["workload_id"] for r in levels["gpu"]["rows"]) == ["hist-1", "hist-2"],
          "seen before at this GPU: the two other jobs (%s)" % levels.get("gpu"))
    check(all(r["session_id"] != sid3 for r in levels.get("gpu", {}).get("rows", [])), "the run itself is not listed")
    check("places" not in seen, "without places=true no places are listed")
    # The causes at the run's nodes (the workbench's History tab for a service session): node-07's two causes at
    # its GPU, most jobs first, none of node-08's or node-09's.
    st, at = svc.json("GET", "/v2/sessions/%s/history?places=true" % sid3)
    got = [(p["node"], p["pci_bus"], p["fingerprint"].rsplit("/", 1)[-1], p["jobs"]) for p in at.get("places", [])]
    check(st == 200 and at.get("nodes") == 1 and got == [("node-07", "0000:91:00", "gpu.xid.79", 3), ("node-07", "0000:91:00", "gpu.xid.48", 1)],
          "places=true: the causes at the run's node (%d %s)" % (st, got))
    check(at.get("seen") == seen["seen"], "places=true answers seen before? the same")
    check(svc.json("GET", "/v2/sessions/%s/history?places=maybe" % sid3)[0] == 400, "places=maybe -> 400")
    st, none = svc.json("GET", "/v2/sessions/%s/history" % quiet["session_id"])
    check(st == 200 and none["fingerprint"] is None and none["node"] is None and none["seen"] == [], "a result with no root cause: seen nowhere (%s)" % none)
    # A deleted session leaves the history with its runs.
    check(svc.json("DELETE", "/v2/sessions/" + ids["hist-1"][0])[0] == 200, "delete one of the three jobs")
    st, o = svc.json("GET", "/v2/history/offenders?min_jobs=3")
    check(st == 200 and o["offenders"] == [], "after it, no GPU offends in 3 jobs")
    st, o = svc.json("GET", "/v2/history/offenders?min_jobs=2")
    left = [(x["node"], x["pci_bus"], x["jobs"], x["results"], sorted(r["workload_id"] for r in x["rows"])) for x in o.get("offenders", [])]
    check(st == 200 and left == [("node-07", "0000:91:00", 2, 2, ["hist-2", "hist-3"])],
          "the GPU is counted again without the deleted run: 2 jobs, 2 results (%s)" % left)
    st, n = svc.json("GET", "/v2/history/offenders?level=node&min_jobs=1&limit=10")
    counts = sorted((x["node"], x["fingerprint"].split("/")[-1], x["jobs"], x["results"]) for x in n.get("offenders", [])
                    if x["node"] in ("node-07", "node-08", "node-09"))  # not the baseline pair's node
    check(st == 200 and counts == [("node-07", "gpu.xid.48", 1, 1), ("node-07", "gpu.xid.79", 2, 2),
                                   ("node-08", "gpu.xid.79", 1, 1), ("node-09", "gpu.xid.79", 1, 2)],
          "every place's jobs and results at node level (%s)" % counts)


def run(service, cli, src, work, db_url=None):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    args = ["--db", db_url] if db_url else []
    svc = Service(service, os.path.join(work, "svc"), *args).start()
    try:
        baseline_checks(svc, cli, src)
        history_checks(svc)
        before = [svc.json("GET", "/v2/history/offenders?level=%s&min_jobs=1&limit=50" % lv)[1]["offenders"] for lv in ("gpu", "node")]
    finally:
        svc.stop()
    # A store from before the per-place summary (or with rows loaded around the service): the summary is dropped
    # and the service, started again, counts the runs into it.
    drop = "DROP TABLE run_causes_places"
    if db_url:
        subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", db_url, "-c", drop], check=True)
    else:
        con = sqlite3.connect(os.path.join(work, "svc", "faultline.db"))
        con.execute(drop)
        con.commit()
        con.close()
    svc = Service(service, os.path.join(work, "svc"), *args).start()
    try:
        after = [svc.json("GET", "/v2/history/offenders?level=%s&min_jobs=1&limit=50" % lv)[1]["offenders"] for lv in ("gpu", "node")]
        check(after == before and len(before[0]) >= 4, "a store without the summary: counted again at start, the same offenders "
              "(%d gpu, %d node)" % (len(after[0]), len(after[1])))
    finally:
        svc.stop()


if __name__ == "__main__":
    SERVICE, CLI, SRC, WORK = sys.argv[1:5]
    run(SERVICE, CLI, SRC, WORK, sys.argv[5] if len(sys.argv) > 5 else None)
    finish()
