#!/usr/bin/env python3
"""Compile-time benchmark: this library's derives against plain serde +
schemars and against kube-derive.

For each N, generates a crate of N resources in three variants:

- plain: `#[derive(Serialize, Deserialize, JsonSchema)]` (schemars 1.2) on
  the spec and status types, with the same bounds as schemars attributes;
- ours: `#[derive(KubeResource)]` on the spec and `#[derive(ApiType)]` on
  the other types (api-core by path);
- kube: kube-derive's `#[derive(CustomResource, JsonSchema)]` on the spec
  and `#[derive(JsonSchema)]` on the other types.

Each resource is the 12-field spec of api-core-tests/benches/derive.rs (a
nested struct with a list, an optional string and a map; a string enum; a
list of structs with a nested enum; a map; a list of strings; optional
integers and strings with bounds and patterns) plus a 5-field status.

All crates live in one generated cargo workspace with one target dir, so
dependencies build once. api-core and api-derive are copied into it
(OUT/api-lib) at the start, so that edits to the working tree during a
run cannot rebuild them between timings. Each crate is then built alone
once (so that every feature combination of the dependencies is cached),
and the timed runs touch its lib.rs and run `cargo check -p CRATE` and `cargo build -p CRATE`,
going round-robin over the variants (the order rotates every run). rustc's
incremental cache is off by default (CARGO_INCREMENTAL=0), so every timed
run compiles the whole crate, with only its dependencies pre-built; pass
`--incremental` to keep it on (then a touch without a change mostly re-runs
macro expansion).

Prints medians and ratios to the plain variant as a Markdown table and
writes it to OUT/results.md. Python 3 standard library only.

    python3 bench-compile/run.py                       # --n 50 200 --runs 5
    python3 bench-compile/run.py --n 50 --runs 3 --out /tmp/bench-compile
"""

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
VARIANTS = ["plain", "ours", "kube"]
MODES = ["check", "build"]
DEFAULT_OUT = REPO / "target" / "bench-compile"

# Versions of the generated crates' dependencies (kube as in bench-kube/).
SERDE = '{ version = "1.0.229", features = ["derive"] }'
SCHEMARS = '{ version = "1.2.3", features = ["derive"] }'
SERDE_JSON = '"1.0.154"'
KUBE = '{ version = "5.0.0", default-features = false, features = ["derive"] }'
K8S_OPENAPI = (
    '{ version = "0.29.0", default-features = false, '
    'features = ["std", "latest", "schemars"] }'
)

# ---------------------------------------------------------------------------
# One resource per variant; __I__ is replaced by the resource's number.
# ---------------------------------------------------------------------------

OURS = r'''
/// Widget__I__Spec is the desired state of a Widget__I__.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "bench.example.com",
    version = "v1",
    kind = "Widget__I__",
    doc = "Widget__I__ is a benchmark resource with a realistic spec.",
    namespaced,
    status = "Widget__I__Status",
    shortname = "wg__I__",
    category = "all",
    printcolumn(name = "Replicas", type = "integer", json_path = ".spec.replicas"),
    printcolumn(name = "Image", type = "string", json_path = ".spec.image")
)]
#[serde(rename_all = "camelCase")]
pub struct Widget__I__Spec {
    /// replicas is the number of instances.
    #[kube(minimum = 0, maximum = 100)]
    #[default(1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,

    /// image is the container image to run.
    #[kube(min_length = 1, max_length = 512)]
    pub image: String,

    /// schedule is a cron schedule: five fields separated by spaces.
    #[kube(min_length = 9, max_length = 128, pattern = r"^(\S+\s+){4}\S+$")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<String>,

    /// policy says what to do when a run is due while the previous one
    /// is still running.
    #[default(Policy__I__::Allow)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<Policy__I__>,

    /// suspend stops future runs.
    #[default(false)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,

    /// template is the pod template of every instance.
    pub template: Template__I__,

    /// ports the widget listens on, identified by name.
    #[kube(list_type = "map", list_map_keys = ["name"], max_items = 16)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<Port__I__>,

    /// selector labels of the instances.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub selector: BTreeMap<String, String>,

    /// args are passed to the entrypoint.
    #[kube(max_items = 64, items(max_length = 4096))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,

    /// timeoutSeconds bounds how long a run may take.
    #[kube(minimum = 1, maximum = 86400)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<i64>,

    /// serviceAccountName is the service account the instances run as.
    #[kube(max_length = 253, pattern = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account_name: Option<String>,

    /// priority of the instances against other workloads.
    #[kube(minimum = -1000, maximum = 1000)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i32>,
}

/// Policy__I__ says how runs may overlap.
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy__I__ {
    /// Runs may overlap.
    Allow,
    /// A run is skipped while the previous one is still running.
    Forbid,
    /// A new run replaces the one still running.
    Replace,
}

/// Template__I__ describes an instance.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Template__I__ {
    /// command overrides the image's entrypoint.
    #[kube(max_items = 64, items(max_length = 4096))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,

    /// workingDir is the directory the command runs in.
    #[kube(max_length = 4096)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_dir: Option<String>,

    /// env is the environment of the command.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
}

/// Port__I__ is a named network port.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Port__I__ {
    /// name identifies the port within the list.
    #[kube(min_length = 1, max_length = 15, pattern = "^[a-z]([-a-z0-9]*[a-z0-9])?$")]
    pub name: String,

    /// port is the port number.
    #[kube(minimum = 1, maximum = 65535)]
    pub port: i32,

    /// protocol of the port.
    #[default(Protocol__I__::Tcp)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<Protocol__I__>,
}

/// Protocol__I__ is a network protocol.
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol__I__ {
    /// TCP.
    #[serde(rename = "TCP")]
    Tcp,
    /// UDP.
    #[serde(rename = "UDP")]
    Udp,
}

/// Widget__I__Status is the observed state of a Widget__I__.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Widget__I__Status {
    /// readyReplicas is the number of ready instances.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,

    /// message is a human-readable summary of the state.
    #[kube(max_length = 1024)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,

    /// active lists the names of the instances currently running.
    #[kube(list_type = "set")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub active: Vec<String>,

    /// lastScheduleTime is when a run was last started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_schedule_time: Option<Time>,

    /// observedGeneration is the generation the status is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
}
'''

