"""Uploads an archive to POST /v2/bundles from N threads for S seconds, each request with
"Expect: 100-continue", as curl sends for bodies over 1 MiB: the body goes only after "100 Continue",
and a refusal before it means the body never crosses the network. wrk cannot do this (it sends the body
with the headers), so bench/service.sh measures such clients with this. Loopback only.

usage: expect_load.py BASE_URL ARCHIVE THREADS SECONDS
prints: status counts, body bytes sent per status, p50/p99 of the 201s (one line each)
"""
import socket
import sys
import threading
import time
import urllib.parse

base, archive, threads, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
url = urllib.parse.urlsplit(base)
if url.hostname not in ("127.0.0.1", "localhost", "::1"):
    sys.exit("expect_load.py: loopback only, not " + base)
with open(archive, "rb") as f:
    body = f.read()
head = ("POST /v2/bundles HTTP/1.1\r\nHost: %s\r\nContent-Type: application/gzip\r\nContent-Length: %d\r\n"
        "Expect: 100-continue\r\n\r\n" % (url.netloc, len(body))).encode()
results, lock = [], threading.Lock()
stop_at = time.monotonic() + seconds


def response(sock, buf):
    """(status, rest of buffer) of the next response; its body read by Content-Length and dropped."""
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
    headers, buf = buf.split(b"\r\n\r\n", 1)
    lines = headers.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    while len(buf) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
    return status, buf[length:]


def client():
    while time.monotonic() < stop_at:
        t0 = time.monotonic()
        sent = 0
        try:
            with socket.create_connection((url.hostname, url.port), timeout=60) as s:
                s.sendall(head)
                status, rest = response(s, b"")
                if status == 100:
                    s.sendall(body)
                    sent = len(body)
                    status, rest = response(s, rest)
        except (OSError, ValueError) as e:
            status = "error:" + type(e).__name__
        with lock:
            results.append((status, sent, time.monotonic() - t0))


ts = [threading.Thread(target=client) for _ in range(threads)]
for t in ts:
    t.start()
for t in ts:
    t.join()
by = {}
for status, sent, _ in results:
    n, b = by.get(status, (0, 0))
    by[status] = (n + 1, b + sent)
print("statuses " + "  ".join("%s x%d (%.0f MB of bodies sent)" % (s, n, b / 1e6) for s, (n, b) in sorted(by.items(), key=str)))
ok = sorted(t for s, _, t in results if s == 201)
if ok:
    print("201 latency p50 %.0f ms  p99 %.0f ms  (%d in %.0f s: %.1f/s)" % (
        ok[len(ok) // 2] * 1000, ok[min(len(ok) - 1, int(len(ok) * 0.99))] * 1000, len(ok), seconds, len(ok) / seconds))
