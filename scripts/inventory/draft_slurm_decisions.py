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
]
REASON = {
    "src/srun/": "srun's own plumbing (options, environment, allocation requests, I/O, PMI): not how a running job failed; "
                 "its task-exit, OOM, node-failure and prolog lines are decided as evidence",
    "src/plugins/": "a compute-node plugin's own plumbing (cgroup files, CPU/NUMA binding, PMI wiring, GRES/GPU "
                    "bookkeeping, namespaces, accounting): the step's outcome is reported by its banner, srun's task exit "
                    "or the job's own log",
}

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
            break
    if d is None:
        reason = next((r for p, r in REASON.items() if s["path"].startswith(p)), None)
        if reason is None:
            continue
        d = {"decision": "not_evidence", "reason": reason}
    dec[s["id"]] = d
    added += 1
lib.save_drafted_decisions(dpath, dec, added)
