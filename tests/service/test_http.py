"""faultline-service's HTTP edges, against the real service over raw sockets (what http.client would hide).

- A chunked body over --max-body-mib gets 413 like one with Content-Length: nothing stored, not held in memory,
  the connection closed after a bounded time, however long the client goes on sending.
- A second service on the port of a running one refuses to start (exit 2, naming the port).
- A POST with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 6.3): answered at once.
- A Transfer-Encoding other than chunked: 501 at once.
- A known path with a method it does not serve: 405 + Allow; an unknown path: 404.
- Error details name the upload's members, never the service's temporary folders.
- The process is named after its program (pgrep, top), not "exe".
- /v2/readyz answers 200 while the store can be read (test_postgres.py: 503 while PostgreSQL is down).

usage: test_http.py SERVICE CLI SOURCE_DIR WORK_DIR
"""
import io
import os
import select
import shutil
import socket
import subprocess
import sys
import tarfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from service_harness import Service, check, finish  # noqa: E402

SERVICE, CLI, SRC, WORK = sys.argv[1:5]
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)

LINE = b"Mar 14 10:00:00 node-01 kernel: an ordinary line of a large log, repeated to fill the upload\n"


def tar_stream(total):
    """An uncompressed tar of one log member, `total` bytes in all, made as it is sent (never held whole)."""
    size = total - 1024 - 512
    size -= size % 512
    info = tarfile.TarInfo("syslog-node-01.log")
    info.size = size
    yield info.tobuf(format=tarfile.USTAR_FORMAT)
    block = LINE * (65536 // len(LINE))
    left = size
    while left > 0:
        piece = block[:left]
        yield piece
        left -= len(piece)
    yield b"\0" * 1024


def read_response(sock, timeout=30):
    """(status, {lower-case header: value}, body) of one response, or (None, {}, b"") when none came."""
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            got = sock.recv(65536)
            if not got:
                break
            data += got
        if b"\r\n\r\n" not in data:
            return None, {}, b""
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        hdrs = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            hdrs[name.strip().lower()] = value.strip()
        want = int(hdrs.get("content-length", "0"))
        while len(body) < want:
            got = sock.recv(65536)
            if not got:
                break
            body += got
        return int(lines[0].split()[1]), hdrs, body
    except (ConnectionResetError, socket.timeout):
        return None, {}, b""


def send_streamed(port, head, pieces, chunked, limit_s=60):
    """Sends `head` and then `pieces` (chunked or as is), stopping as soon as an answer arrives or the
    service closes. -> (status, headers, body, bytes of body sent, seconds)."""
    t0 = time.time()
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(head)
        try:
            for piece in pieces:
                if select.select([s], [], [], 0)[0] or time.time() - t0 > limit_s:
                    break
                s.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                sent += len(piece)
            else:
                if chunked:
                    s.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        st, hdrs, body = read_response(s)
        return st, hdrs, body, sent, time.time() - t0


def vm_hwm_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


svc = Service(SERVICE, os.path.join(WORK, "data"), "--max-body-mib", "4").start()
try:
    port = svc.port
    # -- the process's name: what pgrep and top match (the kernel keeps 15 bytes of it)
    with open("/proc/%d/comm" % svc.proc.pid) as f:
        comm = f.read().strip()
    check(comm == "faultline-service"[:15], "the process is named %r (got %r)" % ("faultline-service"[:15], comm))
    found = subprocess.run(["pgrep", "-x", "faultline-servi"], capture_output=True, text=True).stdout.split()
    check(str(svc.proc.pid) in found, "pgrep -x faultline-servi finds it (%s)" % found)

    # -- a chunked body over the limit: 16 MiB against --max-body-mib 4
    bundle_head = (b"POST /v2/bundles HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-tar\r\n"
                   b"Transfer-Encoding: chunked\r\n\r\n")
    st, hdrs, body, sent, took = send_streamed(port, bundle_head, tar_stream(16 << 20), True)
    check(st == 413 and b"payload_too_large" in body, "chunked 16 MiB, --max-body-mib 4 -> 413 (got %s %r)" % (st, body[:120]))
    check(hdrs.get("connection") == "close", "the 413 closes the connection (%s)" % hdrs.get("connection"))
    st, r = svc.json("GET", "/v2/sessions")
    check(st == 200 and r["sessions"] == [], "nothing stored after the refused chunked body (%d sessions)"
          % len(r.get("sessions", [])))
    # A chunked body within the limit is still taken.
    st, hdrs, body, sent, took = send_streamed(port, bundle_head, tar_stream(1 << 20), True)
    check(st == 201, "chunked 1 MiB, --max-body-mib 4 -> 201 (got %s %r)" % (st, body[:160]))

    # -- 300 MiB chunked, sent as fast as the service reads: answered in bounded time, never held in memory
    before = vm_hwm_kib(svc.proc.pid)
    st, hdrs, body, sent, took = send_streamed(port, bundle_head, tar_stream(300 << 20), True)
    grown = vm_hwm_kib(svc.proc.pid) - before
    check(st == 413, "chunked 300 MiB -> 413 (got %s after %.1f s, %d MiB sent)" % (st, took, sent >> 20))
    check(took < 20, "answered within 20 s (%.1f s, %d MiB sent)" % (took, sent >> 20))
    check(grown < 64 << 10, "peak memory grew by %d MiB (< 64 MiB: the body is not held)" % (grown >> 10))
    check(svc.alive() and svc.json("GET", "/v2/sessions")[1]["sessions"][0]["status"] != "open",
          "the service goes on (one session: the 1 MiB upload)")

    # -- a POST with neither Content-Length nor Transfer-Encoding: no body, answered at once
    for path, want in (("/v2/bundles", 400), ("/v2/sessions", 400)):
        t0 = time.time()
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
            s.sendall(b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % path.encode())
            st, hdrs, body = read_response(s)
        took = time.time() - t0
        check(st == want and took < 2, "POST %s without Content-Length -> %d at once (got %s in %.1f s: %r)"
              % (path, want, st, took, body[:100]))
    sid = svc.json("POST", "/v2/sessions", {"workload_id": "no-length"})[1]["session_id"]
    svc.request("POST", "/v2/sessions/%s/observations?path=syslog-node-01.log" % sid, LINE)
    t0 = time.time()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(b"POST /v2/sessions/%s/attribute HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % sid.encode())
        st, hdrs, body = read_response(s)
    check(st == 200 and time.time() - t0 < 10, "POST .../attribute without Content-Length (curl -X POST) -> 200 (got %s in %.1f s)"
          % (st, time.time() - t0))

    # -- a Transfer-Encoding the service does not read
    t0 = time.time()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(b"POST /v2/bundles HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip\r\n\r\nxxxx")
        st, hdrs, body = read_response(s)
    check(st == 501 and time.time() - t0 < 2 and hdrs.get("connection") == "close",
          "Transfer-Encoding: gzip -> 501 at once, connection closed (got %s %r)" % (st, body[:100]))

    # -- wrong methods on known paths: 405 + Allow; unknown paths: 404
    cases = [("GET", "/v2/bundles", 405, "POST"), ("DELETE", "/v2/bundles", 405, "POST"),
             ("POST", "/v2/healthz", 405, "GET, HEAD"), ("PUT", "/v2/sessions/" + sid, 405, "GET, HEAD, DELETE"),
             ("PATCH", "/v2/sessions", 405, "GET, HEAD, POST"), ("GET", "/v2/sessions/%s/attribute" % sid, 405, "POST"),
             ("GET", "/v2/nowhere", 404, None), ("POST", "/v2/nowhere", 404, None)]
    for method, path, want, allow in cases:
        st, hdrs, body = svc.request(method, path, b"{}" if method in ("POST", "PUT", "PATCH") else None)
        check(st == want and hdrs.get("Allow") == allow and (b'"method_not_allowed"' in body) == (want == 405),
              "%s %s -> %d, Allow: %s (got %d, %s, %r)" % (method, path[:40], want, allow, st, hdrs.get("Allow"), body[:100]))
    # A chunked body to a path that takes none is not read into memory either.
    head = b"POST /v2/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    before = vm_hwm_kib(svc.proc.pid)
    st, hdrs, body, sent, took = send_streamed(port, head, tar_stream(300 << 20), True)
    grown = vm_hwm_kib(svc.proc.pid) - before
    check(st == 405 and took < 20 and grown < 64 << 10,
          "chunked 300 MiB to POST /v2/healthz -> 405 in %.1f s, memory +%d MiB (got %s)" % (took, grown >> 10, st))

    # -- errors name the upload's members, not the service's temporary folders
    def tgz(files):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w:gz") as t:
            for name, data in files:
                info = tarfile.TarInfo(name)
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
        return buf.getvalue()
    bad = [("not an archive", b"\x1f\x8b\x08\x00garbage", "/v2/bundles", 400, "not a readable archive"),
           ("bad manifest", tgz([("job/workload.json", b"{bad"), ("job/syslog-node-01.log", LINE)]), "/v2/bundles",
            400, "workload.json: line 1"),
           ("bad manifest, observations", tgz([("workload.json", b"{\"window\": 3}"), ("syslog-node-01.log", LINE)]),
            "/v2/sessions/%s/observations" % sid, 400, "workload.json: field 'window'"),
           ("escaping member, observations", tgz([("../escape.log", LINE), ("syslog-node-02.log", LINE)]),
            "/v2/sessions/%s/observations" % sid, 201, "../escape.log")]
    for what, data, path, want, named in bad:
        st, r = svc.json("POST", path, data, {"Content-Type": "application/gzip"})
        detail = (r or {}).get("detail", "") + " ".join((r or {}).get("warnings", []))
        check(st == want and named in detail, "%s -> %d naming %r (got %d: %r)" % (what, want, named, st, detail[:200]))
        check("/tmp" not in detail and WORK not in detail and "upload-" not in detail and "faultline-" not in detail,
              "%s: no temporary path in %r" % (what, detail[:200]))

    # -- schema_version: what the code accepts is what docs/openapi.json says
    st, r = svc.json("POST", "/v1/attribution", {"phase": "fast", "schema_version": 1, "workload_id": "sv"})
    check(st == 200 and r["schema_version"] == "1", "v1: schema_version as a number is accepted, answered \"1\" (%d)" % st)
    st, r = svc.json("POST", "/v1/attribution", {"phase": "fast", "schema_version": {"v": 1}})
    check(st == 400 and "string or a number" in r["detail"], "v1: schema_version as an object -> 400 (%d %s)" % (st, r))
    st, doc = svc.json("GET", "/openapi.json")
    sv = doc["components"]["schemas"]["V1Request"]["properties"]["schema_version"]
    check(sorted(t["type"] for t in sv.get("oneOf", [sv])) == ["number", "string"],
          "openapi.json: schema_version is a string or a number (%s)" % sv)
    check(doc["components"]["schemas"]["V1Response"]["properties"]["schema_version"]["type"] == "string",
          "openapi.json: the answer's schema_version is a string")

    # -- readiness
    st, r = svc.json("GET", "/v2/readyz")
    check(st == 200 and r["status"] == "ready" and r["store"] == "sqlite", "readyz -> 200 on a readable store (%s)" % r)

    # -- a second service on the same port
    t0 = time.time()
    try:
        second = subprocess.run([SERVICE, "--listen", "127.0.0.1:%d" % port, "--data", os.path.join(WORK, "second")],
                                capture_output=True, text=True, timeout=20)
        rc, out, err = second.returncode, second.stdout, second.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = None, (e.stdout or b"").decode(), (e.stderr or b"").decode()
    check(rc == 2 and "listening" not in out and str(port) in err and "another process" in err,
          "a second service on port %d exits 2 naming it (rc %s, %r %r)" % (port, rc, out[:100], err[:200]))
    check(svc.alive() and svc.json("GET", "/v2/healthz")[0] == 200, "the first service still answers")
finally:
    svc.stop()

# A service stopped frees its port for the next one at once (SO_REUSEADDR), even with connections in TIME_WAIT.
again = Service(SERVICE, os.path.join(WORK, "again"))
again.start()
port = again.port
again.json("GET", "/v2/healthz")
again.stop()
proc = subprocess.Popen([SERVICE, "--listen", "127.0.0.1:%d" % port, "--data", os.path.join(WORK, "again")],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
line = proc.stdout.readline().decode()
check("listening on http://127.0.0.1:%d" % port in line, "a restart on the same port starts (%r)" % line)
proc.terminate()
proc.wait(timeout=20)

finish()
