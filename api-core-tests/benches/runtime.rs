//! Runtime benchmarks, each next to its baseline in the same run:
//!
//! - `decode`: `api_core::decode` of the CronJob example (parse, unknown
//!   fields, defaults, validation) against a bare `serde_json::from_slice`
//!   of the same bytes into the same type. Target: at least 0.7x the speed.
//! - `registry`: `Registry::create`, `Registry::update` and
//!   `Registry::patch` (strategic merge) against one bare decode + encode of
//!   the same object.
//! - `patch`: applying the same patch to the CronJob as a strategic merge
//!   patch (driven by its schema) and as a JSON merge patch.
//!
//! Run: `cargo bench -p api-core-tests --bench runtime`.

use std::hint::black_box;
use std::time::Duration;

use api_core::decode::{DecodeOptions, FieldValidation, decode};
use api_core::patch::{PatchType, apply};
use api_core::registry::{DefaultStrategy, Registry};
use criterion::{Criterion, criterion_group, criterion_main};
use examples::cronjob::CronJob;

#[path = "common/cronjob.rs"]
mod cronjob;
use cronjob::CRONJOB;

fn bench_decode(c: &mut Criterion) {
    let bytes = CRONJOB.as_bytes();
    let mut g = c.benchmark_group("decode");
    g.bench_function("serde_json baseline", |b| {
        b.iter(|| black_box(serde_json::from_slice::<CronJob>(black_box(bytes)).expect("decodes")))
    });
    let ignore = DecodeOptions {
        field_validation: FieldValidation::Ignore,
        ..DecodeOptions::default()
    };
    g.bench_function("api_core decode (Ignore)", |b| {
        b.iter(|| black_box(decode::<CronJob>(black_box(bytes), &ignore).expect("decodes")))
    });
    let warn = DecodeOptions::default();
    g.bench_function("api_core decode (Warn)", |b| {
        b.iter(|| black_box(decode::<CronJob>(black_box(bytes), &warn).expect("decodes")))
    });
    g.finish();
}

/// Runs a registry future: the in-memory storage answers at once, so one
/// current-thread runtime drives every call, as a server's task would.
fn run<F: std::future::Future>(rt: &tokio::runtime::Runtime, f: F) -> F::Output {
    rt.block_on(f)
}

fn bench_registry(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let object: CronJob = serde_json::from_str(CRONJOB).expect("decodes");
    let mut g = c.benchmark_group("registry");
    g.bench_function("decode+encode baseline", |b| {
        b.iter(|| {
            let o: CronJob =
                serde_json::from_slice(black_box(CRONJOB.as_bytes())).expect("decodes");
            black_box(serde_json::to_vec(&o).expect("encodes"))
        })
    });
    let registry = Registry::<CronJob>::new(DefaultStrategy);
    let mut n = 0u64;
    g.bench_function("create", |b| {
        b.iter(|| {
            n += 1;
            let mut o = object.clone();
            o.metadata.name = format!("job-{n}");
            black_box(run(&rt, registry.create("default", o)).expect("creates"))
        })
    });
    let mut current = run(&rt, registry.create("default", object.clone()))
        .expect("creates")
        .object;
    g.bench_function("update", |b| {
        b.iter(|| {
            let mut o = current.clone();
            o.spec.starting_deadline_seconds =
                Some(o.spec.starting_deadline_seconds.unwrap_or(0) % 1000 + 1);
            current = run(&rt, registry.update("default", o))
                .expect("updates")
                .object;
            black_box(&current);
        })
    });
    let mut flip = false;
    g.bench_function("patch (strategic merge)", |b| {
        b.iter(|| {
            flip = !flip;
            let patch: &[u8] = if flip {
                br#"{"spec":{"suspend":true,"jobTemplate":{"ports":[{"name":"metrics","port":9091}]}}}"#
            } else {
                br#"{"spec":{"suspend":false,"jobTemplate":{"ports":[{"name":"metrics","port":9090}]}}}"#
            };
            black_box(
                run(
                    &rt,
                    registry.patch("default", "nightly", PatchType::StrategicMerge, patch),
                )
                .expect("patches"),
            )
        })
    });
    g.finish();
}

/// The same change as a strategic merge patch (ports merged by name) and
/// as a merge patch (the list replaced, so it carries both ports).
fn bench_patch(c: &mut Criterion) {
    let object: serde_json::Value = serde_json::from_str(CRONJOB).expect("decodes");
    let schema = Registry::<CronJob>::new(DefaultStrategy).schema().clone();
    let strategic = br#"{"spec":{"jobTemplate":{"ports":[{"name":"metrics","port":9091}]}}}"#;
    let merge = br#"{"spec":{"jobTemplate":{"ports":[{"name":"metrics","port":9091},{"name":"http","port":8080,"protocol":"TCP"}]}}}"#;
    let mut g = c.benchmark_group("patch");
    g.bench_function("strategic merge", |b| {
        b.iter(|| {
            black_box(
                apply(&object, strategic, PatchType::StrategicMerge, &schema).expect("applies"),
            )
        })
    });
    g.bench_function("json merge", |b| {
        b.iter(|| black_box(apply(&object, merge, PatchType::Merge, &schema).expect("applies")))
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
}

criterion_group! { name = benches; config = config(); targets = bench_decode, bench_registry, bench_patch }
criterion_main!(benches);
