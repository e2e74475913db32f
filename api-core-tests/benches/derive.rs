//! Benchmarks of the code `#[derive(KubeResource)]` generates, each next to
//! a baseline measured in the same run:
//!
//! - `crd`: `Widget::crd()` (and `crd()` + `to_yaml()`) against schemars
//!   generating the OpenAPI 3 schema of a plain struct of the same shape.
//! - `encode` / `decode`: the generated root's serde (`serde_json::to_vec` /
//!   `from_slice`) against a hand-written `#[derive(Serialize, Deserialize)]`
//!   root of the same shape.
//! - `crd_breakdown`: where the time of `crd()` goes (schema building, the
//!   CRD wrapper, serialisation), for profiling.
//! - `paired` (printed after criterion's output): the same library/baseline
//!   pairs timed in alternation, whose ratios a shared machine's bursts of
//!   load barely move.
//!
//! Run: `cargo bench -p api-core-tests --bench derive`. BENCHMARKS.md at the
//! workspace root records the results.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use api_core::prelude::*;
use criterion::{BatchSize, Criterion, criterion_group};
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------
// The resource, defined with the library: a 12-field spec and a status
// (`common/widget.rs`, shared with bench-kube).
// ---------------------------------------------------------------------------

#[path = "common/widget.rs"]
mod widget;
use widget::*;

// ---------------------------------------------------------------------------
// The baseline: plain serde + schemars types of the same shape.
// ---------------------------------------------------------------------------

/// The spec as plain serde + schemars.
#[derive(Serialize, Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PlainSpec {
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
    pub policy: Option<PlainPolicy>,

    /// suspend stops future runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,

    /// template is the pod template of every instance.
    pub template: PlainTemplate,

    /// ports the widget listens on, identified by name.
    #[schemars(length(max = 16))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<PlainPort>,

    /// selector labels of the instances.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub selector: BTreeMap<String, String>,

    /// args are passed to the entrypoint.
    #[schemars(length(max = 64))]
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
#[derive(Serialize, Deserialize, schemars::JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlainPolicy {
    /// Runs may overlap.
    Allow,
    /// A run is skipped while the previous one is still running.
    Forbid,
    /// A new run replaces the one still running.
    Replace,
}

/// Template describes an instance.
#[derive(Serialize, Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PlainTemplate {
    /// command overrides the image's entrypoint.
    #[schemars(length(max = 64))]
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
#[derive(Serialize, Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PlainPort {
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
    pub protocol: Option<PlainProtocol>,
}

/// Protocol is a network protocol.
#[derive(Serialize, Deserialize, schemars::JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlainProtocol {
    /// TCP.
    #[serde(rename = "TCP")]
    Tcp,
    /// UDP.
    #[serde(rename = "UDP")]
    Udp,
}

/// The status as plain serde + schemars.
#[derive(Serialize, Deserialize, schemars::JsonSchema, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PlainStatus {
    /// readyReplicas is the number of ready instances.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,

    /// message is a human-readable summary of the state.
    #[schemars(length(max = 1024))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,

    /// active lists the names of the instances currently running.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub active: Vec<String>,

    /// lastScheduleTime is when a run was last started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_schedule_time: Option<Time>,

    /// observedGeneration is the generation the status is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
}

/// The root object as a hand-written serde struct: the same fields, names
/// and skip rules as the generated `Widget`.
#[derive(Serialize, Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
pub struct PlainRoot {
    #[serde(rename = "apiVersion")]
    api_version: String,
    kind: String,
    #[serde(default)]
    metadata: ObjectMeta,
    spec: PlainSpec,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    status: Option<PlainStatus>,
}

// ---------------------------------------------------------------------------
// Fixtures.
// ---------------------------------------------------------------------------

/// A realistic object as the API server returns it: full metadata (with a
/// managed-fields entry and an owner), every spec field set, and a status.
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
                "env": {
                    "LOG_LEVEL": "info",
                    "OUTPUT": "s3://reports/nightly",
                    "TZ": "UTC"
                }
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
    widget: Widget,
    plain: PlainRoot,
    bytes: Vec<u8>,
}

fn fixture() -> Fixture {
    let json = object_json();
    let widget: Widget = serde_json::from_value(json.clone()).expect("Widget decodes");
    let plain: PlainRoot = serde_json::from_value(json).expect("PlainRoot decodes");
    let bytes = serde_json::to_vec(&widget).expect("Widget encodes");
    // Both sides must write the same bytes and read them back to the same
    // value, or the comparison would be unfair.
    assert_eq!(
        bytes,
        serde_json::to_vec(&plain).expect("PlainRoot encodes"),
        "Widget and PlainRoot encode differently"
    );
    let back: Widget = serde_json::from_slice(&bytes).unwrap();
    assert!(
        back.metadata == widget.metadata
            && back.spec == widget.spec
            && back.status == widget.status,
        "Widget does not round-trip"
    );
    assert_eq!(
        serde_json::from_slice::<PlainRoot>(&bytes).unwrap(),
        plain,
        "PlainRoot does not round-trip"
    );
    Fixture {
        widget,
        plain,
        bytes,
    }
}

