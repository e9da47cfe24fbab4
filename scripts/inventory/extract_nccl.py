#!/usr/bin/env python3
"""NCCL: every WARN( site of src/ (core, transports, the in-tree net plugins:
IB, socket, the plugin shims) and the ncclGetErrorString texts.
  python3 scripts/inventory/extract_nccl.py [GITDIR [COMMIT]]

Older releases (OLD_TAGS, read with `git show TAG:path` from the same
repository) print some of these messages in other words: a WARN of an old
release whose format is not one of the pinned commit's is attached to the
current site it is the ancestor of (same message, most words in common, the
same source file preferred) as `versions: [{"tag", "format", "src_file"}]`; one that no current site descends
from is a site of its own with `older_only`.
"""
import json
import os
import re
import sys
import tempfile

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

# Newest first: a wording is attached with the newest release that still printed it.
OLD_TAGS = ["v2.21.5-1", "v2.20.5-1", "v2.19.4-1", "v2.18.3-1", "v2.16.5-1", "v2.15.5-1", "v2.14.3-1", "v2.13.4-1",
            "v2.12.12-1", "v2.11.4-1", "v2.10.3-1", "v2.9.9-1", "v2.8.4-1", "v2.7.8-1", "v2.6.4-1", "v2.5.7-1",
            "v2.4.8-1", "v2.3.7-1"]
PATTERNS = ["src/*.cc", "src/*.h", "src/*.cu", "src/*.cuh", "src/*.cpp", "src/*.in"]


warn_sites = [x for x in sites if x["level"] == "WARN"]
current = {x["format"] for x in warn_sites}
unmatched = {}
def old_sites(tag):
    """(path, format) of every WARN of a release; cached under the temp dir by
    the tag's commit (reading ~300 files through git show takes a minute)."""
    old = lib.Snapshot(snap.where, tag)
    cache = os.path.join(tempfile.gettempdir(), f"inventory-nccl-{old.commit}.json")
    if os.path.exists(cache):
        return json.load(open(cache))
    out = [(path, fmt) for path in old.files(PATTERNS) for _, fmt in lib.c_sites(old.read(path), "WARN")]
    json.dump(out, open(cache, "w"))
    return out


for tag in OLD_TAGS:
    seen = set()
    for path, fmt in old_sites(tag):
        if fmt in current or fmt in seen:
            continue
        seen.add(fmt)
        site = lib.ancestor(fmt, path, warn_sites)
        if site is None:
            unmatched.setdefault(fmt, (tag, path))
            continue
        vs = site.setdefault("versions", [])
        if all(v["format"] != fmt for v in vs):
            # the newest release that still printed it (OLD_TAGS run newest first)
            vs.append({"tag": tag, "format": fmt, "src_file": path[len("src/"):]})
# An old wording no current site descends from is a site of its own (older_only: the newest tag that printed it),
# decided like the others: a failure message NCCL dropped or rewrote is still in the logs of jobs that ran it.
older = [{"path": p, "line": None, "level": "WARN", "format": f, "syntax": "printf", "src_file": p[len("src/"):],
          "older_only": [t], "slug": "older-" + lib.slug(f)} for f, (t, p) in sorted(unmatched.items())]
lib.assign_ids("nccl", older)
sites += older


def old_results(tag):
    """ncclGetErrorString's texts of a release (src/init.cc, init.cu before 2.4)."""
    old = lib.Snapshot(snap.where, tag)
    text = old.read("src/init.cc" if old.files(["src/init.cc"]) else "src/init.cu")   # init.cu before 2.4
    body = text[text.find("const char* ncclGetErrorString"):]
    body = body[:body.find("\n}\n")]
    return re.findall(r'case\s+(nccl\w+)\s*:\s*return\s*"([^"]*)"', body)


# Before 2.17 the result texts were shorter ("unhandled system error"): PyTorch prints them inside its
# 'NCCL error in: <file>:<line>, <text>, NCCL version ...' and they are the older wordings of the result sites.
results = {x["id"].rsplit(":", 1)[1]: x for x in sites if x.get("level") == "result"}
for tag in OLD_TAGS:
    for name, text in old_results(tag):
        site = results.get("result-" + name)
        if site is None or text == site["format"]:
            continue
        vs = site.setdefault("versions", [])
        if all(v["format"] != text for v in vs):
            vs.append({"tag": tag, "format": text, "src_file": "init.cc"})
n_versions = sum(len(x.get("versions", [])) for x in sites)
print(f"nccl: {n_versions} older wordings on {sum(1 for x in sites if x.get('versions'))} sites; "
      f"{len(unmatched)} old WARN formats with no current counterpart (dropped or rewritten)", file=sys.stderr)
tag = snap.tag()
lib.write_inventory({
    "family": "nccl", "title": "NCCL WARN sites and ncclGetErrorString",
    "sources": [{"repo": "NVIDIA/nccl", "commit": snap.commit, "tag": tag, "paths": ["src/**"],
                 "older_tags": OLD_TAGS}],
    "extractor": "scripts/inventory/extract_nccl.py",
    "line_shapes": {
        "default": "gpu-07:4242:4300 [3] {src_file}:{line} NCCL WARN {msg}",
        "result": "torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:317, {msg}, NCCL version 2.21.5"},
    "shapes": ["default"],
    "sites": sites})
