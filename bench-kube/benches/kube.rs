//! The same resource defined twice, once with this library's
//! `#[derive(KubeResource)]` and once with kube-rs's
//! `#[derive(CustomResource, JsonSchema)]`, measured in one run:
//!
//! - `crd`: building the `CustomResourceDefinition` (`crd()` on each side);
//! - `encode`: `serde_json::to_vec` of the root object;
//! - `decode`: `serde_json::from_slice` of the root object (both sides read
//!   the same bytes).
//!
//! After criterion's output, the same three pairs run interleaved in short
//! rounds (see [`interleaved`]) and the ratios ours / kube are printed.
//!
//! Run: `cd bench-kube && nice cargo bench` (README.md there).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};

// ---------------------------------------------------------------------------
// This library: the 12-field spec and the status of the main benches
// (`api-core-tests/benches/common/widget.rs`, included as it is).
// ---------------------------------------------------------------------------

#[path = "../../api-core-tests/benches/common/widget.rs"]
mod ours;

// ---------------------------------------------------------------------------
// kube-rs: the same resource with `#[derive(CustomResource, JsonSchema)]`.
// Bounds, patterns and list types are given to schemars so that the schema
// carries the same information; defaults are serde defaults (kube has no
// schema default other than the one schemars derives from serde).
// ---------------------------------------------------------------------------

mod kube_side {
    use std::collections::BTreeMap;

    use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
    use kube::CustomResource;
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};

    /// WidgetSpec is the desired state of a Widget.
    #[derive(CustomResource, Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
    #[kube(
        group = "bench.example.com",
        version = "v1",
        kind = "Widget",
        doc = "Widget is a benchmark resource with a realistic spec.",
        namespaced,
        status = "WidgetStatus",
        shortname = "wg",
        category = "all",
        printcolumn(name = "Replicas", type_ = "integer", json_path = ".spec.replicas"),
        printcolumn(name = "Image", type_ = "string", json_path = ".spec.image")
    )]
    #[serde(rename_all = "camelCase")]
    pub struct WidgetSpec {
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
        pub policy: Option<Policy>,

        /// suspend stops future runs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub suspend: Option<bool>,

        /// template is the pod template of every instance.
        pub template: Template,

        /// ports the widget listens on, identified by name.
        #[schemars(
            length(max = 16),
            extend("x-kubernetes-list-type" = "map", "x-kubernetes-list-map-keys" = ["name"])
        )]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub ports: Vec<Port>,

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

    /// Policy says how runs may overlap.
    #[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Policy {
        /// Runs may overlap.
        Allow,
        /// A run is skipped while the previous one is still running.
        Forbid,
        /// A new run replaces the one still running.
        Replace,
    }

    /// Template describes an instance.
    #[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct Template {
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

    /// Port is a named network port.
    #[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct Port {
        /// name identifies the port within the list.
        #[schemars(
            length(min = 1, max = 15),
            regex(pattern = "^[a-z]([-a-z0-9]*[a-z0-9])?$")
        )]
        pub name: String,

        /// port is the port number.
        #[schemars(range(min = 1, max = 65535))]
        pub port: i32,

        /// protocol of the port.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub protocol: Option<Protocol>,
    }

    /// Protocol is a network protocol.
    #[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Protocol {
        /// TCP.
        #[serde(rename = "TCP")]
        Tcp,
        /// UDP.
        #[serde(rename = "UDP")]
        Udp,
    }

    /// WidgetStatus is the observed state of a Widget.
    #[derive(Serialize, Deserialize, JsonSchema, Clone, Debug, Default, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct WidgetStatus {
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

        /// lastScheduleTime is when a run was last started.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub last_schedule_time: Option<Time>,

        /// observedGeneration is the generation the status is about.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub observed_generation: Option<i64>,
    }
}

// ---------------------------------------------------------------------------
// Fixtures.
// ---------------------------------------------------------------------------

