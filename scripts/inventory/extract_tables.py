#!/usr/bin/env python3
"""Status-string tables of the fabric libraries, one inventory each:
rdma-core ibv_wc_status_str, libfabric fi_strerror (its own errstr[]; codes
below FI_ERRNO_OFFSET are strerror, glibc's table), UCX ucs_status_string and
NCCL ncclGetErrorString, rdma-core ibv_event_type_str (async events, as NCCL's IB
transport prints them). Entries are `[KEY] = "text"` or `case KEY: return "text";`.
  python3 scripts/inventory/extract_tables.py [family...]   (snapshots under /work/.mirror)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inventory_lib as lib  # noqa: E402

M = os.environ.get("MIRROR", "/work/.mirror")

TABLES = [
    {"family": "ibv-wc-status", "repo": "linux-rdma/rdma-core", "git": f"{M}/linux-rdma+rdma-core/repo",
     "path": "libibverbs/enum_strs.c", "function": "ibv_wc_status_str",
     "title": "rdma-core ibv_wc_status_str: work completion status texts",
     "line_shapes": {
         "pingpong": "Failed status {msg} ({code}) for wr_id 2",
         "ucx": "[1733460000.123456] [gpu-07:4242:0]          ib_iface.c:771  UCX  ERROR   send completion with error: {msg}",
         "nccl": "gpu-07:4242:4300 [3] transport/net_ib.cc:2264 NCCL WARN NET/IB: Got completion from peer 10.1.2.3<52101> with status={code} ({msg}) opcode=0 len=0 vendor err 129"},
     "shapes": ["pingpong", "ucx"]},
    {"family": "fi-strerror", "repo": "ofiwg/libfabric", "git": f"{M}/ofiwg+libfabric/repo",
     "path": "src/fabric.c", "function": "errstr[]",
     "title": "libfabric fi_strerror: the FI_E* texts above FI_ERRNO_OFFSET",
     "line_shapes": {
         "ofi": "gpu-07:4242:4300 [3] nccl_ofi_rdma.cpp:1090 NCCL WARN NET/OFI Request completed with error. RC: {code}. Error: {code} ({msg}). Completed length: 0",
         "libfabric": "libfabric:4242:1733460000::efa:cq:efa_rdm_cq_readerr():112<warn> Unable to read completion: {msg}"},
     "shapes": ["ofi", "libfabric"]},
    {"family": "ucx-status", "repo": "openucx/ucx", "git": f"{M}/openucx+ucx/repo",
     "path": "src/ucs/type/status.c", "function": "ucs_status_string",
     "title": "UCX ucs_status_string: UCS status texts",
     "line_shapes": {
         "ucx": "[1733460000.123456] [gpu-07:4242:0]          ucp_ep.c:1544 UCX  ERROR   ep 0x7f3a2c000000: error '{msg}' on rc_mlx5/mlx5_0:1 will not be handled since no error callback is installed",
         "ucc": "[1733460000.123456] [gpu-07:4242:0] UCC ERROR ucc_tl_ucp_send_nb: failed: {msg}"},
     "shapes": ["ucx"]},
    {"family": "ibv-event-type", "repo": "linux-rdma/rdma-core", "git": f"{M}/linux-rdma+rdma-core/repo",
     "path": "libibverbs/enum_strs.c", "function": "ibv_event_type_str",
     "title": "rdma-core ibv_event_type_str: HCA async event texts, as NCCL's IB transport prints them",
     "line_shapes": {
         # NCCL up to 2.18 (src/transport/net_ib.cc): every event alike
         "nccl_old": "gpu-07:4242:4300 [3] transport/net_ib.cc:95 NCCL WARN NET/IB : Got async event : {msg}",
         # NCCL 2.19+ (src/transport/net_ib/common.cc ncclIbAsyncThreadMain): non-fatal and device-fatal events
         "nccl": "gpu-07:4242:4300 [3] transport/net_ib/common.cc:179 NCCL WARN NET/IB : mlx5_0:1 Got non-fatal async event: {msg}({code})",
         "nccl_fatal": "gpu-07:4242:4300 [3] transport/net_ib/common.cc:123 NCCL WARN NET/IB : mlx5_0:1 async fatal event: {msg}"},
     "shapes": ["nccl_old"],
     # which of NCCL 2.19+'s lines prints the event by its text alone (CQ/QP/SRQ events carry pointers first)
     "site_shapes": {"IBV_EVENT_DEVICE_FATAL": ["nccl_old", "nccl_fatal"],
                     **{k: ["nccl_old", "nccl"] for k in (
                         "IBV_EVENT_PATH_MIG_ERR", "IBV_EVENT_PORT_ERR", "IBV_EVENT_PATH_MIG", "IBV_EVENT_PORT_ACTIVE",
                         "IBV_EVENT_SQ_DRAINED", "IBV_EVENT_LID_CHANGE", "IBV_EVENT_PKEY_CHANGE", "IBV_EVENT_SM_CHANGE",
                         "IBV_EVENT_QP_LAST_WQE_REACHED", "IBV_EVENT_CLIENT_REREGISTER", "IBV_EVENT_SRQ_LIMIT_REACHED")}}},
]


def entries(text, function):
    """(key, text, line) of every entry of the table in `function`'s body."""
    start = text.find(function)
    body = text[start:text.find("\n}", start)]
    off = start
    out = []
    for m in re.finditer(r'\[\s*([A-Z_0-9]+)(?:\s*-\s*[A-Z_]+)?\s*\]\s*=\s*"((?:[^"\\]|\\.)*)"', body):
        out.append((m.group(1), m.group(2), text.count("\n", 0, off + m.start()) + 1))
    for m in re.finditer(r'case\s+([A-Za-z_0-9]+)\s*:\s*return\s*"((?:[^"\\]|\\.)*)"', body):
        out.append((m.group(1), m.group(2), text.count("\n", 0, off + m.start()) + 1))
    return out


