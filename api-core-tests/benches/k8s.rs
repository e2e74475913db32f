//! The cost of embedding Kubernetes' own types (feature `k8s`): the
//! kubebuilder book's CronJob, whose spec embeds k8s-openapi's
//! `JobTemplateSpec` (the whole `PodSpec`), against the CronJob example of
//! this repository, written with its own small types, in the same run.
//!
//! - `crd`: `CronJob::crd()` (after the first call, which resolves the
//!   k8s-openapi schemas once per type) and `to_yaml()`;
//! - `decode`: `api_core::decode` of a CronJob with one container against
//!   a bare `serde_json::from_slice` of the same bytes into the same type.
//!
//! Run: `cargo bench -p api-core-tests --features k8s --bench k8s`.
//! It also prints the CRDs' YAML sizes.

use std::hint::black_box;
use std::time::Duration;

use api_core::decode::{DecodeOptions, decode};
use criterion::{Criterion, criterion_group, criterion_main};

/// The book's CronJob, as `tests/k8s_openapi.rs` reproduces it.
#[path = "../tests/common/book_cronjob.rs"]
mod book;

const BOOK: &str = r#"{
  "apiVersion": "batch.tutorial.kubebuilder.io/v1",
  "kind": "CronJob",
  "metadata": {"name": "nightly", "namespace": "default"},
  "spec": {
    "schedule": "0 3 * * *",
    "startingDeadlineSeconds": 120,
    "jobTemplate": {"spec": {"template": {"spec": {
      "restartPolicy": "OnFailure",
      "containers": [{
        "name": "backup",
        "image": "registry.example.com/backup:1.4.2",
        "command": ["/bin/backup", "--all", "--compress"],
        "ports": [{"name": "metrics", "containerPort": 9090}],
        "resources": {"limits": {"cpu": "500m", "memory": "128Mi"}}
      }]
    }}}}
  }
}"#;

fn bench_crd(c: &mut Criterion) {
    let book = book::CronJob::crd();
    let own = examples::cronjob::CronJob::crd();
    let mut bare = book.clone();
    bare.truncate_descriptions(0);
    eprintln!(
        "CRD YAML sizes: book CronJob {} bytes ({} without descriptions), this repository's CronJob example {} bytes",
        book.to_yaml().len(),
        bare.to_yaml().len(),
        own.to_yaml().len()
    );
    let mut g = c.benchmark_group("crd");
    g.bench_function("own types: crd()", |b| {
        b.iter(|| black_box(examples::cronjob::CronJob::crd()))
    });
    g.bench_function("JobTemplateSpec: crd()", |b| {
        b.iter(|| black_box(book::CronJob::crd()))
    });
    g.bench_function("own types: to_yaml()", |b| {
        b.iter(|| black_box(own.to_yaml()))
    });
    g.bench_function("JobTemplateSpec: to_yaml()", |b| {
        b.iter(|| black_box(book.to_yaml()))
    });
    g.finish();
}

fn bench_decode(c: &mut Criterion) {
    let bytes = BOOK.as_bytes();
    let options = DecodeOptions::default();
    let mut g = c.benchmark_group("decode");
    g.bench_function("JobTemplateSpec: serde_json baseline", |b| {
        b.iter(|| {
            black_box(serde_json::from_slice::<book::CronJob>(black_box(bytes)).expect("decodes"))
        })
    });
    g.bench_function("JobTemplateSpec: api_core decode", |b| {
        b.iter(|| black_box(decode::<book::CronJob>(black_box(bytes), &options).expect("decodes")))
    });
    let no_defaults = DecodeOptions {
        apply_defaults: false,
        ..DecodeOptions::default()
    };
    g.bench_function("JobTemplateSpec: api_core decode without defaults", |b| {
        b.iter(|| {
            black_box(decode::<book::CronJob>(black_box(bytes), &no_defaults).expect("decodes"))
        })
    });
    let no_validation = DecodeOptions {
        validate: false,
        ..DecodeOptions::default()
    };
    g.bench_function("JobTemplateSpec: api_core decode without validation", |b| {
        b.iter(|| {
            black_box(decode::<book::CronJob>(black_box(bytes), &no_validation).expect("decodes"))
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = bench_crd, bench_decode
}
criterion_main!(benches);
