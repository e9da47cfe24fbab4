#!/usr/bin/env python3
"""First decisions for the RM NV_PRINTF sites of inventory/nvidia.json that have
none (never overwrites one). Most RM error prints are the driver's own error
paths (a control call refused, an unsupported request, an allocation retried):
not failure evidence by themselves; the Xid or kernel line of a real failure
is. Those that say the GPU is gone, GSP stopped answering, a wait timed out,
memory had an uncorrectable error or a row remap, or an NVLink failed are
evidence (symptoms: the Xid printed with them is the cause record), read by
rules/kernel-nvrm.jsonc with the same words. Review the result; the decisions
file is the record.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inventory_lib as lib  # noqa: E402

# (message regex, domain, rule id): the first that matches decides
EVIDENCE = [
    (r"fallen off the bus|\boff the bus\b|\bGPU (?:is )?lost\b|\blost GPU\b|surprise remov", "gpu", "nvrm.extract.gpu-lost"),
    (r"GSP-RM unresponsive|[Hh]eartbeat timed out|GSP (?:[Tt]imeout|timed out)|Timeout waiting for (?:RPC|GSP)|Failed to boot GSP|GSP boot \w+ failed",
     "gpu", "nvrm.extract.gsp-unresponsive"),
    (r"(?i)\bnvlink\b.*\b(?:fail\w*|error|fatal|down|timeout|timed out|unable)\b|\b(?:fail\w*|error|fatal|unable)\b.*\bnvlink\b", "nvlink", "nvrm.extract.nvlink"),
    (r"(?i)uncorrectable ECC|\bECC\b.*\b(?:uncorrect\w*|DBE|error)|\bDBE\b|double.bit|row[- ]?remap|remapp(?:ing|ed)\b.*\b(?:fail|pending|row)", "gpu", "nvrm.extract.ecc"),
    (r"(?i)\btime ?out\b|\btimed out\b", "gpu", "nvrm.extract.timeout"),
]
NOT = "an RM error path the driver handles (a refused control call, an unsupported request, a failed internal step): not failure evidence by itself; a real failure prints an Xid"

inv = json.load(open(os.path.join(lib.INVENTORY_DIR, "nvidia.json")))
dec, dpath = lib.load_decisions("nvidia")
added = 0
for s in inv["sites"]:
    if s["id"] in dec or s.get("shape") != "rm":
        continue
    d = {"decision": "not_evidence", "reason": NOT}
    for pat, dom, rule in EVIDENCE:
        if re.search(pat, s["format"]):
            d = {"decision": "evidence", "domain": dom, "role": "symptom", "rule": rule}
            break
    dec[s["id"]] = d
    added += 1
lib.save_drafted_decisions(dpath, dec, added)
