"""Faults on a three-member etcd cluster under two example servers (issue 30).

Starts three etcd members on free loopback ports (temporary data
directories) and two `apiserver --storage etcd` replicas over all three,
then, through plain HTTPS requests with the kubeconfigs' tokens:

* 8 clients, 4 per replica, each 50 read-modify-write increments of one
  ConfigMap (GET, then PUT with its resourceVersion, again on 409):
  exactly 400;
* one member stopped: increments go on;
* two members stopped (no quorum): a write fails with a 5xx within the
  request deadline, and nothing is written; both back: writes go on;
* a watcher on replica B, while replica A increments and a member
  restarts, sees every change exactly once, in order;
* replica A killed and restarted serves every acknowledged change;
* etcd holds the object under /registry with mod_revision =
  resourceVersion (etcdctl).

Usage: e2e_etcd_cluster.py PATH/TO/apiserver (built with --features etcd)
"""

import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

SERVER_BIN = sys.argv[1]
WORK = tempfile.mkdtemp(prefix="e2e-etcd-cluster-")
PROCESSES = []
CM = "/api/v1/namespaces/default/configmaps"
TLS = ssl.create_default_context()
TLS.check_hostname = False
TLS.verify_mode = ssl.CERT_NONE


def fail(message):
    print(f"e2e etcd cluster: {message}", file=sys.stderr)
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Member:
    def __init__(self, name, cluster):
        self.name = name
        self.client = f"http://127.0.0.1:{free_port()}"
        self.peer = f"http://127.0.0.1:{free_port()}"
        self.cluster = cluster
        self.process = None
        self.state = "new"

    def start(self):
        log = open(os.path.join(WORK, f"{self.name}.log"), "a")
        self.process = subprocess.Popen(
            [
                "etcd", "--name", self.name,
                "--data-dir", os.path.join(WORK, self.name),
                "--listen-client-urls", self.client, "--advertise-client-urls", self.client,
                "--listen-peer-urls", self.peer, "--initial-advertise-peer-urls", self.peer,
                "--initial-cluster", self.cluster(),
                "--initial-cluster-state", self.state,
            ],
            stdout=log,
            stderr=log,
        )
        self.state = "existing"
        PROCESSES.append(self.process)

    def stop(self):
        if self.process:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


def etcdctl(*args, endpoints):
    return subprocess.run(
        ["etcdctl", "--endpoints", ",".join(endpoints), *args],
        capture_output=True, text=True, timeout=30,
    )


def wait_healthy(members):
    endpoints = [m.client for m in members]
    for _ in range(200):
        if etcdctl("endpoint", "health", endpoints=endpoints).returncode == 0:
            return
        time.sleep(0.1)
    fail(f"etcd members {[m.name for m in members]} not healthy")


class Replica:
    def __init__(self, name, endpoints):
        self.name = name
        self.endpoints = endpoints
        self.process = None
        self.url = None
        self.token = None

    def start(self):
        kubeconfig = os.path.join(WORK, f"{self.name}.kubeconfig")
        out = open(os.path.join(WORK, f"{self.name}.out"), "w+")
        self.process = subprocess.Popen(
            [SERVER_BIN, "--listen", "127.0.0.1:0", "--kubeconfig", kubeconfig, "--v", "0",
             "--storage", "etcd", "--etcd-servers", ",".join(self.endpoints),
             "--builtin-kinds", "configmaps"],
            stdout=out, stderr=open(os.path.join(WORK, f"{self.name}.err"), "w"),
        )
        PROCESSES.append(self.process)
        for _ in range(200):
            out.seek(0)
            line = out.read()
            if line.startswith("listening on "):
                self.url = line.split()[2].strip()
                break
            time.sleep(0.1)
        else:
            fail(f"replica {self.name} did not start")
        with open(kubeconfig) as f:
            for line in f:
                if line.strip().startswith("token:"):
                    self.token = line.split(":", 1)[1].strip()

    def kill(self):
        self.process.kill()
        self.process.wait(timeout=10)

    def request(self, method, path, body=None, timeout=30):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path, data=data, method=method,
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, context=TLS, timeout=timeout) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

    def increment(self, attempts=200):
        """One read-modify-write increment; the value written, or None."""
        for _ in range(attempts):
            code, cm = self.request("GET", f"{CM}/counter")
            if code != 200:
                return None
            cm["data"]["n"] = str(int(cm["data"]["n"]) + 1)
            code, written = self.request("PUT", f"{CM}/counter", cm)
            if code == 200:
                return int(written["data"]["n"])
            if code != 409:
                return None
        return None


