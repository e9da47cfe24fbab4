#!/usr/bin/env python3
"""Ray: the raylet (node manager, worker pool, memory monitor), the GCS's node manager and client, the exceptions a driver
or worker prints (python/ray/exceptions.py) and Ray Train's failure exceptions (issue #41).

ray-project/ray is over the fetch size limit, so its files were read through the search index (read_file) at the
commit the index holds for each path (SOURCES below) and saved as excerpts of their message statements, verbatim,
under --src (/tmp/ray-src/<commit8>/<path>; not committed). From each excerpt every RAY_LOG / RAY_LOG_EVERY_MS /
RAY_EVENT statement of level WARNING, ERROR or FATAL is a site, and so is every message built for the driver or
for a worker's exit detail (an `error_message << ...` stream, `absl::StrCat(...)`, a literal handed on); Python
excerpts give the messages passed to an exception's constructor. The exceptions' printed texts (their __str__),
three older wordings of the GCS node-death message and the raylet's older OOM-kill detail were transcribed
earlier through the same index (TRANSCRIBED; exceptions.py at 007329712e).

    scripts/inventory/extract_ray.py [--src /tmp/ray-src] [--out inventory/ray.json]
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csource  # noqa: E402
import inventory_lib as lib  # noqa: E402

REPO = "ray-project/ray"
# path -> full commit it was read at (the newest version the search index holds for that path)
SOURCES = {
    "src/ray/raylet/node_manager.cc": "a3d430a66d7b75bd1433f41f47b07715e7d3fb83",
    "src/ray/raylet/worker_pool.cc": "b6d803b064272228159a387c78b902f3db658d75",
    "src/ray/common/memory_monitor.cc": "050de107b6e34076819adf4e029ce82e66c9d6f0",
    "src/ray/gcs/gcs_node_manager.cc": "2cc65b9a47e9e408a0fd2dc5c8ec59798d94f6b4",
    "python/ray/train/v2/api/exceptions.py": "53290b4efa51eec923fd5422419c61f8cf3ab994",
    "src/ray/rpc/gcs_server/gcs_rpc_client.h": "0b63187d191e9cf2cd59e61096562edc7e34b92b",
}
COMPONENT = {"src/ray/gcs/gcs_node_manager.cc": "gcs", "src/ray/rpc/gcs_server/gcs_rpc_client.h": "raylet"}

TRANSCRIBED = [
    ('python/ray/exceptions.py', 'TaskCancelledError', 'python-format',
     'ray.exceptions.TaskCancelledError: Task: {0} was cancelled'),
    ('python/ray/exceptions.py', 'LocalRayletDiedError', 'literal',
     "ray.exceptions.LocalRayletDiedError: The task's local raylet died. Check raylet.out for more information."),
    ('python/ray/exceptions.py', 'WorkerCrashedError', 'literal',
     'ray.exceptions.WorkerCrashedError: The worker died unexpectedly while executing this task. Check python-core-worker-*.log files for more information.'),
    ('python/ray/exceptions.py', 'RayActorError', 'literal',
     'ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.'),
    ('python/ray/exceptions.py', 'RayActorError-creation', 'python-format',
     'ray.exceptions.RayActorError: The actor died because of an error raised in its creation task, {0}'),
    ('python/ray/exceptions.py', 'RaySystemError', 'python-format',
     'ray.exceptions.RaySystemError: System error: {0}'),
    ('python/ray/exceptions.py', 'ObjectStoreFullError', 'python-format',
     'ray.exceptions.ObjectStoreFullError: {0} The local object store is full of objects that are still in scope and cannot be evicted. Tip: Use the `ray memory` command to list active objects in the cluster.'),
    ('python/ray/exceptions.py', 'ObjectLostError', 'python-format',
     'ray.exceptions.ObjectLostError: Failed to retrieve object {0}. All copies of {1} have been lost due to node failure. Check cluster logs (`/tmp/ray/session_latest/logs`) for more information about the failure.'),
    ('python/ray/exceptions.py', 'ObjectFetchTimedOutError', 'python-format',
     'ray.exceptions.ObjectFetchTimedOutError: Failed to retrieve object {0}. Fetch for object {1} timed out because no locations were found for the object. This may indicate a system-level bug.'),
    ('python/ray/exceptions.py', 'ReferenceCountingAssertionError', 'python-format',
     'ray.exceptions.ReferenceCountingAssertionError: Failed to retrieve object {0}. The object has already been deleted by the reference counting protocol. This should not happen.'),
    ('python/ray/exceptions.py', 'OwnerDiedError', 'python-format',
     "ray.exceptions.OwnerDiedError: Failed to retrieve object {0}. The object's owner has exited. This is the Python worker that first created the ObjectRef via `.remote()` or `ray.put()`. Check cluster logs ({1}) for more information about the Python worker failure."),
    ('python/ray/exceptions.py', 'ObjectReconstructionFailedError', 'python-format',
     'ray.exceptions.ObjectReconstructionFailedError: Failed to retrieve object {0}. The object cannot be reconstructed because it was created by an actor, ray.put() call, or its ObjectRef was created by a different worker.'),
    ('python/ray/exceptions.py', 'ObjectReconstructionFailedMaxAttemptsExceededError', 'python-format',
     'ray.exceptions.ObjectReconstructionFailedMaxAttemptsExceededError: Failed to retrieve object {0}. The object cannot be reconstructed because the maximum number of task retries has been exceeded. To prevent this error, set `@ray.remote(max_retries=<num retries>)` (default 3).'),
    ('python/ray/exceptions.py', 'ObjectReconstructionFailedLineageEvictedError', 'python-format',
     'ray.exceptions.ObjectReconstructionFailedLineageEvictedError: Failed to retrieve object {0}. The object cannot be reconstructed because its lineage has been evicted to reduce memory pressure. To prevent this error, set the environment variable RAY_max_lineage_bytes=<bytes> (default 1GB) during `ray start`.'),
    ('python/ray/exceptions.py', 'GetTimeoutError', 'python-format',
     'ray.exceptions.GetTimeoutError: {0}'),
    ('python/ray/exceptions.py', 'RuntimeEnvSetupError', 'python-format',
     'ray.exceptions.RuntimeEnvSetupError: Failed to setup runtime environment. {0}'),
    ('python/ray/exceptions.py', 'TaskPlacementGroupRemoved', 'literal',
     'ray.exceptions.TaskPlacementGroupRemoved: The placement group corresponding to this task has been removed.'),
    ('python/ray/exceptions.py', 'ActorPlacementGroupRemoved', 'literal',
     'ray.exceptions.ActorPlacementGroupRemoved: The placement group corresponding to this Actor has been removed.'),
    ('python/ray/exceptions.py', 'PendingCallsLimitExceeded', 'python-format',
     'ray.exceptions.PendingCallsLimitExceeded: {0}'),
    ('python/ray/exceptions.py', 'TaskUnschedulableError', 'python-format',
     'ray.exceptions.TaskUnschedulableError: The task is not schedulable: {0}'),
    ('python/ray/exceptions.py', 'ActorUnschedulableError', 'python-format',
     'ray.exceptions.ActorUnschedulableError: The actor is not schedulable: {0}'),
    ('python/ray/exceptions.py', 'OutOfMemoryError-task', 'literal',
     'ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.'),
    ('python/ray/exceptions.py', 'OutOfMemoryError-workers', 'python-format',
     'ray.exceptions.OutOfMemoryError: {0} worker(s) were killed due to the node running low on memory.'),
    ('src/ray/raylet/node_manager.cc', 'oom-kill-detail', 'python-format',
     'Memory on the node (IP: {0}, ID: {1}) where the task (task ID: {2}, name={3}, pid={4}, memory used={5}GB) was running was {6}GB / {7}GB ({8}), which exceeds the memory usage threshold of {9}. Ray killed this worker (ID: {10}) because it was the most recently scheduled task; to see more information about memory usage on this node, use `ray logs raylet.out -ip {0}`.'),
    ('python/ray/_private/worker.py', 'worker-died-system-error', 'python-format',
     'A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker. RayTask ID: {0} Worker ID: {1} Node ID: {2} Worker IP address: {3} Worker port: {4} Worker PID: {5} Worker exit type: SYSTEM_ERROR Worker exit detail: {6}'),
    ('src/ray/gcs/gcs_server/gcs_node_manager.cc', 'node-dead-v3', 'python-format',
     'The node with node id: {0} and address: {1} and node name: {2} has been marked dead because the detector has missed too many heartbeats from it. This can happen when a \t(1) raylet crashes unexpectedly (OOM, preempted node, etc.) '),
    ('src/ray/gcs/gcs_server/gcs_node_manager.cc', 'node-dead-v2', 'python-format',
     'The node with node id: {0} and ip: {1} has been marked dead because the detector has missed too many heartbeats from it. This can happen when a raylet crashes unexpectedly or has lagging heartbeats.'),
    ('src/ray/gcs/gcs_server/gcs_node_manager.cc', 'node-dead-v1', 'python-format',
     'The node with node id {0} has been marked dead because the detector has missed too many heartbeats from it.'),
]

TRANSCRIBED_SHAPE = {"python/ray/exceptions.py": ["traceback", "worker_prefixed"],
                     "src/ray/raylet/node_manager.cc": ["driver_warning", "raylet_prefixed"],
                     "python/ray/_private/worker.py": ["driver_warning", "raylet_prefixed"],
                     "src/ray/gcs/gcs_server/gcs_node_manager.cc": ["gcs", "driver_warning"]}

_HEAD = re.compile(r"^\s*(?:RAY_LOG|RAY_LOG_EVERY_MS|RAY_EVENT|RAY_EVENT_EVERY_MS)\((INFO|DEBUG|WARNING|ERROR|FATAL)\b")
# streams the raylet or GCS builds and hands on: to the driver (error_message / warning_message, pushed as a job
# error), or as a worker's exit detail / task error (the rest)
_BUILDER = re.compile(r"^\s*(error_message|warning_message|stream|worker_exit_message_ss|oom_kill_details_ss|oom_kill_suggestions_ss)\s*$|^\s*(error_message|warning_message|stream|worker_exit_message_ss|oom_kill_details_ss|oom_kill_suggestions_ss)\s*<<")
PUSHED = {"error_message": "ERROR", "warning_message": "WARNING"}


def statements(text):
    """The excerpt's statements: lines from a start to a line ending in `;` or `+` (a literal handed on)."""
    out, cur, start = [], [], 0
    for n, line in enumerate(text.split("\n"), start=1):
        if not cur and (not line.strip() or line.lstrip().startswith(("//", "#"))):
            continue
        if not cur:
            start = n
        cur.append(line)
        if line.rstrip().endswith((";", "+")):
            out.append((start, "\n".join(cur)))
            cur = []
    return out


