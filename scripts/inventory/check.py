#!/usr/bin/env python3
"""Coverage of the message inventories (issue #41): for each family in
inventory/, how many sites are decided, how many are failure evidence, and how
many of those the engine recognises.

Every site is rendered from its format (placeholders filled with plausible
values, or the decision's "values"), put into each of its line shapes, after a
few benign lines of the same shape, in one bundle per family; one bundle holds
the evidence sites, another the not_evidence ones (the noise corpus). The real
engine reads each bundle once (`faultline-cli analyze --json --detail`); an
evidence site is covered when, in every shape, an event of its decided domain
comes from one of its lines; a noise site is kept benign when no line of it
starts a failure (a bad_node event whose role is initiator or symptom).

  python3 scripts/inventory/check.py [--cli PATH] [--rules DIR] [--gate] [--keep DIR] [family...]

Exit status: 1 when a family is below its gate (inventory/gates.json: minimum
decided share, covered and benign counts, as reached), 2 on bad input.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
DOMAINS = {"gpu", "nvlink", "network", "host", "storage", "scheduler", "workload"}
# Rules that read a message by where it comes from (the source file or plugin
# that printed it), not by what it says: their events are weight-0 context. A
# site they alone recognise is covered but not "specific".
FALLBACK_RULES = {"ncclw.extract.warn-file-table", "ncclw.extract.ofi-warn", "ncclw.extract.ofi-warn-gpu"}


def fail(msg):
    print(f"check.py: {msg}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------- rules: symptom -> (domain, role)

def strip_jsonc(text):
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            i = text.find("*/", i) + 2
        else:
            out.append(c)
            i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def load_symptoms(rules_dirs):
    defs = {}
    for d in rules_dirs:
        for name in sorted(os.listdir(d)):
            if not name.endswith((".jsonc", ".json")):
                continue
            p = os.path.join(d, name)
            try:
                doc = json.loads(strip_jsonc(open(p, encoding="utf-8").read()))
            except json.JSONDecodeError as e:
                fail(f"{p}: {e}")
            for s in doc.get("symptoms", []):
                defs[s["id"]] = (s.get("domain", "unknown"), s.get("role", "unknown"))
    return defs


def symptom_def(defs, sid):
    if sid in defs:
        return defs[sid]
    parts = sid.split(".")
    for k in range(len(parts) - 1, 0, -1):
        fb = ".".join(parts[:k]) + ".*"
        if fb in defs:
            return defs[fb]
    return ("unknown", "unknown")


# ---------------------------------------------------------------- rendering

_PRINTF = re.compile(r"%(?:\d+\$)?[-+ #0']*(\*|\d+)?(?:\.(\*|\d+))?(hh|h|ll|l|L|z|j|t|q)?([diouxXeEfgGcsaAnv%]|p[A-Za-z]*)")
_BRACE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")

# A value for a placeholder, from the name (Python) or the words before it (printf).
_HINTS = [
    (r"rank|world|local_?rank|node_?rank|device|gpu|dev\b|idx|index", "3"),
    (r"port", "29500"),
    (r"addr|host|ip\b|endpoint|master|peer", "10.1.2.3"),
    (r"pid", "4242"),
    (r"signal|sig", "SIGKILL"),
    (r"exit|code|status|errno|\berr\b|ret|rc\b|result|res\b", "5"),
    (r"timeout|seconds|secs|time|duration|elapsed", "1800"),
    (r"size|bytes|mem|capacity|alloc|free|total|reserved", "4096"),
    (r"path|file|dir|ckpt|checkpoint", "/ckpt/step-9800"),
    (r"name|key|backend|group|pg|op|type|kind", "nccl"),
]


def hint_value(text):
    low = text.lower()
    for pat, v in _HINTS:
        if re.search(pat, low):
            return v
    return "x7"


def render_format(fmt, syntax, values=None):
    values = values or {}
    count = [0]

    def value(hint):
        k = str(count[0])
        count[0] += 1
        if k in values:
            return str(values[k])
        return hint_value(hint)

    if syntax in ("printf", "go-printf"):
        def sub(m):
            conv = m.group(4)
            if conv == "%":
                return "%"
            before = fmt[max(0, m.start() - 24):m.start()]
            k = str(count[0])
            if k in values:
                count[0] += 1
                return str(values[k])
            count[0] += 1
            if conv in "diu":
                h = hint_value(before)
                return h if h.isdigit() else "5"
            if conv in "xX":
                return "1f"
            if conv.startswith("p"):
                return "0x7f3a2c000000"
            if conv in "eEfgGaA":
                return "1.5"
            if conv == "c":
                return "x"
            return hint_value(before)
        return _PRINTF.sub(sub, fmt)
    if syntax in ("python-format", "python-fstring", "stream"):
        def sub(m):
            if m.group(0) == "{{":
                return "{"
            if m.group(0) == "}}":
                return "}"
            return value(m.group(1) or fmt[max(0, m.start() - 24):m.start()])
        return _BRACE.sub(sub, fmt)
    return fmt


def shape_spec(family_doc, key, index):
    shapes = family_doc.get("line_shapes", {})
    if key not in shapes:
        fail(f"inventory/{family_doc['family']}.json: line shape '{key}' is not in line_shapes")
    s = shapes[key]
    if isinstance(s, str):
        s = {"line": s}
    return {"line": s["line"],
            "file": s.get("file", f"applog-node-{index:02d}-rank{index}.log"),
            "benign": s.get("benign", ["Starting worker 0 with config /etc/train.yaml",
                                       "Loaded 128 shards from the dataset index"])}


def site_shapes(family_doc, site):
    sh = site.get("shape") or family_doc.get("shapes") or ["default"]
    return [sh] if isinstance(sh, str) else sh


def put_in_shape(line_tmpl, site, msg):
    path = site.get("path", "")
    fields = {k: str(v) for k, v in site.items() if isinstance(v, (str, int))}
    fields.update({"msg": msg, "file": os.path.basename(path), "path": path, "line": str(site.get("line", 0)),
                   "level": site.get("level", "ERROR"), "exception": site.get("exception") or "RuntimeError"})
    # {msg}, {file}, {line}, {level}, {exception} and any other scalar of the site ({code}, {name})
    return re.sub(r"\{([a-z_]+)\}", lambda m: fields.get(m.group(1), m.group(0)), line_tmpl)


class Bundle:
    """One bundle of rendered lines: per shape a file; remembers which lines are whose."""

    def __init__(self, family_doc):
        self.doc = family_doc
        self.files = {}   # shape key -> (file name, [lines])
        self.owner = {}   # (file, line number) -> (site id, shape)

    def add(self, site, msg):
        for key in site_shapes(self.doc, site):
            if key not in self.files:
                spec = shape_spec(self.doc, key, len(self.files) + 1)
                lines = [put_in_shape(spec["line"], {"path": "init.cc", "line": 1, "level": "INFO"}, b)
                         for b in spec["benign"]]
                self.files[key] = (spec["file"], lines, spec["line"])
            fname, lines, tmpl = self.files[key]
            parts = [p for p in msg.split("\n") if p.strip()] or [""]
            for i, p in enumerate(parts):
                text = put_in_shape(tmpl, site, p) if i == 0 else p
                lines.append(text)
                self.owner[(fname, len(lines))] = (site["id"], key)

    def write(self, where):
        os.makedirs(where, exist_ok=True)
        for fname, lines, _ in self.files.values():
            with open(os.path.join(where, fname), "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")


def analyze(cli, rules_dirs, settings_dir, bundle_dir):
    env = dict(os.environ, FAULTLINE_RULES_DIR=rules_dirs[0], XDG_CONFIG_HOME=os.path.join(bundle_dir, ".cfg"))
    cmd = [cli, "analyze", bundle_dir, "--json", "--detail", "--no-user-rules", "--rules", settings_dir]
    for d in rules_dirs[1:]:
        cmd += ["--rules", d]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        fail(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()[:400]}")
    return json.loads(p.stdout)


def events_by_line(result, defs):
    """(file, line) -> list of (domain, effective role, kind, symptom, rule). Evidence
    items give each observation's place; every event of an observation (two rules
    can read one line) is counted there, listed in the evidence or not."""
    events = {e["id"]: e for e in result.get("symptom_chain", {}).get("nodes", [])}
    place = {}
    by_event = {}
    for ev in result.get("evidence", []):
        if ev["event"] in events:
            by_event.setdefault(ev["event"], []).append(ev["raw"])
    for eid, raws in by_event.items():
        obs_list = events[eid].get("observations", [])
        # a merged event lists one evidence item per observation, in order
        pairs = zip(obs_list, raws) if len(obs_list) == len(raws) else [(o, r) for r in raws for o in obs_list]
        for obs, raw in pairs:
            place.setdefault(obs, (os.path.basename(raw["file"]), raw["line"], max(1, raw.get("line_count", 1))))
    out = {}
    for e in events.values():
        domain, role = symptom_def(defs, e["symptom"])
        if e.get("role_override"):
            role = e["role_override"]["role"]
        for obs in e.get("observations", []):
            if obs not in place:
                continue
            fname, first, count = place[obs]
            for ln in range(first, first + count):
                out.setdefault((fname, ln), []).append((domain, role, e["kind"], e["symptom"], e.get("extracted_by", "")))
    return out


def check_family(doc, decisions, cli, rules_dirs, settings_dir, keep, defs):
    fam = doc["family"]
    sites = doc["sites"]
    ev_bundle, noise_bundle = Bundle(doc), Bundle(doc)
    decided = evidence = 0
    older = {}  # "<site id>@<tag>" -> site id
    for s in sites:
        d = decisions.get(s["id"])
        if not d:
            continue
        decided += 1
        msg = render_format(s["format"], s.get("syntax", "literal"), d.get("values"))
        if d.get("decision") == "evidence":
            evidence += 1
            if d.get("domain") not in DOMAINS:
                fail(f"inventory/{fam}.decisions.json: {s['id']}: domain '{d.get('domain')}' is not one of {sorted(DOMAINS)}")
            ev_bundle.add(s, msg)
            # an older release's wording of the same site, in the same shape
            for v in s.get("versions", []):
                old = dict(s, format=v["format"], id=f"{s['id']}@{v['tag']}")
                old.update({k: v[k] for k in ("src_file", "path") if k in v})
                older[old["id"]] = s["id"]
                ev_bundle.add(old, render_format(v["format"], v.get("syntax", s.get("syntax", "literal")), d.get("values")))
        elif d.get("decision") == "not_evidence":
            noise_bundle.add(s, msg)
        else:
            fail(f"inventory/{fam}.decisions.json: {s['id']}: decision must be evidence or not_evidence")
    root = keep or tempfile.mkdtemp(prefix=f"inv-{fam}-")
    found = {}
    for name, b in (("evidence", ev_bundle), ("noise", noise_bundle)):
        where = os.path.join(root, name)
        if os.path.exists(where):
            shutil.rmtree(where)
        b.write(where)
        found[name] = events_by_line(analyze(cli, rules_dirs, settings_dir, where), defs) if b.files else {}
    # evidence: per site and shape, did any of its lines give an event of its domain?
    hit, spec, readers = {}, {}, {}
    for (fname, ln), (sid, key) in ev_bundle.owner.items():
        dom = decisions[older.get(sid, sid)]["domain"]
        on_line = found["evidence"].get((fname, ln), [])
        readers.setdefault(sid, set()).update((e[4], e[0]) for e in on_line if e[1] != "unknown")
        evs = [e for e in on_line if e[0] == dom and e[1] != "unknown"]
        hit.setdefault(sid, {}).setdefault(key, False)
        hit[sid][key] = hit[sid][key] or bool(evs)
        spec.setdefault(sid, {}).setdefault(key, False)
        spec[sid][key] = spec[sid][key] or any(e[4] not in FALLBACK_RULES for e in evs)
    covered_all = [sid for sid, shapes in hit.items() if all(shapes.values())]
    covered = [sid for sid in covered_all if sid not in older]
    specific = [sid for sid in covered if all(spec[sid].values())]
    older_ok = [sid for sid in covered_all if sid in older]
    uncovered = sorted(set(hit) - set(covered_all))
    noisy = set()
    for (fname, ln), (sid, key) in noise_bundle.owner.items():
        for d, r, kind, sym, _ in found["noise"].get((fname, ln), []):
            if kind == "bad_node" and r in ("initiator", "symptom"):
                noisy.add((sid, sym))
    benign_total = len({sid for sid, _ in noise_bundle.owner.values()})
    if not keep:
        shutil.rmtree(root, ignore_errors=True)
    return {"family": fam, "sites": len(sites), "decided": decided, "evidence": evidence,
            "covered": len(covered), "uncovered": uncovered, "specific": len(specific),
            "fallback_only": sorted(set(covered) - set(specific)),
            "readers": {sid: sorted(r) for sid, r in readers.items() if sid not in older},
            "older": len(older), "older_covered": len(older_ok), "benign": benign_total,
            "benign_kept": benign_total - len({s for s, _ in noisy}), "noisy": sorted(noisy),
            "undecided": [s["id"] for s in sites if s["id"] not in decisions]}


def write_rules(path, decisions, r):
    """The decision's `rule` field says which rule recognises the site: the
    specific rule of its domain that read it (first by id), else the fallback."""
    for sid, readers in r["readers"].items():
        dom = decisions[sid]["domain"]
        rules = sorted(rule for rule, d in readers if d == dom)
        specific = [x for x in rules if x not in FALLBACK_RULES]
        if specific or rules:
            decisions[sid]["rule"] = (specific or rules)[0]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(decisions, f, indent=1)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("families", nargs="*")
    ap.add_argument("--cli", default=os.path.join(TOP, "build/dev/app/cli/faultline-cli"))
    ap.add_argument("--rules", action="append", help="rules folder (default: the tree's rules/)")
    ap.add_argument("--inventory", default=os.path.join(TOP, "inventory"))
    ap.add_argument("--gate", action="store_true", help="fail below inventory/gates.json")
    ap.add_argument("--keep", help="write the bundles under DIR/<family> and keep them")
    ap.add_argument("--list", action="store_true", help="list uncovered, noisy and undecided sites")
    ap.add_argument("--write-rules", action="store_true",
                    help="record in each evidence decision the rule that reads it (a specific one where there is one)")
    a = ap.parse_args()
    if not os.access(a.cli, os.X_OK):
        fail(f"{a.cli}: not an executable (build faultline-cli or pass --cli)")
    rules_dirs = a.rules or [os.path.join(TOP, "rules")]
    defs = load_symptoms(rules_dirs)
    fams = a.families or sorted(f[:-5] for f in os.listdir(a.inventory)
                                if f.endswith(".json") and not f.endswith(".decisions.json") and f != "gates.json")
    gates = {}
    gpath = os.path.join(a.inventory, "gates.json")
    if os.path.exists(gpath):
        gates = json.load(open(gpath, encoding="utf-8"))
    settings_dir = tempfile.mkdtemp(prefix="inv-settings-")
    # Every evidence line must be listed, not the first 20 of a symptom.
    with open(os.path.join(settings_dir, "zz-inventory.jsonc"), "w") as f:
        f.write('{"settings": {"max_evidence_per_symptom": 1000000}}\n')
    below = []
    print(f"{'family':<16}{'sites':>7}{'decided':>9}{'%':>6}{'evidence':>10}{'covered':>9}{'specific':>10}{'benign':>8}{'kept':>6}{'older':>7}{'recog':>7}")
    for fam in fams:
        p = os.path.join(a.inventory, fam + ".json")
        if not os.path.exists(p):
            fail(f"{p}: no such inventory")
        doc = json.load(open(p, encoding="utf-8"))
        dp = os.path.join(a.inventory, fam + ".decisions.json")
        decisions = json.load(open(dp, encoding="utf-8")) if os.path.exists(dp) else {}
        r = check_family(doc, decisions, a.cli, rules_dirs, settings_dir,
                         os.path.join(a.keep, fam) if a.keep else None, defs)
        pct = 100.0 * r["decided"] / r["sites"] if r["sites"] else 100.0
        print(f"{fam:<16}{r['sites']:>7}{r['decided']:>9}{pct:>6.1f}{r['evidence']:>10}{r['covered']:>9}"
              f"{r['specific']:>10}{r['benign']:>8}{r['benign_kept']:>6}{r['older']:>7}{r['older_covered']:>7}")
        if a.list:
            for sid in r["uncovered"]:
                print(f"  uncovered: {sid}")
            for sid in r["fallback_only"]:
                other = [f"{rule} ({dom})" for rule, dom in r["readers"].get(sid, []) if rule not in FALLBACK_RULES]
                print(f"  covered by a fallback rule only: {sid}" + (f"; also read as {', '.join(other)}" if other else ""))
            for sid, sym in r["noisy"]:
                print(f"  benign site read as failure: {sid} -> {sym}")
            for sid in r["undecided"]:
                print(f"  undecided: {sid}")
        if a.write_rules:
            write_rules(dp, decisions, r)
        g = gates.get(fam)
        if a.gate and g is None:
            below.append(f"{fam}: no gate in inventory/gates.json (a family that is not gated can lose coverage unseen)")
        if a.gate and g:
            if (pct < g.get("decided_pct", 0) or r["covered"] < g.get("covered", 0) or r["benign_kept"] < g.get("benign_kept", 0)
                    or r["specific"] < g.get("specific", 0) or r["older_covered"] < g.get("older_covered", 0)):
                below.append(f"{fam}: decided {pct:.1f}% (gate {g.get('decided_pct', 0)}), covered {r['covered']} "
                             f"(gate {g.get('covered', 0)}), benign kept {r['benign_kept']} (gate {g.get('benign_kept', 0)}), "
                             f"specific {r['specific']} (gate {g.get('specific', 0)}), older wordings recognised "
                             f"{r['older_covered']} (gate {g.get('older_covered', 0)})")
    shutil.rmtree(settings_dir, ignore_errors=True)
    for b in below:
        print(f"below gate: {b}", file=sys.stderr)
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
