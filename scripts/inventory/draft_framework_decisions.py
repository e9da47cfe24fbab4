#!/usr/bin/env python3
"""First decisions for Python framework sites that have none (never overwrites
one): an exception the framework raises ends the run and is workload evidence
(configuration, versions, API use, checkpoint format) unless it names the
network or the filesystem; a logged error is a workload symptom; a logged
warning is not evidence unless it says something failed.
  python3 scripts/inventory/draft_framework_decisions.py deepspeed accelerate lightning megatron
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inventory_lib as lib  # noqa: E402

FAILED = r"[Ff]ail|[Ee]rror|[Tt]imed? ?out|[Ee]xceed|out of memory|OOM|\bNaN\b|\bnan\b|\binf\b|[Oo]verflow|[Cc]rash|[Kk]illed|died|[Ll]ost\b|[Hh]ang"
NET = r"MASTER_ADDR|MASTER_PORT|\bport\b|rendezvous|[Cc]onnect|NCCL|socket|TCPStore|hostname"
STORAGE = r"No space|[Dd]isk full|[Qq]uota|[Pp]ermission denied|[Rr]ead-only file"
for fam in sys.argv[1:]:
    inv = json.load(open(os.path.join(lib.INVENTORY_DIR, fam + ".json")))
    dpath = os.path.join(lib.INVENTORY_DIR, fam + ".decisions.json")
    dec = json.load(open(dpath)) if os.path.exists(dpath) else {}
    for s in inv["sites"]:
        if s["id"] in dec:
            continue
        f = s["format"]
        if s["level"] == "raise":
            if s.get("exception") in ("StopIteration", "KeyboardInterrupt", "SystemExit", "GeneratorExit"):
                d = {"decision": "not_evidence", "reason": "control flow, not a failure"}
            elif re.search(STORAGE, f):
                d = {"decision": "evidence", "domain": "storage", "role": "initiator", "rule": "workload.extract.exception"}
            elif re.search(NET, f) and re.search(FAILED, f):
                d = {"decision": "evidence", "domain": "network", "role": "symptom", "rule": "workload.extract.exception"}
            else:
                d = {"decision": "evidence", "domain": "workload", "role": "initiator", "rule": "workload.extract.exception"}
        elif s["level"] in ("ERROR", "CRITICAL"):
            d = {"decision": "evidence", "domain": "workload", "role": "symptom", "rule": None}
        elif re.search(FAILED, f):
            d = {"decision": "evidence", "domain": "workload", "role": "symptom", "rule": None}
        else:
            d = {"decision": "not_evidence", "reason": "a logged warning after which the run goes on (a note on settings, performance or deprecation)"}
        dec[s["id"]] = d
    json.dump(dec, open(dpath, "w"), indent=1)
    print(fam, len(dec))
