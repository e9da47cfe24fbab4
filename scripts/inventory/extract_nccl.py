#!/usr/bin/env python3
"""NCCL: every WARN( site of src/ (core, transports, the in-tree net plugins:
IB, socket, the plugin shims) and the ncclGetErrorString texts.
  python3 scripts/inventory/extract_nccl.py [GITDIR [COMMIT]]
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inventory_lib as lib  # noqa: E402

snap = lib.Snapshot(sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/NVIDIA+nccl/repo",
                    sys.argv[2] if len(sys.argv) > 2 else None)
sites = []
for path in snap.files(["src/*.cc", "src/*.h", "src/*.cu", "src/*.cuh", "src/*.cpp", "src/*.in"]):
    text = snap.read(path)
    for line, fmt in lib.c_sites(text, "WARN"):
        # NCCL prints __FILE__ as compiled: the path below src/
        sites.append({"path": path, "line": line, "level": "WARN", "format": fmt, "syntax": "printf",
                      "src_file": path[len("src/"):]})
init = snap.read("src/init.cc")
body = init[init.find("const char* ncclGetErrorString"):]
body = body[:body.find("\n}\n")]
for m in re.finditer(r'case\s+(nccl\w+)\s*:\s*return\s*"([^"]*)"', body):
    sites.append({"path": "src/init.cc", "line": init.count("\n", 0, init.find(m.group(0))) + 1, "level": "result",
                  "format": m.group(2), "syntax": "literal", "slug": "result-" + m.group(1), "shape": "result"})
lib.assign_ids("nccl", sites)
tag = snap.tag()
lib.write_inventory({
    "family": "nccl", "title": "NCCL WARN sites and ncclGetErrorString",
    "sources": [{"repo": "NVIDIA/nccl", "commit": snap.commit, "tag": tag, "paths": ["src/**"]}],
    "extractor": "scripts/inventory/extract_nccl.py",
    "line_shapes": {
        "default": "gpu-07:4242:4300 [3] {src_file}:{line} NCCL WARN {msg}",
        "result": "torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:317, {msg}, NCCL version 2.21.5"},
    "shapes": ["default"],
    "sites": sites})
