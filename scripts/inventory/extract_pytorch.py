#!/usr/bin/env python3
"""PyTorch: every error- and warning-level message site of c10d (ProcessGroupNCCL/Gloo, NCCLUtils, TCPStore,
socket), the elastic agent and its multiprocessing, rendezvous and errors, torchrun (run.py, launcher/api.py),
the DataLoader and its workers (Python and the C++ signal handlers), the CUDA caching allocator and torch.cuda.

  python3 scripts/inventory/extract_pytorch.py [SRC]          (SRC: /tmp/pytorch-src)

The PyTorch repository is over the snapshot size limit, so its files are saved by hand under SRC:
  SRC/v1.13.1/<path>   whole files of the release 1.13.1 (Debian's source package pytorch 1.13.1+dfsg,
                       the upstream tag's tree without the vendored third_party)
  SRC/<commit8>/<path> newer files read through the search tools at that pytorch/pytorch commit; a file
                       whose first line says EXCERPT holds only its message statements, in file order
                       (its line numbers are the excerpt's own)
A site of a newer file replaces the 1.13.1 site with the same id; a 1.13.1 site whose id a newer file also has
but with another wording is kept as that site's older version (versions); a newer site's older wordings read
from history are listed in OLDER below with where they were read; releases 1.6 to 2.0 are read from the history
by pytorch_older.py (attach()).

C++: TORCH_CHECK*, TORCH_INTERNAL_ASSERT, TORCH_WARN*, C10_THROW_ERROR / C10_BUILD_ERROR, LOG(ERROR|WARNING|
FATAL) and C10_LOG_*(ERROR|WARNING) streams, C10D_ERROR / C10D_WARNING, SIGNAL_HANDLER, `throw X{...}` /
`throw X(...)`, and messages built first and thrown or logged after (`msg = fmt::format(...)`,
`exceptionMsg = c10::str(...)`, `oss << ...`). Python: raise X(msg), log/logger .error/.warning/.exception/
.critical, warnings.warn, and the ChildFailedError report templates.
"""
import ast
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csource  # noqa: E402
import inventory_lib as lib  # noqa: E402

SRC = sys.argv[1] if len(sys.argv) > 1 else "/tmp/pytorch-src"
BASE = "v1.13.1"
NEWER = {"ad55c3bb": "ad55c3bb93422e6833f5d86c0e0976debafd221c",   # ProcessGroupNCCL.cpp (2.6 era)
         "00321a02": "00321a02d719de5729aeac5871792398114a1570",   # TCPStore.cpp (2.2 era)
         "00a1abb4": "00a1abb4ef74f047662e57678240bbe3dfe46ef0",   # elastic agent/server/api.py (2.4 era)
         "0068f5a3": "0068f5a3a1cae3c3e6e1e71173dbb5d8262271b1"}   # elastic multiprocessing/api.py (2.8 era)

CPP_PATHS = ["torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp", "torch/csrc/distributed/c10d/ProcessGroupGloo.cpp",
             "torch/csrc/distributed/c10d/NCCLUtils.hpp", "torch/csrc/distributed/c10d/NCCLUtils.cpp",
             "torch/csrc/distributed/c10d/TCPStore.cpp", "torch/csrc/distributed/c10d/socket.cpp",
             "torch/csrc/distributed/c10d/Utils.hpp", "torch/csrc/distributed/c10d/Utils.cpp",
             "torch/csrc/distributed/c10d/ProcessGroup.cpp", "torch/csrc/distributed/c10d/Store.cpp",
             "torch/csrc/distributed/c10d/FileStore.cpp", "torch/csrc/distributed/c10d/reducer.cpp",
             "torch/csrc/DataLoader.cpp", "c10/cuda/CUDACachingAllocator.cpp", "c10/cuda/CUDAException.cpp",
             "c10/cuda/CUDAException.h", "c10/cuda/CUDAFunctions.cpp",
             # shared memory behind DataLoader batches and torch.multiprocessing
             "aten/src/ATen/MapAllocator.cpp", "torch/lib/libshm/core.cpp", "torch/lib/libshm/manager.cpp"]
