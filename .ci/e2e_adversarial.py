"""Hostile clients against `examples --bin apiserver`, over TLS and over
plain HTTP (issue 27's adversarial suite).

Usage: e2e_adversarial.py PATH/TO/apiserver

For each transport it starts the server on a free loopback port, seeds two
objects, then sends what strict or hostile clients send, each case
asserting the apiserver's exact code and Status:

- bodies: truncated, lying about their length, malformed chunks, not JSON,
  not UTF-8, empty, over the 3 MiB limit;
- nesting past the decoder's 10,000 levels in a known field, an unknown
  field, metadata, a merge patch, a JSON patch and an apply;
- media types: unsupported Content-Type, unsupported patch type, an Accept
  the server cannot honour on every verb (406, nothing written), the
  metadata-only representation;
- every query parameter with a malformed value (the apiserver's
  ValidateListOptions, Create/Update/Patch/DeleteOptions and the
  request-deadline filter);
- writes that change nothing (merge patch `{}`, the same spec, a JSON
  patch that only tests, a PUT of the object as read): the
  resourceVersion stays and a watch sees no event;
- idle connections at each stage (nothing sent, half a request line,
  unfinished headers, between keep-alive requests; before and after the
  TLS handshake): closed within the server's 10 s.

It ends by checking that the server is alive, the seeded objects are
unchanged and nothing that was refused was stored. Bounded: loopback
only, a fixed list of requests, every socket with a timeout, the idle
checks in parallel (about 11 s), the servers stopped on exit.
"""

import base64
import http.client
import json
import os
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

import yaml

GROUP, VERSION, PLURAL = "cache.example.com", "v1alpha1", "memcacheds"
NS = "default"
COLLECTION = f"/apis/{GROUP}/{VERSION}/namespaces/{NS}/{PLURAL}"
IDLE_LIMIT = 10.0  # the server's client timeout
SLACK = 2.5
failures = []
checks = [0]


def check(what, condition, detail=""):
    checks[0] += 1
    if not condition:
        failures.append(f"{what}: {detail}")


class Server:
    """The example server on a free loopback port, TLS or plain HTTP."""

    def __init__(self, binary, tls):
        self.tls = tls
        self.work = tempfile.mkdtemp()
        kubeconfig = os.path.join(self.work, "kubeconfig.yaml")
        out_path = os.path.join(self.work, "server.out")
        self.out = open(out_path, "w+")
        args = [binary, "--listen", "127.0.0.1:0", "--kubeconfig", kubeconfig]
        if not tls:
            args.append("--insecure-http")
        self.process = subprocess.Popen(args, stdout=self.out, stderr=subprocess.DEVNULL)
        for _ in range(100):
            self.out.seek(0)
            line = self.out.readline()
            if line.startswith("listening on "):
                break
            time.sleep(0.1)
        else:
            self.stop()
            sys.exit(f"adversarial e2e: the server did not start ({'TLS' if tls else 'HTTP'})")
        url = line.split()[-1]
        self.host, self.port = url.split("//", 1)[1].rsplit(":", 1)
        self.port = int(self.port)
        config = yaml.safe_load(open(kubeconfig))
        self.token = config["users"][0]["user"].get("token")
        self.context = None
        if tls:
            cluster = config["clusters"][0]["cluster"]
            ca = base64.b64decode(cluster["certificate-authority-data"]).decode()
            self.context = ssl.create_default_context(cadata=ca)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def name(self):
        return "TLS" if self.tls else "HTTP"

    def raw(self):
        """A connected socket (TLS done, when TLS)."""
        sock = socket.create_connection((self.host, self.port), timeout=IDLE_LIMIT + SLACK)
        if self.tls:
            sock = self.context.wrap_socket(sock, server_hostname=self.host)
        return sock

    def request(self, method, path, body=None, headers=None):
        """(code, headers, JSON body or text) of one request."""
        if self.tls:
            conn = http.client.HTTPSConnection(self.host, self.port, timeout=20, context=self.context)
        else:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=20)
        all_headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.token:
            all_headers["Authorization"] = f"Bearer {self.token}"
        all_headers.update(headers or {})
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
        try:
            conn.request(method, path, body=body, headers=all_headers)
            response = conn.getresponse()
            data = response.read()
        finally:
            conn.close()
        try:
            parsed = json.loads(data) if data else None
        except ValueError:
            parsed = data.decode(errors="replace")
        return response.status, dict(response.getheaders()), parsed

    def raw_exchange(self, payload, close_write=False):
        """The status line of what the server answers to raw bytes (None
        when it closes the connection without an answer)."""
        sock = self.raw()
        try:
            try:
                sock.sendall(payload)
            except OSError:
                pass
            if close_write:
                try:
                    if self.tls:
                        sock.unwrap()
                    else:
                        sock.shutdown(socket.SHUT_WR)
                except (OSError, ssl.SSLError):
                    pass
            sock.settimeout(15)
            data = b""
            while b"\r\n" not in data:
                try:
                    chunk = sock.recv(4096)
                except (OSError, ssl.SSLError):
                    break
                if not chunk:
                    break
                data += chunk
            return data.split(b"\r\n", 1)[0].decode(errors="replace") or None
        finally:
            sock.close()

    def head(self, method, path, extra=""):
        auth = f"Authorization: Bearer {self.token}\r\n" if self.token else ""
        return f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n{auth}{extra}".encode()


