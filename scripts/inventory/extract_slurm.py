#!/usr/bin/env python3
"""Slurm: error()/fatal() sites of slurmstepd, slurmd and slurmctld, of srun, and of the plugins that run in
slurmstepd/slurmd on the compute node (task, cgroup, proctrack, prep = prolog/epilog, mpi, gres, gpu,
namespace, jobacct_gather), job states (job_state_string) and job state reasons (job_state_reason.c).

    scripts/inventory/extract_slurm.py --git /work/.mirror/SchedMD+slurm/repo --commit <sha> [--out inventory/slurm.json]
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csource  # noqa: E402

DAEMON_DIRS = {"src/slurmd/slurmstepd/": "stepd", "src/slurmd/slurmd/": "daemon", "src/slurmctld/": "daemon",
               "src/plugins/task/cgroup/task_cgroup_memory.c": "stepd", "src/srun/": "srun",
               "src/plugins/task/": "stepd", "src/plugins/cgroup/": "stepd", "src/plugins/proctrack/": "stepd",
               "src/plugins/mpi/": "stepd", "src/plugins/gres/": "stepd", "src/plugins/gpu/": "stepd",
               "src/plugins/namespace/": "stepd", "src/plugins/jobacct_gather/": "stepd", "src/plugins/prep/": "daemon"}
CALLS = {"error": "error", "fatal": "fatal", "fatal_abort": "fatal"}
# Files outside DAEMON_DIRS with sites of their own: jobacct_gather's memory-limit kill runs in slurmstepd; gres.c
# writes the reason a node is set down or INVAL at registration (a GPU that fell off the bus: "gres/gpu count
# reported lower than configured").
EXTRA_FILES = {"src/interfaces/jobacct_gather.c": "stepd"}
REASON_FILES = {"src/interfaces/gres.c": "daemon"}
# info()-level sites that report a job's or a node's failure (slurmctld logs these at info, not error). An
# explicit list of (path, format prefix): a prefix that no longer matches any info() of the file is an error.
INFO_SITES = [
    ("src/slurmctld/gang.c", "preempted %pJ has been killed"),
    ("src/slurmctld/gang.c", "preempted %pJ has been requeued"),
    ("src/slurmctld/job_mgr.c", "requeue job %pJ due to failure of node %s"),
    ("src/slurmctld/job_mgr.c", "Killing %pJ on failed node %s"),
    ("src/slurmctld/job_mgr.c", "%s: %pJ OOM failure"),
    ("src/slurmctld/job_mgr.c", "%s: %pJ cancelled by node failure"),
    ("src/slurmctld/job_mgr.c", "%s: requeue %pJ due to node failure"),
    ("src/slurmctld/job_mgr.c", "Time limit exhausted for %pJ"),
    ("src/slurmctld/job_mgr.c", "Node %s rebooted, killing missing step"),
    ("src/slurmctld/job_scheduler.c", "%s: %pJ with time_limit %u exceeded deadline"),
    ("src/slurmctld/node_mgr.c", "drain_nodes: node %s state set to DRAIN"),
    ("src/slurmctld/node_mgr.c", "%s: Node %s unexpectedly rebooted"),
    ("src/slurmd/slurmd/job_mem_limit.c", "Job %u exceeded memory limit"),
    ("src/slurmd/slurmd/req.c", "Could not launch %pI and not able to requeue it"),
]
# Messages slurmstepd/slurmd send to the job's srun (REQUEST_JOB_NOTIFY), which prints them with info("%s"):
# the `.message = "..."` assignments of these files.
NOTIFY_FILES = ["src/interfaces/jobacct_gather.c", "src/slurmd/slurmd/job_mem_limit.c"]
# Older releases' wordings of a site (from the repository history: git log -S/-G on the message), by site id.
VERSIONS = {
    "slurm:src/plugins/task/cgroup/task_cgroup_memory.c:detected-oom_kill-event-in-some-of": [
        {"tag": "4f63c04f18 (2021-05)", "format": "Detected %llu oom-kill event(s) in %ps. Some of your processes may have been killed by the cgroup out-of-memory handler."},
        {"tag": "4f63c04f18 (2021-05) cgroup", "format": "Detected %llu oom-kill event(s) in %ps cgroup. Some of your processes may have been killed by the cgroup out-of-memory handler."},
        {"tag": "dd576deca6 (2018-07)", "format": "Detected %llu oom-kill event(s) in step %s cgroup. Some of your processes may have been killed by the cgroup out-of-memory handler."},
        {"tag": "ecbfb937a4 (2013-11, removed 38e15bf74b 2018-01)", "format": "Exceeded step memory limit at some point."},
    ],
    "slurm:src/interfaces/jobacct_gather.c:exceeded-memory-limit-being-killed": [
        {"tag": "611e4efd26 (2013-08) job", "format": "Job %u exceeded memory limit (%u > %u), being killed"},
        {"tag": "611e4efd26 (2013-08) step", "format": "Step %u.%u exceeded memory limit (%u > %u), being killed"},
    ],
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--git", required=True)
    ap.add_argument("--commit", required=True)
    ap.add_argument("--out", default="inventory/slurm.json")
    a = ap.parse_args()
    sites = []
    dirs = dict(DAEMON_DIRS, **EXTRA_FILES)
    files = [p for p in csource.git_ls(a.git, a.commit) if p.endswith(".c") and any(p.startswith(d) for d in dirs)]
    for path in sorted(files):
        kind = next(v for d, v in dirs.items() if path.startswith(d))
        text = csource.strip_comments(csource.git_show(a.git, a.commit, path))
        used = set()
        for off, name, args in csource.find_calls(text, CALLS):
            got = csource.first_format(args)
            if got is None or got[0] != 0:
                continue
            fmt = got[1].rstrip("\n")
            level = CALLS[name]
            sites.append({"id": f"slurm:{path}:{csource.slug(fmt, used)}", "path": path, "line": csource.line_of(text, off),
                          "level": level, "format": fmt.replace("\n", " "), "syntax": "printf",
                          "shape": f"{kind}_{level}"})
    for path, kind in REASON_FILES.items():
        text = csource.strip_comments(csource.git_show(a.git, a.commit, path))
        used = set()
        for off, name, args in csource.find_calls(text, {"xstrfmtcat": "reason"}):
            got = csource.first_format(args)
            if got is None or got[0] != 1 or "reason" not in args[0]:
                continue
            fmt = got[1]
            sites.append({"id": f"slurm:{path}:{csource.slug(fmt, used)}", "path": path, "line": csource.line_of(text, off),
                          "level": "reason", "format": fmt, "syntax": "printf", "shape": "ctld_inval_reason"})
    for path in NOTIFY_FILES:
        text = csource.strip_comments(csource.git_show(a.git, a.commit, path))
        used = set()
        for m in re.finditer(r"\.message\s*=\s*\"([^\"]+)\"", text):
            sites.append({"id": f"slurm:{path}:notify:{csource.slug(m.group(1), used)}", "path": path,
                          "line": csource.line_of(text, m.start()), "level": "notify", "format": m.group(1),
                          "syntax": "literal", "shape": "srun_info"})
    for path, prefix in INFO_SITES:
        text = csource.strip_comments(csource.git_show(a.git, a.commit, path))
        hits = [(off, csource.first_format(args)) for off, name, args in csource.find_calls(text, {"info": "info"})]
        hits = [(off, got[1]) for off, got in hits if got and got[0] == 0 and got[1].startswith(prefix)]
        if not hits:
            raise SystemExit(f"{path}: no info() starts with {prefix!r}")
        off, fmt = hits[0]
        sites.append({"id": f"slurm:{path}:info:{csource.slug(fmt, set())}", "path": path,
                      "line": csource.line_of(text, off), "level": "info", "format": fmt.replace("\n", " "),
                      "syntax": "printf", "shape": "stepd_error" if path.startswith("src/slurmd/slurmd/job_mem") else "daemon_info"})
    for s in sites:
        if s["id"] in VERSIONS:
            s["versions"] = VERSIONS[s["id"]]
    missing = set(VERSIONS) - {s["id"] for s in sites}
    if missing:
        raise SystemExit(f"versions for sites that are not there: {sorted(missing)}")
    # job states: the strings job_state_string() returns for the base states
    defs = csource.git_show(a.git, a.commit, "src/common/slurm_protocol_defs.c")
    body = re.search(r"extern char \*job_state_string\(uint32_t inx\)\n\{(.*?)\n\}", defs, re.S).group(1)
    for m in re.finditer(r"case (JOB_\w+):\s*return \"(\w+)\";", body):
        sites.append({"id": f"slurm:state:{m.group(2)}", "path": "src/common/slurm_protocol_defs.c",
                      "line": defs.count("\n", 0, defs.find(m.group(0))) + 1, "level": "state", "enum": m.group(1),
                      "format": m.group(2), "syntax": "literal", "shape": "sacct"})
    reasons = csource.git_show(a.git, a.commit, "src/common/job_state_reason.c")
    for m in re.finditer(r"\[(\w+)\] = \{[^}]*?\.str = \"([^\"]+)\"", reasons, re.S):
        sites.append({"id": f"slurm:reason:{m.group(1)}", "path": "src/common/job_state_reason.c",
                      "line": reasons.count("\n", 0, m.start()) + 1, "level": "reason", "enum": m.group(1),
                      "format": m.group(2), "syntax": "literal", "shape": "scontrol"})
    inv = {
        "family": "slurm",
        "title": "Slurm: slurmstepd/slurmd/slurmctld error() and fatal() sites, job states, job state reasons",
        "sources": [{"repo": "SchedMD/slurm", "commit": a.commit, "tag": "slurm-25-05-0-1-8608-g284c3b95f0 (master)",
                     "paths": sorted(DAEMON_DIRS) + sorted(EXTRA_FILES) + sorted(REASON_FILES) + sorted(set(NOTIFY_FILES) | {p for p, _ in INFO_SITES}) + ["src/common/slurm_protocol_defs.c", "src/common/job_state_reason.c"]}],
        "extractor": "scripts/inventory/extract_slurm.py",
        "line_shapes": {
            "stepd_error": {"line": "slurmstepd: error: {msg}", "file": "slurm-4412871.out",
                            "benign": ["task/cgroup: _memcg_initialize: job: alloc=512000MB mem.limit=512000MB"]},
            "srun_error": {"line": "srun: error: {msg}", "file": "slurm-4412873.out",
                           "benign": ["srun: job 4412873 queued and waiting for resources"]},
            "srun_info": {"line": "srun: {msg}", "file": "slurm-4412875.out",
                          "benign": ["srun: job 4412875 queued and waiting for resources"]},
            "srun_fatal": {"line": "srun: fatal: {msg}", "file": "slurm-4412874.out", "benign": []},
            "stepd_fatal": {"line": "slurmstepd: fatal: {msg}", "file": "slurm-4412872.out", "benign": []},
            "daemon_error": {"line": "[2025-11-30T12:14:10.004] error: {msg}", "file": "slurmctld.log",
                             "benign": ["_job_complete: JobId=4412860 WEXITSTATUS 0"]},
            "daemon_info": {"line": "[2025-11-30T12:14:10.004] {msg}", "file": "slurmctld-info.log",
                            "benign": ["sched: Allocate JobId=4412871 NodeList=gpu-[a17,b04] #CPUs=512 Partition=gpu"]},
            "ctld_inval_reason": {"line": "[2025-11-30T12:14:10.004] error: Setting node gpu-a17 state to INVAL with reason:{msg}",
                                  "file": "slurmctld-inval.log", "benign": []},
            "daemon_fatal": {"line": "[2025-11-30T12:14:10.004] fatal: {msg}", "file": "slurmd-node-07.log", "benign": []},
            "sacct": {"line": "4412871           train        gpu    ml-team        512 {msg}      1:0 ", "file": "sacct.txt",
                      "benign": ["COMPLETED"]},
            "scontrol": {"line": "   JobState=FAILED Reason={msg} Dependency=(null)", "file": "scontrol-show-job.txt", "benign": []},
        },
        "sites": sites,
    }
    csource.write_inventory(a.out, inv)
    csource.report("slurm", a.out, a.out.replace(".json", ".decisions.json"), sites)


if __name__ == "__main__":
    main()
