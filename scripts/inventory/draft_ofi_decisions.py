#!/usr/bin/env python3
"""First decisions for aws-ofi-nccl NCCL_OFI_WARN sites that have none (never
overwrites one). The plugin is the job's network path: its warnings are network
evidence, except CUDA/GDR calls (the GPU side of GPUDirect), host allocation
failures, and configuration notes or teardown lines that say nothing of a failure.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inventory_lib as lib  # noqa: E402

GPU = r"\b(?:CUDA|cuda[A-Za-z]*|cu[A-Z][A-Za-z]+|GDR)\b"
NOT = [(r"\benabled\b|\bdisabled\b|ignor|defaulting|falling back|instead\b|set to invalid value|[Dd]eprecated",
        "a configuration note: the plugin goes on with a default or states a setting"),
       (r"[Cc]lose|[Dd]estroy|[Ff]inaliz|dereg|cleanup|[Ff]ree\b|[Ff]reeing|release",
        "printed while releasing resources, after whatever failed; says nothing of its kind")]
inv = json.load(open(os.path.join(lib.INVENTORY_DIR, "aws-ofi-nccl.json")))
dpath = os.path.join(lib.INVENTORY_DIR, "aws-ofi-nccl.decisions.json")
dec = json.load(open(dpath)) if os.path.exists(dpath) else {}
for s in inv["sites"]:
    if s["id"] in dec:
        continue
    f = s["format"]
    d = next(({"decision": "not_evidence", "reason": why} for pat, why in NOT if re.search(pat, f)), None)
    if d is None and re.search(GPU, "NET/OFI " + f):
        d = {"decision": "evidence", "domain": "gpu", "role": "symptom", "rule": "ncclw.extract.ofi-warn-gpu"}
    if d is None:
        d = {"decision": "evidence", "domain": "network", "role": "symptom", "rule": "ncclw.extract.ofi-warn"}
    dec[s["id"]] = d
json.dump(dec, open(dpath, "w"), indent=1)
print(len(dec))