/// An object as the API server returns it: full metadata (labels,
/// annotations, an owner, a finalizer, a managed-fields entry), every spec
/// field set, and a status.
fn object_json() -> serde_json::Value {
    serde_json::json!({
        "apiVersion": "bench.example.com/v1",
        "kind": "Widget",
        "metadata": {
            "name": "nightly-report",
            "namespace": "analytics",
            "uid": "6f1b1a3e-2c4d-4f7a-9b2e-8d6c5a4b3f21",
            "resourceVersion": "184467",
            "generation": 7,
            "creationTimestamp": "2024-05-01T12:00:00Z",
            "labels": {
                "app.kubernetes.io/name": "nightly-report",
                "app.kubernetes.io/part-of": "analytics",
                "team": "data"
            },
            "annotations": {
                "example.com/owner": "data-platform@example.com",
                "kubectl.kubernetes.io/last-applied-configuration": "{\"apiVersion\":\"bench.example.com/v1\",\"kind\":\"Widget\"}"
            },
            "ownerReferences": [{
                "apiVersion": "bench.example.com/v1",
                "kind": "WidgetSet",
                "name": "reports",
                "uid": "0d3c2b1a-9e8f-4a7b-8c6d-5e4f3a2b1c0d",
                "controller": true,
                "blockOwnerDeletion": true
            }],
            "finalizers": ["bench.example.com/cleanup"],
            "managedFields": [{
                "manager": "kubectl-client-side-apply",
                "operation": "Update",
                "apiVersion": "bench.example.com/v1",
                "time": "2024-05-01T12:00:00Z",
                "fieldsType": "FieldsV1",
                "fieldsV1": {
                    "f:spec": { "f:image": {}, "f:replicas": {}, "f:schedule": {} }
                }
            }]
        },
        "spec": {
            "replicas": 3,
            "image": "registry.example.com/analytics/report:1.24.3",
            "schedule": "0 3 * * 1-5",
            "policy": "Forbid",
            "suspend": false,
            "template": {
                "command": ["/bin/report", "--format=parquet", "--verbose"],
                "workingDir": "/var/lib/report",
                "env": { "LOG_LEVEL": "info", "OUTPUT": "s3://reports/nightly", "TZ": "UTC" }
            },
            "ports": [
                { "name": "http", "port": 8080, "protocol": "TCP" },
                { "name": "metrics", "port": 9090 },
                { "name": "syslog", "port": 514, "protocol": "UDP" }
            ],
            "selector": { "app": "nightly-report", "tier": "batch" },
            "args": ["--since=24h", "--out=/data"],
            "timeoutSeconds": 3600,
            "serviceAccountName": "report-runner",
            "priority": 100
        },
        "status": {
            "readyReplicas": 2,
            "message": "2 of 3 instances ready",
            "active": ["nightly-report-28571234", "nightly-report-28571235"],
            "lastScheduleTime": "2024-05-02T03:00:00Z",
            "observedGeneration": 7
        }
    })
}

struct Fixture {
    ours: ours::Widget,
    kube: kube_side::Widget,
    /// The object as JSON bytes; both sides decode these.
    bytes: Vec<u8>,
}

fn fixture() -> Fixture {
    let json = object_json();
    let bytes = serde_json::to_vec(&json).expect("fixture encodes");
    let ours: ours::Widget = serde_json::from_slice(&bytes).expect("ours decodes");
    let kube: kube_side::Widget = serde_json::from_slice(&bytes).expect("kube decodes");
    // Both sides must write the same object (key order may differ: kube's
    // ObjectMeta writes its fields alphabetically), or the comparison would
    // be unfair.
    let ours_out: serde_json::Value =
        serde_json::from_slice(&serde_json::to_vec(&ours).unwrap()).expect("ours re-reads");
    let kube_out: serde_json::Value =
        serde_json::from_slice(&serde_json::to_vec(&kube).unwrap()).expect("kube re-reads");
    assert_eq!(ours_out, json, "ours does not round-trip the object");
    assert_eq!(kube_out, json, "kube does not round-trip the object");
    Fixture { ours, kube, bytes }
}

