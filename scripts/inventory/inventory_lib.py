"""Shared pieces of the message inventories (issue #41): reading an upstream
snapshot at a pinned commit, pulling message sites out of C/C++ calls and
Python code, rendering a site's format with plausible values, and writing
inventory/<family>.json beside its hand-kept decisions file.

Stdlib only. The snapshot is a bare git directory (the `fetch` tool's
/work/.mirror/<owner>+<name>/repo) or a plain directory of saved files.
"""

import ast
import fnmatch
import json
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INVENTORY_DIR = os.path.join(TOP, "inventory")


# ---------------------------------------------------------------- snapshots

class Snapshot:
    """Files of one repository at one commit: a git dir, or a plain folder."""

    def __init__(self, where, commit=None):
        self.where = where
        self.git = os.path.isdir(os.path.join(where, "objects")) or where.endswith(".git")
        self.commit = commit
        if self.git and commit is None:
            self.commit = self._git("rev-parse", "HEAD").strip()

    def _git(self, *args):
        return subprocess.run(["git", "--git-dir", self.where, *args], check=True,
                              capture_output=True, text=True, errors="replace").stdout

    def files(self, patterns):
        if self.git:
            names = self._git("ls-tree", "-r", "--name-only", self.commit).splitlines()
        else:
            names = []
            for root, _, fs in os.walk(self.where):
                for f in fs:
                    names.append(os.path.relpath(os.path.join(root, f), self.where))
        out = [n for n in names if any(fnmatch.fnmatch(n, p) for p in patterns)]
        return sorted(out)

    def read(self, path):
        if self.git:
            return self._git("show", f"{self.commit}:{path}")
        with open(os.path.join(self.where, path), encoding="utf-8", errors="replace") as f:
            return f.read()

    def tag(self):
        if not self.git:
            return None
        try:
            return self._git("describe", "--tags", self.commit).strip()
        except subprocess.CalledProcessError:
            return None


# ---------------------------------------------------------------- C / C++ calls

_C_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_PRI = {"PRIu64": "%lu", "PRId64": "%ld", "PRIx64": "%lx", "PRIu32": "%u", "PRId32": "%d",
        "PRIx32": "%x", "PRIu16": "%u", "PRIu8": "%u", "PRIi64": "%ld", "PRIX64": "%lX"}


def _line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def call_args(text, open_paren):
    """Split the argument list that starts at text[open_paren] == '(' into raw
    argument strings (strings, chars and comments skipped); returns (args, end)."""
    depth, i, start, args = 0, open_paren, open_paren + 1, []
    n = len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            q = c
            i += 1
            while i < n and text[i] != q:
                i += 2 if text[i] == "\\" else 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            if i < 0:
                break
            continue
        elif text.startswith("/*", i):
            i = text.find("*/", i) + 1
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(text[start:i])
                return args, i
        elif c == "," and depth == 1:
            args.append(text[start:i])
            start = i + 1
        i += 1
    return args, n


def c_format(arg):
    """The text of a C format argument: adjacent literals joined, PRI macros as
    their conversion, any other identifier between literals as %s (a string macro)."""
    pieces = []
    pos = 0
    arg = re.sub(r"/\*.*?\*/", " ", arg, flags=re.S)
    arg = re.sub(r"//[^\n]*", " ", arg)
    found = False
    for m in _C_STRING.finditer(arg):
        between = arg[pos:m.start()].strip()
        if between and found:
            pieces.append(_PRI.get(between, "%s"))
        pieces.append(m.group(1))
        pos = m.end()
        found = True
    if not found:
        return None
    tail = arg[pos:].strip()
    if tail and tail in _PRI:
        pieces.append(_PRI[tail])
    return "".join(pieces).replace('\\"', '"').replace("\\n", "").replace("\\t", " ")


def stream_format(args):
    """A message built from pieces (TORCH_CHECK(cond, "a", x, "b"), c10::str,
    `<<` chains): literals kept, every other piece a {} placeholder."""
    out = []
    for a in args:
        a = a.strip()
        parts = re.split(r"<<", a) if "<<" in a else [a]
        for p in parts:
            p = p.strip()
            if not p:
                continue
            f = c_format(p) if p.startswith('"') or re.match(r'^(?:[A-Z]+)?"', p) else None
            if f is not None and re.fullmatch(r'\s*(?:"(?:[^"\\\n]|\\.)*"\s*)+', p):
                out.append(f)
            else:
                inner = re.match(r"^(?:c10::str|fmt::format)\s*\((.*)\)$", p, re.S)
                if inner:
                    sub, _ = call_args("(" + inner.group(1) + ")", 0)
                    out.append(stream_format(sub))
                else:
                    out.append("{}")
    text = "".join(out)
    return re.sub(r"(\{\})+", "{}", text)


def c_sites(text, macro, fmt_arg=0, kind="printf"):
    """Every call `macro(` in text; yields (line, format) with the format taken
    from argument fmt_arg (printf) or from all arguments after it (stream)."""
    for m in re.finditer(r"(?<![A-Za-z0-9_])" + re.escape(macro) + r"\s*\(", text):
        # skip the macro's own definition
        line_start = text.rfind("\n", 0, m.start()) + 1
        if text[line_start:m.start()].lstrip().startswith("#define"):
            continue
        args, _ = call_args(text, m.end() - 1)
        if kind == "printf":
            if len(args) <= fmt_arg:
                continue
            fmt = c_format(args[fmt_arg])
        else:
            fmt = stream_format(args[fmt_arg:])
        if fmt is None or not fmt.strip():
            continue
        yield _line_of(text, m.start()), fmt