def counter(replica):
    code, cm = replica.request("GET", f"{CM}/counter")
    if code != 200:
        fail(f"GET counter through {replica.name}: {code} {cm}")
    return int(cm["data"]["n"]), cm["metadata"]["resourceVersion"]


def main():
    members = []
    cluster = lambda: ",".join(f"{m.name}={m.peer}" for m in members)
    members.extend(Member(f"m{i}", cluster) for i in range(3))
    for m in members:
        m.start()
    wait_healthy(members)
    endpoints = [m.client for m in members]
    a, b = Replica("a", endpoints), Replica("b", endpoints)
    a.start()
    b.start()

    code, body = a.request("POST", CM, {"metadata": {"name": "counter"}, "data": {"n": "0"}})
    if code != 201:
        fail(f"create: {code} {body}")

    # 8 clients x 50 increments over both replicas: exactly 400.
    failures = []

    def client(replica):
        for _ in range(50):
            if replica.increment() is None:
                failures.append(replica.name)

    threads = [threading.Thread(target=client, args=(r,)) for r in (a, b) * 4]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    if failures:
        fail(f"{len(failures)} increments failed")
    n, _ = counter(b)
    if n != 400:
        fail(f"8 x 50 increments gave {n}, not 400")
    print(f"400 increments over two replicas in {elapsed:.1f} s")

    # One member down: nothing changes.
    members[2].stop()
    for _ in range(10):
        if a.increment() is None or b.increment() is None:
            fail("an increment failed with one member down")
    if counter(a)[0] != 420:
        fail(f"with one member down: {counter(a)[0]}")

    # Two down: no quorum; a write fails with a 5xx within the deadline,
    # writes nothing; both back, writes go on.
    members[1].stop()
    _, cm = a.request("GET", f"{CM}/counter", timeout=30)
    start = time.monotonic()
    if cm and cm.get("data"):
        cm["data"]["n"] = "999"
        code, body = a.request("PUT", f"{CM}/counter", cm, timeout=60)
    else:
        code, body = a.request("PUT", f"{CM}/counter",
                               {"metadata": {"name": "counter"}, "data": {"n": "999"}}, timeout=60)
    took = time.monotonic() - start
    if code < 500:
        fail(f"a write without quorum: {code} {body}")
    if took > 15:
        fail(f"a write without quorum took {took:.1f} s")
    print(f"without quorum: {code} {body.get('reason') if isinstance(body, dict) else body} in {took:.1f} s")
    members[1].start()
    members[2].start()
    wait_healthy(members)
    if counter(a)[0] != 420:
        fail(f"after quorum came back: {counter(a)[0]} (a failed write was written?)")
    if a.increment() != 421:
        fail("the first increment after quorum came back")

    # A watcher on B sees every change made through A exactly once, in
    # order, through a member's restart.
    _, rv = counter(b)
    seen = []

    def watch():
        request = urllib.request.Request(
            f"{b.url}{CM}?watch=1&resourceVersion={rv}&fieldSelector=metadata.name%3Dcounter&timeoutSeconds=60",
            headers={"Authorization": f"Bearer {b.token}"},
        )
        with urllib.request.urlopen(request, context=TLS, timeout=90) as response:
            for line in response:
                event = json.loads(line)
                if event["type"] == "MODIFIED":
                    seen.append(int(event["object"]["data"]["n"]))
                    if seen[-1] >= 441:
                        return
                elif event["type"] == "ERROR":
                    seen.append(("ERROR", event["object"].get("message")))
                    return

    watcher = threading.Thread(target=watch)
    watcher.start()
    time.sleep(0.5)
    for i in range(20):
        if i == 10:
            members[0].stop()
            members[0].start()
        if a.increment() is None:
            fail(f"increment {i} during the member restart failed")
    watcher.join(timeout=60)
    if seen != list(range(422, 442)):
        fail(f"the watcher on B saw {seen}, not 422..441 once each")

    # Replica A killed and restarted: every acknowledged change is there.
    a.kill()
    a.start()
    n, rv = counter(a)
    if n != 441:
        fail(f"after A's restart: {n}, not 441")

    # What etcd holds: the key under /registry, mod_revision = resourceVersion.
    got = etcdctl("get", "/registry/configmaps/default/counter", "-w", "json", endpoints=endpoints)
    kvs = json.loads(got.stdout).get("kvs", [])
    if not kvs or str(kvs[0]["mod_revision"]) != rv:
        fail(f"etcd's key: {got.stdout[:300]} (resourceVersion {rv})")
    print("e2e etcd cluster: ok")


try:
    main()
finally:
    for p in PROCESSES:
        if p.poll() is None:
            p.kill()
            p.wait(timeout=10)
    shutil.rmtree(WORK, ignore_errors=True)