# The spec and status as plain serde + schemars, with the same bounds
# (and, like kube's variant, list types through `extend`).
PLAIN = r'''
/// Widget__I__Spec is the desired state of a Widget__I__.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Widget__I__Spec {
    /// replicas is the number of instances.
    #[schemars(range(min = 0, max = 100))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,

    /// image is the container image to run.
    #[schemars(length(min = 1, max = 512))]
    pub image: String,

    /// schedule is a cron schedule: five fields separated by spaces.
    #[schemars(length(min = 9, max = 128), regex(pattern = r"^(\S+\s+){4}\S+$"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<String>,

    /// policy says what to do when a run is due while the previous one
    /// is still running.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<Policy__I__>,

    /// suspend stops future runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,

    /// template is the pod template of every instance.
    pub template: Template__I__,

    /// ports the widget listens on, identified by name.
    #[schemars(
        length(max = 16),
        extend("x-kubernetes-list-type" = "map", "x-kubernetes-list-map-keys" = ["name"])
    )]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<Port__I__>,

    /// selector labels of the instances.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub selector: BTreeMap<String, String>,

    /// args are passed to the entrypoint.
    #[schemars(length(max = 64), inner(length(max = 4096)))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,

    /// timeoutSeconds bounds how long a run may take.
    #[schemars(range(min = 1, max = 86400))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<i64>,

    /// serviceAccountName is the service account the instances run as.
    #[schemars(length(max = 253), regex(pattern = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account_name: Option<String>,

    /// priority of the instances against other workloads.
    #[schemars(range(min = -1000, max = 1000))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i32>,
}

/// Policy__I__ says how runs may overlap.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy__I__ {
    /// Runs may overlap.
    Allow,
    /// A run is skipped while the previous one is still running.
    Forbid,
    /// A new run replaces the one still running.
    Replace,
}

/// Template__I__ describes an instance.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Template__I__ {
    /// command overrides the image's entrypoint.
    #[schemars(length(max = 64), inner(length(max = 4096)))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,

    /// workingDir is the directory the command runs in.
    #[schemars(length(max = 4096))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_dir: Option<String>,

    /// env is the environment of the command.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
}

/// Port__I__ is a named network port.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Port__I__ {
    /// name identifies the port within the list.
    #[schemars(length(min = 1, max = 15), regex(pattern = "^[a-z]([-a-z0-9]*[a-z0-9])?$"))]
    pub name: String,

    /// port is the port number.
    #[schemars(range(min = 1, max = 65535))]
    pub port: i32,

    /// protocol of the port.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<Protocol__I__>,
}

/// Protocol__I__ is a network protocol.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol__I__ {
    /// TCP.
    #[serde(rename = "TCP")]
    Tcp,
    /// UDP.
    #[serde(rename = "UDP")]
    Udp,
}

/// Widget__I__Status is the observed state of a Widget__I__.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Widget__I__Status {
    /// readyReplicas is the number of ready instances.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,

    /// message is a human-readable summary of the state.
    #[schemars(length(max = 1024))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,

    /// active lists the names of the instances currently running.
    #[schemars(extend("x-kubernetes-list-type" = "set"))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub active: Vec<String>,

    /// lastScheduleTime is when a run was last started (RFC 3339).
    #[schemars(extend("format" = "date-time"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_schedule_time: Option<String>,

    /// observedGeneration is the generation the status is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
}
'''