def memcached(name, size=1, extra=None):
    obj = {
        "apiVersion": f"{GROUP}/{VERSION}",
        "kind": "Memcached",
        "metadata": {"name": name, "labels": {"seed": "yes"}},
        "spec": {"size": size},
    }
    obj.update(extra or {})
    return obj


def expect(server, what, got, code, reason=None, message=None):
    status, _, body = got
    label = f"[{server.name()}] {what}"
    check(label, status == code, f"expected {code}, got {status}: {body}")
    if isinstance(body, dict) and reason is not None:
        check(label, body.get("reason") == reason, f"expected reason {reason}: {body}")
    if isinstance(body, dict) and message is not None:
        check(label, message in body.get("message", ""), f"expected message with {message!r}: {body}")


def bodies(server):
    limit = 3 * 1024 * 1024
    # Shorter than its Content-Length, then the client stops sending.
    line = server.raw_exchange(server.head("POST", COLLECTION, "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n") + b'{"a"', close_write=True)
    check(f"[{server.name()}] truncated body", line is None or " 400 " in line, line)
    line = server.raw_exchange(server.head("POST", COLLECTION, "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n") + b"zz\r\n{}\r\n0\r\n\r\n")
    check(f"[{server.name()}] malformed chunk", line is None or " 400 " in line, line)
    line = server.raw_exchange(server.head("POST", COLLECTION, f"Content-Type: application/json\r\nContent-Length: {limit + 10}\r\n\r\n") + b" " * (limit + 10))
    check(f"[{server.name()}] over the limit", line is not None and " 413 " in line, line)
    expect(server, "not JSON", server.request("POST", COLLECTION, "{nope"), 400, "BadRequest")
    expect(server, "not UTF-8", server.request("POST", COLLECTION, b'{"metadata":{"name":"\xff"}}'), 400, "BadRequest")
    expect(server, "empty body", server.request("POST", COLLECTION, ""), 400, "BadRequest")
    expect(server, "a list where an object goes", server.request("POST", COLLECTION, "[]"), 400, "BadRequest")


def nesting(server):
    deep = "[" * 10_001 + "]" * 10_001
    base = json.dumps(memcached("deep"))
    for what, body in [
        ("deep known field", base.replace('"spec": {"size": 1}', f'"spec": {{"size": {deep}}}')),
        ("deep unknown field", base.replace('"spec": {"size": 1}', f'"spec": {{"size": 1, "x": {deep}}}')),
        ("deep metadata", base.replace('"seed": "yes"', f'"seed": {deep}')),
    ]:
        expect(server, what, server.request("POST", COLLECTION, body), 400, "BadRequest")
    target = f"{COLLECTION}/seed-a"
    expect(server, "deep merge patch", server.request("PATCH", target, f'{{"spec": {{"x": {deep}}}}}', {"Content-Type": "application/merge-patch+json"}), 400, "BadRequest")
    expect(server, "deep JSON patch", server.request("PATCH", target, f'[{{"op": "add", "path": "/spec/x", "value": {deep}}}]', {"Content-Type": "application/json-patch+json"}), 400, "BadRequest")
    expect(server, "deep apply", server.request("PATCH", target + "?fieldManager=x", base.replace('"spec": {"size": 1}', f'"spec": {{"x": {deep}}}'), {"Content-Type": "application/apply-patch+yaml"}), 400, "BadRequest")


