//! Schema-driven defaulting (`api_core::schema::defaulting`): unit tests of
//! the apiserver's algorithm, a differential test against a literal
//! (recursive) transcription of the Go code, deep nesting, and the property
//! that the typed `apply_defaults()` of the example APIs and the runtime
//! defaulting with their own CRD schemas agree.

use std::sync::LazyLock;

use api_core::prelude::*;
use api_core::schema::defaulting::{
    apply_schema_defaults, default, prune_non_nullable_nulls_without_defaults,
};
use api_core::schema::structural::prune;
use api_core::{Condition, ConditionStatus, Conditions};
use examples::cronjob::CronJob;
use examples::memcached::{Memcached, MemcachedSpec, MemcachedStatus};
use examples::tenant::Tenant;
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

mod common;
use common::examples::*;

// ------------------------------------------------------------ helpers

fn defaulted(value: &Value, schema: &Value) -> Value {
    let mut v = value.clone();
    apply_schema_defaults(&mut v, schema);
    v
}

/// Whether `after` keeps everything `before` has: the same scalars, arrays
/// of the same length, and objects with at least the same keys, compared
/// recursively. With `nulls_free`, a `null` in `before` may become anything
/// (or disappear from its object): the only changes defaulting may make.
fn keeps(before: &Value, after: &Value, nulls_free: bool) -> bool {
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => b.iter().all(|(k, bv)| match a.get(k) {
            Some(av) => keeps(bv, av, nulls_free),
            None => nulls_free && bv.is_null(),
        }),
        (Value::Array(b), Value::Array(a)) => {
            b.len() == a.len() && b.iter().zip(a).all(|(b, a)| keeps(b, a, nulls_free))
        }
        (Value::Null, _) if nulls_free => true,
        _ => before == after,
    }
}

