"""End to end with the Python `kubernetes` client (PyPI, pinned in .ci/run)
against `examples --bin apiserver` on a free loopback port, over TLS with
the kubeconfig the server writes.

Usage: e2e_python.py PATH/TO/apiserver

Drives CustomObjectsApi as a Python operator would: create, get, list with
a label selector, watch (seeing a change made while it runs), merge and
JSON patches, the status and scale subresources, 409 on a duplicate, 422
with causes, 404, delete; and CoreV1Api for the namespace. Bounded: every
call has a timeout, the watch has timeoutSeconds, and the server is
stopped on exit.
"""

import os
import subprocess
import sys
import tempfile
import threading
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

GROUP, VERSION, PLURAL = "cache.example.com", "v1alpha1", "memcacheds"
NS = "pydemo"
TIMEOUT = 20


def fail(message):
    print(f"python e2e: {message}", file=sys.stderr)
    sys.exit(1)


def expect(what, condition, detail=""):
    if not condition:
        fail(f"{what}: {detail}")


def expect_status(what, code, call):
    try:
        call()
    except ApiException as e:
        expect(what, e.status == code, f"expected {code}, got {e.status}: {e.body}")
        return e
    fail(f"{what}: expected HTTP {code}, the call succeeded")


def memcached(name, size, labels=None):
    return {
        "apiVersion": f"{GROUP}/{VERSION}",
        "kind": "Memcached",
        "metadata": {"name": name, "labels": labels or {}},
        "spec": {"size": size},
    }