def cpp_site(path, line, stmt):
    m = _HEAD.match(stmt)
    if m:
        level = m.group(1)
        if level in ("INFO", "DEBUG"):
            return None
        body = stmt[stmt.find("<<") + 2:].rstrip().rstrip(";") if "<<" in stmt else ""
        fmt = lib.stream_format([body]) if body else ""
        kind = "log"
    else:
        b = _BUILDER.match(stmt.split("\n")[0] + ("" if "<<" in stmt.split("\n")[0] else " <<"))
        if b and "<<" in stmt:
            name = b.group(1) or b.group(2)
            level = PUSHED.get(name, "detail")
            fmt = lib.stream_format([stmt[stmt.find("<<") + 2:].rstrip().rstrip(";")])
            kind = "pushed" if name in PUSHED else "detail"
        elif "absl::StrCat(" in stmt:
            args, _ = lib.call_args(stmt, stmt.find("absl::StrCat(") + len("absl::StrCat"))
            fmt, level, kind = lib.stream_format(args), "detail", "detail"
        elif re.match(r'^\s*(?:std::string \w+ = |return Status::\w+\(\s*|(?:ray::)?Status::\w+\(|callback\((?:ray::)?Status::\w+\()?"', stmt):
            lits = re.findall(r'"((?:[^"\\\n]|\\.)*)"', stmt)
            fmt = "".join(lits).replace("\\n", "").replace("\\t", " ").replace('\\"', '"')
            if stmt.rstrip().endswith("+"):
                fmt += "{}"
            level, kind = "detail", "detail"
        else:
            return None
    fmt = re.sub(r"\s+", " ", fmt).strip()
    if not re.search(r"[A-Za-z]{3}", fmt.replace("{}", "")):
        return None
    return {"path": path, "line": line, "level": level, "format": fmt, "syntax": "stream", "kind": kind}