def _unused(snap, names):
    """Numbers of enum constants, looked up in the repository's headers."""
    vals = {}
    for path in snap.files(["*.h", "*.h.in"]):
        if not re.search(r"verbs\.h$|fi_errno\.h$|status\.h$", path):
            continue
        t = snap.read(path)
        n = -1
        for m in re.finditer(r"\b([A-Z][A-Z_0-9]+)\s*(?:=\s*(-?\w+))?\s*,", t):
            k, v = m.group(1), m.group(2)
            try:
                n = int(v, 0) if v is not None else n + 1
            except ValueError:
                n = vals.get(v, n + 1)
            if k in names and k not in vals:
                vals[k] = n
    return vals


only = set(sys.argv[1:])
for t in TABLES:
    if only and t["family"] not in only:
        continue
    snap = lib.Snapshot(t["git"])
    text = snap.read(t["path"])
    ents = entries(text, t["function"])
    if t["family"] in ("ibv-wc-status", "ibv-event-type"):  # designated initializers in enum order from 0
        vals = {k: i for i, (k, _, _) in enumerate(ents)}
    elif t["family"] == "fi-strerror":      # errstr[code - FI_ERRNO_OFFSET], offset 256
        vals = {k: 256 + i for i, (k, _, _) in enumerate(ents)}
    else:
        head = snap.read("src/ucs/type/status.h")
        vals = {m.group(1): int(m.group(2)) for m in re.finditer(r"\b(UCS_\w+)\s*=\s*(-?\d+)", head)}
    sites = [{"id": f"{t['family']}:{k}", "path": t["path"], "line": ln, "level": "error", "format": s,
              "syntax": "literal", "name": k, "code": abs(vals.get(k, 0)),
              **({"shape": t["site_shapes"][k]} if k in t.get("site_shapes", {}) else {})} for k, s, ln in ents]
    lib.write_inventory({"family": t["family"], "title": t["title"],
                         "sources": [{"repo": t["repo"], "commit": snap.commit, "tag": snap.tag(), "paths": [t["path"]]}],
                         "extractor": "scripts/inventory/extract_tables.py",
                         "line_shapes": t["line_shapes"], "shapes": t["shapes"], "sites": sites})
