#!/usr/bin/env python3
"""First decisions for NCCL WARN sites that have none (never overwrites one):
what a WARN is evidence of, from where NCCL prints it and what it says. Every
NCCL WARN is an error path; the question is of which domain, or whether it is
a configuration note / teardown line that says nothing about what failed.
Review the result; the decisions file is the record.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inventory_lib as lib  # noqa: E402

NOT = [
    (r"ignor|defaulting|falling back|Unsetting|, setting to %d|setting NCCL_|instead\b|skipping",
     "NCCL goes on with a default or a fallback: a configuration note, not a failure"),
    (r"destroy|Reclaim|commDestroySync|[Dd]eregister|unlink|munmap|close failed|Failed to close|proxyDestroy|already been destroyed|cleanup",
     "printed while tearing a communicator down, after whatever failed; says nothing of its kind"),
]
RULES = [  # (path regex, message regex, domain, role)
    (r"", r"Failed to CUDA (?:malloc|calloc)", "workload", "symptom"),
    (r"", r"Failed to CUDA host alloc|Failed to malloc|malloc\(|calloc\(|returned null|Allocation failed|Failed to allocate memory", "host", "symptom"),
    (r"", r"NVLS|NVLink|Multicast|multicast|MNNVL|IMEX|nvlink", "nvlink", "symptom"),
    (r"^src/transport/(?:net_ib|net_socket|coll_net)|^src/misc/(?:ibv|mlx5dv|socket)|^src/include/(?:ibvwrap|socket)|^src/bootstrap|^src/ras/|^src/plugin/net", r"", "network", "symptom"),
    (r"^src/os/(?:linux|windows)\.cc$", r"[Ss]ocket|connect|Accept", "network", "symptom"),
    (r"^src/proxy\.cc", r"Socket|socket|Could not receive type", "network", "symptom"),
    (r"^src/transport/nvls|^src/mnnvl", r"", "nvlink", "symptom"),
    (r"^src/misc/(?:cudawrap|nvmlwrap)|^src/include/(?:cudawrap|checks)|^src/transport/p2p|^src/transport/net\.cc", r"", "gpu", "symptom"),
    (r"", r"Failed to set CUDA device|Cuda failure|CUDA error", "gpu", "symptom"),
    (r"^src/os/|^src/misc/(?:gdrwrap|shmutils)|^src/include/gdrwrap|^src/transport/shm|^src/graph/(?:topo|paths|search|rings|connect)", r"", "host", "symptom"),
]
RULE_ID = "ncclw.extract.warn-file-table"

inv = json.load(open(os.path.join(lib.INVENTORY_DIR, "nccl.json")))
dpath = os.path.join(lib.INVENTORY_DIR, "nccl.decisions.json")
dec = json.load(open(dpath)) if os.path.exists(dpath) else {}
added = 0
for s in inv["sites"]:
    if s["id"] in dec or s["level"] != "WARN":
        continue
    f = s["format"]
    d = None
    for pat, why in NOT:
        if re.search(pat, f):
            d = {"decision": "not_evidence", "reason": why}
            break
    if d is None:
        for pp, mp, dom, role in RULES:
            if (not pp or re.search(pp, s["path"])) and (not mp or re.search(mp, f)):
                d = ({"decision": "not_evidence", "reason": role} if dom is None
                     else {"decision": "evidence", "domain": dom, "role": role, "rule": RULE_ID})
                break
    if d is None:  # API misuse, configuration, version mismatch, internal consistency checks
        d = {"decision": "evidence", "domain": "workload", "role": "symptom", "rule": RULE_ID}
    dec[s["id"]] = d
    added += 1
json.dump(dec, open(dpath, "w"), indent=1)
print(f"{added} decisions drafted, {len(dec)} in all")
