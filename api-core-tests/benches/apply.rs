//! Server-side apply against a JSON merge patch of the same change, each
//! next to its baseline in the same run:
//!
//! - `apply/field manager`: `FieldManager::apply` of a 50-field object
//!   owned by three managers (two appliers and an updater), changing one
//!   field, against `api_core::patch::apply` of the same change as a JSON
//!   merge patch (no ownership at all);
//! - `apply/registry`: `Registry::apply` against `Registry::patch` (merge)
//!   of the same change to the CronJob example with three managers: both
//!   decode, default, validate and store, and both record managedFields.
//!
//! It also prints the size of managedFields against the object's.
//!
//! Run: `cargo bench -p api-core-tests --bench apply`.

use std::hint::black_box;
use std::time::Duration;

use api_core::apply::{FieldManager, Writer, resource_schema};
use api_core::meta::Time;
use api_core::patch::{PatchType, apply};
use api_core::registry::{ApplyOptions, DefaultStrategy, Registry};
use criterion::{Criterion, criterion_group, criterion_main};
use examples::cronjob::CronJob;
use serde_json::{Map, Value, json};

/// 40 scalar fields and a list-map of 5 elements of 2 fields: 50 fields.
fn schema() -> Value {
    let mut props = Map::new();
    for i in 0..40 {
        let t = if i % 2 == 0 { "string" } else { "integer" };
        props.insert(format!("f{i:02}"), json!({"type": t}));
    }
    props.insert(
        "ports".into(),
        json!({"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
               "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}}),
    );
    json!({"type": "object", "properties": {
        "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"},
        "spec": {"type": "object", "properties": props}}})
}

fn spec(range: std::ops::Range<usize>, bump: i64) -> Map<String, Value> {
    range
        .map(|i| {
            let v = if i % 2 == 0 {
                json!(format!("value-{i}-{bump}"))
            } else {
                json!(i as i64 + bump)
            };
            (format!("f{i:02}"), v)
        })
        .collect()
}

fn config(spec: Map<String, Value>) -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Wide", "metadata": {"name": "w"}, "spec": spec})
}

fn writer(manager: &str) -> Writer<'_> {
    Writer {
        manager,
        api_version: "example.com/v1",
        subresource: "",
    }
}

fn bench_field_manager(c: &mut Criterion) {
    let schema = resource_schema(&schema());
    let fm = FieldManager::new(
        &schema,
        "2026-01-01T00:00:00Z".parse::<Time>().expect("a time"),
    );
    // alice applies f00..f19, bob f20..f39, a controller updates the ports.
    let alice = config(spec(0..20, 0));
    let mut live = fm
        .apply(&Value::Null, &alice, &writer("alice"), false)
        .unwrap()
        .unwrap();
    live["metadata"]["uid"] = json!("u");
    live = fm
        .apply(&live, &config(spec(20..40, 0)), &writer("bob"), false)
        .unwrap()
        .unwrap();
    let mut updated = live.clone();
    updated["spec"]["ports"] = json!([
        {"name": "a", "port": 1}, {"name": "b", "port": 2}, {"name": "c", "port": 3},
        {"name": "d", "port": 4}, {"name": "e", "port": 5}]);
    fm.update(&live, &mut updated, &writer("controller"));
    let live = updated;
    let managed = serde_json::to_vec(&live["metadata"]["managedFields"])
        .unwrap()
        .len();
    let mut bare = live.clone();
    bare["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("managedFields");
    let object = serde_json::to_vec(&bare).unwrap().len();
    eprintln!(
        "50-field object, 3 managers: object {object} bytes, managedFields {managed} bytes ({:.2}x the object)",
        managed as f64 / object as f64
    );

    let mut changed = spec(0..20, 0);
    changed.insert("f05".into(), json!(999));
    let change = config(changed);
    let merge = br#"{"spec":{"f05":999}}"#;
    let mut g = c.benchmark_group("apply");
    g.bench_function("field manager: apply one change", |b| {
        b.iter(|| {
            black_box(
                fm.apply(black_box(&live), &change, &writer("alice"), false)
                    .unwrap(),
            )
        })
    });
    let mut edited = live.clone();
    edited["spec"]["f07"] = json!(1234);
    g.bench_function("field manager: update one change", |b| {
        b.iter(|| {
            let mut new = edited.clone();
            fm.update(black_box(&live), &mut new, &writer("editor"));
            black_box(new)
        })
    });
    g.bench_function("field manager: json merge patch baseline", |b| {
        b.iter(|| {
            black_box(apply(black_box(&live), merge, PatchType::Merge, &Value::Null).unwrap())
        })
    });
    g.finish();
}

const CRONJOB: &str = "apiVersion: batch.example.com/v1
kind: CronJob
metadata:
  name: nightly
  labels: {app: backup}
spec:
  schedule: 0 3 * * *
  concurrencyPolicy: Forbid
  jobTemplate:
    image: registry.example.com/backup:1.4.2
    command: [/bin/backup, --all]
    ports:
    - {name: metrics, port: 9090}
";

/// The CronJob `name` with three managers: `ci` applied the spec, `team`
/// applied a label, `operator` merge-patched `suspend`.
fn three_managers(rt: &tokio::runtime::Runtime, registry: &Registry<CronJob>, name: &str) {
    let body = CRONJOB.replace("nightly", name);
    rt.block_on(registry.field_manager("ci").apply(
        "default",
        name,
        body.as_bytes(),
        ApplyOptions::default(),
    ))
    .expect("applies");
    let label = format!(
        "apiVersion: batch.example.com/v1\nkind: CronJob\nmetadata:\n  name: {name}\n  labels: {{team: storage}}\n"
    );
    rt.block_on(registry.field_manager("team").apply(
        "default",
        name,
        label.as_bytes(),
        ApplyOptions::default(),
    ))
    .expect("applies");
    rt.block_on(registry.field_manager("operator").patch(
        "default",
        name,
        PatchType::Merge,
        br#"{"spec":{"suspend":false}}"#,
    ))
    .expect("patches");
}

fn bench_registry(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let registry = Registry::<CronJob>::new(DefaultStrategy);
    three_managers(&rt, &registry, "nightly");
    three_managers(&rt, &registry, "weekly");
    let ci = registry.field_manager("ci");
    let editor = registry.field_manager("editor");

    let mut g = c.benchmark_group("apply registry");
    let mut flip = false;
    g.bench_function("Registry::apply (one change)", |b| {
        b.iter(|| {
            flip = !flip;
            let schedule = if flip { "0 4 * * *" } else { "0 3 * * *" };
            let body = CRONJOB.replace("0 3 * * *", schedule);
            black_box(
                rt.block_on(ci.apply(
                    "default",
                    "nightly",
                    body.as_bytes(),
                    ApplyOptions::default(),
                ))
                .expect("applies"),
            )
        })
    });
    g.bench_function("Registry::patch (json merge) baseline", |b| {
        b.iter(|| {
            flip = !flip;
            let schedule = if flip { "0 4 * * *" } else { "0 3 * * *" };
            let patch = format!(r#"{{"spec":{{"schedule":"{schedule}"}}}}"#);
            black_box(
                rt.block_on(editor.patch("default", "weekly", PatchType::Merge, patch.as_bytes()))
                    .expect("patches"),
            )
        })
    });
    g.finish();
}

fn criterion_config() -> Criterion {
    Criterion::default()
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
}

criterion_group! { name = benches; config = criterion_config(); targets = bench_field_manager, bench_registry }
criterion_main!(benches);