PY_PATHS = ["torch/distributed/elastic/**/*.py", "torch/distributed/run.py", "torch/distributed/launcher/api.py",
            # the Python front end of c10d: init_process_group, its store-based barrier, env:// rendezvous
            "torch/distributed/distributed_c10d.py", "torch/distributed/rendezvous.py",
            "torch/utils/data/dataloader.py", "torch/utils/data/_utils/worker.py",
            "torch/utils/data/_utils/signal_handling.py", "torch/cuda/__init__.py",
            # torch.multiprocessing.spawn (mp.spawn launches) and the worker-exception wrapper (torch/_utils.py)
            "torch/multiprocessing/spawn.py", "torch/_utils.py"]
# Gloo's TCP transport (vendored as third_party/gloo): the errors a Gloo collective or the store raises when a
# peer goes away. Read from its own repository (small enough to fetch) at a pinned commit.
GLOO_GIT = os.environ.get("GLOO_GIT", "/work/.mirror/facebookincubator+gloo/repo")
GLOO_PATHS = ["gloo/transport/tcp/*.cc"]

# Other releases' wordings of a site, read in the history through the search index (not in the saved trees).
OLDER = {
    "c10/cuda/CUDACachingAllocator.cpp:cuda-out-of-memory-tried": [
        {"tag": "2.x (pytorch c10/cuda/CUDACachingAllocator.cpp, search index file 79076714)", "syntax": "stream",
         "format": "CUDA out of memory. Tried to allocate {}. GPU {} has a total capacity of {} of which {} is free. {}{}"
                   "Of the allocated memory {} is allocated by PyTorch, {}and {} is reserved by PyTorch but unallocated. "
                   "If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
                   "to avoid fragmentation.  See documentation for Memory Management  ({})"}],
    "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:processgroupnccl-watchdog-got-stuck-for": [
        {"tag": "v2.3 (pytorch ProcessGroupNCCL.cpp, search index file 64170360)", "syntax": "stream",
         "format": "[PG {} Rank {}] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()={}"},
        {"tag": "v2.3 (same file: the FATAL exit message)", "syntax": "stream",
         "format": "ProcessGroupNCCL's watchdog got stuck for {} seconds without making progress in monitoring enqueued collectives. {}"}],
    "torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:watchdog-caught-collective-operation-timeout": [
        {"tag": "v2.1 (commit cf1380dfb6c8552c8cdb791a85a89499775ad409)", "syntax": "stream",
         "format": "[Rank {}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={}, OpType={}, NumelIn={}, NumelOut={}, Timeout(ms)={}) ran for {} milliseconds before timing out."}],
}

LINE_SHAPES = {
    # glog as c10 prints it, behind torchrun's per-rank tee prefix
    "glog": "[rank3]:[{glog} 1207 04:12:09.114117 4242 {file}:{line}] {msg}",
    # an exception that reached the top of a rank: the last traceback line
    "raise": "[rank3]: {exception}: {msg}",
    # TORCH_WARN: c10 prints "[W file:line] Warning: msg (function operator())"
    "warn": "[rank3]:[W1207 04:12:09.114117 4242 {file}:{line}] Warning: {msg} (function operator())",
    # Python logging as torchrun's elastic loggers print it
    "log": "[2026-12-07 04:12:09,114] torch.distributed.elastic.agent.server.api: [{level}] {msg}",
    "pywarn": "/opt/conda/lib/python3.10/site-packages/{path}:{line}: UserWarning: {msg}",
    "report": "[rank3]: {msg}",
    # Gloo's GLOO_ERROR_MSG prefixes [file:line]; the exception reaches Python as a RuntimeError
    "gloo": "[rank3]: RuntimeError: [../third_party/{path}:{line}] {msg}",
}

