#!/usr/bin/env python3
"""Linux kernel message sites of the areas that decide AI-job failures (issue #41).

Reads an unpacked kernel tree (Debian 12's linux-source-6.1 package, 6.1.192, whose tarball is the stable
tree v6.1.192 with Debian's patches) and writes inventory/kernel.json: every call of a kernel logging
function at warning level or above (plus info/notice in the few files whose info lines are failure
evidence: the OOM killer's summary, the segfault line) in the files listed in AREAS.

    scripts/inventory/extract_kernel.py --src /tmp/linux-source-6.1 [--out inventory/kernel.json]
        [--older TAG=DIR=OWNER/REPO@COMMIT ...]

Older releases print some messages in other words ("Out of memory: Kill process ... or sacrifice child"
before 5.x, AER's "id=%04x" before 4.19). Each --older tree (an unpacked older kernel, with the repository and
commit it was read from, cited in `sources`) is read the same way, its files found under today's paths or the
older ones of OLD_GLOBS; a format that is not one of today's is attached to the current site it became
(lib.ancestor: most words in common, same file preferred) as `versions`, or, when no current site is its
descendant (the message was dropped or rewritten), kept as a site of its own with `older_only` (the tags that
print it), so it is decided like any other.
"""
import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csource  # noqa: E402
import inventory_lib as lib  # noqa: E402

# area -> (globs, include info/notice sites: True, or the paths whose info sites count)
AREAS = {
    "oom": (["mm/oom_kill.c"], True),
    "hung_task": (["kernel/hung_task.c"], True),
    "lockup": (["kernel/watchdog.c", "kernel/watchdog_hld.c"], True),
    "rcu_stall": (["kernel/rcu/tree_stall.h"], True),
    "traps": (["arch/x86/mm/fault.c", "arch/x86/kernel/traps.c", "arch/x86/kernel/dumpstack.c", "kernel/panic.c",
               "lib/bug.c"], True),
    "mce": (["arch/x86/kernel/cpu/mce/core.c", "arch/x86/kernel/cpu/mce/severity.c", "arch/x86/kernel/cpu/mce/therm_throt.c"], True),
    "edac": (["drivers/edac/edac_mc.c", "drivers/edac/ghes_edac.c"], False),
    "aer": (["drivers/pci/pcie/aer.c", "drivers/pci/pcie/err.c", "drivers/pci/pcie/dpc.c"], True),
    "nvme": (["drivers/nvme/host/core.c", "drivers/nvme/host/pci.c", "drivers/nvme/host/multipath.c"], False),
    "block": (["block/blk-core.c", "block/blk-mq.c", "block/bio.c", "fs/buffer.c", "drivers/scsi/scsi_lib.c",
               "drivers/md/md.c", "drivers/md/raid0.c", "drivers/md/raid1.c", "drivers/md/raid10.c"], False),
    "ext4": (["fs/ext4/*.c", "fs/jbd2/*.c"], False),
    "xfs": (["fs/xfs/*.c"], False),
    "nfs": (["fs/nfs/*.c", "net/sunrpc/clnt.c", "net/sunrpc/xprt.c", "net/sunrpc/xprtsock.c", "net/sunrpc/sched.c"], True),
    "mlx5": (["drivers/net/ethernet/mellanox/mlx5/core/health.c", "drivers/net/ethernet/mellanox/mlx5/core/events.c",
              "drivers/net/ethernet/mellanox/mlx5/core/cmd.c", "drivers/net/ethernet/mellanox/mlx5/core/main.c",
              "drivers/net/ethernet/mellanox/mlx5/core/fw_reset.c", "drivers/net/ethernet/mellanox/mlx5/core/pagealloc.c",
              "drivers/net/ethernet/mellanox/mlx5/core/en_main.c", "drivers/net/ethernet/mellanox/mlx5/core/eq.c",
              "drivers/net/ethernet/mellanox/mlx5/core/port.c", "drivers/net/ethernet/mellanox/mlx5/core/pci_irq.c"],
             # the link state and the cable/module events are printed at info level
             ["drivers/net/ethernet/mellanox/mlx5/core/en_main.c", "drivers/net/ethernet/mellanox/mlx5/core/events.c"]),
    "misc": (["fs/file_table.c", "net/sched/sch_generic.c"], False),
}

# Where older trees keep an area's files (read only from --older trees).
OLD_GLOBS = {
    "mce": ["arch/x86/kernel/cpu/mcheck/mce.c", "arch/x86/kernel/cpu/mcheck/mce-severity.c",
            "arch/x86/kernel/cpu/mcheck/therm_throt.c"],
    "rcu_stall": ["kernel/rcu/tree.c", "kernel/rcutree.c"],
    "aer": ["drivers/pci/pcie/aer/aerdrv.c", "drivers/pci/pcie/aer/aerdrv_core.c", "drivers/pci/pcie/aer/aerdrv_errprint.c"],
}

