#!/usr/bin/env python3
"""Kubernetes: kubelet, scheduler and controller event reasons and their messages, eviction messages, container
termination reasons, node conditions, node-problem-detector's reasons and conditions, Kubeflow training-operator's
job condition messages.

kubernetes/kubernetes is over the fetch size limit: its message statements were read through the search index and
saved verbatim under --src (event.go: pkg/kubelet/events/event.go at 819ecd4; kubernetes-statements.go: one
`// FILE repo path commit` line per upstream file, one `// SITE reason=R type=T` line before each statement whose
first string literal is the message format). kubernetes/api (node conditions), containerd (termination reasons)
and node-problem-detector (config/*.json) are read from `fetch` snapshots at the pinned commits below.

    scripts/inventory/extract_k8s.py --src /tmp/k8s-src --mirrors /work/.mirror [--out inventory/k8s.json]
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csource  # noqa: E402

EVENT_GO = ("kubernetes/kubernetes", "819ecd4dbe6afbaa4f6227d22b9c46938d48e603", "pkg/kubelet/events/event.go")
API = ("kubernetes/api", "10b39a39bcee995dfe7cd5e8e7b922be5e46f1e2", "core/v1/types.go")
CONTAINERD = ("containerd/containerd", "301026e58c619e63d09c0ec411012e54c0124b03", "internal/cri/server/helpers.go")
NPD = ("kubernetes/node-problem-detector", "6632ca67148f7a23df9cdbd98d9e89b388561a3a", "config")
# Kubeflow training-operator v1 (PyTorchJob, MPIJob, TFJob, ...): the job condition messages its controllers write
# (running, succeeded, restarting or failed because replicas failed), from the last commit before v1 was removed.
KUBEFLOW = ("kubeflow/training-operator", "ee1162919408cbca4a899f2916cfcd0ecd562881", "pkg/controller.v1/")
KUBEFLOW_MESSAGE = re.compile(r"Sprintf\(\s*\"([^\"]*(?:replica\(s\) failed|successfully completed|is running)[^\"]*)\"")
NPD_CONFIGS = ["kernel-monitor.json", "docker-monitor.json", "systemd-monitor.json", "readonly-monitor.json",
               "disk-log-message-filelog.json", "health-checker-kubelet.json", "health-checker-containerd.json",
               "network-problem-monitor.json"]
# Node conditions whose True (or, for Ready, False/Unknown) status is failure evidence; the rest of the const
# block (maintenance, drain, shutdown in progress) are sites too.
CONDITION_CONST = re.compile(r"^\s*(\w+)\s+NodeConditionType\s*=\s*\"([^\"]+)\"", re.M)
STRING_CONST = re.compile(r"^\s*(\w+)(?:\s+\w+)?\s*=\s*\"((?:[^\"\\]|\\.)*)\"", re.M)
# Which line shapes a message site is rendered in, by how the reason is shown.
SHAPES_BY_TYPE = {
    "Warning": ["event_row", "describe_events_console", "kubelet_event_journal"],
    "Normal": ["event_row", "describe_events_console", "kubelet_event_journal"],
    "Error": ["kubelet_sync_error"],
    "Klog": ["kubelet_klog", "kubelet_klog_console"],
    "Status": ["describe_message", "status_message_console"],
    "Condition": ["describe_condition_message"],
}


def git_show(mirrors, repo, commit, path):
    gitdir = os.path.join(mirrors, repo.replace("/", "+"), "repo")
    return subprocess.run(["git", "--git-dir", gitdir, "show", f"{commit}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def const_sites(text, repo, path, shape, pattern=STRING_CONST, keep=lambda name, value: True):
    for m in pattern.finditer(text):
        name, value = m.group(1), csource.unescape(m.group(2))
        if keep(name, value):
            yield {"id": f"k8s:{path}:{value.strip()}", "path": path, "repo": repo,
                   "line": text.count("\n", 0, m.start()) + 1, "level": "reason", "const": name,
                   "format": value.strip(), "syntax": "literal", "shape": shape}


def statement_sites(text):
    """Sites of the saved statements file: the first string literal after each SITE line."""
    repo = path = commit = None
    sources = {}
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"// FILE (\S+) (\S+) (\S+)$", line)
        if m:
            repo, path, commit = m.group(1), m.group(2), None if m.group(3) == "-" else m.group(3)
            sources.setdefault((repo, commit), []).append(path)
            continue
        m = re.match(r"// SITE reason=(\S+) type=(\S+)$", line)
        if not m:
            continue
        stmt = "\n".join(lines[i + 1:i + 3])
        # Go event calls name the reason and the type before the format: the format is the literal that holds a
        # verb or the message text, i.e. the longest literal of the statement.
        literals = [csource.unescape(x) for x in re.findall(r"\"((?:[^\"\\]|\\.)*)\"", stmt)]
        fmt = max(literals, key=len).strip()
        reason, etype = m.group(1), m.group(2)
        yield {"id": f"k8s:{path}:{fmt}", "path": path, "repo": repo, "commit": commit, "line": i + 2,
               "level": etype, "reason": reason, "format": fmt, "syntax": "go-printf" if "%" in fmt else "literal",
               "shape": SHAPES_BY_TYPE[etype]}, (repo, commit, path)


def npd_sites(mirrors):
    repo, commit, folder = NPD
    for name in NPD_CONFIGS:
        path = f"{folder}/{name}"
        cfg = json.loads(git_show(mirrors, repo, commit, path))
        seen = set()
        for rule in cfg.get("rules", []):
            reason = rule["reason"]
            if reason in seen:
                continue
            seen.add(reason)
            yield {"id": f"k8s:{path}:{reason}", "path": path, "repo": repo, "line": 0, "level": "reason",
                   "reason": reason, "source_tag": cfg.get("source", ""), "condition": rule.get("condition", ""),
                   "format": reason, "syntax": "literal", "shape": "npd_event"}
        for cond in cfg.get("conditions", []):
            yield {"id": f"k8s:{path}:condition:{cond['type']}", "path": path, "repo": repo, "line": 0,
                   "level": "condition", "format": cond["type"], "syntax": "literal", "shape": "describe_condition"}


def kubeflow_sites(mirrors):
    repo, commit, folder = KUBEFLOW
    gitdir = os.path.join(mirrors, repo.replace("/", "+"), "repo")
    files = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "--name-only", commit, folder], check=True,
                           capture_output=True, text=True).stdout.split()
    for path in sorted(f for f in files if f.endswith(".go") and not f.endswith("_test.go")):
        text = git_show(mirrors, repo, commit, path)
        for m in KUBEFLOW_MESSAGE.finditer(text):
            fmt = m.group(1)
            state = ("JobFailed" if "fail" in fmt.split("because")[0] else "JobRestarting") if "replica(s) failed" in fmt \
                else "JobSucceeded" if "completed" in fmt else "JobRunning"
            yield {"id": f"k8s:{path}:{fmt}", "path": path, "repo": repo, "line": text.count("\n", 0, m.start()) + 1,
                   "level": "Status", "reason": state, "format": fmt, "syntax": "go-printf",
                   "shape": ["describe_message", "status_message_console"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--out", default="inventory/k8s.json")
    a = ap.parse_args()
    sites = []
    repo, commit, path = EVENT_GO
    sites += list(const_sites(open(os.path.join(a.src, "event.go")).read(), repo, path, "event_reason"))
    statement_sources = {}
    for site, (srepo, scommit, spath) in statement_sites(open(os.path.join(a.src, "kubernetes-statements.go")).read()):
        sites.append(site)
        statement_sources.setdefault((srepo, scommit), set()).add(spath)
    repo, commit, path = API
    for s in const_sites(git_show(a.mirrors, repo, commit, path), repo, path, "describe_condition", CONDITION_CONST):
        if s["format"] == "Ready":
            s["shape"] = "describe_not_ready"
        sites.append(s)
    repo, commit, path = CONTAINERD
    sites += list(const_sites(git_show(a.mirrors, repo, commit, path), repo, path, "describe_reason",
                              keep=lambda name, value: name.endswith("Reason")))
    sites += list(npd_sites(a.mirrors))
    sites += list(kubeflow_sites(a.mirrors))
    # One site per id: a reason several constants share (Failed, BackOff) is one site.
    unique, seen = [], set()
    for s in sites:
        if s["id"] not in seen:
            seen.add(s["id"])
            unique.append(s)
    sites = unique
    sources = [{"repo": EVENT_GO[0], "commit": EVENT_GO[1], "paths": [EVENT_GO[2]],
                "note": "read through the search index (over the fetch size limit); const blocks kept verbatim"}]
    for (srepo, scommit), paths in sorted(statement_sources.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        sources.append({"repo": srepo, "commit": scommit, "paths": sorted(paths),
                        "note": "message statements read through the search index (find_string/read_file), kept "
                                "verbatim; the index does not resolve which commit each excerpt is from"})
    sources += [{"repo": API[0], "commit": API[1], "paths": [API[2]]},
                {"repo": CONTAINERD[0], "commit": CONTAINERD[1], "paths": [CONTAINERD[2]]},
                {"repo": NPD[0], "commit": NPD[1], "paths": [f"{NPD[2]}/{n}" for n in NPD_CONFIGS]},
                {"repo": KUBEFLOW[0], "commit": KUBEFLOW[1], "paths": [KUBEFLOW[2]],
                 "note": "job condition messages (Sprintf formats naming running, completed or failed replicas)"}]
    stamp = "Mon, 30 Nov 2025 12:14:10 +0000"
    journal = "Nov 30 12:14:10 gpu-a17 kubelet[2211]: I1130 12:14:10.004512    2211 event.go:377] "
    inv = {
        "family": "k8s",
        "title": "Kubernetes: kubelet/scheduler/controller event reasons and messages, eviction messages, container "
                 "termination reasons, node conditions, node-problem-detector reasons",
        "sources": sources,
        "extractor": "scripts/inventory/extract_k8s.py",
        "line_shapes": {
            "event_reason": {"line": "12m         Warning   {msg}   pod/trainer-worker-3   (see kubectl describe pod trainer-worker-3)",
                             "file": "k8s-events.txt", "benign": ["Scheduled", "Pulled"]},
            "event_row": {"line": "12m         {level}   {reason}   pod/trainer-worker-3   {msg}",
                          "file": "k8s-get-events.txt", "benign": ["Successfully assigned ml/trainer-worker-3 to gpu-a17"]},
            "describe_events_console": {"line": "  {level}  {reason}  3m (x2 over 5m)  kubelet  {msg}",
                                        "file": "pasted-events.txt", "benign": ["Started container trainer"]},
            "kubelet_event_journal": {"line": journal + "\"Event occurred\" object=\"ml/trainer-worker-3\" kind=\"Pod\" apiVersion=\"v1\" type=\"{level}\" reason=\"{reason}\" message=\"{msg}\"",
                                      "file": "node-journal.txt", "benign": ["Created container trainer"]},
            "kubelet_sync_error": {"line": "Nov 30 12:14:10 gpu-a17 kubelet[2211]: E1130 12:14:10.004512    2211 pod_workers.go:1301] \"Error syncing pod, skipping\" err=\"failed to StartContainer for trainer with CrashLoopBackOff: {msg}\" pod=\"ml/trainer-worker-3\"",
                                   "file": "node-journal-errors.txt", "benign": []},
            "kubelet_klog": {"line": "Nov 30 12:14:10 gpu-a17 kubelet[2211]: I1130 12:14:10.080925    2211 eviction_manager.go:381] \"{msg}\" resourceName=\"memory\" pod=\"ml/trainer-worker-3\"",
                             "file": "node-journal-klog.txt", "benign": ["Attempting to delete unused images"]},
            "kubelet_klog_console": {"line": "I1130 12:14:10.080925    2211 eviction_manager.go:381] \"{msg}\" resourceName=\"memory\" pod=\"ml/trainer-worker-3\"",
                                     "file": "pasted-kubelet.txt", "benign": ["Attempting to delete unused containers"]},
            "describe_message": {"line": "Message:          {msg}", "file": "k8s-describe-pod-status.txt", "benign": []},
            "status_message_console": {"line": "    message: {msg}", "file": "pasted-status.txt", "benign": ["containers with unready status: [trainer]"]},
            "describe_condition_message": {"line": "  Ready            Unknown   " + stamp + "   " + stamp + "   NodeStatusUnknown   {msg}",
                                           "file": "pasted-conditions.txt", "benign": []},
            "npd_event": {"line": "  Warning  {msg}  3m  kernel-monitor, gpu-a17  (reported by node-problem-detector)",
                          "file": "k8s-describe-node-events.txt", "benign": []},
            "describe_reason": {"line": "      Reason:       {msg}", "file": "k8s-describe-pod.txt", "benign": ["Completed"]},
            "describe_condition": {"line": "  {msg}   True    " + stamp + "   " + stamp + "   KubeletHasPressure   kubelet reports the condition",
                                   "file": "k8s-describe-node.txt", "benign": ["Ready"]},
            "describe_not_ready": {"line": "  {msg}   Unknown   " + stamp + "   Mon, 30 Nov 2025 12:15:10 +0000   NodeStatusUnknown   Kubelet stopped posting node status.",
                                   "file": "k8s-describe-node-lost.txt", "benign": []},
        },
        "sites": sites,
    }
    csource.write_inventory(a.out, inv)
    csource.report("k8s", a.out, a.out.replace(".json", ".decisions.json"), sites)


if __name__ == "__main__":
    main()