fn ours_crd() -> api_core::crd::CustomResourceDefinition {
    <ours::Widget as api_core::CustomResourceExt>::crd()
}

fn kube_crd()
-> k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition {
    <kube_side::Widget as kube::CustomResourceExt>::crd()
}

/// The `openAPIV3Schema` of a CRD's only version, as JSON.
fn schema_of(crd: serde_json::Value) -> serde_json::Value {
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"].clone()
}

/// How many JSON values (objects, arrays and scalars) a value holds.
fn count_values(v: &serde_json::Value) -> usize {
    1 + match v {
        serde_json::Value::Array(a) => a.iter().map(count_values).sum(),
        serde_json::Value::Object(o) => o.values().map(count_values).sum(),
        _ => 0,
    }
}

// ---------------------------------------------------------------------------
// criterion.
// ---------------------------------------------------------------------------

fn crd(c: &mut Criterion) {
    // Both CRDs must carry the full spec and status, or the timing means
    // little.
    for schema in [
        schema_of(ours_crd().to_json()),
        schema_of(serde_json::to_value(kube_crd()).unwrap()),
    ] {
        let spec = &schema["properties"]["spec"];
        assert_eq!(spec["properties"].as_object().map(|m| m.len()), Some(12));
        assert_eq!(spec["properties"]["ports"]["x-kubernetes-list-type"], "map");
        assert!(schema["properties"]["status"].is_object());
    }

    let mut g = c.benchmark_group("crd");
    g.bench_function("ours/crd", |b| b.iter(|| black_box(ours_crd())));
    g.bench_function("kube/crd", |b| b.iter(|| black_box(kube_crd())));
    g.finish();
}

fn encode(c: &mut Criterion) {
    let f = fixture();
    let mut g = c.benchmark_group("encode");
    g.bench_function("ours/to_vec", |b| {
        b.iter(|| black_box(serde_json::to_vec(black_box(&f.ours)).unwrap()))
    });
    g.bench_function("kube/to_vec", |b| {
        b.iter(|| black_box(serde_json::to_vec(black_box(&f.kube)).unwrap()))
    });
    g.finish();
}