/// An object built without `json!`, which copies interpolated values
/// recursively (too deeply for the deep tests).
fn object<const N: usize>(entries: [(&str, Value); N]) -> Value {
    Value::Object(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// Drops a value without recursion (serde_json's drop recurses, which a
/// very deep value would overflow).
fn dismantle(v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(a) => stack.extend(a),
            Value::Object(m) => stack.extend(m.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

// --------------------------------------------------------- unit tests

#[test]
fn absent_key_gets_the_default() {
    let schema = json!({"type": "object", "properties": {
        "a": {"type": "integer", "default": 1},
        "b": {"type": "string"}
    }});
    assert_eq!(defaulted(&json!({}), &schema), json!({"a": 1}));
    assert_eq!(
        defaulted(&json!({"b": "x"}), &schema),
        json!({"a": 1, "b": "x"})
    );
}

#[test]
fn set_values_are_never_overridden() {
    let schema = json!({"type": "object", "properties": {
        "a": {"type": "integer", "default": 1},
        "s": {"type": "string", "default": "d"},
        "o": {"type": "object", "default": {"x": 1}},
        "l": {"type": "array", "items": {"type": "string"}, "default": ["d"]}
    }});
    let value = json!({"a": 0, "s": "", "o": {}, "l": []});
    assert_eq!(defaulted(&value, &schema), value);
    // A value of the wrong type is not the defaulter's business either.
    let value = json!({"a": "one", "s": false, "o": [], "l": {}});
    assert_eq!(defaulted(&value, &schema), value);
}

#[test]
fn non_nullable_null_is_defaulted_or_pruned() {
    let schema = json!({"type": "object", "properties": {
        "withDefault": {"type": "string", "default": "d"},
        "without": {"type": "string"}
    }});
    assert_eq!(
        defaulted(&json!({"withDefault": null, "without": null}), &schema),
        json!({"withDefault": "d"})
    );
    // `default` alone replaces the null with a default and leaves the other.
    let mut v = json!({"withDefault": null, "without": null});
    default(&mut v, &schema);
    assert_eq!(v, json!({"withDefault": "d", "without": null}));
    // The pruning alone keeps the null that has a default.
    let mut v = json!({"withDefault": null, "without": null});
    prune_non_nullable_nulls_without_defaults(&mut v, &schema);
    assert_eq!(v, json!({"withDefault": null}));
}

#[test]
fn nullable_null_is_kept() {
    let schema = json!({"type": "object", "properties": {
        "a": {"type": "string", "nullable": true, "default": "d"},
        "b": {"type": "string", "nullable": true},
        "m": {"type": "object", "additionalProperties": {"type": "string", "nullable": true, "default": "d"}},
        "l": {"type": "array", "items": {"type": "string", "nullable": true, "default": "d"}}
    }});
    let value = json!({"a": null, "b": null, "m": {"k": null}, "l": [null]});
    assert_eq!(defaulted(&value, &schema), value);
    // Absent, a nullable field still gets its default.
    assert_eq!(
        defaulted(&json!({"b": null}), &schema),
        json!({"a": "d", "b": null})
    );
}

#[test]
fn nested_objects_are_defaulted() {
    let schema = json!({"type": "object", "properties": {
        "spec": {"type": "object", "properties": {
            "template": {"type": "object", "properties": {
                "replicas": {"type": "integer", "default": 1},
                "paused": {"type": "boolean", "default": false}
            }}
        }}
    }});
    assert_eq!(
        defaulted(&json!({"spec": {"template": {"paused": true}}}), &schema),
        json!({"spec": {"template": {"replicas": 1, "paused": true}}})
    );
    // No object, nothing to default inside it.
    assert_eq!(
        defaulted(&json!({"spec": {}}), &schema),
        json!({"spec": {}})
    );
    assert_eq!(defaulted(&json!({}), &schema), json!({}));
}

#[test]
fn additional_properties_values_are_defaulted() {
    let schema = json!({"type": "object", "properties": {
        "m": {"type": "object", "additionalProperties": {
            "type": "object",
            "properties": {"weight": {"type": "integer", "default": 10}}
        }},
        "d": {"type": "object", "additionalProperties": {"type": "string", "default": "x"}},
        "n": {"type": "object", "additionalProperties": {"type": "string"}}
    }});
    let value = json!({
        "m": {"a": {}, "b": {"weight": 1}},
        "d": {"a": null, "b": "y"},
        "n": {"a": null, "b": "y"}
    });
    assert_eq!(
        defaulted(&value, &schema),
        json!({
            "m": {"a": {"weight": 10}, "b": {"weight": 1}},
            "d": {"a": "x", "b": "y"},
            "n": {"b": "y"}
        })
    );
    // Without the pruning, a null with no default stays.
    let mut v = json!({"n": {"a": null}});
    default(&mut v, &schema);
    assert_eq!(v, json!({"n": {"a": null}}));
    // `additionalProperties: true` has no schema: nothing is pruned or set.
    let schema = json!({"type": "object", "additionalProperties": true});
    let value = json!({"a": null});
    assert_eq!(defaulted(&value, &schema), value);
}

#[test]
fn properties_win_over_additional_properties() {
    let schema = json!({"type": "object",
        "properties": {"a": {"type": "string", "nullable": true}},
        "additionalProperties": {"type": "string", "default": "ap"}
    });
    assert_eq!(
        defaulted(&json!({"a": null, "b": null}), &schema),
        json!({"a": null, "b": "ap"})
    );
}

#[test]
fn items_are_defaulted() {
    let schema = json!({"type": "object", "properties": {
        "ports": {"type": "array", "items": {"type": "object", "properties": {
            "protocol": {"type": "string", "default": "TCP"},
            "name": {"type": "string"}
        }}},
        "tags": {"type": "array", "items": {"type": "string", "default": "t"}},
        "raw": {"type": "array", "items": {"type": "string"}},
        "matrix": {"type": "array", "items": {"type": "array", "items": {"type": "integer", "default": 0}}}
    }});
    let value = json!({
        "ports": [{"name": null}, {"protocol": "UDP"}, null],
        "tags": [null, "a"],
        "raw": [null],
        "matrix": [[null, 1], [], null]
    });
    assert_eq!(
        defaulted(&value, &schema),
        json!({
            // A null element with no items default stays null: the pruning
            // only drops object fields.
            "ports": [{"protocol": "TCP"}, {"protocol": "UDP"}, null],
            "tags": ["t", "a"],
            "raw": [null],
            "matrix": [[0, 1], [], null]
        })
    );
}

/// Go's `Default` sets a map's defaults first and then descends into every
/// field, the ones it has just set included: a default is defaulted in
/// turn. (`algorithm.go`: the `for k := range x` loop runs after the
/// defaults are put into `x`.)
#[test]
fn a_fresh_default_is_defaulted_inside() {
    let schema = json!({"type": "object", "properties": {
        "spec": {
            "type": "object",
            "default": {"b": null, "c": null},
            "properties": {
                "a": {"type": "integer", "default": 1},
                "b": {"type": "string", "default": "b"},
                "c": {"type": "string"},
                "inner": {"type": "object", "default": {}, "properties": {
                    "x": {"type": "boolean", "default": true}
                }}
            }
        }
    }});
    let got = defaulted(&json!({}), &schema);
    assert_eq!(
        got,
        // `a` and `inner` (and `inner.x`) come from the properties'
        // defaults, the null `b` of the default is replaced, and the null
        // `c` stays: the pruning of nulls ran before the default was set.
        json!({"spec": {"a": 1, "b": "b", "c": null, "inner": {"x": true}}})
    );
    // The schema's own default is a copy: it is not changed.
    assert_eq!(
        schema["properties"]["spec"]["default"],
        json!({"b": null, "c": null})
    );
    // A second run prunes the null that is left.
    assert_eq!(
        defaulted(&got, &schema),
        json!({"spec": {"a": 1, "b": "b", "inner": {"x": true}}})
    );
}

#[test]
fn a_null_default_is_no_default() {
    let schema =
        json!({"type": "object", "properties": {"a": {"type": "string", "default": null}}});
    assert_eq!(defaulted(&json!({}), &schema), json!({}));
    assert_eq!(defaulted(&json!({"a": null}), &schema), json!({}));
}

#[test]
fn the_root_and_scalars_are_left_alone() {
    let schema =
        json!({"type": "object", "default": {"a": 1}, "properties": {"a": {"type": "integer"}}});
    for v in [json!(null), json!(1), json!("s"), json!([1, null])] {
        assert_eq!(defaulted(&v, &schema), v);
    }
}

#[test]
fn odd_schemas_are_read_leniently() {
    let value = json!({"a": null, "b": [null], "c": {"d": null}});
    for schema in [
        json!(null),
        json!(true),
        json!("object"),
        json!([{"properties": {}}]),
        json!({"properties": [1, 2]}),
        json!({"properties": {"a": true, "b": {"items": [{"default": 1}]}}}),
        json!({"properties": {"a": {"nullable": "yes", "default": 0}}}),
        json!({"additionalProperties": false}),
        json!({"additionalProperties": {"default": 1, "properties": 5}}),
        json!({"items": {"default": 1}}),
    ] {
        let mut v = value.clone();
        apply_schema_defaults(&mut v, &schema);
        let mut w = value.clone();
        go::prune(&mut w, Some(&schema));
        go::default(&mut w, Some(&schema));
        assert_eq!(v, w, "schema {schema}");
    }
    // `"nullable": "yes"` is not nullable; a property that is not an object
    // is a schema without keywords (not nullable, no default).
    let mut v = value.clone();
    apply_schema_defaults(
        &mut v,
        &json!({"properties": {"a": {"nullable": "yes", "default": 0}, "c": true}}),
    );
    assert_eq!(v, json!({"a": 0, "b": [null], "c": {"d": null}}));
}

#[test]
fn deep_values_and_schemas_do_not_overflow_the_stack() {
    const DEPTH: usize = 200_000;
    // A value and a schema both nested DEPTH levels deep, with something
    // to do at the bottom.
    let mut value = json!({"a": null, "b": null});
    let mut schema = json!({"type": "object", "properties": {
        "a": {"type": "string"},
        "b": {"type": "string", "default": "x"}
    }});
    for i in 0..DEPTH {
        if i % 2 == 0 {
            value = Value::Array(vec![value]);
            schema = object([("type", json!("array")), ("items", schema)]);
        } else {
            value = object([("k", value)]);
            schema = object([("type", json!("object")), ("additionalProperties", schema)]);
        }
    }
    apply_schema_defaults(&mut value, &schema);
    let mut bottom = &value;
    let mut depth = 0;
    loop {
        match bottom {
            Value::Array(a) if a.len() == 1 => bottom = &a[0],
            Value::Object(m) if m.len() == 1 && m.contains_key("k") => bottom = &m["k"],
            _ => break,
        }
        depth += 1;
    }
    assert_eq!(depth, DEPTH);
    assert_eq!(bottom, &json!({"b": "x"}));
    dismantle(value);
    dismantle(schema);

    // A default nested DEPTH levels deep is copied.
    let mut deep = json!("leaf");
    for _ in 0..DEPTH {
        deep = object([("n", Value::Array(vec![deep]))]);
    }
    let property = object([("type", json!("object")), ("default", deep)]);
    let schema = object([
        ("type", json!("object")),
        ("properties", object([("a", property)])),
    ]);
    let mut value = json!({"b": {}});
    apply_schema_defaults(&mut value, &schema);
    let mut cur = &value["a"];
    let mut depth = 0;
    while let Some(next) = cur.get("n").and_then(|n| n.get(0)) {
        cur = next;
        depth += 1;
    }
    assert_eq!(depth, DEPTH);
    assert_eq!(cur, &json!("leaf"));
    dismantle(value);
    dismantle(schema);
}

/// The zero `lastTransitionTime` of a condition is written as `null`, as
/// `metav1.Time` writes it. The schema does not allow the null, so the
/// apiserver drops it before defaulting; reading the object back gives the
/// zero time again (and validation reports it as required).
#[test]
fn a_zero_condition_time_is_a_pruned_null() {
    let mut mc = Memcached::new("a", MemcachedSpec { size: None });
    let mut conditions = Conditions::default();
    conditions.set(Condition::new(
        "Available",
        ConditionStatus::True,
        "Ready",
        "",
    ));
    let c = conditions.get_mut("Available").unwrap();
    *c = c.clone().with_last_transition_time(Condition::zero_time());
    mc.status = Some(MemcachedStatus { conditions });
    let wire = serde_json::to_value(&mc).unwrap();
    assert_eq!(
        wire["status"]["conditions"][0]["lastTransitionTime"],
        Value::Null
    );
    let by_schema = defaulted(&wire, &MEMCACHED);
    assert_eq!(by_schema["spec"], json!({"size": 1}));
    assert_eq!(
        by_schema["status"]["conditions"][0],
        json!({"type": "Available", "status": "True", "reason": "Ready", "message": ""})
    );
    let back: Memcached = serde_json::from_value(by_schema).unwrap();
    mc.apply_defaults();
    assert_eq!(
        serde_json::to_value(&back).unwrap(),
        serde_json::to_value(&mc).unwrap()
    );
}

// ---------------------------------- a literal transcription of the Go code

/// `defaulting/prunenulls.go` and `defaulting/algorithm.go`, recursive as
/// in Go, reading the JSON schema as `NewStructural` would: the oracle for
/// the iterative implementation.
mod go {
    use serde_json::Value;

    fn nullable(s: &Value) -> bool {
        s.get("nullable") == Some(&Value::Bool(true))
    }

    fn default_object(s: &Value) -> Option<&Value> {
        s.get("default").filter(|d| !d.is_null())
    }

    fn properties(s: &Value) -> Option<&serde_json::Map<String, Value>> {
        s.get("properties").and_then(Value::as_object)
    }

    fn additional_properties(s: &Value) -> Option<&Value> {
        s.get("additionalProperties").filter(|a| a.is_object())
    }

    fn items(s: &Value) -> Option<&Value> {
        s.get("items").filter(|a| a.is_object())
    }

    fn get_schema_for_field<'a>(field: &str, s: Option<&'a Value>) -> Option<&'a Value> {
        let s = s?;
        properties(s)
            .and_then(|p| p.get(field))
            .or_else(|| additional_properties(s))
    }

    fn is_non_nullable_non_defaultable_null(x: &Value, s: Option<&Value>) -> bool {
        x.is_null() && s.is_some_and(|s| !nullable(s) && default_object(s).is_none())
    }

    fn is_non_nullable_null(x: &Value, s: Option<&Value>) -> bool {
        x.is_null() && s.is_some_and(|s| !nullable(s))
    }

    pub fn prune(x: &mut Value, s: Option<&Value>) {
        match x {
            Value::Object(m) => {
                let keys: Vec<String> = m.keys().cloned().collect();
                for k in keys {
                    let schema = get_schema_for_field(&k, s);
                    if is_non_nullable_non_defaultable_null(&m[&k], schema) {
                        m.remove(&k);
                    } else {
                        prune(m.get_mut(&k).unwrap(), schema);
                    }
                }
            }
            Value::Array(a) => {
                let schema = s.and_then(items);
                for v in a {
                    prune(v, schema);
                }
            }
            _ => {}
        }
    }

    pub fn default(x: &mut Value, s: Option<&Value>) {
        let Some(s) = s else { return };
        match x {
            Value::Object(m) => {
                for (k, prop) in properties(s).into_iter().flatten() {
                    let Some(d) = default_object(prop) else {
                        continue;
                    };
                    if !m.contains_key(k) || is_non_nullable_null(&m[k], Some(prop)) {
                        m.insert(k.clone(), d.clone());
                    }
                }
                for (k, v) in m.iter_mut() {
                    if let Some(prop) = properties(s).and_then(|p| p.get(k)) {
                        default(v, Some(prop));
                    } else if let Some(ap) = additional_properties(s) {
                        if is_non_nullable_null(v, Some(ap)) {
                            *v = default_object(ap).cloned().unwrap_or(Value::Null);
                        }
                        default(v, Some(ap));
                    }
                }
            }
            Value::Array(a) => {
                for v in a {
                    if is_non_nullable_null(v, items(s)) {
                        *v = items(s)
                            .and_then(default_object)
                            .cloned()
                            .unwrap_or(Value::Null);
                    }
                    default(v, items(s));
                }
            }
            _ => {}
        }
    }
}

// ------------------------------------------ strategies: arbitrary JSON

/// Keys that the example schemas and the random schemas use, so that the
/// random values meet their properties.
const KEYS: &[&str] = &[
    "a",
    "b",
    "c",
    "size",
    "suspend",
    "concurrencyPolicy",
    "successfulJobsHistoryLimit",
    "jobTemplate",
    "ports",
    "protocol",
    "labels",
    "quota",
    "spec",
];

fn arb_key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(&KEYS[..3]).prop_map(str::to_string),
        2 => prop::sample::select(KEYS).prop_map(str::to_string),
        1 => "[a-z]{0,3}",
    ]
}

