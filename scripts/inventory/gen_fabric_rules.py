#!/usr/bin/env python3
"""Writes rules/ibv-wc-status.jsonc, rules/fi-strerror.jsonc and rules/ucx-status.jsonc
from the inventories and their decisions: each evidence entry a symptom with its
domain and role, one extract rule per table. A text distinctive on its own is read
wherever it stands; a generic one ("fatal error", "Input/output error") only beside
the status word or library that prints it. Edit the decisions, re-run.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inventory_lib as lib  # noqa: E402


def re2_escape(s):
    return "".join("\\" + c if c in "\\.^$|?*+()[]{}" else c for c in s)


def alt(xs):
    return "|".join(re2_escape(x) for x in sorted(set(xs), key=lambda x: (-len(x), x)))


SPECS = {
    "ibv-wc-status": {"prefix": "ibv", "rule": "ibv.extract.wc-status", "sub": "ib_completion",
                      # Only the texts no other library prints are read anywhere; the rest beside the
                      # status word. Few literals: Vectorscan's literal matcher has a cliff (docs/performance.md).
                      "special": {"transport retry counter exceeded", "RNR retry counter exceeded", "Work Request Flushed Error"},
                      "literal": ["retry counter exceeded", "Flushed Error", " error"],
                      "anchor": "(?:Failed status |[Ss]tatus[=:]? ?(?:\\d+ )?\\(?|completion with error:? )",
                      "samples": ["Failed status transport retry counter exceeded (12) for wr_id 2",
                                  "[1733460000.123456] [gpu-07:4242:0]          ib_iface.c:771  UCX  ERROR   send completion with error: Work Request Flushed Error",
                                  "Failed status fatal error (19) for wr_id 2"],
                      "benign": ["Completion status: success", "This job will abort if a fatal error occurs"],
                      "source": "linux-rdma/rdma-core@{tag}:libibverbs/enum_strs.c"},
    "fi-strerror": {"prefix": "fi", "rule": "fi.extract.strerror", "sub": "libfabric",
                    "generic": None,  # every FI_E* text only on a libfabric or aws-ofi-nccl line
                    "literal": ["NET/OFI", "libfabric:"],
                    "anchor": "(?:NET/OFI|libfabric:).*?",
                    "samples": ["gpu-07:4242:4300 [3] nccl_ofi_rdma.cpp:1090 NCCL WARN NET/OFI Request completed with error. RC: 270. Error: 270 (Memory registration limit exceeded). Completed length: 0",
                                "libfabric:4242:1733460000::efa:cq:efa_rdm_cq_readerr():112<warn> Unable to read completion: Truncation error"],
                    "benign": ["gpu-07:4242:4300 [3] NCCL INFO NET/OFI Selected provider is efa, fabric is efa-direct (found 4 nics)",
                               "checksum verified, no CRC error"],
                    "source": "ofiwg/libfabric@{tag}:src/fabric.c"},
    "ucx-status": {"prefix": "ucx", "rule": "ucx.extract.status", "sub": "ucx",
                   "generic": None,  # every UCS text is read only on a UCX error or warning line
                   "literal": ["UCX"],  # the texts are common words; the library name is the rarer literal
                   "anchor": "UCX\\s+(?:ERROR|WARN)\\b.*?",
                   "samples": ["[1733460000.123456] [gpu-07:4242:0]          ucp_ep.c:1544 UCX  ERROR   ep 0x7f3a2c000000: error 'Endpoint timeout' on rc_mlx5/mlx5_0:1 will not be handled since no error callback is installed",
                               "[1733460000.123456] [gpu-07:4242:0]       ib_device.c:1250 UCX  ERROR ibv_create_ah(dlid=49152 sl=0 port=1 src_path_bits=0) failed: Input/output error"],
                   "benign": ["[1733460000.123456] [gpu-07:4242:0]     ucp_context.c:1081 UCX  WARN  network device 'mlx5_2:1' is not available, please use one or more of: 'mlx5_0:1'(IB)",
                              "Input/output error while reading /etc/hosts.bak"],
                   "source": "openucx/ucx@{tag}:src/ucs/type/status.c"},
}

for fam, sp in SPECS.items():
    inv = json.load(open(os.path.join(lib.INVENTORY_DIR, fam + ".json")))
    dec = json.load(open(os.path.join(lib.INVENTORY_DIR, fam + ".decisions.json")))
    src = inv["sources"][0]
    tag = src.get("tag") or src["commit"]
    symptoms, texts = [], []
    for s in inv["sites"]:
        d = dec.get(s["id"])
        if not d or d["decision"] != "evidence":
            continue
        texts.append(s["format"])
        symptoms.append({"id": f"{sp['prefix']}.{s['format']}", "title": f"{s['format']} ({s['name']})",
                         "domain": d["domain"], "sub_domain": sp["sub"], "role": d["role"],
                         "weight": 50 if d["role"] == "initiator" else 0})
    if "special" in sp:
        sp["generic"] = {t for t in texts if t not in sp["special"]}
    if sp["generic"] is None:
        pattern = sp["anchor"] + "(?P<st>" + alt(texts) + ")"
        emit = sp["prefix"] + ".{st}"
    else:
        special = [t for t in texts if t not in sp["generic"]]
        generic = [t for t in texts if t in sp["generic"]]
        pattern = "(?:(?P<st>" + alt(special) + ")"
        if generic:
            pattern += "|" + sp["anchor"] + "(?P<gst>" + alt(generic) + ")"
        pattern += ")"
        emit = sp["prefix"] + ".{st}{gst}" if generic else sp["prefix"] + ".{st}"
    rule = {"id": sp["rule"], "phase": "extract",
            "description": f"{inv['title']}: every text decided as evidence in inventory/{fam}.decisions.json",
            "source": sp["source"].format(tag=tag), "samples": sp["samples"], "benign": sp["benign"],
            "sources": ["applog"], "literal": sp.get("literal") or sorted(set(texts)), "pattern": pattern,
            "emit": {"symptom": emit, "kind": "bad_node"}}
    out = os.path.join(lib.TOP, "rules", fam + ".jsonc")
    with open(out, "w", encoding="utf-8") as f:
        f.write(f"// {inv['title']} (issue #41): generated by scripts/inventory/gen_fabric_rules.py from\n")
        f.write(f"// inventory/{fam}.json ({src['repo']}@{src['commit'][:12]}) and inventory/{fam}.decisions.json.\n{{\n")
        f.write('  "symptoms": [\n' + ",\n".join("    " + json.dumps(x, ensure_ascii=False) for x in symptoms) + "\n  ],\n")
        f.write('  "rules": [\n    ' + json.dumps(rule, ensure_ascii=False) + "\n  ]\n}\n")
    print(f"{out}: {len(symptoms)} symptoms")
