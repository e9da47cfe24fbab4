"""Message sites in C sources: calls of logging functions and the format string they print.

Shared by the extractors of C families (kernel, NVIDIA open kernel modules, Slurm, glibc). Stdlib only.
A site is a call `name(args...)` whose arguments hold a string literal: the adjacent literals (and the
format macros between them, such as PRIu64 or KERN_ERR) are joined into one printf format.
"""
import json
import os
import re
import subprocess

# Format macros that stand between string literals; their printf text.
FORMAT_MACROS = {
    "PRIu64": "llu", "PRId64": "lld", "PRIx64": "llx", "PRIX64": "llX", "PRIi64": "lli",
    "PRIu32": "u", "PRId32": "d", "PRIx32": "x", "PRIX32": "X", "PRIu16": "u", "PRIu8": "u",
    "NvU64_fmtx": "llx", "NvU64_fmtu": "llu", "NvU64_fmtX": "llX", "NvU64_fmtd": "lld",
    "HW_ERR": "[Hardware Error]: ", "KERN_EMERG": "", "KERN_ALERT": "", "KERN_CRIT": "", "KERN_ERR": "", "KERN_WARNING": "",
    "KERN_NOTICE": "", "KERN_INFO": "", "KERN_DEBUG": "", "KERN_CONT": "", "KERN_DEFAULT": "",
}
KERN_LEVELS = {"KERN_EMERG": "emerg", "KERN_ALERT": "alert", "KERN_CRIT": "crit", "KERN_ERR": "err",
               "KERN_WARNING": "warn", "KERN_NOTICE": "notice", "KERN_INFO": "info", "KERN_DEBUG": "debug",
               "KERN_CONT": "cont", "KERN_DEFAULT": "default"}

_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "r": "\r", "0": "\0", "a": "\a"}


def _literal_end(text, i):
    """Offset just past the string or character literal that starts at text[i]."""
    j, n = i + 1, len(text)
    while j < n and text[j] != text[i]:
        j += 2 if text[j] == "\\" else 1
    return j + 1


def strip_comments(text):
    """Comments become spaces of the same length (newlines kept) so offsets and lines stay right."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = _literal_end(text, i)
            out.append(text[i:j])
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def call_args(text, start):
    """Arguments of the call whose '(' is at text[start]; returns (list of raw args, end offset)."""
    depth, i, n = 0, start, len(text)
    args, cur = [], start + 1
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            i = _literal_end(text, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(text[cur:i])
                return args, i + 1
        elif c == "," and depth == 1:
            args.append(text[cur:i])
            cur = i + 1
        i += 1
    return None, n


_TOKEN = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_]\w*))', re.S)


def literal_of(arg, macros=FORMAT_MACROS):
    """The string an argument spells when it is adjacent literals and format macros only; else None.
    Returns (text, kern_level or None)."""
    pos, parts, level, saw_literal = 0, [], None, False
    arg = arg.strip()
    while pos < len(arg):
        m = _TOKEN.match(arg, pos)
        if not m:
            return None
        if m.group(1) is not None:
            parts.append(unescape(m.group(1)))
            saw_literal = True
        else:
            name = m.group(2)
            if name in KERN_LEVELS:
                level = level or KERN_LEVELS[name]
            if name not in macros:
                return None
            parts.append(macros[name])
        pos = m.end()
        while pos < len(arg) and arg[pos].isspace():
            pos += 1
    if not saw_literal:
        return None
    text = "".join(parts)
    # A leading "\001<digit>" is the kernel's level prefix spelled out.
    m = re.match(r"^\x01([0-7c])", text)
    if m:
        level = level or {"0": "emerg", "1": "alert", "2": "crit", "3": "err", "4": "warn", "5": "notice",
                          "6": "info", "7": "debug", "c": "cont"}[m.group(1)]
        text = text[2:]
    return text, level


def unescape(s):
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            d = s[i + 1]
            if d in _ESCAPES:
                out.append(_ESCAPES[d])
                i += 2
                continue
            m = re.match(r"[0-7]{1,3}", s[i + 1:])
            if m:
                out.append(chr(int(m.group(0), 8)))
                i += 1 + len(m.group(0))
                continue
            m = re.match(r"x[0-9a-fA-F]{1,2}", s[i + 1:])
            if m:
                out.append(chr(int(m.group(0)[1:], 16)))
                i += 1 + len(m.group(0))
                continue
            out.append(d)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def find_calls(text, names):
    """Yield (offset, name, args) for every call of one of names in comment-free text."""
    if not names:
        return
    pat = re.compile(r"(?<![\w.>])(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")\s*\(")
    for m in pat.finditer(text):
        # skip definitions and declarations: '#define name(' or a return type before it on the line
        line_start = text.rfind("\n", 0, m.start()) + 1
        head = text[line_start:m.start()]
        if head.lstrip().startswith("#"):
            continue
        args, _ = call_args(text, m.end() - 1)
        if args is None:
            continue
        yield m.start(), m.group(1), args


def first_format(args, macros=FORMAT_MACROS, skip=0):
    """(index, text, level) of the first argument from `skip` on that is a string literal."""
    for i, a in enumerate(args[skip:], start=skip):
        got = literal_of(a, macros)
        if got is not None:
            return i, got[0], got[1]
    return None


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def slug(fmt, used):
    """A short stable slug of a message: its first words, made unique within one file."""
    words = re.findall(r"[A-Za-z][A-Za-z0-9_]*", re.sub(r"%[-+ #0-9.*]*[a-zA-Z]+", " ", fmt))
    base = "-".join(w.lower() for w in words[:6]) or "fmt"
    base = base[:60]
    s, k = base, 2
    while s in used:
        s = f"{base}-{k}"
        k += 1
    used.add(s)
    return s


def git_show(gitdir, commit, path):
    return subprocess.run(["git", "--git-dir", gitdir, "show", f"{commit}:{path}"], check=True,
                          capture_output=True, text=True, errors="replace").stdout


def git_ls(gitdir, commit, prefix=""):
    out = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "--name-only", commit] + ([prefix] if prefix else []),
                         check=True, capture_output=True, text=True).stdout
    return out.splitlines()


def merge_decisions(inventory_path, decisions_path, sites):
    """Report sites without a decision and decisions without a site; never rewrite decisions."""
    decisions = {}
    if os.path.exists(decisions_path):
        with open(decisions_path) as f:
            decisions = json.load(f)
    ids = {s["id"] for s in sites}
    undecided = [s["id"] for s in sites if s["id"] not in decisions]
    orphans = [k for k in decisions if k not in ids]
    return undecided, orphans


def write_inventory(path, inv):
    dup = {}
    for s in inv["sites"]:
        dup[s["id"]] = dup.get(s["id"], 0) + 1
    bad = [k for k, v in dup.items() if v > 1]
    if bad:
        raise SystemExit(f"{path}: duplicate site ids: {bad[:5]}")
    with open(path, "w") as f:
        json.dump(inv, f, indent=1, ensure_ascii=False)
        f.write("\n")


def report(family, inv_path, dec_path, sites):
    undecided, orphans = merge_decisions(inv_path, dec_path, sites)
    print(f"{family}: {len(sites)} sites, {len(sites) - len(undecided)} decided, "
          f"{len(undecided)} without a decision, {len(orphans)} decisions without a site")
    for o in orphans[:20]:
        print(f"  decision without a site: {o}")
