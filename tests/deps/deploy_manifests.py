#!/usr/bin/env python3
"""deploy/kubernetes without a cluster: what `kubectl apply` would accept and what would work once applied.

- every document parses (python3-yaml) and has apiVersion, kind, metadata.name;
- every Secret a manifest reads (env secretKeyRef, secret volume, with its keys) is created by a
  `kubectl create secret generic NAME --from-literal=KEY=...` command written in the manifests' own comments,
  and no placeholder (CHANGE-ME) is left for the operator to keep in step by hand;
- an env value's $(VAR) names a variable defined before it in the same container;
- a Service selects the pods of a workload here and targets a port those pods name;
- the autoscaler targets a Deployment here; FAULTLINE_DB points at the PostgreSQL Service, port, user and
  database postgres.yaml sets up;
- the image tag is the project version, as deploy/Containerfile's build command tags it.
usage: deploy_manifests.py SOURCE_DIR PROJECT_VERSION
"""
import glob
import os
import re
import shlex
import sys
from urllib.parse import urlsplit

import yaml

root, version = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


files = sorted(glob.glob(os.path.join(root, "deploy/kubernetes/*.yaml")))
check(files, "no manifests in deploy/kubernetes")
docs, texts = [], {}
for f in files:
    text = open(f).read()
    texts[f] = text
    for d in yaml.safe_load_all(text):
        if d is None:
            continue
        name = "%s: %s/%s" % (os.path.basename(f), d.get("kind"), (d.get("metadata") or {}).get("name"))
        check(d.get("apiVersion") and d.get("kind") and (d.get("metadata") or {}).get("name"), "incomplete: " + name)
        docs.append((name, d))
    check("CHANGE-ME" not in text, "%s: a CHANGE-ME placeholder is left" % os.path.basename(f))

# Secrets the documented commands create: name -> keys.
created = {}
for text in texts.values():
    comment = "\n".join(l.lstrip("# ").rstrip() if l.startswith("#") else "" for l in text.splitlines())
    comment = comment.replace("\\\n", " ")
    for line in comment.splitlines():
        if "create secret generic" not in line:
            continue
        words = shlex.split(line.split("kubectl", 1)[1])
        name = words[words.index("generic") + 1]
        keys = {w.split("=", 2)[1] for w in words if w.startswith("--from-literal=")}
        keys |= {w.split("=", 2)[1] for w in words if w.startswith("--from-file=") and w.count("=") >= 2}
        created.setdefault(name, set()).update(keys)
check(created, "no documented `kubectl create secret generic` command in the manifests")


def pod_specs():
    for name, d in docs:
        spec = (d.get("spec") or {}).get("template", {}).get("spec")
        if spec:
            yield name, d, spec


env_of = {}  # container name -> {var: value or secret}
for name, d, spec in pod_specs():
    for vol in spec.get("volumes", []):
        s = vol.get("secret")
        if s:
            check(s["secretName"] in created, "%s: volume reads Secret %s, which no documented command creates"
                  % (name, s["secretName"]))
            for item in s.get("items", []):
                check(item["key"] in created.get(s["secretName"], ()), "%s: Secret %s has no key %s"
                      % (name, s["secretName"], item["key"]))
    for c in spec["containers"]:
        seen = {}
        for e in c.get("env", []):
            ref = (e.get("valueFrom") or {}).get("secretKeyRef")
            if ref:
                check(ref["name"] in created, "%s: %s reads Secret %s, which no documented command creates"
                      % (name, e["name"], ref["name"]))
                check(ref["key"] in created.get(ref["name"], ()), "%s: %s reads key %s of Secret %s, which the "
                      "documented command does not set" % (name, e["name"], ref["key"], ref["name"]))
            for var in re.findall(r"\$\((\w+)\)", str(e.get("value", ""))):
                check(var in seen, "%s: %s uses $(%s), not defined before it" % (name, e["name"], var))
            seen[e["name"]] = e.get("value", ref)
        env_of[c["name"]] = seen
        image = c.get("image", "")
        if image.startswith("faultline"):
            check(image.endswith(":" + version), "%s: image %s is not tagged %s" % (name, image, version))

# Services select pods here and target ports they name.
for name, d in docs:
    if d["kind"] != "Service":
        continue
    sel = d["spec"]["selector"]
    pods = [(n, spec) for n, w, spec in pod_specs()
            if all(w["spec"]["template"]["metadata"]["labels"].get(k) == v for k, v in sel.items())]
    check(pods, "%s selects no pods of a workload here" % name)
    for p in d["spec"]["ports"]:
        target = p.get("targetPort", p["port"])
        names = {cp.get("name") for _, spec in pods for c in spec["containers"] for cp in c.get("ports", [])}
        nums = {cp["containerPort"] for _, spec in pods for c in spec["containers"] for cp in c.get("ports", [])}
        check(target in names or target in nums, "%s: targetPort %s is no port of its pods" % (name, target))
for name, d in docs:
    if d["kind"] == "HorizontalPodAutoscaler":
        ref = d["spec"]["scaleTargetRef"]
        check(any(x["kind"] == ref["kind"] and x["metadata"]["name"] == ref["name"] for _, x in docs),
              "%s targets %s/%s, not defined here" % (name, ref["kind"], ref["name"]))

# The service's database URL points at the PostgreSQL set up here.
svc, pg = env_of.get("faultline-service", {}), env_of.get("postgres", {})
url = svc.get("FAULTLINE_DB")
check(isinstance(url, str), "faultline-service: FAULTLINE_DB is not a URL written in the manifest: %r" % (url,))
if isinstance(url, str) and pg:
    u = urlsplit(url.replace("$(", "").replace(")", ""))
    services = {d["metadata"]["name"]: d for _, d in docs if d["kind"] == "Service"}
    check(u.hostname in services, "FAULTLINE_DB host %s is no Service here" % u.hostname)
    if u.hostname in services:
        check(u.port in {p["port"] for p in services[u.hostname]["spec"]["ports"]}, "FAULTLINE_DB port %s" % u.port)
    check(u.username == pg.get("POSTGRES_USER"), "FAULTLINE_DB user %s, PostgreSQL's %s" % (u.username, pg.get("POSTGRES_USER")))
    check(u.path.lstrip("/") == pg.get("POSTGRES_DB"), "FAULTLINE_DB database %s" % u.path)
    # The password: libpq takes PGPASSWORD when the URL has none; it must be the one PostgreSQL was given.
    check(u.password is None and svc.get("PGPASSWORD") == pg.get("POSTGRES_PASSWORD")
          and isinstance(pg.get("POSTGRES_PASSWORD"), dict),
          "faultline-service must read PostgreSQL's password from the Secret postgres.yaml uses (PGPASSWORD), "
          "not from a URL: FAULTLINE_DB=%s PGPASSWORD=%r POSTGRES_PASSWORD=%r"
          % (url, svc.get("PGPASSWORD"), pg.get("POSTGRES_PASSWORD")))

containerfile = open(os.path.join(root, "deploy/Containerfile")).read()
check(("-t faultline-service:%s" % version) in containerfile, "deploy/Containerfile does not tag the image %s" % version)

for f in failures:
    print("FAIL:", f)
if failures:
    sys.exit(1)
print("ok: %d manifests, Secrets %s created by the documented commands" % (len(docs), sorted(created)))
