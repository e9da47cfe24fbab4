#!/usr/bin/env python3
"""Slurm: every error()/fatal() site of src/ (daemons, srun/sbatch/salloc and the other commands, the common
library, interfaces and every plugin), every info() site (the daemons log at info by default and srun, sbatch
and salloc print info() on the terminal), the error strings of slurm_errno.c (the text of `%m` and of
slurm_strerror() that ends many client lines), job states (job_state_string) and job state reasons
(job_state_reason.c). `--older TAG` (repeatable) reads the same calls at an older release tag of the same
repository and attaches its wordings to the sites they became (`versions`, same file, most similar words) or
keeps them as `older_only` sites.

    scripts/inventory/extract_slurm.py --git /work/.mirror/SchedMD+slurm/repo --commit <sha> \
        [--older slurm-23-02-0-1 --older slurm-20-11-0-1 --older slurm-17-11-0-1] [--out inventory/slurm.json]

Site ids of the error()/fatal() sites of the first inventory's directories are kept as they were (the same
per-file slug order); info() sites are `slurm:<path>:info:<slug>`, error strings `slurm:errno:<NAME>`.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csource  # noqa: E402
import inventory_lib as lib  # noqa: E402

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


# The commands whose error()/info() lines the user sees on the terminal, with the program's own prefix.
# src/api/step_launch.c is the step-launch half of libslurm that only srun runs: its lines print as `srun: error:`.
CLIENT_DIRS = {"src/srun/": "srun", "src/api/step_launch.c": "srun", "src/sbatch/": "sbatch", "src/salloc/": "salloc"}
INFO_CALLS = {"info": "info"}


def shape_of(path, level):
    """The line shape a site's message is logged in: the command's `prog: error:` prefix, slurmstepd's in the
    job's output, or a daemon log's `[time] error:` (the library and plugins run in the daemons)."""
    kind = next((v for d, v in DAEMON_DIRS.items() if path.startswith(d)), None) or EXTRA_FILES.get(path) \
        or next((v for d, v in CLIENT_DIRS.items() if path.startswith(d)), "daemon")
    if kind in ("sbatch", "salloc"):
        return f"{kind}_info" if level == "info" else f"{kind}_{level}"
    if level == "info":
        return "srun_info" if kind == "srun" else "daemon_info"
    return f"{kind}_{level}"


def call_sites(gitdir, commit):
    """error()/fatal() sites of every src/ file, then info() sites, in file order (the ids' slug order)."""
    sites, infos = [], []
    files = [p for p in csource.git_ls(gitdir, commit, "src") if p.endswith(".c")]
    for path in sorted(files):
        text = csource.strip_comments(csource.git_show(gitdir, commit, path))
        used = set()
        for off, name, args in csource.find_calls(text, CALLS):
            got = csource.first_format(args)
            if got is None or got[0] != 0:
                continue
            fmt = got[1].rstrip("\n")
            level = CALLS[name]
            sites.append({"id": f"slurm:{path}:{csource.slug(fmt, used)}", "path": path, "line": csource.line_of(text, off),
                          "level": level, "format": fmt.replace("\n", " "), "syntax": "printf",
                          "shape": shape_of(path, level)})
        used = set()
        for off, name, args in csource.find_calls(text, INFO_CALLS):
            got = csource.first_format(args)
            if got is None or got[0] != 0 or not got[1].strip("\n %s"):
                continue
            fmt = got[1].rstrip("\n")
            infos.append({"id": f"slurm:{path}:info:{csource.slug(fmt, used)}", "path": path,
                          "line": csource.line_of(text, off), "level": "info", "format": fmt.replace("\n", " "),
                          "syntax": "printf", "shape": shape_of(path, "info")})
    return sites, infos


def errno_sites(gitdir, commit):
    """slurm_errno.c's table: {ERRTAB_ENTRY(NAME), "text"} (older releases: {NAME, "text"})."""
    path = "src/common/slurm_errno.c"
    text = csource.git_show(gitdir, commit, path)
    out = []
    for m in re.finditer(r"\{\s*(?:ERRTAB_ENTRY\((\w+)\)|(\w+)),\s*(?:\d+,\s*)?\"((?:[^\"\\]|\\.)+)\"", text):
        name = m.group(1) or m.group(2)
        out.append({"id": f"slurm:errno:{name}", "path": path, "line": text.count("\n", 0, m.start()) + 1,
                    "level": "errno", "name": name, "format": csource.unescape(m.group(3)), "syntax": "literal",
                    "shape": "errno"})
    return out


def attach_older(sites, tag, old_sites):
    """An older release's wording onto the current site of the same file name it became (most similar words; files
    moved from src/common/ to src/interfaces/ keep their names), else an
    older_only site. Returns (versions, new)."""
    current = {(s["path"], s["format"]) for s in sites}
    by_path = {}
    for s in sites:
        if not s.get("older_only"):
            by_path.setdefault((os.path.basename(s["path"]), s["level"]), []).append(s)
    only = {(s["path"], s["format"]): s for s in sites if s.get("older_only")}
    ids = {s["id"] for s in sites}
    n_versions = n_new = 0
    for o in old_sites:
        key = (o["path"], o["format"])
        if key in current:
            continue
        current.add(key)
        site = lib.ancestor(o["format"], o["path"], by_path.get((os.path.basename(o["path"]), o["level"]), []), file_key="path")
        if site is not None:
            vs = site.setdefault("versions", [])
            if all(v["format"] != o["format"] for v in vs):
                vs.append({"tag": tag, "format": o["format"]})
                n_versions += 1
            continue
        if key in only:
            only[key]["older_only"].append(tag)
            continue
        new = dict(o, older_only=[tag])
        base, k = new["id"], 2
        while new["id"] in ids:
            new["id"], k = f"{base}-{k}", k + 1
        ids.add(new["id"])
        sites.append(new)
        only[key] = new
        n_new += 1
    return n_versions, n_new


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--git", required=True)
    ap.add_argument("--commit", required=True)
    ap.add_argument("--older", action="append", default=[], help="an older release tag of the same repository")
    ap.add_argument("--out", default="inventory/slurm.json")
    a = ap.parse_args()
    sites, infos = call_sites(a.git, a.commit)
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
    reason_ids = {s["id"] for s in sites if s["level"] == "reason"}
    for s in sites:
        if s["level"] != "reason" and s["id"] in reason_ids:
            s["id"] += "-e"   # an error() of a file whose reason strings were inventoried first keeps those ids
    listed = {(s["path"], s["format"]) for s in sites}
    ids = {s["id"] for s in sites}
    for s in infos:
        if (s["path"], s["format"]) in listed:
            continue
        while s["id"] in ids:
            s["id"] += "-i"
        ids.add(s["id"])
        sites.append(s)
    sites += errno_sites(a.git, a.commit)
    for tag in a.older:
        old, old_infos = call_sites(a.git, tag)
        print(f"{tag}: {len(old) + len(old_infos)} sites, attached: {attach_older(sites, tag, old + old_infos + errno_sites(a.git, tag))}")
    for s in sites:
        if s["id"] in VERSIONS:
            hand = {v["format"] for v in VERSIONS[s["id"]]}
            s["versions"] = VERSIONS[s["id"]] + [v for v in s.get("versions", []) if v["format"] not in hand]
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
        "title": "Slurm: every error(), fatal() and info() site of src/, slurm_errno.c's error strings, job states, job state reasons",
        "sources": [{"repo": "SchedMD/slurm", "commit": a.commit, "tag": "slurm-25-05-0-1-8608-g284c3b95f0 (master)",
                     "paths": ["src/**/*.c"], "older": a.older}],
        "extractor": "scripts/inventory/extract_slurm.py",
        "line_shapes": {
            "stepd_error": {"line": "slurmstepd: error: {msg}", "file": "slurm-4412871.out",
                            "benign": ["task/cgroup: _memcg_initialize: job: alloc=512000MB mem.limit=512000MB"]},
            "srun_error": {"line": "srun: error: {msg}", "file": "slurm-4412873.out",
                           "benign": ["srun: job 4412873 queued and waiting for resources"]},
            "srun_info": {"line": "srun: {msg}", "file": "slurm-4412875.out",
                          "benign": ["srun: job 4412875 queued and waiting for resources"]},
            "srun_fatal": {"line": "srun: fatal: {msg}", "file": "slurm-4412874.out", "benign": []},
            "sbatch_error": {"line": "sbatch: error: {msg}", "file": "sbatch-submit.txt",
                             "benign": ["Submitted batch job 4412876"]},
            "sbatch_fatal": {"line": "sbatch: fatal: {msg}", "file": "sbatch-submit-2.txt", "benign": []},
            "sbatch_info": {"line": "sbatch: {msg}", "file": "sbatch-submit-3.txt", "benign": ["Submitted batch job 4412877"]},
            "salloc_error": {"line": "salloc: error: {msg}", "file": "salloc-session.txt",
                             "benign": ["salloc: Granted job allocation 4412878"]},
            "salloc_fatal": {"line": "salloc: fatal: {msg}", "file": "salloc-session-2.txt", "benign": []},
            "salloc_info": {"line": "salloc: {msg}", "file": "salloc-session-3.txt", "benign": ["salloc: Granted job allocation 4412879"]},
            "errno": {"line": "[2025-11-30T12:14:10.004] error: {msg}", "file": "slurmd-errno.log",
                      "benign": ["_job_complete: JobId=4412860 WEXITSTATUS 0"]},
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