def main():
    server_bin = sys.argv[1]
    work = tempfile.mkdtemp()
    kubeconfig = os.path.join(work, "kubeconfig.yaml")
    out = open(os.path.join(work, "server.out"), "w+")
    # E2E_SERVER_FLAGS: more flags for the server (CI runs this suite on
    # etcd too: --storage etcd --etcd-servers URL).
    extra = os.environ.get("E2E_SERVER_FLAGS", "").split()
    server = subprocess.Popen(
        [server_bin, "--listen", "127.0.0.1:0", "--kubeconfig", kubeconfig, "--v", "0", *extra],
        stdout=out,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            out.seek(0)
            if out.read().startswith("listening on https://"):
                break
            time.sleep(0.1)
        else:
            fail("the server did not start")
        run(kubeconfig)
    finally:
        server.terminate()
        server.wait(timeout=10)


def run(kubeconfig):
    api_client = config.new_client_from_config(config_file=kubeconfig)
    core = client.CoreV1Api(api_client)
    custom = client.CustomObjectsApi(api_client)

    ns = core.create_namespace({"metadata": {"name": NS}}, _request_timeout=TIMEOUT)
    expect("create namespace", ns.metadata.name == NS)
    names = [n.metadata.name for n in core.list_namespace(_request_timeout=TIMEOUT).items]
    expect("list namespaces", NS in names and "default" in names, names)

    created = custom.create_namespaced_custom_object(
        GROUP, VERSION, NS, PLURAL, memcached("mc1", 2, {"app": "cache"}), _request_timeout=TIMEOUT
    )
    expect("create", created["metadata"]["resourceVersion"], created)
    expect("create defaults nothing away", created["spec"]["size"] == 2, created)
    custom.create_namespaced_custom_object(
        GROUP, VERSION, NS, PLURAL, memcached("mc2", 1), _request_timeout=TIMEOUT
    )

    got = custom.get_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "mc1", _request_timeout=TIMEOUT)
    expect("get", got["metadata"]["uid"] == created["metadata"]["uid"], got)

    listed = custom.list_namespaced_custom_object(
        GROUP, VERSION, NS, PLURAL, label_selector="app=cache", _request_timeout=TIMEOUT
    )
    expect("list -l", [i["metadata"]["name"] for i in listed["items"]] == ["mc1"], listed)
    everywhere = custom.list_cluster_custom_object(GROUP, VERSION, PLURAL, _request_timeout=TIMEOUT)
    expect("list across namespaces", len(everywhere["items"]) == 2, everywhere)

    # A watch from the list's resourceVersion sees the patch made while it runs.
    seen = []

    def watcher():
        w = watch.Watch()
        for event in w.stream(
            custom.list_namespaced_custom_object,
            GROUP,
            VERSION,
            NS,
            PLURAL,
            resource_version=listed["metadata"]["resourceVersion"],
            timeout_seconds=5,
        ):
            seen.append((event["type"], event["object"]["metadata"]["name"], event["object"]["spec"].get("size")))
            if event["type"] == "MODIFIED":
                w.stop()

    thread = threading.Thread(target=watcher)
    thread.start()
    time.sleep(0.5)
    patched = custom.patch_namespaced_custom_object(
        GROUP, VERSION, NS, PLURAL, "mc1", {"spec": {"size": 3}}, _request_timeout=TIMEOUT
    )
    expect("merge patch", patched["spec"]["size"] == 3, patched)
    thread.join(timeout=10)
    expect("watch", ("MODIFIED", "mc1", 3) in seen, seen)

    json_patched = custom.patch_namespaced_custom_object(
        GROUP,
        VERSION,
        NS,
        PLURAL,
        "mc1",
        [{"op": "replace", "path": "/spec/size", "value": 1}],
        _content_type="application/json-patch+json",
        _request_timeout=TIMEOUT,
    )
    expect("json patch", json_patched["spec"]["size"] == 1, json_patched)

    status = custom.patch_namespaced_custom_object_status(
        GROUP,
        VERSION,
        NS,
        PLURAL,
        "mc1",
        {
            "status": {
                "conditions": [
                    {
                        "type": "Available",
                        "status": "True",
                        "reason": "Running",
                        "message": "up",
                        "lastTransitionTime": "2026-01-01T00:00:00Z",
                    }
                ]
            }
        },
        _request_timeout=TIMEOUT,
    )
    expect("status patch", status["status"]["conditions"][0]["type"] == "Available", status)

    # The scale subresource, through CronTab's .spec.replicas.
    crontab = {
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": "ct1"},
        "spec": {"schedule": "*/5 * * * *", "image": "busybox:1.36", "replicas": 1},
    }
    custom.create_namespaced_custom_object("stable.example.com", "v1", NS, "crontabs", crontab, _request_timeout=TIMEOUT)
    scale = custom.patch_namespaced_custom_object_scale(
        "stable.example.com", "v1", NS, "crontabs", "ct1", {"spec": {"replicas": 4}}, _request_timeout=TIMEOUT
    )
    expect("scale patch", scale["spec"]["replicas"] == 4 and scale["kind"] == "Scale", scale)
    scale = custom.get_namespaced_custom_object_scale("stable.example.com", "v1", NS, "crontabs", "ct1", _request_timeout=TIMEOUT)
    expect("scale get", scale["spec"]["replicas"] == 4, scale)
    # The same object through the other served version.
    old = custom.get_namespaced_custom_object("stable.example.com", "v1alpha1", NS, "crontabs", "ct1", _request_timeout=TIMEOUT)
    expect("v1alpha1 view", old["spec"]["cronSpec"] == "*/5 * * * *" and old["spec"]["replicas"] == 4, old)

    e = expect_status(
        "duplicate create",
        409,
        lambda: custom.create_namespaced_custom_object(
            GROUP, VERSION, NS, PLURAL, memcached("mc1", 1), _request_timeout=TIMEOUT
        ),
    )
    expect("409 reason", '"reason":"AlreadyExists"' in e.body.replace(" ", ""), e.body)
    e = expect_status(
        "invalid create",
        422,
        lambda: custom.create_namespaced_custom_object(
            GROUP, VERSION, NS, PLURAL, memcached("big", 99), _request_timeout=TIMEOUT
        ),
    )
    expect("422 cause", "spec.size" in e.body, e.body)
    expect_status(
        "get missing",
        404,
        lambda: custom.get_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "nope", _request_timeout=TIMEOUT),
    )

    custom.delete_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "mc1", _request_timeout=TIMEOUT)
    expect_status(
        "deleted",
        404,
        lambda: custom.get_namespaced_custom_object(GROUP, VERSION, NS, PLURAL, "mc1", _request_timeout=TIMEOUT),
    )
    core.delete_namespace(NS, _request_timeout=TIMEOUT)
    # The namespace controller empties it, then it goes.
    deadline = time.monotonic() + 10
    while True:
        try:
            core.read_namespace(NS, _request_timeout=TIMEOUT)
        except ApiException as e:
            expect("the namespace goes", e.status == 404, e)
            break
        expect("the namespace goes within 10 s", time.monotonic() < deadline, NS)
        time.sleep(0.05)
    left = custom.list_cluster_custom_object(GROUP, VERSION, PLURAL, _request_timeout=TIMEOUT)
    expect("namespace deletion takes its content", left["items"] == [], left)
    crds_at_run_time(api_client, custom)
    print(f"python e2e: all steps passed (kubernetes {client.__version__ if hasattr(client, '__version__') else ''})")


