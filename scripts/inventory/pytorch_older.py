#!/usr/bin/env python3
"""PyTorch's older releases' wordings of the inventory's sites (issue #41: a rule keyed to one release's
spelling misses the others).

  python3 scripts/inventory/pytorch_older.py         (rewrites inventory/pytorch.json in place)

pytorch/pytorch is over the snapshot size limit, but two public forks that carry its history are not:
  jasperzhong/swift      upstream's release tags v1.6.0 ... v1.9.0 (the commits are upstream's own)
  yakov-helm/pytorch_exp upstream's master up to 2.1.0a0, read at the commits that bumped version.txt past a
                         release (master at that release's branch cut)
Each release's files (the inventory's paths; before 1.9 c10d lived in torch/lib/c10d/) are read with
`git show`, their sites extracted exactly as extract_pytorch.py does, and a wording that is not the site's
current one is attached to the site it became (inventory_lib.ancestor: same file, most words in common) as
`versions: [{"tag", "format", "syntax", "older": true}]`, the newest release that printed it first. An old
wording no current site descends from is left out (listed on stderr): the sites are the current releases'.
Re-running replaces the entries this script added (marked "older") and keeps every other version.
extract_pytorch.py calls attach() too, so a full re-extraction keeps them.
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inventory_lib as lib  # noqa: E402

SWIFT = os.environ.get("PYTORCH_OLD_GIT", "/work/.mirror/jasperzhong+swift/repo")
MASTER = os.environ.get("PYTORCH_MASTER_GIT", "/work/.mirror/yakov-helm+pytorch_exp/repo")
# (label, git dir, commit-ish), newest first
RELEASES = [
    ("v2.0 (branch cut: pytorch/pytorch@d1ec9a51e9915abb157e886262a4676432b3801a)", MASTER, "d1ec9a51e9915abb157e886262a4676432b3801a"),
    ("v1.12 (branch cut: pytorch/pytorch@a645abd5aa3ff5ed0bf214da7894ce95e6a6acc7)", MASTER, "a645abd5aa3ff5ed0bf214da7894ce95e6a6acc7"),
    ("v1.11 (branch cut: pytorch/pytorch@0ca0e02685a9d033ac4f04e2fa5c8ba6dbc5ae50)", MASTER, "0ca0e02685a9d033ac4f04e2fa5c8ba6dbc5ae50"),
    ("v1.10 (branch cut: pytorch/pytorch@2c7df1360aa17d4a6d6726998eede3671bcb36ee)", MASTER, "2c7df1360aa17d4a6d6726998eede3671bcb36ee"),
    ("v1.9.0", SWIFT, "v1.9.0"),
    ("v1.8.1", SWIFT, "v1.8.1"),
    ("v1.7.1", SWIFT, "v1.7.1"),
    ("v1.6.0", SWIFT, "v1.6.0"),
]
OLD_C10D = "torch/lib/c10d/"
NEW_C10D = "torch/csrc/distributed/c10d/"


def _git(where, *args):
    return subprocess.run(["git", "--git-dir", where, *args], check=True, capture_output=True,
                          text=True, errors="replace").stdout


def release_files(where, commit, paths):
    """{current path: text} of the inventory's files at a release (c10d under its old folder before 1.9)."""
    names = set(_git(where, "ls-tree", "-r", "--name-only", commit).splitlines())
    out = {}
    for p in paths:
        for cand in (p, OLD_C10D + p[len(NEW_C10D):] if p.startswith(NEW_C10D) else None):
            if cand and cand in names:
                out[p] = _git(where, "show", f"{commit}:{cand}")
                break
    return out


def attach(sites, sites_of):
    """Add each release's other wordings to `sites` (the inventory's list); returns (added, orphans)."""
    for s in sites:
        if s.get("versions"):
            s["versions"] = [v for v in s["versions"] if not v.get("older")]
            if not s["versions"]:
                del s["versions"]
    by_path = {}
    for s in sites:
        by_path.setdefault(s["path"], []).append(s)
    added, orphans = 0, {}
    with tempfile.TemporaryDirectory(prefix="pytorch-older-") as tmp:
        for label, where, commit in RELEASES:
            if not os.path.isdir(where):
                print(f"pytorch_older: {where}: no snapshot, {label} skipped", file=sys.stderr)
                continue
            for path, text in release_files(where, commit, sorted(by_path)).items():
                full = os.path.join(tmp, path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "w", encoding="utf-8") as f:
                    f.write(text)
                current = by_path[path]
                formats = {s["format"] for s in current}
                for old in sites_of(tmp, path):
                    fmt = old["format"]
                    if fmt in formats:
                        continue
                    # the same level: a release's debug/info wording is not the ancestor of an error
                    site = lib.ancestor(fmt, path, [s for s in current if s["level"] == old["level"]],
                                        file_key="path")
                    if site is None:
                        orphans.setdefault((path, fmt), label)
                        continue
                    vs = site.setdefault("versions", [])
                    if any(v["format"] == fmt for v in vs):
                        continue
                    vs.append({"tag": label, "format": fmt, "syntax": old["syntax"], "older": True})
                    added += 1
    return added, orphans


def sources():
    """The inventory's `sources` entries of the releases read here."""
    def full(where, commit):
        if len(commit) == 40 or not os.path.isdir(where):
            return commit if len(commit) == 40 else None
        return _git(where, "rev-parse", commit + "^{commit}").strip()
    return [{"repo": "pytorch/pytorch", "commit": full(where, commit), "tag": label,
             "via": f"fetch of {os.path.basename(os.path.dirname(where)).replace('+', '/')} (a fork holding upstream's history)",
             "older": True}
            for label, where, commit in RELEASES]


def main():
    import json
    import extract_pytorch
    inv = json.load(open(os.path.join(lib.INVENTORY_DIR, "pytorch.json"), encoding="utf-8"))
    added, orphans = attach(inv["sites"], extract_pytorch.sites_of)
    inv["sources"] = [s for s in inv["sources"] if not s.get("older")] + sources()
    lib.write_inventory(inv)
    print(f"pytorch_older: {added} older wordings attached; {len(orphans)} old wordings with no current site",
          file=sys.stderr)
    if os.environ.get("PYTORCH_OLDER_ORPHANS"):
        with open(os.environ["PYTORCH_OLDER_ORPHANS"], "w", encoding="utf-8") as f:
            for (p, fmt), label in sorted(orphans.items()):
                f.write(f"{label}\t{p}\t{fmt}\n")


if __name__ == "__main__":
    main()