fn openapi3() -> schemars::SchemaGenerator {
    schemars::SchemaGenerator::new(schemars::generate::SchemaSettings::openapi3())
}

// ---------------------------------------------------------------------------
// Benchmarks.
// ---------------------------------------------------------------------------

fn crd(c: &mut Criterion) {
    // The generated CRD must be the full thing, or the timing means little.
    let crd = Widget::crd();
    let schema = &crd.spec.versions[0]
        .schema
        .as_ref()
        .expect("a schema")
        .open_api_v3_schema;
    let spec = &schema["properties"]["spec"];
    assert_eq!(spec["properties"].as_object().map(|m| m.len()), Some(12));
    assert_eq!(
        spec["properties"]["ports"]["x-kubernetes-list-type"],
        serde_json::json!("map")
    );
    assert!(schema["properties"]["status"].is_object());

    let mut g = c.benchmark_group("crd");
    g.bench_function("api_core/crd", |b| b.iter(|| black_box(Widget::crd())));
    g.bench_function("schemars/openapi3_spec", |b| {
        b.iter(|| black_box(openapi3().into_root_schema_for::<PlainSpec>()))
    });
    g.bench_function("schemars/openapi3_root", |b| {
        b.iter(|| black_box(openapi3().into_root_schema_for::<PlainRoot>()))
    });
    g.bench_function("api_core/crd+to_yaml", |b| {
        b.iter(|| black_box(Widget::crd().to_yaml()))
    });
    g.finish();
}

/// Where `crd()` spends its time. `crd()` is `generator()`, then the root's
/// `json_schema` (the spec's and status's schemas, then `root_schema`),
/// then `build_crd`; the caller then drops the CRD. Except for `crd_drop`,
/// these leave the drop of their output out of the timing, so that the
/// parts add up: `crd_construct` ≈ `root_schema` + `build_crd`, and
/// `crd/api_core/crd` ≈ `crd_construct` + `crd_drop`.
fn crd_breakdown(c: &mut Criterion) {
    use api_core::__private as p;
    use schemars::JsonSchema;

    let root_schema = <Widget as JsonSchema>::json_schema(&mut p::generator());
    let crd = Widget::crd();

    let mut g = c.benchmark_group("crd_breakdown");
    g.bench_function("crd_construct", |b| b.iter_with_large_drop(Widget::crd));
    g.bench_function("crd_drop", |b| {
        b.iter_batched(|| crd.clone(), drop, BatchSize::SmallInput)
    });
    g.bench_function("root_schema", |b| {
        b.iter_with_large_drop(|| <Widget as JsonSchema>::json_schema(&mut p::generator()))
    });
    g.bench_function("spec_schema", |b| {
        b.iter_with_large_drop(|| <WidgetSpec as JsonSchema>::json_schema(&mut p::generator()))
    });
    g.bench_function("status_schema", |b| {
        b.iter_with_large_drop(|| <WidgetStatus as JsonSchema>::json_schema(&mut p::generator()))
    });
    g.bench_function("build_crd", |b| {
        b.iter_batched(
            || root_schema.clone(),
            |s| p::build_crd::<Widget>(widget_info(), s),
            BatchSize::SmallInput,
        )
    });
    // A list of structs costs more than its item: `array_schema` builds the
    // list with `json_schema!`, which serialises the item schema again.
    g.bench_function("port_schema", |b| {
        b.iter_with_large_drop(|| <Port as ApiType>::api_schema(&mut p::generator()))
    });
    g.bench_function("vec_port_schema", |b| {
        b.iter_with_large_drop(|| <Vec<Port> as ApiType>::api_schema(&mut p::generator()))
    });
    g.bench_function("crd_to_json", |b| {
        b.iter_with_large_drop(|| black_box(&crd).to_json())
    });
    g.bench_function("crd_to_yaml", |b| {
        b.iter_with_large_drop(|| black_box(&crd).to_yaml())
    });
    g.finish();
}

fn encode(c: &mut Criterion) {
    let f = fixture();
    let mut g = c.benchmark_group("encode");
    g.bench_function("api_core/to_vec", |b| {
        b.iter(|| black_box(serde_json::to_vec(black_box(&f.widget)).unwrap()))
    });
    g.bench_function("plain/to_vec", |b| {
        b.iter(|| black_box(serde_json::to_vec(black_box(&f.plain)).unwrap()))
    });
    g.finish();
}

