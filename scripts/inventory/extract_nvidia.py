#!/usr/bin/env python3
"""NVIDIA open-gpu-kernel-modules: Xid sites and the kernel interface's error-level NVRM sites (issue #41).

Xid sites: every NV_ERROR_LOG(pGpu, XID, fmt) / nvErrorLog_va(pGpu, XID, fmt) call in src/, its Xid number
taken from src/common/sdk/nvidia/inc/nverror.h; the driver prints them as
`NVRM: Xid (PCI:<bus>): <n>, pid=<pid>, name=<comm>, <message>`.
NVRM sites: every nv_printf(NV_DBG_ERRORS, ...) and NV_DEV_PRINTF(NV_DBG_ERRORS, nv, ...) in kernel-open/nvidia
(the messages the Linux kernel interface layer prints into the kernel log).
RM sites: every NV_PRINTF(LEVEL_ERROR | LEVEL_WARNING, ...) in src/ (the resource manager and GSP client); the
driver prints them as `NVRM: <function>: <message>` (NV_PRINTF_PREFIX, the function name of the call site).

    scripts/inventory/extract_nvidia.py --git /work/.mirror/NVIDIA+open-gpu-kernel-modules/repo --commit <sha>
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csource  # noqa: E402

MACROS = dict(csource.FORMAT_MACROS, NV_PCI_DEV_FMT="%04x:%02x:%02x.%x", NVLINK_PCI_DEV_FMT="%04x:%02x:%02x.%x")
HEAD = "Nov 30 12:00:00 node-07 kernel: [ 9012.100100] "
XID_PREFIX = "NVRM: Xid (PCI:%s): %d, pid=%s, name=%s, "
BENIGN = ["NVRM: loading NVIDIA UNIX x86_64 Kernel Module  570.86.15  Thu Jan 23 22:50:37 UTC 2025"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--git", required=True)
    ap.add_argument("--commit", required=True)
    ap.add_argument("--out", default="inventory/nvidia.json")
    a = ap.parse_args()
    nverror = csource.git_show(a.git, a.commit, "src/common/sdk/nvidia/inc/nverror.h")
    xid_of = {m.group(1): int(m.group(2)) for m in re.finditer(r"#define\s+(\w+)\s+\((\d+)\)", nverror)}
    sites = []
    for path in csource.git_ls(a.git, a.commit, "src/"):
        if not path.endswith(".c"):
            continue
        raw = csource.git_show(a.git, a.commit, path)
        if "NV_ERROR_LOG" not in raw and "nvErrorLog_va" not in raw:
            continue
        text = csource.strip_comments(raw)
        used = set()
        for off, name, args in csource.find_calls(text, ["NV_ERROR_LOG", "nvErrorLog_va"]):
            if len(args) < 3:
                continue
            const = args[1].strip()
            got = csource.first_format(args, MACROS, skip=2)
            if got is None:
                continue
            xid = xid_of.get(const)
            msg = got[1].rstrip("\n")
            # The driver prints every Xid through one prefix (the Xid number may be a variable at the call)
            sites.append({"id": f"nvidia:{path}:xid-{csource.slug(const + ' ' + msg, used)}", "path": path,
                          "line": csource.line_of(text, off), "level": "xid", "xid_const": const, "xid": xid,
                          "message_format": msg, "format": XID_PREFIX + msg.replace("\n", " "), "syntax": "printf",
                          "shape": "xid"})
    for path in csource.git_ls(a.git, a.commit, "kernel-open/nvidia/"):
        if not path.endswith(".c"):
            continue
        text = csource.strip_comments(csource.git_show(a.git, a.commit, path))
        used = set()
        for off, name, args in csource.find_calls(text, ["nv_printf", "NV_DEV_PRINTF", "NV_DEV_PRINTF_STATUS"]):
            if not args or args[0].strip() != "NV_DBG_ERRORS":
                continue
            got = csource.first_format(args, MACROS, skip=2 if name.startswith("NV_DEV") else 1)
            if got is None:
                continue
            fmt = got[1].rstrip("\n")
            shape = "nvrm"
            if name.startswith("NV_DEV"):
                shape = "nvrm_dev"
                if name == "NV_DEV_PRINTF_STATUS":
                    fmt += " (0x%x)"
            sites.append({"id": f"nvidia:{path}:{csource.slug(fmt, used)}", "path": path, "line": csource.line_of(text, off),
                          "level": "error", "format": fmt.replace("\n", " "), "syntax": "printf", "shape": shape})
    func_head = re.compile(r"^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;{]*\)\s*\{", re.M)
    for path in csource.git_ls(a.git, a.commit, "src/"):
        if not path.endswith((".c", ".h")):
            continue
        raw = csource.git_show(a.git, a.commit, path)
        if "LEVEL_ERROR" not in raw and "LEVEL_WARNING" not in raw:
            continue
        text = csource.strip_comments(raw)
        heads = [(m.start(), m.group(1)) for m in func_head.finditer(text)]
        used = set()
        for off, name, args in csource.find_calls(text, ["NV_PRINTF"]):
            level = args[0].strip() if args else ""
            if level not in ("LEVEL_ERROR", "LEVEL_WARNING"):
                continue
            got = csource.first_format(args, MACROS, skip=1)
            if got is None:
                continue
            fmt = got[1].rstrip("\n").replace("\n", " ")
            func = next((f for o, f in reversed(heads) if o < off), "rmFunction")
            sites.append({"id": f"nvidia:{path}:rm-{csource.slug(fmt, used)}", "path": path,
                          "line": csource.line_of(text, off), "level": "error" if level == "LEVEL_ERROR" else "warning",
                          "format": fmt, "syntax": "printf", "function": func, "shape": "rm"})
    inv = {
        "family": "nvidia",
        "title": "NVIDIA open-gpu-kernel-modules: Xid sites (NV_ERROR_LOG / nvErrorLog_va), kernel-open NVRM error sites and RM NV_PRINTF error/warning sites",
        "sources": [{"repo": "NVIDIA/open-gpu-kernel-modules", "commit": a.commit, "tag": "595.45.04",
                     "paths": ["src/**/*.c (NV_ERROR_LOG, nvErrorLog_va)", "src/common/sdk/nvidia/inc/nverror.h",
                               "kernel-open/nvidia/*.c (nv_printf / NV_DEV_PRINTF at NV_DBG_ERRORS)",
                               "src/**/*.[ch] (NV_PRINTF at LEVEL_ERROR / LEVEL_WARNING)"]}],
        "extractor": "scripts/inventory/extract_nvidia.py",
        "line_shapes": {
            "xid": {"line": HEAD + "{msg}",
                    "file": "syslog-01-node-07.log", "benign": []},
            "nvrm": {"line": HEAD + "{msg}", "file": "syslog-02-node-07.log", "benign": BENIGN},
            "rm": {"line": HEAD + "NVRM: {function}: {msg}", "file": "syslog-04-node-07.log", "benign": BENIGN},
            "nvrm_dev": {"line": HEAD + "NVRM: GPU 0000:5c:00.0: {msg}", "file": "syslog-03-node-07.log",
                         "benign": ["RmInitAdapter succeeded"]},
        },
        "sites": sites,
    }
    csource.write_inventory(a.out, inv)
    csource.report("nvidia", a.out, a.out.replace(".json", ".decisions.json"), sites)


if __name__ == "__main__":
    main()
