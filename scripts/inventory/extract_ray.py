#!/usr/bin/env python3
"""Ray: the exceptions a driver or worker prints (python/ray/exceptions.py), the raylet memory monitor's kill
detail, the worker-death warning and the GCS's node-death message (issue #41).

ray-project/ray is over the fetch size limit: the message strings were read through the search index
(python/ray/exceptions.py at 007329712e97d47f5826cac315d371b565fae757; gcs_node_manager.cc in three wordings
across releases; the raylet's OOM kill detail and worker.py's warning as Ray's OOM-prevention docs quote them)
and transcribed verbatim into a TSV (--src): path, name, syntax, format. Each row is a site.

    scripts/inventory/extract_ray.py --src /tmp/ray/messages.tsv [--out inventory/ray.json]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csource  # noqa: E402

SHAPE = {"python/ray/exceptions.py": "traceback", "src/ray/raylet/node_manager.cc": "driver_warning",
         "python/ray/_private/worker.py": "driver_warning", "src/ray/gcs/gcs_server/gcs_node_manager.cc": "gcs"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--out", default="inventory/ray.json")
    a = ap.parse_args()
    sites = []
    for n, row in enumerate(open(a.src, encoding="utf-8"), start=1):
        if not row.strip() or row.startswith("#"):
            continue
        path, name, syntax, fmt = row.rstrip("\n").split("\t", 3)
        sites.append({"id": f"ray:{path}:{name}", "path": path, "line": None, "level": "error", "format": fmt,
                      "syntax": syntax, "shape": SHAPE[path]})
    inv = {
        "family": "ray",
        "title": "Ray: exceptions, raylet memory-monitor kills, worker death, GCS node death",
        "sources": [{"repo": "ray-project/ray", "commit": "007329712e97d47f5826cac315d371b565fae757", "paths": ["python/ray/exceptions.py"]},
                    {"repo": "ray-project/ray", "commit": None, "paths": ["src/ray/gcs/gcs_server/gcs_node_manager.cc"],
                     "note": "three wordings of the node-death message, read through the search index"},
                    {"repo": "ray-project/ray", "commit": None, "paths": ["doc/source/ray-core/scheduling/ray-oom-prevention.rst"],
                     "note": "the raylet's OOM kill detail and worker.py's worker-death warning as the docs quote them"}],
        "extractor": "scripts/inventory/extract_ray.py",
        "line_shapes": {
            "traceback": {"line": "{msg}", "file": "applog-node-07-rank0.log"},
            "driver_warning": {"line": "2025-11-30 12:14:55,311\tWARNING worker.py:2058 -- {msg}", "file": "applog-node-08-rank1.log"},
            "gcs": {"line": "[2025-11-30 12:14:55,311 W 4242 4300] (gcs_server) gcs_node_manager.cc:304: {msg}", "file": "applog-node-09-rank2.log"},
        },
        "sites": sites,
    }
    csource.write_inventory(a.out, inv)
    csource.report("ray", a.out, a.out.replace(".json", ".decisions.json"), sites)


if __name__ == "__main__":
    main()