# How a C++ exception class reaches Python (torch/csrc/Exceptions.h, torch/csrc/distributed/c10d/init.cpp)
PY_EXCEPTION = {"DistBackendError": "torch.distributed.DistBackendError", "DistStoreError": "torch.distributed.DistStoreError",
                "DistNetworkError": "torch.distributed.DistNetworkError", "OutOfMemoryError": "torch.cuda.OutOfMemoryError",
                "SocketError": "RuntimeError", "TimeoutError": "RuntimeError", "runtime_error": "RuntimeError",
                "Error": "RuntimeError", "NotImplementedError": "NotImplementedError", "ValueError": "ValueError",
                "TypeError": "TypeError", "IndexError": "IndexError", "invalid_argument": "ValueError",
                "out_of_range": "IndexError"}

# rendezvous.py: _error(msg) -> _rendezvous_error("<scheme>:// rendezvous: " + msg) -> ValueError("Error initializing
# torch.distributed using " + ...)
PY_WRAPPERS = {"_error": ("ValueError", "Error initializing torch.distributed using {scheme} rendezvous: ")}

_WORDS = re.compile(r"[A-Za-z]{2,}")


def _fmt_text(fmt):
    return len(_WORDS.findall(re.sub(r"\{[^}]*\}", " ", fmt)))


def _prep_args(args):
    """Known prefix builders become their text, so a rendered line looks like the real one."""
    out = []
    for a in args:
        s = a.strip()
        if re.fullmatch(r"(?:pg_->|this->)?logPrefix\(\)", s):
            out.append('"[PG ID {} PG GUID {} Rank {}] "')
        elif s == "logPrefix":
            out.append('"Rank {}"')
        else:
            out.append(a)
    return out


def _stream(args):
    return lib.stream_format(_prep_args(args))