LEVEL_RANK = {"emerg": 0, "alert": 1, "crit": 2, "err": 3, "warn": 4, "default": 4, "notice": 5, "info": 6}
LEVEL_WORDS = {"emerg": "emerg", "alert": "alert", "crit": "crit", "err": "err", "warn": "warn", "warning": "warn",
               "notice": "notice", "info": "info"}
SUFFIXES = ["", "_ratelimited", "_once", "_deferred", "_rl"]


def callers():
    """name -> (level or None = from KERN_*, index of the first format arg, prefix kind)."""
    c = {}
    for word, level in LEVEL_WORDS.items():
        for suf in SUFFIXES:
            c[f"pr_{word}{suf}"] = (level, 0, "pr")
            c[f"dev_{word}{suf}"] = (level, 1, "dev")
            c[f"pci_{word}{suf}"] = (level, 1, "dev")
            c[f"netdev_{word}{suf}"] = (level, 1, "netdev")
            c[f"mlx5_core_{word}{suf}"] = (level, 1, "mlx5")
            c[f"xfs_{word}{suf}"] = (level, 1, "xfs")
    for name in ("printk", "printk_ratelimited", "printk_deferred", "printk_once", "vprintk"):
        c[name] = (None, 0, "pr")
    c["panic"] = ("emerg", 0, "panic")
    for name in ("WARN", "WARN_ONCE", "WARN_RATELIMIT", "WARN_TAINT", "WARN_TAINT_ONCE"):
        c[name] = ("warn", 1, "warn")
    c["ext4_error"] = ("err", 1, "ext4_error")
    c["ext4_error_inode"] = ("err", 4, "ext4_error_inode")
    c["ext4_error_inode_err"] = ("err", 5, "ext4_error_inode")
    c["ext4_error_inode_block"] = ("err", 3, "ext4_error_inode")
    c["ext4_error_file"] = ("err", 4, "ext4_error_inode")
    c["ext4_warning"] = ("warn", 1, "ext4_warning")
    c["ext4_warning_inode"] = ("warn", 1, "ext4_warning")
    c["ext4_msg"] = (None, 1, "ext4_msg")
    c["ext4_grp_locked_error"] = ("err", 4, "ext4_error")
    c["xfs_alert_tag"] = ("alert", 2, "xfs")
    c["aer_printk"] = (None, 2, "dev")
    c["pci_printk"] = ("err", 2, "dev")  # aer.c passes KERN_WARNING (corrected) or KERN_ERR in a variable
    c["xfs_buf_alert_ratelimited"] = ("alert", 2, "xfs")
    c["edac_mc_printk"] = (None, 1, "edac_mc")
    c["edac_printk"] = (None, 1, "edac")
    c["edac_mc_chipset_printk"] = (None, 1, "edac")
    return c


# How each kind of call appears in a kernel log line (syslog through rsyslog/journald; dmesg alike).
HEAD = "Nov 30 12:00:00 node-07 kernel: [ 9012.100100] "
PREFIX = {
    "pr": "", "dev": "{driver} {device}: ", "netdev": "mlx5_core 0000:5c:00.0 enp92s0np0: ",
    "mlx5": "mlx5_core 0000:5c:00.0: mlx5_fn:123:(pid 4242): ", "xfs": "XFS (nvme1n1): ",
    "panic": "Kernel panic - not syncing: ", "warn": "",
    "ext4_error": "EXT4-fs error (device nvme0n1p2): ext4_fn:123: comm python3: ",
    "ext4_error_inode": "EXT4-fs error (device nvme0n1p2): ext4_fn:123: inode #1234: comm python3: ",
    "ext4_warning": "EXT4-fs warning (device nvme0n1p2): ext4_fn:123: ", "ext4_msg": "EXT4-fs (nvme0n1p2): ",
    "edac_mc": "EDAC MC0: ", "edac": "EDAC MC: ",
}
# Messages harmless behind any of the prefixes: the failure-free lines before the rendered ones.
BENIGN = ["loading out-of-tree module taints kernel.", "link becomes ready"]
DEVICE = {"nvme": ("nvme", "nvme0"), "pci.c": ("nvme", "0000:5c:00.0"), "pcie": ("pcieport", "0000:00:03.0"),
          "mlx5": ("mlx5_core", "0000:5c:00.0"), "md": ("md", "md0"), "scsi": ("sd", "0:0:0:0"), "default": ("pci", "0000:00:01.0")}


