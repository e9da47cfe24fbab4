#!/usr/bin/env python3
"""NVIDIA Fabric Manager (nv-fabricmanager): the log messages its public documentation and the public tools that
watch its log quote (issue #41). Fabric Manager's source is not public, so this inventory cannot be complete the
way the others are: its denominator is the messages documented in public, each with where it was read.

Sources: NVIDIA's Fabric Manager user guide (docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide, Release
2.3 / r560; log file and syslog options, error handling), read through the search index, and leptonai/gpud's
fabric-manager log matcher and its test log (components/accelerator/nvidia/fabric-manager/, commit below), which
quote the lines verbatim. The formats are written with printf placeholders where the quoted lines carry numbers.

    scripts/inventory/extract_fabricmanager.py [--out inventory/fabricmanager.json]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csource  # noqa: E402

GPUD = "leptonai/gpud"
GPUD_COMMIT = "15b320f7d7a67d093825ed7e7b5752e4ae325737"
GPUD_HEAD = "4a8de33a3f02e207f39e9023d67125592d599731"  # the newer testdata lines
GUIDE = "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html"

# (slug, level, format, where it is quoted)
MESSAGES = [
    ("nvswitch-fatal-error", "ERROR",
     "detected NVSwitch fatal error %d on fid %d on NVSwitch pci bus id %s physical id %d port %d",
     "components/accelerator/nvidia/fabric-manager/log_matcher.go"),
    ("nvswitch-non-fatal-error", "ERROR",
     "detected NVSwitch non-fatal error %d on fid %d on NVSwitch pci bus id %s physical id %d port %d",
     "components/accelerator/nvidia/fabric-manager/log_matcher.go"),
    ("multicast-gpu-handle-not-found", "ERROR",
     "failed to find the GPU handle %lu in the multicast team request setup %lu.",
     "components/accelerator/nvidia/fabric-manager/log_matcher.go"),
    ("nvswitch-count-topology-mismatch", "ERROR",
     "detected number of NVSwitches don't match with any supported system topology, aborting fabric manager",
     "components/accelerator/nvidia/fabric-manager/log_matcher.go"),
    ("nvswitch-driver-query-failed", "ERROR",
     "request to query NVSwitch device information from NVSwitch driver failed with error:%s",
     "NVIDIA/gpu-operator#610 (quoted in /work/shared/docs/domain-facts.md)"),
    ("multicast-group-allocated", "INFO", "multicast group %d is allocated.",
     "components/accelerator/nvidia/fabric-manager/testdata/fabricmanager.log"),
    ("multicast-group-freed", "INFO", "multicast group %d is freed.",
     "components/accelerator/nvidia/fabric-manager/testdata/fabricmanager.log"),
    ("multicast-team-setup", "INFO", "successfully setup multicast team for request id %lu.",
     "components/accelerator/nvidia/fabric-manager/testdata/fabricmanager.log"),
    ("team-setup-request", "INFO",
     "Team setup request: Allocation Size:%lx Flags:%d Number of GPUs:%d GPU Handles:%s",
     "components/accelerator/nvidia/fabric-manager/testdata/fabricmanager.log"),
    ("nvswitches-configured", "INFO",
     "Successfully configured all the available NVSwitches to route GPU NVLink traffic.", GUIDE),
    # gpud's test log at its newer commit (GPUD_HEAD): the NVLS multicast and inband-message bookkeeping
    ("multicast-team-released", "INFO", "successfully released multicast team with handle %lu.",
     "components/accelerator/nvidia/fabric-manager/testdata/fabricmanager.log@" + GPUD_HEAD),
    ("inband-response-sent", "INFO",
     "Sending inband response message:  Message header details: magic Id:%x request Id:%lx status:%d type:%d length:%d",
     "components/accelerator/nvidia/fabric-manager/testdata/fabricmanager.log@" + GPUD_HEAD),
    ("inband-message-received", "INFO",
     "Received an inband message:  Message header details: magic Id:%x request Id:%lx status:%d type:%d length:%d",
     "components/accelerator/nvidia/fabric-manager/testdata/fabricmanager.log@" + GPUD_HEAD),
    ("team-setup-response", "INFO",
     "Message payload details:Team setup response: Team Handle:%lx Flags:%d Address Base:%lx Address Size:%lx",
     "components/accelerator/nvidia/fabric-manager/testdata/fabricmanager.log@" + GPUD_HEAD),
    ("team-release-request", "INFO", "Message payload details:Team release request: Team Handle:%lx Flags:%d",
     "components/accelerator/nvidia/fabric-manager/testdata/fabricmanager.log@" + GPUD_HEAD),
    # quoted by users in public issues
    ("config-item-invalid", "ERROR", "fabric manager config file item: %s has an invalid value",
     "siderolabs/extensions#511 (Fabric Manager unable to start)"),
]

# Lines of the Fabric Manager package's start script (nvidia-fabricmanager-start.sh) and of systemd about its unit,
# as users quote them (slug, level, format, where quoted, shape)
SERVICE = [
    ("start-script-platform", "INFO", "Detected Pre-NVL5 system", "data-infra/cube-studio#29", "start_script"),
    ("start-script-failed", "ERROR", "\"%s\" failed! Exit code: %d", "data-infra/cube-studio#29", "start_script"),
    ("unit-control-process-failed", "ERROR",
     "nvidia-fabricmanager.service: Control process exited, code=exited, status=%d/FAILURE",
     "NVIDIA/gpu-operator#610, data-infra/cube-studio#29", "systemd"),
    ("unit-killing-process", "INFO", "nvidia-fabricmanager.service: Killing process %d (nv-fabricmanage) with signal SIGKILL.",
     "NVIDIA/NVSentinel#883", "systemd"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="inventory/fabricmanager.json")
    a = ap.parse_args()
    sites = [{"id": f"fabricmanager:{slug}", "path": where, "line": None, "level": level, "format": fmt,
              "syntax": "printf"} for slug, level, fmt, where in MESSAGES]
    sites += [{"id": f"fabricmanager:{slug}", "path": where, "line": None, "level": level, "format": fmt,
               "syntax": "printf", "shape": shape} for slug, level, fmt, where, shape in SERVICE]
    inv = {
        "family": "fabricmanager",
        "title": "NVIDIA Fabric Manager log messages (as documented in public; the source is not public)",
        "sources": [{"repo": GPUD, "commit": GPUD_COMMIT,
                     "paths": ["components/accelerator/nvidia/fabric-manager/log_matcher.go",
                               "components/accelerator/nvidia/fabric-manager/testdata/fabricmanager.log"]},
                    {"repo": GPUD, "commit": GPUD_HEAD,
                     "paths": ["components/accelerator/nvidia/fabric-manager/testdata/fabricmanager.log",
                               "components/accelerator/nvidia/fabric-manager/log_matcher_test.go"]},
                    {"repo": None, "commit": None, "url": "https://github.com/siderolabs/extensions/issues/511",
                     "note": "a user's Fabric Manager log line (config item refused)"},
                    {"repo": None, "commit": None, "url": "https://github.com/data-infra/cube-studio/issues/29",
                     "note": "nvidia-fabricmanager-start.sh and systemd lines of a failed start"},
                    {"repo": None, "commit": None, "url": "https://github.com/NVIDIA/gpu-operator/issues/610",
                     "note": "journal lines of a failed start (NV_WARN_NOTHING_TO_DO)"},
                    {"repo": None, "commit": None, "url": "https://github.com/NVIDIA/NVSentinel/issues/883",
                     "note": "systemd lines of a killed Fabric Manager"},
                    {"repo": None, "commit": None, "url": GUIDE,
                     "note": "Fabric Manager user guide (Release 2.3 / r560): log file and syslog options, error handling"}],
        "extractor": "scripts/inventory/extract_fabricmanager.py",
        # its own log file (LOG_FILE_NAME), syslog when LOG_USE_SYSLOG=1, and the file pasted under a neutral name
        "line_shapes": {
            "fm": {"line": "[Nov 30 2025 12:14:50] [{level}] [tid 841] {msg}", "file": "fabricmanager-node-07.log"},
            "syslog": {"line": "Nov 30 12:14:50 node-07 nv-fabricmanager[2939]: [{level}] [tid 841] {msg}",
                       "file": "syslog-node-07.log"},
            # a console that also holds kernel and NCCL lines: each line is read as the kind its shape gives
            "console": {"line": "[Nov 30 2025 12:14:50] [{level}] [tid 841] {msg}", "file": "console.txt",
                        "benign": [f"Nov 30 12:00:{10 + i:02d} node-07 kernel: [ 9012.{i:06d}] loading out-of-tree module taints kernel."
                                   for i in range(12)] + ["node-07:4242:4242 [3] NCCL INFO Bootstrap : Using eth0:10.1.2.3<0>"]},
            # journalctl -u nvidia-fabricmanager (no level, no thread), and the log file of releases without [tid]
            "journal": {"line": "Nov 30 12:14:50 node-07 nv-fabricmanager[2939]: {msg}", "file": "journal-node-07.txt"},
            "fm_notid": {"line": "[Nov 30 2025 12:14:50] [{level}] {msg}", "file": "fm-node-07.log"},
            "start_script": {"line": "Nov 30 12:14:50 node-07 nvidia-fabricmanager-start.sh[4753]: {msg}", "file": "syslog-fmstart-node-07.log"},
            "systemd": {"line": "Nov 30 12:14:50 node-07 systemd[1]: {msg}", "file": "syslog-systemd-node-07.log",
                        "benign": ["Nov 30 12:14:40 node-07 systemd[1]: Starting NVIDIA fabric manager service...",
                                   "Nov 30 12:14:41 node-07 systemd[1]: Started Session 4 of user root."]},
        },
        "shapes": ["fm", "syslog", "console", "journal", "fm_notid"],
        "sites": sites,
    }
    csource.write_inventory(a.out, inv)
    csource.report("fabricmanager", a.out, a.out.replace(".json", ".decisions.json"), sites)


if __name__ == "__main__":
    main()