def media_types(server):
    target = f"{COLLECTION}/seed-a"
    expect(server, "text/plain body", server.request("POST", COLLECTION, json.dumps(memcached("mt")), {"Content-Type": "text/plain"}), 415, "UnsupportedMediaType")
    expect(server, "unknown patch type", server.request("PATCH", target, "{}", {"Content-Type": "application/x-patch"}), 415, "UnsupportedMediaType")
    xml = {"Accept": "application/xml"}
    expect(server, "GET with Accept xml", server.request("GET", target, None, xml), 406, "NotAcceptable")
    expect(server, "LIST with Accept xml", server.request("GET", COLLECTION, None, xml), 406, "NotAcceptable")
    expect(server, "POST with Accept xml", server.request("POST", COLLECTION, memcached("xml"), xml), 406, "NotAcceptable")
    expect(server, "PATCH with Accept xml", server.request("PATCH", target, '{"spec": {"size": 3}}', dict(xml, **{"Content-Type": "application/merge-patch+json"})), 406, "NotAcceptable")
    expect(server, "DELETE with Accept xml", server.request("DELETE", target, None, xml), 406, "NotAcceptable")
    status, headers, body = server.request("GET", target, None, {"Accept": "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"})
    check(f"[{server.name()}] metadata only", status == 200 and body.get("kind") == "PartialObjectMetadata" and "spec" not in body, body)
    status, _, body = server.request("GET", COLLECTION, None, {"Accept": "application/json;as=Table;v=v1;g=meta.k8s.io"})
    check(f"[{server.name()}] table", status == 200 and body.get("kind") == "Table", body)


def parameters(server):
    target = f"{COLLECTION}/seed-a"
    cases = [
        ("GET", f"{COLLECTION}?timeout=abc", None, 400, "BadRequest", 'invalid timeout specified in the request URL - time: invalid duration "abc"'),
        ("POST", f"{COLLECTION}?fieldValidation=Bogus", memcached("p1"), 422, "Invalid", 'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Bogus"'),
        ("PUT", f"{target}?fieldValidation=Bogus", memcached("seed-a"), 422, "Invalid", 'UpdateOptions.meta.k8s.io "" is invalid: fieldValidation'),
        ("POST", f"{COLLECTION}?dryRun=Bogus", memcached("p2"), 422, "Invalid", 'dryRun: Unsupported value: "Bogus"'),
        ("POST", f"{COLLECTION}?fieldManager=" + "m" * 129, memcached("p3"), 422, "Invalid", "fieldManager: Too long"),
        ("GET", f"{COLLECTION}?labelSelector=app%20in%20(", None, 400, "BadRequest", None),
        ("GET", f"{COLLECTION}?fieldSelector=spec.nope%3D1", None, 400, "BadRequest", "field label not supported"),
        ("GET", f"{COLLECTION}?limit=2&continue=garbage!", None, 400, "BadRequest", "invalid continue token"),
        ("GET", f"{COLLECTION}?resourceVersionMatch=Exact", None, 422, "Invalid", "resourceVersionMatch"),
        ("GET", f"{COLLECTION}?resourceVersion=abc", None, 400, "BadRequest", None),
        ("GET", f"{COLLECTION}?resourceVersion=999999", None, 504, "Timeout", "Too large resource version"),
        ("DELETE", f"{target}?propagationPolicy=Bogus", None, 422, "Invalid", 'propagationPolicy: Unsupported value: "Bogus"'),
        ("DELETE", f"{target}?gracePeriodSeconds=abc", None, 400, "BadRequest", None),
        ("DELETE", f"{target}?dryRun=Bogus", None, 422, "Invalid", "dryRun"),
    ]
    for method, path, body, code, reason, message in cases:
        expect(server, f"{method} {path[len(COLLECTION):][:60]}", server.request(method, path, body), code, reason, message)


def no_op_writes(server):
    target = f"{COLLECTION}/seed-b"
    _, _, current = server.request("GET", target)
    rv = current["metadata"]["resourceVersion"]
    events = []
    stop = threading.Event()

    def watch():
        sock = server.raw()
        sock.settimeout(0.5)
        sock.sendall(server.head("GET", f"{COLLECTION}?watch=true&resourceVersion={rv}&fieldSelector=metadata.name%3Dseed-b", "\r\n"))
        data = b""
        while not stop.is_set():
            try:
                chunk = sock.recv(4096)
            except (socket.timeout, ssl.SSLError, OSError):
                continue
            if not chunk:
                break
            data += chunk
        sock.close()
        events.extend(line for line in data.split(b"\n") if line.startswith(b'{"type"') or b'"type":' in line[:30])

    watcher = threading.Thread(target=watch)
    watcher.start()
    time.sleep(0.5)
    merge = {"Content-Type": "application/merge-patch+json"}
    for what, method, body, headers in [
        ("merge patch {}", "PATCH", "{}", merge),
        ("merge patch of the same spec", "PATCH", json.dumps({"spec": current["spec"]}), merge),
        ("JSON patch that only tests", "PATCH", json.dumps([{"op": "test", "path": "/spec/size", "value": current["spec"]["size"]}]), {"Content-Type": "application/json-patch+json"}),
        ("PUT of the object as read", "PUT", json.dumps(current), {}),
    ]:
        status, _, body = server.request(method, target, body, headers)
        check(f"[{server.name()}] no-op {what}", status == 200 and body["metadata"]["resourceVersion"] == rv, f"{status}: {body}")
    time.sleep(1.0)
    stop.set()
    watcher.join(timeout=5)
    check(f"[{server.name()}] no-op writes send no watch event", not events, events)