def cpp_sites(text):
    """(line, level, format, syntax, exception) of every message site of one C++ file."""
    text = csource.strip_comments(text)
    found = []

    def thrown_after(pos):
        """A message built first and thrown just after (not only logged): it reaches Python as an exception."""
        after = text[pos:pos + 4000]
        m = re.search(r"\bthrow\b|C10_THROW_ERROR\(\s*(\w+)|TORCH_CHECK_WITH\(\s*(\w+)|TORCH_CHECK|REDUCER_CHECK|invalidArgument\(", after)
        if not m:
            return None
        return m.group(1) or m.group(2) or ("ValueError" if m.group(0).startswith("invalidArgument") else "RuntimeError")

    def add(pos, level, fmt, syntax="stream", exc=None):
        if fmt and _fmt_text(fmt) >= 2:
            found.append((lib._line_of(text, pos), level, fmt.strip(), syntax, exc))

    macros = [(r"TORCH_CHECK_WITH|TORCH_CHECK_NOT_IMPLEMENTED|TORCH_CHECK|TORCH_INTERNAL_ASSERT|C10_CUDA_CHECK_WARN", "check"),
              (r"TORCH_WARN_ONCE|TORCH_WARN", "warn"),
              (r"C10_THROW_ERROR|C10_BUILD_ERROR", "throw"),
              (r"C10D_ERROR|C10D_WARNING|C10D_INFO|recordError", "c10d"),
              (r"SIGNAL_HANDLER", "signal")]
    for pat, kind in macros:
        for m in re.finditer(r"(?<![A-Za-z0-9_])(" + pat + r")\s*\(", text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            if text[line_start:m.start()].lstrip().startswith("#"):
                continue
            args, _ = lib.call_args(text, m.end() - 1)
            name = m.group(1)
            if kind == "check":
                skip = 2 if name == "TORCH_CHECK_WITH" else 1
                if name == "TORCH_CHECK_NOT_IMPLEMENTED":
                    skip = 1
                exc = args[0].strip() if name == "TORCH_CHECK_WITH" and args else ("NotImplementedError" if name == "TORCH_CHECK_NOT_IMPLEMENTED" else "RuntimeError")
                add(m.start(), "ERROR", _stream(args[skip:]), exc=exc)
            elif kind == "warn":
                add(m.start(), "WARNING", _stream(args), exc=None)
            elif kind == "throw":
                inner = args[1].strip() if len(args) > 1 else ""
                if inner.startswith("fmt::format"):
                    sub, _ = lib.call_args(inner, inner.index("("))
                    add(m.start(), "ERROR", lib.c_format(sub[0]) if sub else None, syntax="python-format",
                        exc=args[0].strip())
                else:
                    add(m.start(), "ERROR", _stream(args[1:]), exc=args[0].strip() if args else None)
            elif kind == "c10d":
                if args and args[0].strip().startswith('"'):
                    fmt = lib.c_format(args[0])
                    add(m.start(), "ERROR" if name == "C10D_ERROR" else "WARNING" if name in ("C10D_WARNING", "recordError") else "INFO",
                        fmt, syntax="python-format")
            elif kind == "signal" and len(args) >= 3:
                add(m.start(), "ERROR", lib.c_format(args[2]), syntax="literal")
    # glog streams
    for m in re.finditer(r"(?<![A-Za-z0-9_])(?:LOG|C10_LOG_FIRST_N|C10_LOG_EVERY_MS|C10_LOG_EVERY_N|LOG_FIRST_N)\s*\(\s*(ERROR|WARNING|FATAL)\b[^)]*\)\s*<<", text):
        end = text.find(";", m.end())
        body = text[m.end():end]
        add(m.start(), m.group(1), _stream(["<<".join(body.split("<<"))]))
    # messages built first: msg = fmt::format(...) / xMsg = c10::str(...) / return c10::str(...)
    for m in re.finditer(r"(?:(?:\b\w*(?:[mM]sg|[eE]rr\w*|[eE]rror\w*|[rR]eason|Str)\b\s*(?:\+?=|\{))|\breturn)\s*(fmt::format|c10::str)\s*\(", text):
        args, _ = lib.call_args(text, m.end() - 1)
        if m.group(1) == "fmt::format":
            if args and args[0].strip().startswith('"'):
                add(m.start(), "ERROR", lib.c_format(args[0]), syntax="python-format", exc=thrown_after(m.start()))
        else:
            add(m.start(), "ERROR", _stream(args), exc=thrown_after(m.start()))
    # throw SomeError{"..."} / throw std::runtime_error("...")
    for m in re.finditer(r"\bthrow\s+([A-Za-z_:]+)\s*([({])", text):
        args, _ = lib.call_args(text, m.end() - 1)
        if args and re.match(r'\s*"', args[0]):
            add(m.start(), "ERROR", _stream(args[:1]), exc=m.group(1).split("::")[-1])
        elif args and args[0].strip().startswith("fmt::format"):
            inner, _ = lib.call_args(args[0], args[0].index("("))
            if inner and inner[0].strip().startswith('"') and inner[0].strip() != '"{} {}"':
                add(m.start(), "ERROR", lib.c_format(inner[0]), syntax="python-format", exc=m.group(1).split("::")[-1])
    # messages concatenated with + into a variable: err = "NCCL error in: " + x + ...; interpret = "...";
    for m in re.finditer(r"\b(\w*(?:err|Err|msg|Msg|interpret))\s*=\s*(?=\")", text):
        end = text.find(";", m.end())
        pieces = lib.call_args("(" + text[m.end():end] + ")", 0)[0] or []
        parts = []
        for p in re.split(r"\s\+\s", " ".join(pieces)):
            p = p.strip().rstrip("\\").strip()
            parts.append(p if re.fullmatch(r'(?:"(?:[^"\\\n]|\\.)*"\s*)+', p) else "x")
        add(m.start(), "ERROR", _stream(parts), exc=thrown_after(m.start()))
    # ostringstream messages: oss << "..." << x ...;
    for m in re.finditer(r"\b(oss|ss|msg|error_msg)\s*<<", text):
        end = text.find(";", m.end())
        add(m.start(), "ERROR", _stream(["<<".join(text[m.end():end].split("<<"))]), exc=thrown_after(m.start()))
    # one site per (line, format)
    seen, out = set(), []
    for s in sorted(found):
        if (s[0], s[2]) not in seen:
            seen.add((s[0], s[2]))
            out.append(s)
    return out


def _templates(text):
    """The ChildFailedError report templates (string.Template): ${x} -> {x}."""
    tree = ast.parse(text)
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            name = node.targets[0].id if isinstance(node.targets[0], ast.Name) else ""
            if name.endswith("_TEMPLATE"):
                for i, ln in enumerate(node.value.value.split("\n")):
                    if _fmt_text(ln) >= 1 and "$" in ln:
                        yield node.lineno + i, re.sub(r"\$\{(\w+)\}", r"{\1}", ln.strip())


def glog_letter(level):
    return {"ERROR": "E", "WARNING": "W", "FATAL": "F", "INFO": "I"}.get(level, "E")


def sites_of(root, path):
    text = open(os.path.join(root, path), encoding="utf-8", errors="replace").read()
    sites = []
    if path.endswith(".py"):
        for s in lib.py_sites(text):
            s["path"] = path
            if s.get("exception") in PY_WRAPPERS:
                # an exception built by a helper that adds its own words (rendezvous.py's _error)
                s["exception"], prefix = PY_WRAPPERS[s["exception"]]
                s["slug"] = lib.slug(s["format"])
                s["format"] = prefix + s["format"]
            s["shape"] = "raise" if s["level"] == "raise" else ("pywarn" if s["level"] == "WARNING" and "warn" in text.splitlines()[s["line"] - 1] and "warnings.warn" in text.splitlines()[s["line"] - 1] else "log")
            sites.append(s)
        if path.endswith("errors/__init__.py"):
            for line, fmt in _templates(text):
                sites.append({"path": path, "line": line, "level": "ERROR", "format": fmt, "syntax": "python-format",
                              "shape": "report"})
        return sites
    for line, level, fmt, syntax, exc in cpp_sites(text):
        s = {"path": path, "line": line, "level": level, "format": fmt, "syntax": syntax}
        # the id leaves out the log prefix ("[Rank 3] ", "[PG ID 0 PG GUID 0 Rank 3] "), which changed across releases
        core = re.sub(r"^\[(?:PG ID \{\} PG GUID \{\} )?Rank \{\}\]\s*|^Rank \{\}\s*", "", fmt)
        s["slug"] = lib.slug(core)
        if exc:
            s["exception"] = PY_EXCEPTION.get(exc.replace("c10::", "").replace("std::", ""), exc.replace("c10::", ""))
        if level == "WARNING" and exc is None and syntax == "stream" and "TORCH_WARN" in text.splitlines()[line - 1]:
            s["shape"] = "warn"
        elif exc and level == "ERROR":
            s["shape"] = "raise"
        else:
            s["shape"] = "glog"
        s["glog"] = glog_letter(level)
        sites.append(s)
    return sites


def files_under(root, patterns):
    import fnmatch
    out = []
    for dirpath, _, names in os.walk(root):
        for n in names:
            rel = os.path.relpath(os.path.join(dirpath, n), root)
            if any(fnmatch.fnmatch(rel, p) for p in patterns):
                out.append(rel)
    return sorted(out)


def main():
    base_root = os.path.join(SRC, BASE)
    if not os.path.isdir(base_root):
        raise SystemExit(f"extract_pytorch.py: {base_root}: no such folder (save the 1.13.1 files there first)")
    by_path = {}
    for path in files_under(base_root, CPP_PATHS + PY_PATHS):
        if "/tests/" in path:
            continue
        sites = sites_of(base_root, path)
        for s in sites:
            s["release"] = BASE
        by_path[path] = sites
    sources = [{"repo": "pytorch/pytorch", "tag": "v1.13.1", "commit": None,
                "via": "Debian source package pytorch 1.13.1+dfsg-4 (upstream tag v1.13.1)",
                "paths": CPP_PATHS + PY_PATHS}]
    for short, full in NEWER.items():
        root = os.path.join(SRC, short)
        if not os.path.isdir(root):
            continue
        paths = files_under(root, ["*"])
        sources.append({"repo": "pytorch/pytorch", "commit": full, "paths": paths,
                        "via": "read_file; excerpt of the message statements" if any(
                            "EXCERPT" in open(os.path.join(root, p)).readline() for p in paths) else "read_file"})
        for path in paths:
            sites = sites_of(root, path)
            for s in sites:
                s["release"] = short
            old = by_path.get(path, [])
            for group in (old, sites):
                for s in group:
                    s["_slug"] = s.get("slug")
                lib.assign_ids("pytorch", group)
                for s in group:
                    if s.get("_slug"):
                        s["slug"] = s["_slug"]
            new_ids = {s["id"]: s for s in sites}
            for o in old:
                n = new_ids.get(o["id"])
                if n is not None and n["format"] != o["format"]:
                    n.setdefault("versions", []).append({"tag": "v1.13.1", "format": o["format"], "syntax": o["syntax"]})
                elif n is None:
                    sites.append(o)   # gone or not in the excerpt: the 1.13.1 wording still stands
            by_path[path] = sites
    if os.path.isdir(GLOO_GIT):
        snap = lib.Snapshot(GLOO_GIT)
        for gpath in snap.files(GLOO_PATHS):
            text = csource.strip_comments(snap.read(gpath))
            sites = []
            for m in re.finditer(r"(?<![A-Za-z0-9_])(GLOO_ERROR_MSG|signalException)\s*\(", text):
                args, _ = lib.call_args(text, m.end() - 1)
                if not args or (m.group(1) == "signalException" and not args[0].strip().startswith('"')):
                    continue
                fmt = _stream(args)
                if _fmt_text(fmt) >= 2:
                    sites.append({"path": "third_party/gloo/" + gpath, "line": lib._line_of(text, m.start()),
                                  "level": "ERROR", "format": fmt, "syntax": "stream", "exception": "RuntimeError",
                                  "shape": "gloo", "release": "gloo"})
            if sites:
                by_path["third_party/gloo/" + gpath] = sites
        sources.append({"repo": "facebookincubator/gloo", "commit": snap.commit, "paths": GLOO_PATHS,
                        "via": "fetch (vendored in pytorch as third_party/gloo)"})
    all_sites = []
    for path in sorted(by_path):
        ss = sorted(by_path[path], key=lambda s: (s.get("release") != BASE, s["line"]))
        for s in ss:
            s.pop("id", None)
            if s.get("_slug"):
                s["slug"] = s.pop("_slug")
        all_sites.extend(ss)
    # ids: per path in a fixed order (newer first, then 1.13.1), so an edit elsewhere does not move them
    grouped = {}
    for s in all_sites:
        grouped.setdefault(s["path"], []).append(s)
    final = []
    for path in sorted(grouped):
        ss = sorted(grouped[path], key=lambda s: (s.get("release") == BASE, s["line"]))
        lib.assign_ids("pytorch", ss)
        final.extend(ss)
    for s in final:
        key = s["id"].split(":", 1)[1]
        for v in OLDER.get(key, []):
            s.setdefault("versions", []).append(v)
    final.sort(key=lambda s: (s["path"], s.get("release") == BASE, s["line"]))
    # other releases' wordings from the history (pytorch_older.py: forks holding upstream's tags and master)
    import pytorch_older
    pytorch_older.attach(final, sites_of)
    sources += pytorch_older.sources()
    lib.write_inventory({
        "family": "pytorch",
        "title": "PyTorch c10d (NCCL/Gloo process groups, TCPStore, sockets), elastic agent and torchrun, DataLoader, "
                 "CUDA caching allocator and torch.cuda messages",
        "sources": sources,
        "extractor": "scripts/inventory/extract_pytorch.py",
        "line_shapes": LINE_SHAPES,
        "sites": final})


if __name__ == "__main__":
    main()