def kube_template():
    """kube-derive's variant: the plain types, with CustomResource on the spec."""
    attrs = r'''#[derive(CustomResource, Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
#[kube(
    group = "bench.example.com",
    version = "v1",
    kind = "Widget__I__",
    doc = "Widget__I__ is a benchmark resource with a realistic spec.",
    namespaced,
    status = "Widget__I__Status",
    shortname = "wg__I__",
    category = "all",
    printcolumn(name = "Replicas", type_ = "integer", json_path = ".spec.replicas"),
    printcolumn(name = "Image", type_ = "string", json_path = ".spec.image")
)]
pub struct Widget__I__Spec {'''
    text = PLAIN.replace(
        "#[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]\n"
        "#[serde(rename_all = \"camelCase\")]\npub struct Widget__I__Spec {",
        attrs.replace("pub struct Widget__I__Spec {", "")
        + "#[serde(rename_all = \"camelCase\")]\npub struct Widget__I__Spec {",
        1,
    )
    # kube's status uses k8s-openapi's Time, as a kube user would.
    text = text.replace(
        "    /// lastScheduleTime is when a run was last started (RFC 3339).\n"
        "    #[schemars(extend(\"format\" = \"date-time\"))]\n"
        "    #[serde(default, skip_serializing_if = \"Option::is_none\")]\n"
        "    pub last_schedule_time: Option<String>,",
        "    /// lastScheduleTime is when a run was last started.\n"
        "    #[serde(default, skip_serializing_if = \"Option::is_none\")]\n"
        "    pub last_schedule_time: Option<Time>,",
    )
    assert "CustomResource" in text and "Option<Time>" in text
    return text


TEMPLATES = {"plain": PLAIN, "ours": OURS, "kube": kube_template()}

HEADERS = {
    "plain": (
        "use std::collections::BTreeMap;\n\n"
        "use schemars::JsonSchema;\n"
        "use serde::{Deserialize, Serialize};\n"
    ),
    "ours": (
        "use std::collections::BTreeMap;\n\n"
        "use api_core::prelude::*;\n"
        "use serde::{Deserialize, Serialize};\n"
    ),
    "kube": (
        "use std::collections::BTreeMap;\n\n"
        "use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;\n"
        "use kube::CustomResource;\n"
        "use schemars::JsonSchema;\n"
        "use serde::{Deserialize, Serialize};\n"
    ),
}

DEPENDENCIES = {
    "plain": f"serde = {SERDE}\nschemars = {SCHEMARS}\n",
    "ours": f'api-core = {{ path = "API_CORE" }}\nserde = {SERDE}\n',
    "kube": (
        f"kube = {KUBE}\nk8s-openapi = {K8S_OPENAPI}\n"
        f"schemars = {SCHEMARS}\nserde = {SERDE}\nserde_json = {SERDE_JSON}\n"
    ),
}


def crate_name(variant, n):
    return f"{variant}-{n}"


def write_if_changed(path, text):
    """Writes `text` unless the file already holds it (keeps mtimes stable)."""
    if path.exists() and path.read_text() == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


# The library crates a user's build compiles (those present at a revision).
LIB_CRATES = ("api-core", "api-derive", "api-keywords", "api-cel")


def members_line(crates):
    return "members = [" + ", ".join(f'"{c}"' for c in crates) + "]"


