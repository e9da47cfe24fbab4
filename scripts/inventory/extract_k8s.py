#!/usr/bin/env python3
"""Kubernetes: kubelet event reasons, eviction messages, container termination reasons, node conditions.

kubernetes/kubernetes and containerd are over the fetch size limit or not needed whole: their Go const blocks
were read through the search index and saved, verbatim, under one directory (--src): event.go
(pkg/kubelet/events/event.go), eviction_helpers.go (pkg/kubelet/eviction/helpers.go), node_conditions.go
(staging/src/k8s.io/api/core/v1/types.go), containerd_helpers.go (containerd pkg/cri/server/helpers.go).
Each string constant is a site; a reason several constants share is one site.

    scripts/inventory/extract_k8s.py --src /tmp/k8s [--out inventory/k8s.json]
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csource  # noqa: E402

FILES = {
    "event.go": ("kubernetes/kubernetes", "819ecd4dbe6afbaa4f6227d22b9c46938d48e603", "pkg/kubelet/events/event.go", "event_reason"),
    "eviction_helpers.go": ("kubernetes/kubernetes", None, "pkg/kubelet/eviction/helpers.go", "event_evicted"),
    "node_conditions.go": ("kubernetes/api", None, "core/v1/types.go", "describe_condition"),
    "containerd_helpers.go": ("containerd/containerd", None, "pkg/cri/server/helpers.go", "describe_reason"),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--out", default="inventory/k8s.json")
    a = ap.parse_args()
    sites, seen = [], set()
    for fname, (repo, commit, path, shape) in FILES.items():
        text = open(os.path.join(a.src, fname)).read()
        for m in re.finditer(r"^\s*(\w+)(?:\s+\w+)?\s*=\s*\"((?:[^\"\\]|\\.)*)\"", text, re.M):
            name, value = m.group(1), csource.unescape(m.group(2))
            if name == "unsupportedEvictionSignal":
                continue  # an internal error string, never shown in an event
            if name == "Reason" and fname == "eviction_helpers.go":
                continue  # "Evicted" is event.go's family too: the eviction messages are its sites
            sid = f"k8s:{path}:{value.strip()}"
            if sid in seen:
                continue
            seen.add(sid)
            site_shape = shape
            if fname == "node_conditions.go" and value == "Ready":
                site_shape = "describe_not_ready"
            sites.append({"id": sid, "path": path, "repo": repo, "line": text.count("\n", 0, m.start()) + 1,
                          "level": "reason", "const": name, "format": value.strip(),
                          "syntax": "go-printf" if "%" in value else "literal", "shape": site_shape})
    inv = {
        "family": "k8s",
        "title": "Kubernetes kubelet event reasons, eviction messages, container termination reasons, node conditions",
        "sources": [{"repo": r, "commit": c, "paths": [p],
                     "note": "read through the search index (the repository is over the fetch size limit); const blocks kept verbatim"}
                    for r, c, p, _ in FILES.values()],
        "extractor": "scripts/inventory/extract_k8s.py",
        "line_shapes": {
            "event_reason": {"line": "12m         Warning   {msg}   pod/trainer-worker-3   (see kubectl describe pod trainer-worker-3)",
                             "file": "k8s-events.txt", "benign": ["Scheduled", "Pulled"]},
            "event_evicted": {"line": "12m         Warning   Evicted   pod/trainer-worker-3   {msg}",
                              "file": "k8s-events-evicted.txt", "benign": []},
            "describe_reason": {"line": "      Reason:       {msg}", "file": "k8s-describe-pod.txt", "benign": ["Completed"]},
            "describe_condition": {"line": "  {msg}   True    Mon, 30 Nov 2025 12:14:10 +0000   Mon, 30 Nov 2025 12:14:10 +0000   KubeletHasPressure   kubelet reports the condition",
                                   "file": "k8s-describe-node.txt", "benign": ["Ready"]},
            "describe_not_ready": {"line": "  {msg}   Unknown   Mon, 30 Nov 2025 12:14:10 +0000   Mon, 30 Nov 2025 12:15:10 +0000   NodeStatusUnknown   Kubelet stopped posting node status.",
                                   "file": "k8s-describe-node-lost.txt", "benign": []},
        },
        "sites": sites,
    }
    csource.write_inventory(a.out, inv)
    csource.report("k8s", a.out, a.out.replace(".json", ".decisions.json"), sites)


if __name__ == "__main__":
    main()