fn arb_scalar() -> BoxedStrategy<Value> {
    prop_oneof![
        3 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::from),
        1 => any::<i64>().prop_map(Value::from),
        1 => any::<f64>().prop_map(Value::from),
        1 => "[a-zA-Z ]{0,4}".prop_map(Value::from),
    ]
    .boxed()
}

fn arb_json() -> BoxedStrategy<Value> {
    arb_scalar()
        .prop_recursive(5, 48, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map(arb_key(), inner, 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
        .boxed()
}

/// `nullable` and `default` of a random schema: mostly of the right JSON
/// type, sometimes not.
fn arb_nullable_and_default() -> impl Strategy<Value = (Option<Value>, Option<Value>)> {
    (
        prop::option::weighted(
            0.5,
            prop_oneof![4 => any::<bool>().prop_map(Value::from), 1 => arb_scalar()],
        ),
        prop::option::weighted(0.6, arb_json()),
    )
}

/// A schema object with the given keywords.
fn schema_object(keywords: [(&str, Option<Value>); 5]) -> Value {
    Value::Object(
        keywords
            .into_iter()
            .filter_map(|(k, v)| Some((k.to_string(), v?)))
            .collect(),
    )
}

/// Random schema-like values: the keywords defaulting reads, mostly of the
/// right JSON type, sometimes not.
fn arb_schema() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        6 => arb_nullable_and_default().prop_map(|(nullable, default)| schema_object([
            ("nullable", nullable),
            ("default", default),
            ("properties", None),
            ("additionalProperties", None),
            ("items", None),
        ])),
        1 => arb_json(),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        (
            prop::option::of(prop::collection::btree_map(arb_key(), inner.clone(), 0..4)),
            prop::option::weighted(
                0.3,
                prop_oneof![4 => inner.clone(), 1 => any::<bool>().prop_map(Value::from)],
            ),
            prop::option::weighted(
                0.3,
                prop_oneof![4 => inner, 1 => Just(json!([{"default": 1}]))],
            ),
            arb_nullable_and_default(),
        )
            .prop_map(|(props, ap, items, (nullable, default))| {
                schema_object([
                    ("nullable", nullable),
                    ("default", default),
                    (
                        "properties",
                        props.map(|p| Value::Object(p.into_iter().collect())),
                    ),
                    ("additionalProperties", ap),
                    ("items", items),
                ])
            })
    })
    .boxed()
}