def py_site(path, line, stmt, cls):
    lits = re.findall(r'"((?:[^"\\\n]|\\.)*)"', stmt)
    if not lits:
        return None
    fmt = "".join(lits).replace("\\n", "")
    return {"path": path, "line": line, "level": "raise", "format": f"ray.train.{cls}: {fmt}", "syntax": "literal",
            "exception": f"ray.train.{cls}", "kind": "exception"}


LETTER = {"WARNING": "W", "ERROR": "E", "FATAL": "F", "detail": "E"}


def excerpt_sites(src):
    sites = []
    for path, commit in SOURCES.items():
        f = os.path.join(src, commit[:8], path)
        if not os.path.exists(f):
            raise SystemExit(f"extract_ray.py: {f}: missing (read {REPO}@{commit}:{path} through the index first)")
        text = open(f, encoding="utf-8").read()
        if path.endswith(".py"):
            cls = None
            for n, line in enumerate(text.split("\n"), start=1):
                m = re.match(r"\s*class (\w+)\(", line)
                if m:
                    cls = m.group(1)
                elif "super().__init__(" in line:
                    stmt = "\n".join(text.split("\n")[n - 1:n + 2])
                    s = py_site(path, n, stmt.split("super().__init__(", 1)[1].split(")")[0], cls)
                    if s:
                        sites.append(s)
            continue
        for line, stmt in statements(text):
            s = cpp_site(path, line, stmt)
            if s:
                sites.append(s)
    for s in sites:
        kind = s.pop("kind")
        s["commit"] = SOURCES[s["path"]]
        s["letter"] = LETTER.get(s["level"], "E")
        s["component"] = COMPONENT.get(s["path"], "raylet")
        if kind == "exception":
            s["shape"] = ["traceback", "worker_prefixed"]
        elif kind == "pushed":
            # written to the daemon's log and pushed to the driver, which prints it behind `(raylet)` or as a
            # worker.py warning
            s["shape"] = ["cpp_log", "driver_warning", "raylet_prefixed"]
        else:
            s["shape"] = ["cpp_log"]
    return lib.assign_ids("ray", sites)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", default="/tmp/ray-src")
    ap.add_argument("--out", default="inventory/ray.json")
    a = ap.parse_args()
    sites = []
    for path, name, syntax, fmt in TRANSCRIBED:
        sites.append({"id": f"ray:{path}:{name}", "path": path, "line": None, "level": "error", "format": fmt,
                      "syntax": syntax, "shape": TRANSCRIBED_SHAPE[path]})
    sites += excerpt_sites(a.src)
    inv = {
        "family": "ray",
        "title": "Ray: raylet (node manager, worker pool, memory monitor), GCS node manager, exceptions, Ray Train failures",
        "sources": [{"repo": REPO, "commit": c, "paths": [p], "note": "message statements read through the search index"}
                    for p, c in SOURCES.items()] +
                   [{"repo": REPO, "commit": "007329712e97d47f5826cac315d371b565fae757", "paths": ["python/ray/exceptions.py"]},
                    {"repo": REPO, "commit": None, "paths": ["src/ray/gcs/gcs_server/gcs_node_manager.cc"],
                     "note": "three older wordings of the node-death message, read through the search index"},
                    {"repo": REPO, "commit": None, "paths": ["doc/source/ray-core/scheduling/ray-oom-prevention.rst"],
                     "note": "the raylet's older OOM kill detail and worker.py's worker-death warning as the docs quote them"}],
        "extractor": "scripts/inventory/extract_ray.py",
        # where each message is read: the daemon's own log (raylet.out, gcs_server.out: glog-style prefix with the
        # component), the driver's console (worker.py warnings, lines relayed behind `(raylet)` or a worker's
        # `(pid=..., ip=...)` / `(Actor pid=...)`), a traceback
        "line_shapes": {
            "traceback": {"line": "{msg}", "file": "applog-node-07-rank0.log"},
            "worker_prefixed": {"line": "(RayTrainWorker pid=2931, ip=10.1.2.3) {msg}", "file": "driver-console.txt",
                                "benign": ["(RayTrainWorker pid=2931, ip=10.1.2.3) Setting up process group for: env:// [rank=0, world_size=2]",
                                           "(pid=2931, ip=10.1.2.3) Loaded 128 shards from the dataset index"]},
            "driver_warning": {"line": "2025-11-30 12:14:55,311\tWARNING worker.py:2058 -- {msg}", "file": "applog-node-08-rank1.log"},
            "raylet_prefixed": {"line": "(raylet) {msg}", "file": "ray-driver.out",
                                "benign": ["(raylet) Started worker process of 1 worker(s) with pid 4242",
                                           "2025-11-30 12:14:50,100\tINFO worker.py:1821 -- Connected to Ray cluster."]},
            "gcs": {"line": "[2025-11-30 12:14:55,311 W 4242 4300] (gcs_server) gcs_node_manager.cc:304: {msg}", "file": "applog-node-09-rank2.log"},
            "cpp_log": {"line": "[2025-11-30 12:14:55,311 {letter} 4242 4300] ({component}) {file}:{line}: {msg}", "file": "raylet.out",
                        "benign": ["[2025-11-30 12:14:50,100 I 4242 4242] (raylet) main.cc:180: Setting cluster ID to: 1d2c3b4a",
                                   "[2025-11-30 12:14:50,200 I 4242 4242] (raylet) worker_pool.cc:501: Started worker process with pid 4243"]},
        },
        "sites": sites,
    }
    csource.write_inventory(a.out, inv)
    csource.report("ray", a.out, a.out.replace(".json", ".decisions.json"), sites)


if __name__ == "__main__":
    main()
