//! CEL rules (`x-kubernetes-validations`, api-core's feature `cel`), each
//! next to a baseline measured in the same run:
//!
//! - `validate/schema`: the apiserver's schema validation of a 50-field
//!   object (`structural::validate`), the baseline without rules;
//! - `validate/schema+rules`: the same plus its 10 rules (`cel::Validator`);
//! - `validate/rules`: the 10 rules alone, with the validator compiled once
//!   (cached, as the registry keeps it per kind);
//! - `validate/first`: compiling the validator and evaluating once, what
//!   the first object of a kind costs.
//! - `derive/check_100_rules`: what `#[derive]` adds to a build for 100
//!   written rules (each parsed and type-checked by api-cel), next to
//!   `derive/parse_100_rules`, parsing alone, and
//!   `derive/check_and_estimate_100_rules`, with their cost estimates;
//! - `cost/estimate_10_rules`: cel-go's cost estimate of the 10 rules with
//!   the object's sizes, the work of charging an evaluation (done per
//!   evaluation for the rules whose cost depends on sizes), next to
//!   `validate/rules`.
//!
//! Run: `cargo bench -p api-core-tests --bench cel`. BENCHMARKS.md at the
//! workspace root records the results.

use std::hint::black_box;

use api_core::FieldPath;
use api_core::cel::Validator;
use api_core::schema::structural::validate;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Map, Value, json};

/// The rules, on the spec: string, number, list and cross-field checks.
const RULES: [&str; 10] = [
    "self.s0.size() <= 64",
    "self.i0 >= 0 && self.i0 < 1000",
    "self.b0 ? self.i1 > 0 : true",
    "self.l0.all(x, x.matches('^[a-z]+$'))",
    "self.s1.startsWith('a')",
    "has(self.s2) || has(self.s3)",
    "self.i2 + self.i3 < 100000",
    "self.l1.size() <= 10",
    "self.s4 != self.s5",
    "!self.l2.exists(x, x == 'forbidden')",
];

/// A resource schema whose spec has 50 fields (20 strings, 15 integers,
/// 10 booleans, 5 lists of strings), with or without the rules.
fn schema(rules: bool) -> Value {
    let mut props = Map::new();
    for i in 0..20 {
        props.insert(format!("s{i}"), json!({"type": "string", "maxLength": 64}));
    }
    for i in 0..15 {
        props.insert(format!("i{i}"), json!({"type": "integer", "minimum": 0}));
    }
    for i in 0..10 {
        props.insert(format!("b{i}"), json!({"type": "boolean"}));
    }
    for i in 0..5 {
        props.insert(
            format!("l{i}"),
            json!({"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 16}}),
        );
    }
    let mut spec = json!({"type": "object", "properties": props});
    if rules {
        spec["x-kubernetes-validations"] =
            Value::Array(RULES.iter().map(|r| json!({"rule": r})).collect());
    }
    json!({"type": "object", "properties": {
        "apiVersion": {"type": "string"}, "kind": {"type": "string"},
        "metadata": {"type": "object"}, "spec": spec}})
}

/// An object that passes every rule.
fn object() -> Value {
    let mut spec = Map::new();
    for i in 0..20 {
        spec.insert(format!("s{i}"), json!(format!("a-value-{i}")));
    }
    for i in 0..15 {
        spec.insert(format!("i{i}"), json!(i * 7));
    }
    for i in 0..10 {
        spec.insert(format!("b{i}"), json!(i % 2 == 0));
    }
    for i in 0..5 {
        spec.insert(format!("l{i}"), json!(["alpha", "beta", "gamma", "delta"]));
    }
    json!({"apiVersion": "example.com/v1", "kind": "Widget",
           "metadata": {"name": "w", "namespace": "default"}, "spec": spec})
}

fn bench(c: &mut Criterion) {
    let plain = schema(false);
    let with_rules = schema(true);
    let obj = object();
    let rules = Validator::new(&with_rules);
    let root = FieldPath::new("");
    assert!(validate(&obj, &with_rules, &root).is_empty());
    assert!(
        rules.validate(&obj, None, &root).is_empty(),
        "the object passes every rule"
    );

    let mut g = c.benchmark_group("validate");
    g.bench_function("schema", |b| {
        b.iter(|| validate(black_box(&obj), &plain, &root))
    });
    g.bench_function("schema+rules", |b| {
        b.iter(|| {
            let mut errors = validate(black_box(&obj), &with_rules, &root);
            rules.validate_into(black_box(&obj), None, &root, &mut errors);
            errors
        })
    });
    g.bench_function("rules", |b| {
        b.iter(|| rules.validate(black_box(&obj), None, &root))
    });
    g.bench_function("first", |b| {
        b.iter(|| Validator::new(black_box(&with_rules)).validate(black_box(&obj), None, &root))
    });
    g.finish();

    // The derive's work for 100 rules over a 50-field spec.
    let mut fields: Vec<(String, api_cel::Type)> = Vec::new();
    for i in 0..20 {
        fields.push((format!("s{i}"), api_cel::Type::String));
    }
    for i in 0..15 {
        fields.push((format!("i{i}"), api_cel::Type::Int));
    }
    for i in 0..10 {
        fields.push((format!("b{i}"), api_cel::Type::Bool));
    }
    for i in 0..5 {
        fields.push((format!("l{i}"), api_cel::Type::list(api_cel::Type::String)));
    }
    let spec = api_cel::Type::object(fields);
    let hundred: Vec<String> = (0..100)
        .map(|i| RULES[i % RULES.len()].replace("0", &(i % 5).to_string()))
        .collect();
    for r in &hundred {
        api_cel::check(r, &[("self", spec.clone())]).expect("the rule checks");
    }
    let sizes = api_cel::cost::Sizes::default();
    let mut g = c.benchmark_group("derive");
    g.bench_function("check_and_estimate_100_rules", |b| {
        b.iter(|| {
            hundred.iter().all(|r| {
                api_cel::cost::estimate_source(black_box(r), &[("self", spec.clone())], &sizes)
                    .is_ok()
            })
        })
    });
    g.bench_function("parse_100_rules", |b| {
        b.iter(|| hundred.iter().all(|r| api_cel::parse(black_box(r)).is_ok()))
    });
    g.bench_function("check_100_rules", |b| {
        b.iter(|| {
            hundred
                .iter()
                .all(|r| api_cel::check(black_box(r), &[("self", spec.clone())]).is_ok())
        })
    });
    g.finish();

    // Charging: the estimate of each rule with the object's actual sizes
    // (strings of 9-10 characters, lists of 4 items of at most 5).
    use api_cel::cost::Sizes;
    let mut actual: Vec<(String, Sizes)> = Vec::new();
    for i in 0..20 {
        actual.push((format!("s{i}"), Sizes::leaf(10)));
    }
    for i in 0..5 {
        actual.push((format!("l{i}"), Sizes::list(4, Sizes::leaf(5))));
    }
    let actual = Sizes::object(actual);
    let compiled: Vec<_> = RULES
        .iter()
        .map(|r| {
            let (expr, info) = api_cel::parse_ast(r).expect("the rule parses");
            let checked = api_cel::check_ast(&expr, &info, r, &[("self", spec.clone())])
                .expect("the rule checks");
            (expr, checked)
        })
        .collect();
    let mut g = c.benchmark_group("cost");
    g.bench_function("estimate_10_rules", |b| {
        b.iter(|| {
            compiled
                .iter()
                .map(|(e, checked)| {
                    api_cel::cost::estimate_evaluation(e, checked, black_box(&actual)).max
                })
                .sum::<u64>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