def crds_at_run_time(api_client, custom):
    """A CRD created through ApiextensionsV1Api, waited for (Established),
    used through CustomObjectsApi, then deleted with its objects."""
    ext = client.ApiextensionsV1Api(api_client)
    group, plural = "py.example.com", "notes"
    name = f"{plural}.{group}"
    ext.create_custom_resource_definition(
        {
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": name},
            "spec": {
                "group": group,
                "scope": "Namespaced",
                "names": {"plural": plural, "kind": "Note"},
                "versions": [
                    {
                        "name": "v1",
                        "served": True,
                        "storage": True,
                        "schema": {
                            "openAPIV3Schema": {
                                "type": "object",
                                "properties": {
                                    "spec": {
                                        "type": "object",
                                        "properties": {"text": {"type": "string", "maxLength": 10}},
                                    }
                                },
                            }
                        },
                    }
                ],
            },
        },
        _request_timeout=TIMEOUT,
    )
    deadline = time.monotonic() + 10
    while True:
        crd = ext.read_custom_resource_definition(name, _request_timeout=TIMEOUT)
        conditions = {c.type: c.status for c in (crd.status.conditions or [])}
        if conditions.get("Established") == "True":
            break
        expect("the CRD is established within 10 s", time.monotonic() < deadline, crd.status)
        time.sleep(0.05)
    note = {"apiVersion": f"{group}/v1", "kind": "Note", "metadata": {"name": "n1"}, "spec": {"text": "hi"}}
    made = custom.create_namespaced_custom_object(group, "v1", "default", plural, note, _request_timeout=TIMEOUT)
    expect("a Note of the new CRD", made["spec"]["text"] == "hi", made)
    long = dict(note, metadata={"name": "n2"}, spec={"text": "far too long"})
    e = expect_status(
        "the CRD's schema validates",
        422,
        lambda: custom.create_namespaced_custom_object(group, "v1", "default", plural, long, _request_timeout=TIMEOUT),
    )
    expect("422 cause", "spec.text" in e.body, e.body)
    ext.delete_custom_resource_definition(name, _request_timeout=TIMEOUT)
    deadline = time.monotonic() + 10
    while True:
        try:
            ext.read_custom_resource_definition(name, _request_timeout=TIMEOUT)
        except ApiException as e:
            expect("the CRD goes", e.status == 404, e)
            break
        expect("the CRD goes within 10 s", time.monotonic() < deadline, name)
        time.sleep(0.05)
    expect_status(
        "its kind is no longer served",
        404,
        lambda: custom.list_namespaced_custom_object(group, "v1", "default", plural, _request_timeout=TIMEOUT),
    )


if __name__ == "__main__":
    main()
