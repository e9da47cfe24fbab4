#!/usr/bin/env python3
"""glibc's strerror table and Python's built-in exceptions (issue #41).

errno: every entry of glibc's sysdeps/gnu/errlist.h (`_S(ECODE, N_("text"))`, the strings strerror() and
perror() print), numbered from the kernel's uapi asm-generic errno headers (x86-64 and arm64 Linux).
python: every built-in exception class of CPython's Objects/exceptions.c (_PyBuiltins_AddExceptions) and
OSError's errno subclasses (_PyExc_InitState's ADD_ERRNO map), each subclass site rendered as Python
prints it: `<Class>: [Errno N] <strerror text>: '<path>'`.

    scripts/inventory/extract_errno.py --glibc GITDIR --glibc-commit C --errno-headers DIR \
        --cpython-excerpt FILE [--out-dir inventory]
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csource  # noqa: E402


def errno_numbers(hdr_dir):
    nums = {}
    for name in ("errno-base.h", "errno.h"):
        for m in re.finditer(r"#define\s+(E\w+)\s+(\w+)", open(os.path.join(hdr_dir, name)).read()):
            val = m.group(2)
            nums[m.group(1)] = int(val) if val.isdigit() else nums.get(val)
    return nums


def python_site(cls, fmt, code=None, errno=None):
    site = {"id": f"python:{cls}" + (f":{code}" if code else ""), "path": "Objects/exceptions.c", "line": None,
            "level": "exception", "format": fmt, "syntax": "python-format", "shape": "traceback"}
    if code:
        site.update({"errno": errno, "symbol": code})
    return site


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glibc", required=True)
    ap.add_argument("--glibc-commit", required=True)
    ap.add_argument("--errno-headers", required=True, help="include/uapi/asm-generic of a kernel tree")
    ap.add_argument("--cpython-excerpt", required=True)
    ap.add_argument("--out-dir", default="inventory")
    a = ap.parse_args()
    nums = errno_numbers(a.errno_headers)
    text = csource.git_show(a.glibc, a.glibc_commit, "sysdeps/gnu/errlist.h")
    sites, strerror = [], {}
    for m in re.finditer(r'_S\((\w+),\s*N_\("((?:[^"\\]|\\.)*)"\)\)', text):
        code, msg = m.group(1), csource.unescape(m.group(2))
        strerror[code] = msg
        sites.append({"id": f"errno:{code}", "path": "sysdeps/gnu/errlist.h", "line": text.count("\n", 0, m.start()) + 1,
                      "level": "error", "errno": nums.get(code), "symbol": code, "format": msg, "syntax": "literal",
                      "shape": "perror"})
    inv = {
        "family": "errno",
        "title": "glibc strerror() texts (sysdeps/gnu/errlist.h), numbered by the Linux uapi errno headers",
        "sources": [{"repo": "bminor/glibc", "commit": a.glibc_commit, "tag": "glibc-2.42.9000", "paths": ["sysdeps/gnu/errlist.h"]},
                    {"repo": "torvalds/linux", "commit": None, "tag": "v6.1.192", "package": "Debian 12 linux-source-6.1 6.1.192-3",
                     "paths": ["include/uapi/asm-generic/errno-base.h", "include/uapi/asm-generic/errno.h"]}],
        "extractor": "scripts/inventory/extract_errno.py",
        "line_shapes": {"perror": "[2025-11-30 12:14:55] save_checkpoint: write /ckpt/step_4000/model.pt failed: {msg}"},
        "sites": sites,
    }
    csource.write_inventory(os.path.join(a.out_dir, "errno.json"), inv)
    csource.report("errno", os.path.join(a.out_dir, "errno.json"), os.path.join(a.out_dir, "errno.decisions.json"), sites)

    ex = open(a.cpython_excerpt).read()
    psites = []
    for m in re.finditer(r"POST_INIT\((\w+)\)", ex):
        cls = m.group(1)
        psites.append(python_site(cls, f"{cls}: {{0}}"))
    for m in re.finditer(r"ADD_ERRNO\((\w+), (\w+)\)", ex):
        cls, code = m.group(1), m.group(2)
        if code not in strerror or nums.get(code) is None:
            continue
        psites.append(python_site(cls, f"{cls}: [Errno {nums[code]}] {strerror[code]}: {{0}}", code, nums[code]))
    # OSError itself carries every other errno: the ones no subclass takes
    taken = set(re.findall(r"ADD_ERRNO\(\w+, (\w+)\)", ex))
    for code, msg in strerror.items():
        if code in taken or code == "0" or nums.get(code) is None:
            continue
        psites.append(python_site("OSError", f"OSError: [Errno {nums[code]}] {msg}: {{0}}", code, nums[code]))
    pinv = {
        "family": "python",
        "title": "CPython built-in exceptions and OSError's errno subclasses (as a traceback's last line prints them)",
        "sources": [{"repo": "python/cpython", "commit": None, "path_version": "search index file id 23584638 (a 3.10-era Objects/exceptions.c)",
                     "paths": ["Objects/exceptions.c"],
                     "note": "the git snapshot of python/cpython is over the fetch size limit; the ADD_ERRNO and POST_INIT blocks were read through the index and kept under /tmp"}],
        "extractor": "scripts/inventory/extract_errno.py",
        "line_shapes": {"traceback": "[rank3]: {msg}"},
        "sites": psites,
    }
    csource.write_inventory(os.path.join(a.out_dir, "python.json"), pinv)
    csource.report("python", os.path.join(a.out_dir, "python.json"), os.path.join(a.out_dir, "python.decisions.json"), psites)


if __name__ == "__main__":
    main()
