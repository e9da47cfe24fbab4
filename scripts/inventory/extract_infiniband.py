#!/usr/bin/env python3
"""InfiniBand in the Linux kernel (issue #41): ib_core (drivers/infiniband/core), the mlx5 InfiniBand driver
(drivers/infiniband/hw/mlx5) and IPoIB (drivers/infiniband/ulp/ipoib) at warning level and above, read from the
same tree as the kernel family (Debian 12's linux-source-6.1, v6.1.192) with extract_kernel.py's reader, plus
the InfiniBand-specific print helpers: ibdev_err() ("mlx5_core 0000:5c:00.0 mlx5_0: "), mlx5_ib_err()
("infiniband mlx5_0: fn:line:(pid N): ") and ipoib_warn() ("ib0: "). mlx5_core's own port and health messages
are in the kernel family (its mlx5 area).

    scripts/inventory/extract_infiniband.py --src /tmp/linux-source-6.1 [--out inventory/infiniband.json]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csource  # noqa: E402
import extract_kernel as ek  # noqa: E402

AREAS = {
    "ib_core": (["drivers/infiniband/core/*.c"], False),
    "mlx5_ib": (["drivers/infiniband/hw/mlx5/*.c"], False),
    "ipoib": (["drivers/infiniband/ulp/ipoib/*.c"], False),
}
PREFIX = {
    "ibdev": "mlx5_core 0000:5c:00.0 mlx5_0: ",
    "mlx5_ib": "infiniband mlx5_0: mlx5_ib_fn:123:(pid 4242): ",
    "ipoib": "ib0: ",
}


def callers():
    c = ek.callers()
    for word, level in ek.LEVEL_WORDS.items():
        for suf in ek.SUFFIXES:
            c[f"ibdev_{word}{suf}"] = (level, 1, "ibdev")
            c[f"mlx5_ib_{word}{suf}"] = (level, 1, "mlx5_ib")
    c["ipoib_warn"] = ("warn", 1, "ipoib")
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True, help="unpacked kernel tree (linux-source-6.1)")
    ap.add_argument("--out", default="inventory/infiniband.json")
    a = ap.parse_args()
    ek.AREAS = AREAS
    ek.PREFIX.update(PREFIX)
    shapes = {}
    sites, all_paths = ek.extract(a.src, callers(), shapes)
    for s in sites:
        s["id"] = "infiniband:" + s["id"].split(":", 1)[1]
    ek.add_bare_shapes(shapes, sites)
    inv = {
        "family": "infiniband",
        "title": "Linux kernel InfiniBand: ib_core, mlx5_ib, IPoIB (warning level and above)",
        "sources": [{"repo": "torvalds/linux", "commit": None, "tag": ek.tree_version(a.src),
                     "package": "Debian 12 linux-source-6.1 6.1.192-3 (the stable tree's v6.1.192 with Debian's patches)",
                     "note": "the git snapshot of torvalds/linux is over the fetch size limit; the release tarball is read instead",
                     "paths": all_paths}],
        "extractor": "scripts/inventory/extract_infiniband.py",
        "line_shapes": dict(sorted(shapes.items())),
        "sites": sites,
    }
    csource.write_inventory(a.out, inv)
    csource.report("infiniband", a.out, a.out.replace(".json", ".decisions.json"), sites)


if __name__ == "__main__":
    main()
