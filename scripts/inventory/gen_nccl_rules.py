#!/usr/bin/env python3
"""Writes rules/nccl-warn-files.jsonc: a table from the NCCL source file a WARN
names (`<file>:<line> NCCL WARN`, the path relative to src/ as NCCL prints it)
to the domain most of that file's WARN sites are evidence of
(inventory/nccl.decisions.json). Its events are context (interesting_node, role
symptom): they say which part of the stack complained when no rule of its own
reads the message; the message-core rules (nccl.jsonc, nccl-warn.jsonc,
nccl-warn-messages.jsonc, nccl-warn-kinds.jsonc) decide
causes. Files renamed upstream keep their old name as well (net_ib.cc before
the transport/net_ib/ split).
"""
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inventory_lib as lib  # noqa: E402

inv = json.load(open(os.path.join(lib.INVENTORY_DIR, "nccl.json")))
dec = json.load(open(os.path.join(lib.INVENTORY_DIR, "nccl.decisions.json")))
votes = collections.defaultdict(collections.Counter)
for s in inv["sites"]:
    d = dec.get(s["id"])
    if s["level"] == "WARN" and d and d["decision"] == "evidence":
        votes[s["path"][len("src/"):]][d["domain"]] += 1
        # an older release printed the same message from the file it then lived in (a .cu before 2.7, net_ib.cc
        # before the transport/net_ib/ split): that file name stands for the same domain
        for v in s.get("versions", []):
            if v.get("src_file") and v["src_file"] != s["path"][len("src/"):]:
                votes[v["src_file"]][d["domain"]] += 1
table = {f: c.most_common(1)[0][0] for f, c in votes.items()}
LEGACY = {"transport/net_ib.cc": "network", "misc/shmutils.cc": "host", "include/shm.h": "host",
          "transport/net_socket.cc": "network", "misc/ibvwrap.cc": "network"}
for f, d in LEGACY.items():
    table.setdefault(f, d)
# Files whose current sites are mostly API checks but whose WARNs in the logs
# people paste (older releases) are the socket ring and /dev/shm failing.
table.update({"bootstrap.cc": "network", "transport/shm.cc": "host"})
symptoms = [{"id": f"ncclwarn.{f}", "title": f"NCCL WARN from {f}", "domain": d, "sub_domain": "nccl_warn",
             "role": "symptom", "weight": 0} for f, d in sorted(table.items())]
symptoms.append({"id": "ncclwarn.*", "title": "NCCL WARN from {file} (not in the table)", "domain": "unknown",
                 "role": "unknown", "weight": 0})
src = inv["sources"][0]
rule = {"id": "ncclw.extract.warn-file-table", "phase": "extract",
        "description": "Any NCCL WARN: context of the domain its source file stands for (inventory/nccl.decisions.json, majority per file)",
        "source": f"NVIDIA/nccl@{src['tag']}:src/include/debug.h",
        "samples": [{"line": "gpu-07:4242:4300 [3] transport/net_ib.cc:1909 NCCL WARN NET/IB : Got completion from peer 10.1.2.3<52101> with status=12 opcode=0 len=0 vendor err 129 (Recv)", "symptom": "ncclwarn.transport/net_ib.cc"},
                    {"line": "gpu-07:4242:4300 [3] graph/xml.cc:812 NCCL WARN XML Parse : Unexpected EOF", "symptom": "ncclwarn.graph/xml.cc"}],
        "benign": ["gpu-07:4242:4300 [3] NCCL INFO transport/net_ib.cc:1100 -> 2",
                   "gpu-07:4242:4300 [3] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.1.2.3<0>"],
        "sources": ["applog"], "literal": "NCCL WARN ",
        "pattern": "(?P<file>[A-Za-z0-9_][A-Za-z0-9_./-]*\\.(?:cc|h|cu|cuh|cpp)):\\d+ NCCL WARN ",
        "emit": {"symptom": "ncclwarn.{file}", "kind": "interesting_node"}}
