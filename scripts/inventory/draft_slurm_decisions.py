#!/usr/bin/env python3
"""First decisions for the srun and compute-node plugin sites of
inventory/slurm.json that have none (never overwrites one). srun's and the
plugins' error() lines are mostly their own plumbing (options, environment,
PMI wiring, cgroup files, CPU binding); the lines that say how a task or
step ended, that a node or a prolog failed, or that processes could not be
killed are evidence. Review the result; the decisions file is the record.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inventory_lib as lib  # noqa: E402

# (path prefix, message regex, decision): the first that matches decides
EVIDENCE = [
    ("src/srun/", r"^%s: %s %s: Exited with exit code", {"domain": "workload", "role": "symptom",
                                                         "values": {"0": "node-07", "1": "task", "2": "3", "3": "1"}}),
    ("src/srun/", r"^%s: %s %s: Out Of Memory", {"domain": "host", "role": "initiator",
                                                "values": {"0": "node-07", "1": "task", "2": "3"}}),
    ("src/srun/", r"^%s: %s %s: %s%s$", {"domain": "host", "role": "symptom",
                                        "values": {"0": "node-07", "1": "task", "2": "3", "3": "Killed", "4": ""}}),
    ("src/srun/", r"^Node failure on|Something is wrong with the boot of the nodes", {"domain": "scheduler", "role": "initiator"}),
    ("src/srun/", r"^srun (?:prolog|epilog) failed", {"domain": "scheduler", "role": "symptom"}),
    ("src/srun/", r"has been revoked|has expired|^Unable to create step for job|^Application launch (?:add )?failed|Step launch aborted",
     {"domain": "scheduler", "role": "symptom"}),
    ("src/plugins/prep/", r"^%s (?:failed: rc:|killed by signal)", {"domain": "scheduler", "role": "initiator", "values": {"0": "prolog"}}),
    ("src/plugins/proctrack/", r"giving up after", {"domain": "host", "role": "symptom"}),
    ("src/plugins/gpu/", r"^System GPU detection failed", {"domain": "gpu", "role": "symptom"}),
    # the whole of src/ (second pass, 2026-12-07): salloc's twins of srun's allocation lines, slurmctld's
    # info-level job ends it logs at its default level, slurmd's virtual-memory kill, an unkillable stepd,
    # a GPU count that does not match at job start, and the error strings that name a job's end
    ("src/salloc/", r"^Node failure on", {"domain": "scheduler", "role": "initiator"}),
    ("src/salloc/", r"^Job allocation %u has been revoked|^Allocation was revoked for", {"domain": "scheduler", "role": "symptom"}),
    ("src/salloc/", r"has exceeded its time limit and its allocation has been revoked", {"domain": "scheduler", "role": "initiator"}),
    ("src/slurmctld/", r"^Killing %pJ on DOWN node|^Requeue (?:het )?job (?:leader )?%pJ due to node failure|^Killing %pS (?:on|due to) failed node",
     {"domain": "scheduler", "role": "initiator"}),
    ("src/slurmctld/", r"^Killing non-startable batch", {"domain": "scheduler", "role": "initiator"}),
    ("src/slurmctld/", r"with time_min %u exceeded deadline|inactivity time limit reached for|^%s: %pS has timed out \(%u\)$|step %u has timed out \(%u\)$",
     {"domain": "scheduler", "role": "initiator"}),
    ("src/slurmctld/", r"^%s: preempted (?:%pJ|job %u) had to be killed$|^preempted job %u has been (?:killed|requeued) to reclaim",
     {"domain": "scheduler", "role": "initiator"}),
    ("src/slurmctld/power_save.c", r"not resumed by ResumeTimeout", {"domain": "scheduler", "role": "initiator", "values": {"0": "gpu-a17", "1": "600"}}),
    ("src/slurmctld/slurmscriptd.c", r"^%s: JobId=%u %s killed by signal", {"domain": "scheduler", "role": "initiator",
                                                                          "values": {"0": "_run_script", "1": "4412871", "2": "prolog", "3": "9"}}),
    ("src/slurmd/slurmd/", r"exceeded (?:virtual )?memory limit \(%llu>%llu\), cancelling it", {"domain": "host", "role": "initiator"}),
    ("src/slurmd/slurmstepd/step_terminate_monitor.c", r"^unkillable stepd exiting", {"domain": "host", "role": "symptom"}),
    ("src/interfaces/gres.c", r"Killing job %u: gres/%s count mismatch", {"domain": "gpu", "role": "symptom", "values": {
        "0": "gres_job_state_validate", "1": "4412871", "2": "gpu", "3": "gpu-a17", "4": "7", "5": "8"}}),
    ("src/interfaces/gres.c", r"AutoDetect the amount of GPUs configured in slurm.conf does not match", {"domain": "gpu", "role": "symptom"}),
    # the step-launch half of libslurm that srun runs: a task or node whose launch failed, a slurmstepd that went
    # away under the step (io error), a step that would not end; slurmstepd's cancel banner for a signal, and a
    # task plugin that refused the launch
    ("src/api/step_launch.c", r"^Task launch for %ps failed on node", {"domain": "scheduler", "role": "symptom", "values": {"1": "gpu-a17"}}),
    ("src/api/step_launch.c", r"io error with slurmstepd on node", {"domain": "scheduler", "role": "symptom",
                                                                     "values": {"0": "_handle_io_init"}}),
    ("src/api/step_launch.c", r"^task %u launch failed|^Aborting, (?:io error and missing step|step missing and io error) on node|"
                              r"^Timed out waiting for job step to complete", {"domain": "scheduler", "role": "symptom"}),
    ("src/api/step_launch.c", r"^Node failure on", {"domain": "scheduler", "role": "initiator"}),
    ("src/slurmd/slurmstepd/req.c", r"CANCELLED AT %s DUE to SIGNAL %s", {"domain": "scheduler", "role": "initiator",
        "values": {"0": "JOB 4412871", "1": "gpu-a17", "2": "2025-11-30T12:00:00", "3": "Terminated"}}),
    ("src/slurmd/slurmstepd/task.c", r"^Failed to invoke task plugins: task_p_pre_launch error", {"domain": "scheduler", "role": "symptom"}),
    # older releases' wordings of evidence sites in files since moved or renamed
    ("src/common/slurm_jobacct_gather.c", r"exceeded (?:virtual )?memory limit", {"domain": "host", "role": "initiator"}),
    ("src/plugins/task/cgroup/task_cgroup_memory.c", r"^Detected %llu oom-kill event|^Exceeded (?:job|step) memory limit at some point",
     {"domain": "host", "role": "initiator", "values": {"0": "1", "1": "StepId=4412871.0"}}),
    ("src/salloc/", r"Something is wrong with the boot of the nodes", {"domain": "scheduler", "role": "initiator"}),
    ("src/slurmctld/node_mgr.c", r"^Prolog failed on node", {"domain": "scheduler", "role": "initiator"}),
    ("src/slurmctld/", r"^Removing failed node %s from", {"domain": "scheduler", "role": "initiator"}),
    # Slurm's RPC timing out: the generic connection-timeout rule reads these as a network symptom, and they are one
    ("src/common/slurm_errno.c", r"^Connection timed out (?:establishing|reading|writing)$", {"domain": "network", "role": "symptom"}),
    ("src/common/slurm_errno.c", r"^Kill task failed$", {"domain": "host", "role": "symptom"}),
    ("src/common/slurm_errno.c", r"^Job killed due hitting max wall clock limit$|^Job killed due node failure$",
     {"domain": "scheduler", "role": "initiator"}),
]
REASON = {
    "src/srun/": "srun's own plumbing (options, environment, allocation requests, I/O, PMI): not how a running job failed; "
                 "its task-exit, OOM, node-failure and prolog lines are decided as evidence",
    "src/plugins/": "a compute-node plugin's own plumbing (cgroup files, CPU/NUMA binding, PMI wiring, GRES/GPU "
                    "bookkeeping, namespaces, accounting): the step's outcome is reported by its banner, srun's task exit "
                    "or the job's own log",
}

# Reasons for the sites of the second pass, by (path prefix, level); the first that fits decides.
REASON_BY_LEVEL = [
    ("src/common/slurm_errno.c", "errno", "an error string of slurm_errno.c (the text of %m / slurm_strerror): a refusal, a protocol or "
                                          "plugin error or a state, said by the line that carries it; the few that name a job's end "
                                          "(killed at its time limit or on a node failure, a task that could not be killed) are evidence"),
    ("src/", "info", "an info() line of normal operation (start-up, configuration, scheduling, state changes, RPCs, "
                     "accounting): the job and node failures slurmctld, slurmd and salloc log at info are decided as evidence"),
    ("src/salloc/", None, "salloc's own plumbing (options, environment, allocation requests, signals): its node-failure, "
                          "revoked-allocation and time-limit lines are decided as evidence"),
    ("src/sbatch/", None, "sbatch's options, environment and submission: a refused or failed submission is a job that did not "
                          "run, not why a running job failed"),
    ("src/plugins/", None, "a plugin's own plumbing (accounting storage, authentication, scheduling, selection, topology, "
                           "switch, burst buffer, data parsers, site factors, jobcomp, cli filters): the daemon's operation, "
                           "not a job's failure"),
    ("src/slurmctld/", None, "slurmctld bookkeeping, RPC, state-save, accounting, federation and configuration errors: the "
                             "controller's own operation, not why a running job failed"),
    ("src/slurmd/", None, "slurmd/slurmstepd bookkeeping, RPC, launch plumbing, cgroup and configuration errors: the node "
                          "daemon's own operation; the step's outcome is reported by its banner, srun's task exit or the job's log"),
    ("src/srun/", None, "srun's own plumbing (options, environment, allocation requests, I/O, PMI): not how a running job failed"),
    ("src/", None, "the common library, the client API, the interfaces and the other commands and daemons (sacct, scontrol, "
                   "squeue, sinfo, scancel, slurmdbd, slurmrestd, sackd, ...): parsing, packing, RPC, configuration and "
                   "their own errors, not a job's failure"),
]


# Slurm's own printf extensions print a job or step as its id: %pJ/%pI "JobId=N", %pS/%ps "StepId=N.S"
# (src/common/xstring.c / log.c); a rendered evidence line needs them, not a pointer.
_CONV = re.compile(r"%[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|L|z|j|t)?(p[A-Za-z]|[diouxXeEfgGcsm%])")
_SLURM_P = {"pJ": "JobId=4412871", "pI": "JobId=4412871", "pS": "StepId=4412871.0", "ps": "StepId=4412871.0"}


def slurm_values(fmt, given=None):
    out, k = {}, 0
    for m in _CONV.finditer(fmt):
        if m.group(1) == "%":
            continue
        if m.group(1) in _SLURM_P:
            out[str(k)] = _SLURM_P[m.group(1)]
        k += 1
    out.update(given or {})
    return out


def reason_for(site):
    return next((r for p, lv, r in REASON_BY_LEVEL
                 if site["path"].startswith(p) and (lv is None or lv == site["level"])), None)


inv = json.load(open(os.path.join(lib.INVENTORY_DIR, "slurm.json")))
dec, dpath = lib.load_decisions("slurm")
added = 0
for s in inv["sites"]:
    if s["id"] in dec:
        continue
    d = None
    for prefix, pat, ev in EVIDENCE:
        if s["path"].startswith(prefix) and re.search(pat, s["format"]):
            d = dict({"decision": "evidence"}, **ev)
            vals = slurm_values(s["format"], ev.get("values"))
            if vals:
                d["values"] = vals
            break
    if d is None:
        reason = next((r for p, r in REASON.items() if s["path"].startswith(p)), None) \
            if s["level"] in ("error", "fatal") and not s.get("older_only") else None
        reason = reason or reason_for(s)
        if s.get("older_only") and reason:
            reason = f"an older release's wording ({', '.join(s['older_only'])}), removed since: " + reason
        if reason is None:
            continue
        d = {"decision": "not_evidence", "reason": reason}
    dec[s["id"]] = d
    added += 1
lib.save_drafted_decisions(dpath, dec, added)