def idle(server):
    """Each idle stage in its own thread; every connection must be closed
    by the server within its 10 s (and not at once)."""
    stages = {
        "nothing sent": b"",
        "half a request line": b"GET /apis HT",
        "unfinished headers": f"GET /apis HTTP/1.1\r\nHost: {server.host}\r\n".encode(),
    }
    results = {}

    def run(name, payload, keepalive=False):
        try:
            sock = server.raw()
            if keepalive:
                sock.sendall(server.head("GET", "/version", "\r\n"))
                sock.recv(65536)
            elif payload:
                sock.sendall(payload)
            start = time.monotonic()
            while True:
                chunk = sock.recv(4096)
                if not chunk:
                    break
            results[name] = time.monotonic() - start
        except (socket.timeout, TimeoutError):
            results[name] = None
        except (OSError, ssl.SSLError):
            results[name] = time.monotonic() - start if "start" in locals() else 0.0

    threads = [threading.Thread(target=run, args=(n, p)) for n, p in stages.items()]
    threads.append(threading.Thread(target=run, args=("between keep-alive requests", b"", True)))
    if server.tls:

        def before_handshake():
            sock = socket.create_connection((server.host, server.port), timeout=IDLE_LIMIT + SLACK)
            start = time.monotonic()
            try:
                while sock.recv(4096):
                    pass
                results["before the TLS handshake"] = time.monotonic() - start
            except (socket.timeout, TimeoutError):
                results["before the TLS handshake"] = None
            except OSError:
                results["before the TLS handshake"] = time.monotonic() - start

        threads.append(threading.Thread(target=before_handshake))
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=IDLE_LIMIT + 2 * SLACK)
    for name, took in sorted(results.items()):
        check(f"[{server.name()}] idle: {name}", took is not None and IDLE_LIMIT - 1.0 <= took <= IDLE_LIMIT + SLACK, f"closed after {took}")
    check(f"[{server.name()}] idle stages measured", len(results) == len(threads), results)


def run(binary, tls):
    server = Server(binary, tls)
    try:
        for name in ["seed-a", "seed-b"]:
            status, _, body = server.request("POST", COLLECTION, memcached(name))
            if status != 201:
                sys.exit(f"adversarial e2e: seeding {name} failed: {status} {body}")
        _, _, seeded = server.request("GET", f"{COLLECTION}?labelSelector=seed%3Dyes")
        idle_thread = threading.Thread(target=idle, args=(server,))
        idle_thread.start()
        for step in (bodies, nesting, media_types, parameters, no_op_writes):
            step(server)
        idle_thread.join(timeout=60)
        status, _, _ = server.request("GET", "/healthz")
        check(f"[{server.name()}] alive at the end", status == 200, status)
        _, _, after = server.request("GET", COLLECTION)
        names = sorted(item["metadata"]["name"] for item in after["items"])
        check(f"[{server.name()}] nothing refused was stored", names == ["seed-a", "seed-b"], names)
        check(f"[{server.name()}] the seeded objects are unchanged", after["items"] == seeded["items"], "")
        check(f"[{server.name()}] the server still runs", server.process.poll() is None, "")
    finally:
        server.stop()


def run_reporting(binary, tls):
    """`run`, with anything that stops it counted as a failure (a thread's
    exit would otherwise go unseen)."""
    try:
        run(binary, tls)
    except BaseException as e:  # noqa: BLE001 - every stop is a failure here
        failures.append(f"[{'TLS' if tls else 'HTTP'}] stopped: {e!r}")


def main():
    binary = sys.argv[1]
    threads = [threading.Thread(target=run_reporting, args=(binary, tls)) for tls in (True, False)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=170)
    if failures:
        for f in failures:
            print(f"adversarial e2e: {f}", file=sys.stderr)
        print(f"{checks[0] - len(failures)} passed, {len(failures)} failed")
        sys.exit(1)
    print("adversarial e2e: every case as the apiserver answers it, over TLS and plain HTTP")
    print(f"{checks[0]} passed, 0 failed")


if __name__ == "__main__":
    main()