# aws-ofi-nccl prints through NCCL's logger with the function, not the file
# (include/nccl_ofi_log.h: __PRETTY_FUNCTION__, "NET/OFI " fmt): its WARNs are the
# network plugin's, except CUDA/GDR calls (inventory/aws-ofi-nccl.decisions.json).
ofi_src = json.load(open(os.path.join(lib.INVENTORY_DIR, "aws-ofi-nccl.json")))["sources"][0]
GPU = "\\b(?:CUDA|cuda[A-Za-z]*|cu[A-Z][A-Za-z]+|GDR)\\b"
symptoms.append({"id": "network.ofi_warn", "title": "aws-ofi-nccl (NET/OFI) warning", "domain": "network",
                 "sub_domain": "nccl_warn", "role": "symptom", "weight": 0})
symptoms.append({"id": "gpu.ofi_warn", "title": "aws-ofi-nccl (NET/OFI) warning about a CUDA/GDR call", "domain": "gpu",
                 "sub_domain": "nccl_warn", "role": "symptom", "weight": 0})
ofi_rules = [
    {"id": "ncclw.extract.ofi-warn-gpu", "phase": "extract",
     "description": "An aws-ofi-nccl WARN about a CUDA or GDR call: context on the GPU side of GPUDirect",
     "source": f"aws/aws-ofi-nccl@{ofi_src['commit'][:12]}:include/nccl_ofi_log.h",
     "samples": [{"line": "gpu-07:4242:4300 [3] int nccl_net_ofi_rdma_progress(nccl_net_ofi_rdma_ep_t*):512 NCCL WARN NET/OFI cuStreamCreate failed: 700", "symptom": "gpu.ofi_warn"}],
     "benign": ["gpu-07:4242:4300 [3] NCCL INFO NET/OFI Using CUDA driver version 12040 with runtime 12040"],
     "sources": ["applog"], "literal": "NCCL WARN NET/OFI ",
     "pattern": "NCCL WARN NET/OFI .*?" + GPU,
     "emit": {"symptom": "gpu.ofi_warn", "kind": "interesting_node"}},
    {"id": "ncclw.extract.ofi-warn", "phase": "extract",
     "description": "Any other aws-ofi-nccl WARN: context of the network path (the completion errors have their own rule in launchers.jsonc)",
     "source": f"aws/aws-ofi-nccl@{ofi_src['commit'][:12]}:include/nccl_ofi_log.h",
     "samples": [{"line": "gpu-07:4242:4300 [3] int nccl_net_ofi_rdma_progress(nccl_net_ofi_rdma_ep_t*):1090 NCCL WARN NET/OFI Unable to insert remote address into address vector for device 0. RC: -22", "symptom": "network.ofi_warn"}],
     "benign": ["gpu-07:4242:4300 [3] NCCL INFO NET/OFI Selected provider is efa, fabric is efa-direct (found 4 nics)",
                "gpu-07:4242:4300 [3] int nccl_net_ofi_rdma_progress(nccl_net_ofi_rdma_ep_t*):512 NCCL WARN NET/OFI cuStreamCreate failed: 700"],
     "sources": ["applog"], "literal": "NCCL WARN NET/OFI ",
     "exclude": "NCCL WARN NET/OFI .*?" + GPU,
     "pattern": "NCCL WARN NET/OFI ",
     "emit": {"symptom": "network.ofi_warn", "kind": "interesting_node"}}]
out = os.path.join(lib.TOP, "rules", "nccl-warn-files.jsonc")
with open(out, "w", encoding="utf-8") as f:
    f.write("// NCCL WARN by source file (issue #41): generated by scripts/inventory/gen_nccl_rules.py from\n")
    f.write(f"// inventory/nccl.json (NVIDIA/nccl@{src['commit'][:12]}, {src['tag']}) and inventory/nccl.decisions.json.\n{{\n")
    f.write('  "symptoms": [\n' + ",\n".join("    " + json.dumps(x) for x in symptoms) + "\n  ],\n")
    f.write('  "rules": [\n' + ",\n".join("    " + json.dumps(r) for r in [rule] + ofi_rules) + "\n  ]\n}\n")
print(f"{out}: {len(symptoms)} symptoms")