fn decode(c: &mut Criterion) {
    let f = fixture();
    let mut g = c.benchmark_group("decode");
    g.bench_function("ours/from_slice", |b| {
        b.iter(|| black_box(serde_json::from_slice::<ours::Widget>(black_box(&f.bytes)).unwrap()))
    });
    g.bench_function("kube/from_slice", |b| {
        b.iter(|| {
            black_box(serde_json::from_slice::<kube_side::Widget>(black_box(&f.bytes)).unwrap())
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(100);
    targets = crd, encode, decode
}

// ---------------------------------------------------------------------------
// Interleaved comparisons.
// ---------------------------------------------------------------------------

/// The result of [`interleaved`]: the median of the per-round ratios
/// ours / kube, and per-call times in seconds.
struct Comparison {
    ratio: f64,
    ours_fastest: f64,
    kube_fastest: f64,
    ours_median: f64,
    kube_median: f64,
}

/// Times `ours` and `kube` in alternation: 400 rounds, in each of which one
/// side runs for about 1.5 ms and then the other (who goes first flips every
/// round). A burst of load from another process then spoils a round of both
/// sides rather than seconds of one, and the median of the per-round ratios
/// ignores it.
fn interleaved<A, B>(mut ours: impl FnMut() -> A, mut kube: impl FnMut() -> B) -> Comparison {
    const ROUNDS: usize = 400;
    const ROUND_SECS: f64 = 0.0015;

    /// Seconds per call of `f`, over `calls` calls.
    fn per_call<T>(f: &mut impl FnMut() -> T, calls: u64) -> f64 {
        let start = Instant::now();
        for _ in 0..calls {
            black_box(f());
        }
        start.elapsed().as_secs_f64() / calls as f64
    }
    /// How many calls of `f` fill a round (after 0.2 s of warm-up).
    fn calls_in_a_round<T>(f: &mut impl FnMut() -> T) -> u64 {
        let start = Instant::now();
        let mut calls = 0u64;
        while start.elapsed() < Duration::from_millis(200) {
            black_box(f());
            calls += 1;
        }
        let secs = start.elapsed().as_secs_f64() / calls as f64;
        ((ROUND_SECS / secs) as u64).max(1)
    }
    fn median(mut v: Vec<f64>) -> f64 {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    }

    let n_ours = calls_in_a_round(&mut ours);
    let n_kube = calls_in_a_round(&mut kube);
    let mut t_ours = Vec::with_capacity(ROUNDS);
    let mut t_kube = Vec::with_capacity(ROUNDS);
    for round in 0..ROUNDS {
        if round % 2 == 0 {
            t_ours.push(per_call(&mut ours, n_ours));
            t_kube.push(per_call(&mut kube, n_kube));
        } else {
            t_kube.push(per_call(&mut kube, n_kube));
            t_ours.push(per_call(&mut ours, n_ours));
        }
    }
    let ratios = t_ours.iter().zip(&t_kube).map(|(o, k)| o / k).collect();
    let fastest = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    Comparison {
        ratio: median(ratios),
        ours_fastest: fastest(&t_ours),
        kube_fastest: fastest(&t_kube),
        ours_median: median(t_ours),
        kube_median: median(t_kube),
    }
}

fn print_interleaved() {
    let f = fixture();
    let ours_schema = schema_of(ours_crd().to_json());
    let kube_schema = schema_of(serde_json::to_value(kube_crd()).unwrap());
    println!(
        "\nopenAPIV3Schema size in JSON values: ours {}, kube {}",
        count_values(&ours_schema),
        count_values(&kube_schema)
    );
    println!(
        "encoded root: ours {} bytes, kube {} bytes; decoded input {} bytes",
        serde_json::to_vec(&f.ours).unwrap().len(),
        serde_json::to_vec(&f.kube).unwrap().len(),
        f.bytes.len()
    );

    let rows = [
        ("crd()", interleaved(ours_crd, kube_crd)),
        (
            "encode (to_vec)",
            interleaved(
                || serde_json::to_vec(black_box(&f.ours)).unwrap(),
                || serde_json::to_vec(black_box(&f.kube)).unwrap(),
            ),
        ),
        (
            "decode (from_slice)",
            interleaved(
                || serde_json::from_slice::<ours::Widget>(black_box(&f.bytes)).unwrap(),
                || serde_json::from_slice::<kube_side::Widget>(black_box(&f.bytes)).unwrap(),
            ),
        ),
    ];
    let us = |s: f64| format!("{:.3} µs", s * 1e6);
    println!(
        "\ninterleaved: ours and kube alternate in short rounds; ratio = median of per-round ours/kube"
    );
    println!(
        "{:<20} {:>10}  {:>12} {:>12}  {:>12} {:>12}",
        "what", "ours/kube", "ours fastest", "kube fastest", "ours median", "kube median"
    );
    for (what, c) in rows {
        println!(
            "{:<20} {:>10.3}  {:>12} {:>12}  {:>12} {:>12}",
            what,
            c.ratio,
            us(c.ours_fastest),
            us(c.kube_fastest),
            us(c.ours_median),
            us(c.kube_median)
        );
    }
}

/// Whether to run the interleaved comparisons: under `cargo bench` with no
/// filter (or the filter `interleaved`), not under `cargo test` or `--list`.
fn run_interleaved() -> bool {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    if !has("--bench") || has("--list") || has("--test") || has("--profile-time") {
        return false;
    }
    args.iter()
        .filter(|a| !a.starts_with('-'))
        .all(|a| a == "interleaved")
}

fn main() {
    let only_interleaved = std::env::args().skip(1).any(|a| a == "interleaved");
    if !only_interleaved {
        benches();
        Criterion::default().configure_from_args().final_summary();
    }
    if run_interleaved() {
        print_interleaved();
    }
}