def snapshot_library(out):
    """Copies api-core and api-derive as they are now into OUT/api-lib, with a
    workspace manifest of their own (the root's, less the other members), so
    that edits to the working tree during a run do not rebuild them between
    timings. Returns a description of what was copied."""
    lib = out / "api-lib"
    if lib.exists():
        shutil.rmtree(lib)
    crates = [c for c in LIB_CRATES if (REPO / c).is_dir()]
    for crate in crates:
        # copy2 keeps modification times: unchanged sources stay fresh.
        shutil.copytree(REPO / crate, lib / crate, ignore=shutil.ignore_patterns("target"))
    root = (REPO / "Cargo.toml").read_text()
    root = re.sub(r"(?ms)^members = \[.*?\]", members_line(crates), root)
    root = re.sub(r"(?m)^exclude = .*\n", "", root)
    root = re.sub(r"(?ms)^\[profile\..*", "", root)
    (lib / "Cargo.toml").write_text("# Copied by bench-compile/run.py.\n" + root)
    git = ["git", "-C", str(REPO)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(
        [*git, "status", "--porcelain", "--", *crates],
        capture_output=True,
        text=True,
    )
    commit = head.stdout.strip() or "unknown"
    return commit + (" plus uncommitted changes" if dirty.stdout.strip() else "")


def snapshot_baseline(out, rev):
    """Extracts api-core and api-derive at `rev` into OUT/base/api-lib and
    writes OUT/base, a workspace of `base-N` crates (the `ours` template)
    against them. Returns the short commit."""
    base = out / "base"
    lib = base / "api-lib"
    if lib.exists():
        shutil.rmtree(lib)
    lib.mkdir(parents=True)
    crates = [
        c
        for c in LIB_CRATES
        if subprocess.run(
            ["git", "-C", str(REPO), "cat-file", "-e", f"{rev}:{c}"], capture_output=True
        ).returncode
        == 0
    ]
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", rev, *crates, "Cargo.toml"],
        capture_output=True,
        check=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(lib)], input=archive, check=True)
    root = (lib / "Cargo.toml").read_text()
    root = re.sub(r"(?ms)^members = \[.*?\]", members_line(crates), root)
    root = re.sub(r"(?m)^exclude = .*\n", "", root)
    root = re.sub(r"(?ms)^\[profile\..*", "", root)
    (lib / "Cargo.toml").write_text("# Extracted by bench-compile/run.py.\n" + root)
    head = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", rev], capture_output=True, text=True
    )
    return head.stdout.strip()


def generate_baseline(out, ns):
    """The `base-N` crates: the `ours` variant against OUT/base/api-lib."""
    base = out / "base"
    write_if_changed(
        base / "Cargo.toml",
        "# Generated by bench-compile/run.py.\n"
        "[workspace]\n"
        'resolver = "3"\n'
        f"members = [{', '.join(repr(crate_name('base', n)).replace(chr(39), chr(34)) for n in ns)}]\n"
        'exclude = ["api-lib"]\n\n'
        '[profile.dev.package."*"]\n'
        "debug = false\n",
    )
    for n in ns:
        name = crate_name("base", n)
        deps = DEPENDENCIES["ours"].replace("API_CORE", "../api-lib/api-core")
        write_if_changed(
            base / name / "Cargo.toml",
            f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2024"\npublish = false\n\n[dependencies]\n{deps}',
        )
        body = "".join(TEMPLATES["ours"].replace("__I__", str(i)) for i in range(n))
        write_if_changed(
            base / name / "src" / "lib.rs",
            f"//! {n} generated resources (ours, baseline) for the compile-time benchmark.\n\n"
            + HEADERS["ours"]
            + body,
        )


def generate(out, ns):
    """Writes the workspace with one crate per variant and N."""
    members = [crate_name(v, n) for n in ns for v in VARIANTS]
    write_if_changed(
        out / "Cargo.toml",
        "# Generated by bench-compile/run.py.\n"
        "[workspace]\n"
        'resolver = "3"\n'
        f"members = [{', '.join(repr(m).replace(chr(39), chr(34)) for m in members)}]\n"
        'exclude = ["api-lib"]\n\n'
        '[profile.dev.package."*"]\n'
        "debug = false\n",
    )
    for n in ns:
        for v in VARIANTS:
            name = crate_name(v, n)
            deps = DEPENDENCIES[v].replace("API_CORE", "../api-lib/api-core")
            write_if_changed(
                out / name / "Cargo.toml",
                "[package]\n"
                f'name = "{name}"\n'
                'version = "0.1.0"\n'
                'edition = "2024"\n'
                "publish = false\n\n"
                f"[dependencies]\n{deps}",
            )
            body = "".join(TEMPLATES[v].replace("__I__", str(i)) for i in range(n))
            write_if_changed(
                out / name / "src" / "lib.rs",
                f"//! {n} generated resources ({v} variant) for the compile-time benchmark.\n\n"
                + HEADERS[v]
                + body,
            )