// ----------------------------------------------- the example CRD schemas

/// `spec.versions[0].schema.openAPIV3Schema` of a CRD.
fn root_schema_of(crd: &api_core::crd::CustomResourceDefinition) -> Value {
    crd.to_json()["spec"]["versions"][0]["schema"]["openAPIV3Schema"].clone()
}

static MEMCACHED: LazyLock<Value> = LazyLock::new(|| root_schema_of(&Memcached::crd()));
static CRONJOB: LazyLock<Value> = LazyLock::new(|| root_schema_of(&CronJob::crd()));
static TENANT: LazyLock<Value> = LazyLock::new(|| root_schema_of(&Tenant::crd()));

fn spec_schema(root: &Value) -> &Value {
    &root["properties"]["spec"]
}

/// Guards against a vacuous property test: the schemas have the defaults
/// the types declare, where the test reads them.
#[test]
fn the_example_schemas_carry_the_defaults() {
    let mc = spec_schema(&MEMCACHED);
    assert_eq!(mc["properties"]["size"]["default"], json!(1));
    let cj = spec_schema(&CRONJOB);
    assert_eq!(cj["properties"]["concurrencyPolicy"]["default"], "Allow");
    assert_eq!(cj["properties"]["suspend"]["default"], false);
    assert_eq!(cj["properties"]["successfulJobsHistoryLimit"]["default"], 3);
    assert_eq!(
        cj["properties"]["jobTemplate"]["properties"]["ports"]["items"]["properties"]["protocol"]["default"],
        "TCP"
    );
    assert_eq!(spec_schema(&TENANT)["type"], "object");
    assert_eq!(
        defaulted(&json!({"jobTemplate": {"ports": [{}]}}), cj),
        json!({
            "concurrencyPolicy": "Allow",
            "suspend": false,
            "successfulJobsHistoryLimit": 3,
            "jobTemplate": {"ports": [{"protocol": "TCP"}]}
        })
    );
}