def c_stream_statements(text, head):
    """`LOG(ERROR) << a << b;` style statements starting with head: (line, format)."""
    for m in re.finditer(re.escape(head), text):
        end = text.find(";", m.end())
        body = text[m.end():end]
        parts = [p for p in body.split("<<")]
        yield _line_of(text, m.start()), stream_format(["<<".join(parts)])


# ---------------------------------------------------------------- Python

def _py_str(node):
    """(format, syntax) of a message expression, or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, "literal"
    if isinstance(node, ast.JoinedStr):
        out = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                out.append(str(v.value).replace("{", "{{").replace("}", "}}"))
            else:
                try:
                    out.append("{" + ast.unparse(v.value) + "}")
                except Exception:
                    out.append("{}")
        return "".join(out), "python-fstring"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        l, r = _py_str(node.left), _py_str(node.right)
        if l or r:
            lf = l[0] if l else "{" + ast.unparse(node.left) + "}"
            rf = r[0] if r else "{" + ast.unparse(node.right) + "}"
            return lf + rf, "python-fstring"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        l = _py_str(node.left)
        if l:
            return l[0], "printf"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        l = _py_str(node.func.value)
        if l:
            return l[0], "python-format"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join":
        return "{}", "python-format"
    return None


_PY_LOG_LEVELS = {"error": "ERROR", "warning": "WARNING", "warn": "WARNING", "exception": "ERROR",
                  "critical": "CRITICAL", "fatal": "CRITICAL"}


def py_sites(text, extra_calls=()):
    """Python message sites: raise X(msg), logger.error/warning/exception/critical(msg),
    warnings.warn(msg), and the calls named in extra_calls (e.g. rank_zero_warn).
    Yields dicts with line, level, format, syntax, exception."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return
    names = {}  # variable name -> message expression assigned just before a raise
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if _py_str(node.value):
                names.setdefault(node.targets[0].id, node.value)
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc
            cls = None
            msg = None
            if isinstance(exc, ast.Call):
                cls = ast.unparse(exc.func)
                if exc.args:
                    msg = exc.args[0]
                    if isinstance(msg, ast.Name) and msg.id in names:
                        msg = names[msg.id]
                else:
                    for kw in exc.keywords:
                        if kw.arg in ("msg", "message", "error"):
                            msg = kw.value
            if msg is None:
                continue
            f = _py_str(msg)
            if not f:
                continue
            short = cls.split(".")[-1]
            yield {"line": node.lineno, "level": "raise", "exception": short,
                   "format": f[0], "syntax": f[1]}
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            attr = node.func.attr
            owner = ast.unparse(node.func.value)
            level = None
            if attr in _PY_LOG_LEVELS and re.search(r"log", owner, re.I):
                level = _PY_LOG_LEVELS[attr]
            elif attr == "warn" and owner == "warnings":
                level = "WARNING"
            if level is None:
                continue
            f = _py_str(node.args[0])
            if f:
                syntax = f[1]
                if syntax == "literal" and len(node.args) > 1 and "%" in f[0]:
                    syntax = "printf"
                yield {"line": node.lineno, "level": level, "format": f[0], "syntax": syntax}
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in extra_calls and node.args:
            f = _py_str(node.args[0])
            if f:
                yield {"line": node.lineno, "level": "WARNING", "format": f[0], "syntax": f[1]}


# ---------------------------------------------------------------- ids and files

def slug(text, words=5):
    w = re.findall(r"[A-Za-z][A-Za-z0-9]+", re.sub(r"%[-0-9.l]*[a-zA-Z]|\{[^}]*\}", " ", text))
    s = "-".join(x.lower() for x in w[:words])
    return s or "msg"


def assign_ids(family, sites):
    """Stable ids: family:path:slug, with -2, -3 for repeats of a slug in one file
    (in line order, so an edit elsewhere in the file does not move them)."""
    seen = {}
    for s in sites:
        base = f"{family}:{s['path']}:{s.get('slug') or slug(s['format'])}"
        n = seen.get(base, 0) + 1
        seen[base] = n
        s["id"] = base if n == 1 else f"{base}-{n}"
        s.pop("slug", None)
    return sites


def write_inventory(doc):
    """Write inventory/<family>.json and report sites without a decision and
    decisions without a site (decisions live in <family>.decisions.json)."""
    os.makedirs(INVENTORY_DIR, exist_ok=True)
    fam = doc["family"]
    path = os.path.join(INVENTORY_DIR, fam + ".json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    dpath = os.path.join(INVENTORY_DIR, fam + ".decisions.json")
    decisions = {}
    if os.path.exists(dpath):
        with open(dpath, encoding="utf-8") as f:
            decisions = json.load(f)
    ids = {s["id"] for s in doc["sites"]}
    undecided = [i for i in ids if i not in decisions]
    orphans = [i for i in decisions if i not in ids]
    print(f"{fam}: {len(ids)} sites, {len(ids) - len(undecided)} decided, "
          f"{len(orphans)} decisions without a site -> {os.path.relpath(path, TOP)}", file=sys.stderr)
    for i in sorted(orphans):
        print(f"  decision without a site: {i}", file=sys.stderr)
    return path


def load_decisions(family):
    """inventory/<family>.decisions.json as a dict (empty when there is none yet), and its path."""
    path = os.path.join(INVENTORY_DIR, family + ".decisions.json")
    if not os.path.exists(path):
        return {}, path
    with open(path, encoding="utf-8") as f:
        return json.load(f), path


def save_drafted_decisions(path, decisions, added):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(decisions, f, indent=1)
        f.write("\n")
    print(f"{added} decisions drafted, {len(decisions)} in all")
