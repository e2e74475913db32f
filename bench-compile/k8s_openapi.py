#!/usr/bin/env python3
"""Compile-time cost of api-core's `k8s-openapi` feature.

Three variants of one small user crate, built against a snapshot of
api-core and api-derive (copied to OUT/api-lib at the start, so edits to
the working tree cannot leak into the timings):

- off:   the CronJob of the kubebuilder book written with the user's own
         types (a job template with a few fields), api-core without features;
- on:    the same code, with api-core's `k8s-openapi` feature and
         k8s-openapi (`v1_36`) in the graph: the cost of turning it on;
- embed: the book's CronJob as it really is, embedding k8s-openapi's
         `JobTemplateSpec` (the whole `PodSpec`) and `ObjectReference`.

Cold: a fresh target directory, `cargo build` of the crate with all its
dependencies. Rebuild: in the warm target, touch the crate's lib.rs and
`cargo build` again, which compiles the crate alone (its dependencies are
built); rustc's incremental cache is off (CARGO_INCREMENTAL=0), or a touch
without a change would reuse everything. Runs rotate over the variants;
medians and ratios to `off` are printed as a Markdown table. Python 3
standard library only.

    python3 bench-compile/k8s_openapi.py --runs 3
"""

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "target" / "bench-k8s-openapi"
VARIANTS = ["off", "on", "embed"]

COMMON = r'''
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// ConcurrencyPolicy describes how the job will be handled.
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConcurrencyPolicy {
    /// Allow concurrent runs.
    Allow,
    /// Forbid concurrent runs.
    Forbid,
    /// Replace the running job.
    Replace,
}
'''

SPEC = r'''
/// CronJobSpec defines the desired state of CronJob
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "batch.tutorial.kubebuilder.io", version = "v1", kind = "CronJob",
       namespaced, status = "CronJobStatus")]
#[serde(rename_all = "camelCase")]
pub struct CronJobSpec {
    /// schedule in Cron format.
    #[kube(min_length = 0)]
    pub schedule: String,
    /// startingDeadlineSeconds for starting the job.
    #[kube(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starting_deadline_seconds: Option<i64>,
    /// concurrencyPolicy of the job.
    #[default(ConcurrencyPolicy::Allow)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency_policy: Option<ConcurrencyPolicy>,
    /// suspend subsequent executions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,
    /// jobTemplate of the job to create.
    pub job_template: __TEMPLATE__,
    /// successfulJobsHistoryLimit to retain.
    #[kube(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub successful_jobs_history_limit: Option<i32>,
}

/// CronJobStatus defines the observed state of CronJob.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase")]
pub struct CronJobStatus {
    /// active jobs.
    #[kube(list_type = "atomic", max_items = 10)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub active: Vec<__REFERENCE__>,
    /// lastScheduleTime of the job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_schedule_time: Option<Time>,
    /// conditions of the CronJob.
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub conditions: Conditions,
}

/// The CRD, so that the schema code is used.
pub fn crd() -> api_core::crd::CustomResourceDefinition {
    CronJob::crd()
}
'''

OWN_TYPES = r'''
/// JobTemplate is the job to run.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct JobTemplate {
    /// image to run.
    #[kube(max_length = 256)]
    pub image: String,
    /// command to run.
    #[kube(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// activeDeadlineSeconds of the job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_deadline_seconds: Option<i64>,
}

/// JobRef names a running job.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct JobRef {
    /// name of the job.
    pub name: String,
}
'''


def crate_source(variant):
    if variant == "embed":
        spec = SPEC.replace("__TEMPLATE__", "k8s_openapi::api::batch::v1::JobTemplateSpec")
        spec = spec.replace("__REFERENCE__", "k8s_openapi::api::core::v1::ObjectReference")
        return COMMON + spec
    spec = SPEC.replace("__TEMPLATE__", "JobTemplate").replace("__REFERENCE__", "JobRef")
    return COMMON + OWN_TYPES + spec


def manifest(variant, lib):
    features = '' if variant == "off" else ', features = ["k8s-openapi"]'
    k8s = ('k8s-openapi = { version = "0.29.0", default-features = false, features = ["std", "v1_36"] }\n'
           if variant != "off" else "")
    return f'''[package]
name = "cronjob-{variant}"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
api-core = {{ path = "{lib}/api-core"{features} }}
serde = {{ version = "1.0.229", features = ["derive"] }}
{k8s}
[profile.dev.package."*"]
debug = false
'''


def snapshot(out):
    lib = out / "api-lib"
    if lib.exists():
        shutil.rmtree(lib)
    lib.mkdir(parents=True)
    for crate in ("api-core", "api-derive"):
        shutil.copytree(REPO / crate, lib / crate, ignore=shutil.ignore_patterns("target"))
    # The crates inherit workspace keys: give the snapshot a workspace.
    (lib / "Cargo.toml").write_text(
        (REPO / "Cargo.toml").read_text().replace(
            'members = ["api-core", "api-derive", "api-core-tests", "examples"]',
            'members = ["api-core", "api-derive"]',
        )
    )
    shutil.copy(REPO / "Cargo.lock", lib / "Cargo.lock")
    return lib


def write_crate(out, variant, lib):
    d = out / variant
    (d / "src").mkdir(parents=True, exist_ok=True)
    (d / "Cargo.toml").write_text(manifest(variant, lib))
    (d / "src" / "lib.rs").write_text(crate_source(variant))
    if not (d / "Cargo.lock").exists():
        shutil.copy(REPO / "Cargo.lock", d / "Cargo.lock")
    return d


def timed(cmd, cwd, env):
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    lib = snapshot(out)
    crates = {v: write_crate(out, v, lib) for v in VARIANTS}
    env = dict(os.environ, CARGO_INCREMENTAL="0", CARGO_TERM_COLOR="never")
    cold = {v: [] for v in VARIANTS}
    incr = {v: [] for v in VARIANTS}
    for run in range(args.runs):
        order = VARIANTS[run % 3:] + VARIANTS[: run % 3]
        for v in order:
            target = out / f"target-{v}"
            if target.exists():
                shutil.rmtree(target)
            e = dict(env, CARGO_TARGET_DIR=str(target))
            cold[v].append(timed(["cargo", "build", "--offline", "-q"], crates[v], e))
            (crates[v] / "src" / "lib.rs").touch()
            incr[v].append(timed(["cargo", "build", "--offline", "-q"], crates[v], e))
            print(f"run {run + 1} {v}: cold {cold[v][-1]:.1f} s, rebuild {incr[v][-1]:.2f} s", flush=True)
    rows = ["| variant | cold build (median) | ratio | crate rebuild (median) | ratio |",
            "|---|---|---|---|---|"]
    base_c = statistics.median(cold["off"])
    base_i = statistics.median(incr["off"])
    for v in VARIANTS:
        c = statistics.median(cold[v])
        i = statistics.median(incr[v])
        rows.append(f"| {v} | {c:.1f} s | {c / base_c:.2f} | {i:.2f} s | {i / base_i:.2f} |")
    table = "\n".join(rows)
    print(f"\n{platform.platform()}, {os.cpu_count()} CPUs, {args.runs} runs\n")
    print(table)
    (out / "results.md").write_text(table + "\n")


if __name__ == "__main__":
    main()