// ------------------------------------------------------------- properties

/// The typed defaults, serialised.
fn typed<T: ApiType + Serialize + Clone>(x: &T) -> Value {
    let mut x = x.clone();
    x.apply_defaults();
    serde_json::to_value(&x).unwrap()
}

/// The typed and runtime defaulting of `x` agree, both are idempotent, and
/// neither changes what `x` sets.
fn check_agreement<T: ApiType + Serialize + Clone + PartialEq + std::fmt::Debug>(
    x: &T,
    schema: &Value,
) -> Result<(), TestCaseError> {
    let wire = serde_json::to_value(x).unwrap();
    let by_type = typed(x);
    let by_schema = defaulted(&wire, schema);
    prop_assert_eq!(&by_type, &by_schema, "typed vs schema defaults of {}", wire);
    // Idempotence, typed...
    let mut once = x.clone();
    once.apply_defaults();
    let mut twice = once.clone();
    twice.apply_defaults();
    prop_assert_eq!(&twice, &once);
    // ...and by schema.
    prop_assert_eq!(defaulted(&by_schema, schema), by_schema.clone());
    // Never override: everything the value sets is still there.
    prop_assert!(keeps(&wire, &by_type, false), "{} -> {}", wire, by_type);
    prop_assert!(keeps(&wire, &by_schema, false), "{} -> {}", wire, by_schema);
    Ok(())
}