fn decode(c: &mut Criterion) {
    let f = fixture();
    let mut g = c.benchmark_group("decode");
    g.bench_function("api_core/from_slice", |b| {
        b.iter(|| black_box(serde_json::from_slice::<Widget>(black_box(&f.bytes)).unwrap()))
    });
    g.bench_function("plain/from_slice", |b| {
        b.iter(|| black_box(serde_json::from_slice::<PlainRoot>(black_box(&f.bytes)).unwrap()))
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(100)
}

criterion_group! {
    name = benches;
    config = config();
    targets = crd, crd_breakdown, encode, decode
}

// ---------------------------------------------------------------------------
// Interleaved comparisons.
// ---------------------------------------------------------------------------

/// Times `a` and `b` in alternation: `ROUNDS` rounds, each running one side
/// for about `ROUND` then the other (the order flips every round), and
/// returns the median of the per-round ratios `a / b` with the fastest and
/// the median per-call time of each side.
///
/// Criterion measures one function for seconds, then the next: on a shared
/// machine a burst of load from another process lands on one side only
/// and moves the ratio of two criterion medians by tens of percent. A burst
/// here spoils a few rounds of both sides, which the median ignores.
fn paired<A, B>(mut a: impl FnMut() -> A, mut b: impl FnMut() -> B) -> Paired {
    const ROUNDS: usize = 400;
    const ROUND: Duration = Duration::from_micros(1500);

    fn calls_per_round<T>(f: &mut impl FnMut() -> T) -> u32 {
        let start = Instant::now();
        let mut n = 0u32;
        while start.elapsed() < Duration::from_millis(200) {
            black_box(f());
            n += 1;
        }
        let per_call = start.elapsed() / n;
        (ROUND.as_nanos() / per_call.as_nanos().max(1)).max(1) as u32
    }
    fn time<T>(f: &mut impl FnMut() -> T, n: u32) -> f64 {
        let start = Instant::now();
        for _ in 0..n {
            black_box(f());
        }
        start.elapsed().as_secs_f64() / f64::from(n)
    }

    let (na, nb) = (calls_per_round(&mut a), calls_per_round(&mut b));
    let (mut ta, mut tb, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        let (x, y) = if round % 2 == 0 {
            let x = time(&mut a, na);
            (x, time(&mut b, nb))
        } else {
            let y = time(&mut b, nb);
            (time(&mut a, na), y)
        };
        ta.push(x);
        tb.push(y);
        ratios.push(x / y);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    Paired {
        ratio: median(&mut ratios),
        a_min: ta.iter().copied().fold(f64::INFINITY, f64::min),
        b_min: tb.iter().copied().fold(f64::INFINITY, f64::min),
        a_median: median(&mut ta),
        b_median: median(&mut tb),
    }
}

struct Paired {
    ratio: f64,
    a_min: f64,
    b_min: f64,
    a_median: f64,
    b_median: f64,
}

/// The library against its baselines, interleaved (see [`paired`]).
fn paired_comparisons() {
    let f = fixture();
    let rows: [(&str, &str, Paired); 4] = [
        (
            "api_core/crd",
            "schemars/openapi3_spec",
            paired(Widget::crd, || {
                openapi3().into_root_schema_for::<PlainSpec>()
            }),
        ),
        (
            "api_core/crd",
            "schemars/openapi3_root",
            paired(Widget::crd, || {
                openapi3().into_root_schema_for::<PlainRoot>()
            }),
        ),
        (
            "encode api_core/to_vec",
            "plain/to_vec",
            paired(
                || serde_json::to_vec(black_box(&f.widget)).unwrap(),
                || serde_json::to_vec(black_box(&f.plain)).unwrap(),
            ),
        ),
        (
            "decode api_core/from_slice",
            "plain/from_slice",
            paired(
                || serde_json::from_slice::<Widget>(black_box(&f.bytes)).unwrap(),
                || serde_json::from_slice::<PlainRoot>(black_box(&f.bytes)).unwrap(),
            ),
        ),
    ];
    let us = |s: f64| s * 1e6;
    println!("\npaired: A and B interleaved in short rounds; ratio = median of per-round A/B");
    println!(
        "{:<28} {:<24} {:>7}  {:>9} {:>9}  {:>9} {:>9}",
        "A", "B", "A/B", "A min", "B min", "A median", "B median"
    );
    for (a, b, p) in rows {
        println!(
            "{:<28} {:<24} {:>7.3}  {:>7.3}µs {:>7.3}µs  {:>7.3}µs {:>7.3}µs",
            a,
            b,
            p.ratio,
            us(p.a_min),
            us(p.b_min),
            us(p.a_median),
            us(p.b_median)
        );
    }
}

/// Whether to run the interleaved comparisons: under `cargo bench` with no
/// filter (or the filter `paired`), not under `cargo test` or `--list`.
fn run_paired() -> bool {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    if !has("--bench") || has("--list") || has("--test") || has("--profile-time") {
        return false;
    }
    let mut filters = args.iter().filter(|a| !a.starts_with('-'));
    filters.all(|a| a == "paired")
}

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    if run_paired() {
        paired_comparisons();
    }
}
