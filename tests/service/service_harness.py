"""Start the real faultline-service on a free loopback port and talk to it over HTTP.

Shared by the CTest scripts in this folder; standard library only.
"""
import http.client
import io
import json
import os
import re
import signal
import subprocess
import sys
import tarfile
import time

FAILURES = []


def check(cond, what):
    if cond:
        print("ok   " + what)
    else:
        print("FAIL " + what)
        FAILURES.append(what)
    return cond


def finish():
    if FAILURES:
        print("%d check(s) failed:" % len(FAILURES))
        for f in FAILURES:
            print("  - " + f)
        sys.exit(1)
    print("all checks passed")


class Service:
    def __init__(self, binary, data, *args, env=None):
        self.binary, self.data, self.args = binary, data, list(args)
        self.env = env
        self.proc = None
        self.port = None
        self.token = None

    def start(self):
        self.log = open(os.path.join(self.data + ".log"), "ab")
        self.proc = subprocess.Popen([self.binary, "--listen", "127.0.0.1:0", "--data", self.data] + self.args,
                                     stdout=subprocess.PIPE, stderr=self.log, env=self.env)
        line = self.proc.stdout.readline().decode()
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
        if not m:
            self.proc.kill()
            raise RuntimeError("service did not start: %r (see %s.log)" % (line, self.data))
        self.port = int(m.group(1))
        return self

    def kill9(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def alive(self):
        return self.proc.poll() is None

    def request(self, method, path, body=None, headers=None, timeout=120):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        h = dict(headers or {})
        if self.token and "Authorization" not in h:
            h["Authorization"] = "Bearer " + self.token
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            h.setdefault("Content-Type", "application/json")
        if isinstance(body, str):
            body = body.encode()
        if body is None and method == "POST":
            body = b""
        conn.request(method, path, body=body, headers=h)
        r = conn.getresponse()
        data = r.read()
        conn.close()
        return r.status, dict(r.getheaders()), data

    def expect_first(self, path, body, headers=None, timeout=60):
        """POST as curl does for a body over 1 MiB: headers with "Expect: 100-continue", the body only after
        "100 Continue". -> (status, headers, JSON document or None, body bytes sent)."""
        import socket
        h = {"Host": "127.0.0.1:%d" % self.port, "Content-Length": str(len(body)), "Expect": "100-continue",
             "Content-Type": "application/gzip"}
        if self.token:
            h["Authorization"] = "Bearer " + self.token
        h.update(headers or {})
        head = "POST %s HTTP/1.1\r\n%s\r\n" % (path, "".join("%s: %s\r\n" % kv for kv in h.items()))
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            s.sendall(head.encode())
            sent = 0
            reader = s.makefile("rb")
            status, hdrs, data = self._read_response(reader)
            if status == 100:
                s.sendall(body)
                sent = len(body)
                status, hdrs, data = self._read_response(reader)
            try:
                doc = json.loads(data) if data else None
            except ValueError:
                doc = None
            return status, hdrs, doc, sent

    @staticmethod
    def _read_response(reader):
        status = int(reader.readline().split()[1])
        hdrs = {}
        while True:
            line = reader.readline().decode("latin-1").strip()
            if not line:
                break
            name, _, value = line.partition(":")
            hdrs[name.strip().lower()] = value.strip()
        return status, hdrs, reader.read(int(hdrs.get("content-length", "0")))

    def json(self, method, path, body=None, headers=None, timeout=120):
        status, hdrs, data = self.request(method, path, body, headers, timeout)
        try:
            doc = json.loads(data) if data else None
        except ValueError:
            doc = {"unparsable": data[:200].decode(errors="replace")}
        return status, doc


def tar_gz(folder):
    """The files of `folder` as a .tar.gz in memory, sorted by name."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for name in sorted(os.listdir(folder)):
            t.add(os.path.join(folder, name), arcname=name)
    return buf.getvalue()


def tar_gz_files(files):
    """{name: bytes} as a .tar.gz in memory, sorted by name."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for name, data in sorted(files.items()):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def multipart(fields, files):
    """fields: {name: value}; files: [(field, filename, bytes)] -> (body, content type)."""
    boundary = "----faultline-test-boundary"
    out = []
    for k, v in fields.items():
        out.append(("--%s\r\nContent-Disposition: form-data; name=\"%s\"\r\n\r\n%s\r\n" % (boundary, k, v)).encode())
    for field, name, data in files:
        out.append(("--%s\r\nContent-Disposition: form-data; name=\"%s\"; filename=\"%s\"\r\n"
                    "Content-Type: application/octet-stream\r\n\r\n" % (boundary, field, name)).encode() + data + b"\r\n")
    out.append(("--%s--\r\n" % boundary).encode())
    return b"".join(out), "multipart/form-data; boundary=" + boundary