def device_of(path, first_arg=""):
    if path.startswith("drivers/nvme/host/multipath.c"):
        return ("block", "nvme0n1")
    if path.startswith("drivers/nvme/host/"):
        return DEVICE["nvme"] if "ctrl" in first_arg else DEVICE["pci.c"]
    for key in ("nvme", "pcie", "mlx5", "md", "scsi"):
        if f"/{key}/" in path or path.startswith(f"drivers/{key}/"):
            return DEVICE[key]
    return DEVICE["default"]


def pr_fmt_of(text, path):
    m = re.search(r'#define\s+pr_fmt\(fmt\)\s+(.*?)\s*fmt\s*$', text, re.M)
    if not m:
        if path.startswith("kernel/rcu/tree_stall.h"):
            return "rcu: "  # included into kernel/rcu/tree.c, which defines it
        if "arch/x86/kernel/cpu/mce/" in path:
            return "mce: "
        return ""
    expr = m.group(1)
    mod = os.path.splitext(os.path.basename(path))[0]
    if path.startswith("drivers/nvme/host/") and mod != "core":
        mod = "nvme_" + mod
    expr = expr.replace("KBUILD_MODNAME", f'"{mod}"')
    got = csource.literal_of(expr)
    return got[0] if got else ""


def dev_fmt_of(text, pr_fmt):
    """What dev_err() and friends put before the format: the file's dev_fmt, if it defines one."""
    if re.search(r"#define\s+dev_fmt\s+pr_fmt\b", text):
        return pr_fmt
    m = re.search(r'#define\s+dev_fmt\(fmt\)\s+(.*?)\s*fmt\s*$', text, re.M)
    got = csource.literal_of(m.group(1)) if m else None
    return got[0] if got else ""


def tree_version(src):
    mk = os.path.join(src, "Makefile")
    if not os.path.exists(mk):
        return "unknown"
    v = dict(re.findall(r"^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)", open(mk).read(), re.M))
    return f"v{v.get('VERSION')}.{v.get('PATCHLEVEL')}.{v.get('SUBLEVEL')}"


def extract(src, calls, shapes, older=False):
    """Every site of the AREAS in one tree; shapes (shared between trees) gains the line shapes used."""
    sites, all_paths = [], []
    for area, (globs, with_info) in AREAS.items():
        globs = globs + (OLD_GLOBS.get(area, []) if older else [])
        paths = sorted({os.path.relpath(p, src) for g in globs for p in glob.glob(os.path.join(src, g))})
        if not paths:
            if older:
                print(f"{src}: no file for area {area}", file=sys.stderr)
                continue
            raise SystemExit(f"{src}: no file for area {area} ({globs})")
        all_paths += globs
        for path in paths:
            raw = open(os.path.join(src, path), errors="replace").read()
            text = csource.strip_comments(raw)
            pr_fmt = pr_fmt_of(text, path)
            used = set()
            for off, name, args in csource.find_calls(text, calls):
                level, skip, kind = calls[name]
                got = csource.first_format(args, skip=skip)
                if got is None:
                    continue
                _, fmt, kern = got
                if kind == "ext4_msg":
                    kern = csource.literal_of(args[1]) and None
                    lv = re.match(r"\s*(KERN_\w+)", args[1])
                    level = csource.KERN_LEVELS.get(lv.group(1)) if lv else None
                    got = csource.first_format(args, skip=2)
                    if got is None:
                        continue
                    fmt = got[1]
                if kind in ("edac_mc", "edac") or level is None:
                    level = level or kern or "default"
                if level in ("debug", "cont"):
                    continue
                info = with_info is True or (isinstance(with_info, list) and path in with_info)
                if LEVEL_RANK.get(level, 9) > (6 if info else 4):
                    continue
                fmt = fmt.rstrip("\n")
                if not fmt.strip():
                    continue
                prefix = PREFIX[kind]
                if kind == "pr":
                    prefix = pr_fmt
                elif kind == "dev":
                    drv, dev = device_of(path, args[0])
                    prefix = prefix.format(driver=drv, device=dev)
                    prefix += dev_fmt_of(text, pr_fmt)
                shape = kind
                if kind == "pr" and pr_fmt:
                    shape = "pr:" + pr_fmt.strip().rstrip(":")
                elif kind == "dev":
                    df = dev_fmt_of(text, pr_fmt)
                    shape = "dev:" + " ".join(device_of(path, args[0])) + (":" + df.strip().rstrip(":") if df else "")
                if shape not in shapes:
                    shapes[shape] = {"line": HEAD + prefix + "{msg}",
                                     "file": f"syslog-{len(shapes) + 1:02d}-node-07.log",
                                     "benign": [] if kind == "panic" else BENIGN}
                sites.append({
                    "id": f"kernel:{path}:{csource.slug(fmt, used)}",
                    "path": path, "line": csource.line_of(text, off), "level": level, "area": area,
                    "call": name, "format": fmt.replace("\n", " "), "syntax": "printf", "shape": shape,
                })
    return sites, all_paths