def cargo(out, args, env, check_units=False):
    """Runs `nice -n 19 cargo ARGS` in `out`; returns (seconds, stderr)."""
    start = time.perf_counter()
    proc = subprocess.run(
        ["nice", "-n", "19", "cargo", *args],
        cwd=out,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    secs = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"cargo {' '.join(args)} failed:\n{proc.stderr}")
    if "warning" in proc.stderr:
        print(f"warning from cargo {' '.join(args)}:\n{proc.stderr}", file=sys.stderr)
    if check_units:
        units = re.findall(r"^\s*(Compiling|Checking) (\S+)", proc.stderr, re.M)
        if len(units) != 1:
            print(
                f"note: cargo {' '.join(args)} compiled {[u[1] for u in units]}, "
                "not just the crate: its timing includes dependencies",
                file=sys.stderr,
            )
    return secs, proc.stderr


def median(xs):
    return statistics.median(xs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[50, 200], help="resources per crate")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per crate and command")
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help="scratch directory for the generated workspace (default: target/bench-compile)",
    )
    parser.add_argument(
        "--baseline",
        metavar="REV",
        help="also time `ours` built against api-core/api-derive at git revision REV "
        "(variant `base`, in its own workspace), interleaved with the others",
    )
    parser.add_argument(
        "--incremental",
        action="store_true",
        help="keep rustc's incremental cache on for the timed crate",
    )
    args = parser.parse_args()

    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    library = snapshot_library(out)
    generate(out, args.n)
    variants = list(VARIANTS)
    baseline = None
    if args.baseline:
        baseline = snapshot_baseline(out, args.baseline)
        generate_baseline(out, args.n)
        variants.append("base")

    env = dict(os.environ)
    env["CARGO_TARGET_DIR"] = str(out / "target")
    env["CARGO_INCREMENTAL"] = "1" if args.incremental else "0"
    env.pop("RUSTFLAGS", None)
    base_env = dict(env, CARGO_TARGET_DIR=str(out / "base" / "target"))

    def where(v):
        """The workspace directory and environment of a variant."""
        return (out / "base", base_env) if v == "base" else (out, env)

    # Pre-build: every crate alone, once per command, so that each
    # dependency feature set a crate alone resolves to is in the cache.
    print(f"generated {out}; pre-building dependencies (once)...", flush=True)
    for n in args.n:
        for v in variants:
            for mode in MODES:
                d, e = where(v)
                secs, _ = cargo(d, [mode, "-p", crate_name(v, n)], e)
                print(f"  {mode} -p {crate_name(v, n)}: {secs:.1f} s (with dependencies)", flush=True)

    times = {(n, v, m): [] for n in args.n for v in variants for m in MODES}
    for n in args.n:
        for run in range(args.runs):
            k = run % len(variants)
            order = variants[k:] + variants[:k]
            for v in order:
                name = crate_name(v, n)
                d, e = where(v)
                for mode in MODES:
                    (d / name / "src" / "lib.rs").touch()
                    secs, _ = cargo(d, [mode, "--offline", "-p", name], e, check_units=True)
                    times[(n, v, mode)].append(secs)
                    print(f"  N={n} run {run + 1}: {mode} {name} {secs:.2f} s", flush=True)

    rustc = subprocess.run(["rustc", "-V"], capture_output=True, text=True).stdout.strip()
    lines = [
        f"Command: `python3 bench-compile/run.py --n {' '.join(map(str, args.n))} "
        f"--runs {args.runs}{' --incremental' if args.incremental else ''}"
        f"{f' --baseline {args.baseline}' if args.baseline else ''}"
        f"{'' if args.out == DEFAULT_OUT else f' --out {args.out}'}`; "
        f"{rustc}; {os.cpu_count()} CPUs ({platform.machine()}); "
        f"CARGO_INCREMENTAL={env['CARGO_INCREMENTAL']}; dev profile; "
        f"api-core and api-derive at {library}"
        f"{f'; `base` is ours at {baseline}' if baseline else ''}.",
        "",
        "| N | variant | `cargo check` median | ratio to plain | `cargo build` median | ratio to plain | check runs (s) | build runs (s) |",
        "|---:|---|---:|---:|---:|---:|---|---|",
    ]
    for n in args.n:
        base = {m: median(times[(n, "plain", m)]) for m in MODES}
        for v in variants:
            med = {m: median(times[(n, v, m)]) for m in MODES}
            runs = {m: ", ".join(f"{t:.2f}" for t in times[(n, v, m)]) for m in MODES}
            lines.append(
                f"| {n} | {v} | {med['check']:.2f} s | {med['check'] / base['check']:.2f}× "
                f"| {med['build']:.2f} s | {med['build'] / base['build']:.2f}× "
                f"| {runs['check']} | {runs['build']} |"
            )
    table = "\n".join(lines) + "\n"
    (out / "results.md").write_text(table)
    print()
    print(table)


if __name__ == "__main__":
    main()
