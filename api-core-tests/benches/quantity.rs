//! `Quantity` against the naive baseline of keeping quantities as strings
//! (what a string wrapper would do), in the same run:
//!
//! - `parse`: `Quantity::from_str` of 16 typical values (`500m`, `1.5Gi`,
//!   `2e3`, ...) against `String::from` of the same text;
//! - `format`: `to_string()` of the parsed values against cloning the
//!   strings;
//! - `compare`: sorting the 16 values by value against sorting the strings
//!   (which orders `10Gi` before `2Gi`: the baseline is fast and wrong).
//!
//! Run: `cargo bench -p api-core-tests --bench quantity`.

use std::hint::black_box;
use std::str::FromStr;
use std::time::Duration;

use api_core::meta::Quantity;
use criterion::{Criterion, criterion_group, criterion_main};

const VALUES: [&str; 16] = [
    "500m", "1", "250m", "1.5Gi", "128Mi", "2Gi", "10Gi", "100M", "2e3", "0.5", "1024Ki", "64",
    "3.2", "1Ti", "750Mi", "4",
];

fn bench_quantity(c: &mut Criterion) {
    let parsed: Vec<Quantity> = VALUES
        .iter()
        .map(|s| Quantity::from_str(s).expect("parses"))
        .collect();
    let strings: Vec<String> = VALUES.iter().map(|s| s.to_string()).collect();

    let mut g = c.benchmark_group("quantity");
    g.bench_function("parse: String::from baseline", |b| {
        b.iter(|| {
            for s in black_box(&VALUES) {
                black_box(String::from(*s));
            }
        })
    });
    g.bench_function("parse: Quantity::from_str", |b| {
        b.iter(|| {
            for s in black_box(&VALUES) {
                black_box(Quantity::from_str(s).expect("parses"));
            }
        })
    });
    g.bench_function("format: String clone baseline", |b| {
        b.iter(|| {
            for s in black_box(&strings) {
                black_box(s.clone());
            }
        })
    });
    g.bench_function("format: Quantity to_string", |b| {
        b.iter(|| {
            for q in black_box(&parsed) {
                black_box(q.to_string());
            }
        })
    });
    g.bench_function("compare: sort strings baseline", |b| {
        b.iter(|| {
            let mut v = black_box(&strings).clone();
            v.sort();
            black_box(v)
        })
    });
    g.bench_function("compare: sort quantities", |b| {
        b.iter(|| {
            let mut v = black_box(&parsed).clone();
            v.sort();
            black_box(v)
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = bench_quantity
}
criterion_main!(benches);
