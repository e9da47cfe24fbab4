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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--git", required=True)
    ap.add_argument("--commit", required=True)
    ap.add_argument("--out", default="inventory/slurm.json")
    a = ap.parse_args()
    sites = []
    files = [p for p in csource.git_ls(a.git, a.commit) if p.endswith(".c") and any(p.startswith(d) for d in DAEMON_DIRS)]
    for path in sorted(files):
        kind = next(v for d, v in DAEMON_DIRS.items() if path.startswith(d))
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
                     "paths": sorted(DAEMON_DIRS) + ["src/common/slurm_protocol_defs.c", "src/common/job_state_reason.c"]}],
        "extractor": "scripts/inventory/extract_slurm.py",
        "line_shapes": {
            "stepd_error": {"line": "slurmstepd: error: {msg}", "file": "slurm-4412871.out",
                            "benign": ["task/cgroup: _memcg_initialize: job: alloc=512000MB mem.limit=512000MB"]},
            "srun_error": {"line": "srun: error: {msg}", "file": "slurm-4412873.out",
                           "benign": ["srun: job 4412873 queued and waiting for resources"]},
            "srun_fatal": {"line": "srun: fatal: {msg}", "file": "slurm-4412874.out", "benign": []},
            "stepd_fatal": {"line": "slurmstepd: fatal: {msg}", "file": "slurm-4412872.out", "benign": []},
            "daemon_error": {"line": "[2025-11-30T12:14:10.004] error: {msg}", "file": "slurmctld.log",
                             "benign": ["_job_complete: JobId=4412860 WEXITSTATUS 0"]},
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
