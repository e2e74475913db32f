//! Benchmarks at scale, each next to its baseline in the same run:
//!
//! - `crd_200`: `Wide::crd()` (and `crd()` + `to_yaml()`) for a generated
//!   200-field spec (`spec.rs`, written by `gen.py`) against schemars
//!   generating the OpenAPI 3 schema of a plain struct of the same shape.
//! - `conditions`: `Conditions::set_with_clock` / `get` against
//!   apimachinery-style helpers on a plain list (`SetStatusCondition` /
//!   `FindStatusCondition`, written here as Go writes them), with 4 and 16
//!   conditions.
//!
//! Run: `cargo bench -p api-core-tests --bench scale`. BENCHMARKS.md at the
//! workspace root records the results.

mod spec;

use std::hint::black_box;
use std::time::Duration;

use api_core::prelude::*;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use spec::{PlainWideSpec, Wide};

fn crd_200(c: &mut Criterion) {
    // The generated CRD must be the full thing, or the timing means little.
    let crd = Wide::crd();
    let schema = &crd.spec.versions[0]
        .schema
        .as_ref()
        .expect("a schema")
        .open_api_v3_schema;
    let properties = schema["properties"]["spec"]["properties"].as_object();
    assert_eq!(properties.map(|p| p.len()), Some(200));
    let errors = api_core::schema::structural::check_crd(&crd.to_json());
    assert!(errors.is_empty(), "{errors}");

    let openapi3 =
        || schemars::SchemaGenerator::new(schemars::generate::SchemaSettings::openapi3());
    let mut g = c.benchmark_group("crd_200");
    g.bench_function("api_core/crd", |b| b.iter(|| black_box(Wide::crd())));
    g.bench_function("api_core/crd+to_yaml", |b| {
        b.iter(|| black_box(Wide::crd().to_yaml()))
    });
    g.bench_function("schemars/openapi3_spec", |b| {
        b.iter(|| black_box(openapi3().into_root_schema_for::<PlainWideSpec>()))
    });
    g.finish();
}

/// apimachinery's `meta.SetStatusCondition` on a plain list, as Go writes
/// it: find by type, append if new, else update the fields that differ
/// (the transition time only when the status changes).
fn set_status_condition(conditions: &mut Vec<Condition>, new: Condition, now: Time) -> bool {
    let Some(existing) = conditions.iter_mut().find(|c| c.type_ == new.type_) else {
        let mut new = new;
        if !new.has_transition_time() {
            new.last_transition_time = now;
        }
        conditions.push(new);
        return true;
    };
    let mut changed = false;
    if existing.status != new.status {
        existing.status = new.status;
        existing.last_transition_time = if new.has_transition_time() {
            new.last_transition_time
        } else {
            now
        };
        changed = true;
    }
    if existing.reason != new.reason {
        existing.reason = new.reason;
        changed = true;
    }
    if existing.message != new.message {
        existing.message = new.message;
        changed = true;
    }
    if existing.observed_generation != new.observed_generation {
        existing.observed_generation = new.observed_generation;
        changed = true;
    }
    changed
}

/// apimachinery's `meta.FindStatusCondition`.
fn find_status_condition<'a>(conditions: &'a [Condition], t: &str) -> Option<&'a Condition> {
    conditions.iter().find(|c| c.type_ == t)
}

fn conditions(c: &mut Criterion) {
    let now = Time::parse("2026-01-01T00:00:00Z").expect("a time");
    let mut g = c.benchmark_group("conditions");
    for n in [4usize, 16] {
        let types: Vec<String> = (0..n).map(|i| format!("Type{i}")).collect();
        let mut map = Conditions::new();
        let mut list = Vec::new();
        for t in &types {
            let cond = Condition::new(t.as_str(), ConditionStatus::True, "Ok", "fine");
            map.set_with_clock(cond.clone(), now);
            set_status_condition(&mut list, cond, now);
        }
        let last = types.last().expect("a type").clone();
        // Flip the last condition's status each time: a transition.
        let flips = [
            Condition::new(last.as_str(), ConditionStatus::False, "Failed", "broken"),
            Condition::new(last.as_str(), ConditionStatus::True, "Ok", "fine"),
        ];
        g.bench_with_input(BenchmarkId::new("api_core/set", n), &n, |b, _| {
            let mut i = 0;
            b.iter(|| {
                i ^= 1;
                black_box(map.set_with_clock(flips[i].clone(), now))
            })
        });
        g.bench_with_input(BenchmarkId::new("linear_list/set", n), &n, |b, _| {
            let mut i = 0;
            b.iter(|| {
                i ^= 1;
                black_box(set_status_condition(&mut list, flips[i].clone(), now))
            })
        });
        g.bench_with_input(BenchmarkId::new("api_core/get", n), &n, |b, _| {
            b.iter(|| black_box(map.get(black_box(last.as_str()))).is_some())
        });
        g.bench_with_input(BenchmarkId::new("linear_list/get", n), &n, |b, _| {
            b.iter(|| find_status_condition(black_box(&list), black_box(last.as_str())).is_some())
        });
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(60)
}

criterion_group! {
    name = benches;
    config = config();
    targets = crd_200, conditions
}
criterion_main!(benches);