/// The paths of the `null`s in `v`.
fn null_paths(v: &Value, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Null => out.push(path.to_string()),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                null_paths(x, &format!("{path}[{i}]"), out);
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                null_paths(x, &format!("{path}.{k}"), out);
            }
        }
        _ => {}
    }
}

/// The same for a root object with the whole `openAPIV3Schema`, pruned
/// first as the apiserver does (the typed serialisation has no field the
/// schema does not know).
///
/// The one `null` a typed object writes is the zero `lastTransitionTime` of
/// a condition (as `metav1.Time` writes it), which the schema does not
/// allow: the apiserver drops it before defaulting (and then validation
/// reports the required field missing), so the typed form is compared with
/// its non-nullable nulls pruned. Decoding the apiserver's form gives the
/// typed form back.
fn check_root_agreement<T: ApiType + Serialize + DeserializeOwned + Clone>(
    x: &T,
    root_schema: &Value,
) -> Result<(), TestCaseError> {
    let wire = serde_json::to_value(x).unwrap();
    let mut pruned = wire.clone();
    prune(&mut pruned, root_schema, true);
    prop_assert_eq!(&pruned, &wire, "pruning changed the serialised object");

    let mut nulls = Vec::new();
    null_paths(&wire, "", &mut nulls);
    for path in &nulls {
        prop_assert!(
            path.starts_with(".status.conditions[") && path.ends_with("].lastTransitionTime"),
            "unexpected null at {}",
            path
        );
    }

    let by_type = typed(x);
    let by_schema = defaulted(&wire, root_schema);
    let mut by_type_pruned = by_type.clone();
    prune_non_nullable_nulls_without_defaults(&mut by_type_pruned, root_schema);
    prop_assert_eq!(&by_type_pruned, &by_schema);
    if nulls.is_empty() {
        prop_assert_eq!(&by_type, &by_schema);
    }
    let back: T = serde_json::from_value(by_schema).unwrap();
    prop_assert_eq!(serde_json::to_value(&back).unwrap(), by_type);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn memcached_typed_and_schema_defaults_agree(spec in arb_memcached_spec()) {
        check_agreement(&spec, spec_schema(&MEMCACHED))?;
    }

    #[test]
    fn cronjob_typed_and_schema_defaults_agree(spec in arb_cronjob_spec()) {
        check_agreement(&spec, spec_schema(&CRONJOB))?;
        // The parts on their own, with their subschemas.
        let jt = &spec_schema(&CRONJOB)["properties"]["jobTemplate"];
        check_agreement(&spec.job_template, jt)?;
        for port in &spec.job_template.ports {
            check_agreement(port, &jt["properties"]["ports"]["items"])?;
        }
    }

    #[test]
    fn tenant_typed_and_schema_defaults_agree(spec in arb_tenant_spec()) {
        check_agreement(&spec, spec_schema(&TENANT))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn root_objects_typed_and_schema_defaults_agree(
        mc in arb_memcached(),
        cj in arb_cronjob(),
        tn in arb_tenant(),
    ) {
        check_root_agreement(&mc, &MEMCACHED)?;
        check_root_agreement(&cj, &CRONJOB)?;
        check_root_agreement(&tn, &TENANT)?;
    }

    /// Arbitrary JSON against the example schemas: non-null values are
    /// kept, and defaulting twice is defaulting once.
    #[test]
    fn example_schemas_on_arbitrary_json(value in arb_json(), which in 0..6usize) {
        let schema = match which {
            0 => spec_schema(&MEMCACHED),
            1 => spec_schema(&CRONJOB),
            2 => spec_schema(&TENANT),
            3 => &*MEMCACHED,
            4 => &*CRONJOB,
            _ => &*TENANT,
        };
        let value = if which == 1 { json!({"jobTemplate": {"ports": [value]}}) } else { value };
        let once = defaulted(&value, schema);
        prop_assert!(keeps(&value, &once, true), "{} -> {}", value, once);
        prop_assert_eq!(defaulted(&once, schema), once.clone());
    }

    /// Arbitrary JSON against arbitrary schema-like values: no panic, the
    /// same result as the recursive transcription of the Go code, and
    /// non-null values are kept.
    #[test]
    fn matches_the_go_algorithm(value in arb_json(), schema in arb_schema()) {
        let mut got = value.clone();
        apply_schema_defaults(&mut got, &schema);
        let mut want = value.clone();
        go::prune(&mut want, Some(&schema));
        go::default(&mut want, Some(&schema));
        prop_assert_eq!(&got, &want);
        prop_assert!(keeps(&value, &got, true), "{} -> {}", value, got);

        let mut only_default = value.clone();
        default(&mut only_default, &schema);
        let mut want = value.clone();
        go::default(&mut want, Some(&schema));
        prop_assert_eq!(only_default, want);
    }
}