def attach_older(sites, tag, old_sites):
    """Older wordings onto the sites they became; the rest become older_only sites. Returns (versions, new)."""
    current = {s["format"] for s in sites if not s.get("older_only")}
    by_area = {}
    for s in sites:
        if not s.get("older_only"):
            by_area.setdefault(s["area"], []).append(s)
    only = {(s["area"], s["format"]): s for s in sites if s.get("older_only")}
    ids = {s["id"] for s in sites}
    n_versions = n_new = 0
    seen = set()
    for o in old_sites:
        fmt = o["format"]
        if fmt in current or (o["area"], fmt) in seen:
            continue
        seen.add((o["area"], fmt))
        site = lib.ancestor(fmt, o["path"], by_area.get(o["area"], []), file_key="path")
        if site is not None:
            vs = site.setdefault("versions", [])
            if all(v["format"] != fmt for v in vs):
                vs.append({"tag": tag, "format": fmt, "path": o["path"], "shape": o["shape"]})
                n_versions += 1
            continue
        if (o["area"], fmt) in only:
            only[(o["area"], fmt)]["older_only"].append(tag)
            continue
        new = dict(o, older_only=[tag])
        base, k = new["id"], 2
        while new["id"] in ids:
            new["id"], k = f"{base}-{k}", k + 1
        ids.add(new["id"])
        sites.append(new)
        only[(o["area"], fmt)] = new
        n_new += 1
    return n_versions, n_new


def add_bare_shapes(shapes, sites):
    """The same lines pasted bare (syslog/dmesg prefix cut off, as in an issue or a console): recognition must not
    depend on the prefix, so every site is also rendered without it."""
    for key in list(shapes):
        shapes[key + ":bare"] = {"line": shapes[key]["line"].replace(HEAD, ""),
                                 "file": shapes[key]["file"].replace("syslog-", "console-").replace("-node-07.log", ".txt"),
                                 "benign": shapes[key]["benign"]}
    for site in sites:
        site["shape"] = [site["shape"], site["shape"] + ":bare"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True, help="unpacked kernel tree (linux-source-6.1)")
    ap.add_argument("--out", default="inventory/kernel.json")
    ap.add_argument("--older", action="append", default=[],
                    help="TAG=DIR=OWNER/REPO@COMMIT: an older kernel tree and where it was read from (newest first)")
    a = ap.parse_args()
    calls = callers()
    shapes = {}
    version = tree_version(a.src)
    sites, all_paths = extract(a.src, calls, shapes)
    sources = [{"repo": "torvalds/linux", "commit": None, "tag": version,
                "package": "Debian 12 linux-source-6.1 6.1.192-3 (the stable tree's v6.1.192 with Debian's patches)",
                "note": "the git snapshot of torvalds/linux is over the fetch size limit; the release tarball is read instead",
                "paths": all_paths}]
    for spec in a.older:
        tag, src, where = spec.split("=", 2)
        repo, commit = where.split("@")
        old_sites, old_paths = extract(src, calls, shapes, older=True)
        n_versions, n_new = attach_older(sites, tag, old_sites)
        print(f"kernel {tag}: {len(old_sites)} sites, {n_versions} older wordings of current sites, "
              f"{n_new} older-only sites", file=sys.stderr)
        sources.append({"repo": repo, "commit": commit, "tag": tag,
                        "note": "an older kernel's source as published in this repository (torvalds/linux itself is "
                                "over the fetch size limit): read for the wordings of older releases",
                        "paths": sorted(set(old_paths))})
    add_bare_shapes(shapes, sites)
    inv = {
        "family": "kernel",
        "title": "Linux kernel: OOM killer, hung task, lockups, RCU stalls, traps and panics, MCE/EDAC, PCIe AER, "
                 "NVMe, block layer, ext4/jbd2, XFS, NFS/SUNRPC, mlx5 (warning level and above)",
        "sources": sources,
        "extractor": "scripts/inventory/extract_kernel.py",
        "line_shapes": dict(sorted(shapes.items())),
        "sites": sites,
    }
    csource.write_inventory(a.out, inv)
    csource.report("kernel", a.out, a.out.replace(".json", ".decisions.json"), sites)


if __name__ == "__main__":
    main()
