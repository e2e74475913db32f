//! apiextensions-apiserver's `TestValidateCustomResource`
//! (`pkg/apiserver/validation/validation_test.go`) translated: values of
//! custom resources against schemas, with the apiserver's messages, through
//! `structural::validate` (the schema's keywords, as `ValidateCustomResource`
//! runs kube-openapi's validator) and `cel::Validator` (the
//! `x-kubernetes-validations` rules, as `cel.NewValidator(structural,
//! false, ...)`: the values are not resources).
//!
//! Each case lists values that pass and values that fail with exactly the
//! given errors (compared as sets, as upstream compares them). The Go
//! schemas are written as the v1 JSON a CRD carries.
//!
//! One difference from the revision of the table translated: its rule
//! errors show the schema's type as the value (`Invalid value: "string":
//! failed rule: ...`); upstream's `validateExpressions` has since shown
//! the value itself (and omits objects and arrays), which this crate
//! follows, so those rows show the value.
//!
//! Also `TestItemsProperty`: a property named `items` is an object's
//! property, not the list keyword.

use std::collections::BTreeSet;

use api_core::FieldPath;
use api_core::cel::Validator;
use api_core::schema::structural::{validate, validate_update};
use serde_json::{Value, json};

struct Failing {
    object: Value,
    old: Option<Value>,
    errors: &'static [&'static str],
}

fn failing(object: Value, errors: &'static [&'static str]) -> Failing {
    Failing {
        object,
        old: None,
        errors,
    }
}

/// Every error `validate` and the rules give for `object` (and `old`).
fn errors_of(schema: &Value, object: &Value, old: Option<&Value>) -> BTreeSet<String> {
    let root = FieldPath::new("");
    // Upstream's table calls `ValidateCustomResource`, which does not
    // ratchet: the old object only reaches the rules.
    let mut errors = validate(object, schema, &root);
    Validator::for_value(schema).validate_into(object, old, &root, &mut errors);
    errors.as_slice().iter().map(ToString::to_string).collect()
}

fn check(name: &str, schema: Value, passing: &[(Value, Option<Value>)], failing: &[Failing]) {
    for (object, old) in passing {
        let errors = errors_of(&schema, object, old.as_ref());
        assert!(
            errors.is_empty(),
            "{name}: unexpected errors for {object}: {errors:#?}"
        );
    }
    for (i, f) in failing.iter().enumerate() {
        let got = errors_of(&schema, &f.object, f.old.as_ref());
        let want: BTreeSet<String> = f.errors.iter().map(ToString::to_string).collect();
        assert_eq!(got, want, "{name}, failing object {i}: {}", f.object);
    }
}

fn objects(values: &[Value]) -> Vec<(Value, Option<Value>)> {
    values.iter().map(|v| (v.clone(), None)).collect()
}

fn field(schema: Value) -> Value {
    json!({"type": "object", "properties": {"field": schema}})
}

#[test]
fn not_nullable() {
    check(
        "!nullable",
        field(json!({"type": "object", "nullable": false})),
        &objects(&[json!({}), json!({"field": {}})]),
        &[
            failing(
                json!({"field": "foo"}),
                &[
                    r#"field: Invalid value: "string": field in body must be of type object: "string""#,
                ],
            ),
            failing(
                json!({"field": 42}),
                &[
                    r#"field: Invalid value: "integer": field in body must be of type object: "integer""#,
                ],
            ),
            failing(
                json!({"field": true}),
                &[
                    r#"field: Invalid value: "boolean": field in body must be of type object: "boolean""#,
                ],
            ),
            failing(
                json!({"field": 1.2}),
                &[
                    r#"field: Invalid value: "number": field in body must be of type object: "number""#,
                ],
            ),
            failing(
                json!({"field": []}),
                &[
                    r#"field: Invalid value: "array": field in body must be of type object: "array""#,
                ],
            ),
            failing(
                json!({"field": null}),
                &[r#"field: Invalid value: "null": field in body must be of type object: "null""#],
            ),
        ],
    );
}

#[test]
fn nullable() {
    check(
        "nullable",
        field(json!({"type": "object", "nullable": true})),
        &objects(&[json!({}), json!({"field": {}}), json!({"field": null})]),
        &[
            failing(
                json!({"field": "foo"}),
                &[
                    r#"field: Invalid value: "string": field in body must be of type object: "string""#,
                ],
            ),
            failing(
                json!({"field": 42}),
                &[
                    r#"field: Invalid value: "integer": field in body must be of type object: "integer""#,
                ],
            ),
            failing(
                json!({"field": true}),
                &[
                    r#"field: Invalid value: "boolean": field in body must be of type object: "boolean""#,
                ],
            ),
            failing(
                json!({"field": 1.2}),
                &[
                    r#"field: Invalid value: "number": field in body must be of type object: "number""#,
                ],
            ),
            failing(
                json!({"field": []}),
                &[
                    r#"field: Invalid value: "array": field in body must be of type object: "array""#,
                ],
            ),
        ],
    );
}

#[test]
fn nullable_and_no_type() {
    check(
        "nullable and no type",
        field(json!({"nullable": true})),
        &objects(&[
            json!({}),
            json!({"field": {}}),
            json!({"field": null}),
            json!({"field": "foo"}),
            json!({"field": 42}),
            json!({"field": true}),
            json!({"field": 1.2}),
            json!({"field": []}),
        ]),
        &[],
    );
}

#[test]
fn int_or_string() {
    check(
        "x-kubernetes-int-or-string",
        field(json!({"x-kubernetes-int-or-string": true})),
        &objects(&[json!({}), json!({"field": 42}), json!({"field": "foo"})]),
        &[
            failing(
                json!({"field": null}),
                &[
                    r#"field: Invalid value: "null": field in body must be of type integer,string: "null""#,
                ],
            ),
            failing(
                json!({"field": true}),
                &[
                    r#"field: Invalid value: "boolean": field in body must be of type integer,string: "boolean""#,
                ],
            ),
            failing(
                json!({"field": 1.2}),
                &[
                    r#"field: Invalid value: "number": field in body must be of type integer,string: "number""#,
                ],
            ),
            failing(
                json!({"field": {}}),
                &[
                    r#"field: Invalid value: "object": field in body must be of type integer,string: "object""#,
                ],
            ),
            failing(
                json!({"field": []}),
                &[
                    r#"field: Invalid value: "array": field in body must be of type integer,string: "array""#,
                ],
            ),
        ],
    );
}

#[test]
fn nullable_int_or_string() {
    check(
        "nullable and x-kubernetes-int-or-string",
        field(json!({"nullable": true, "x-kubernetes-int-or-string": true})),
        &objects(&[
            json!({}),
            json!({"field": 42}),
            json!({"field": "foo"}),
            json!({"field": null}),
        ]),
        &[
            failing(
                json!({"field": true}),
                &[
                    r#"field: Invalid value: "boolean": field in body must be of type integer,string: "boolean""#,
                ],
            ),
            failing(
                json!({"field": 1.2}),
                &[
                    r#"field: Invalid value: "number": field in body must be of type integer,string: "number""#,
                ],
            ),
            failing(
                json!({"field": {}}),
                &[
                    r#"field: Invalid value: "object": field in body must be of type integer,string: "object""#,
                ],
            ),
            failing(
                json!({"field": []}),
                &[
                    r#"field: Invalid value: "array": field in body must be of type integer,string: "array""#,
                ],
            ),
        ],
    );
}

#[test]
fn nullable_int_or_string_and_any_of() {
    let schema = field(json!({"nullable": true, "x-kubernetes-int-or-string": true,
                              "anyOf": [{"type": "integer"}, {"type": "string"}]}));
    check(
        "nullable, x-kubernetes-int-or-string and user-provided anyOf",
        schema,
        &objects(&[
            json!({}),
            json!({"field": null}),
            json!({"field": 42}),
            json!({"field": "foo"}),
        ]),
        &[
            failing(
                json!({"field": true}),
                &[
                    r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                    r#"field: Invalid value: "boolean": field in body must be of type integer,string: "boolean""#,
                    r#"field: Invalid value: "boolean": field in body must be of type integer: "boolean""#,
                ],
            ),
            failing(
                json!({"field": 1.2}),
                &[
                    r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                    r#"field: Invalid value: "number": field in body must be of type integer,string: "number""#,
                    r#"field: Invalid value: "number": field in body must be of type integer: "number""#,
                ],
            ),
            failing(
                json!({"field": {}}),
                &[
                    r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                    r#"field: Invalid value: "object": field in body must be of type integer,string: "object""#,
                    r#"field: Invalid value: "object": field in body must be of type integer: "object""#,
                ],
            ),
            failing(
                json!({"field": []}),
                &[
                    r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                    r#"field: Invalid value: "array": field in body must be of type integer,string: "array""#,
                    r#"field: Invalid value: "array": field in body must be of type integer: "array""#,
                ],
            ),
        ],
    );
}

#[test]
fn nullable_int_or_string_and_all_of() {
    let schema = field(json!({"nullable": true, "x-kubernetes-int-or-string": true,
                              "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}]}));
    check(
        "nullable, x-kubernetes-int-or-string and user-provider allOf",
        schema,
        &objects(&[
            json!({}),
            json!({"field": null}),
            json!({"field": 42}),
            json!({"field": "foo"}),
        ]),
        &[
            failing(
                json!({"field": true}),
                &[
                    r#"<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated"#,
                    r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                    r#"field: Invalid value: "boolean": field in body must be of type integer,string: "boolean""#,
                    r#"field: Invalid value: "boolean": field in body must be of type integer: "boolean""#,
                ],
            ),
            failing(
                json!({"field": 1.2}),
                &[
                    r#"<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated"#,
                    r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                    r#"field: Invalid value: "number": field in body must be of type integer,string: "number""#,
                    r#"field: Invalid value: "number": field in body must be of type integer: "number""#,
                ],
            ),
            failing(
                json!({"field": {}}),
                &[
                    r#"<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated"#,
                    r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                    r#"field: Invalid value: "object": field in body must be of type integer,string: "object""#,
                    r#"field: Invalid value: "object": field in body must be of type integer: "object""#,
                ],
            ),
            failing(
                json!({"field": []}),
                &[
                    r#"<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated"#,
                    r#"<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)"#,
                    r#"field: Invalid value: "array": field in body must be of type integer,string: "array""#,
                    r#"field: Invalid value: "array": field in body must be of type integer: "array""#,
                ],
            ),
        ],
    );
}

#[test]
fn invalid_regex() {
    check(
        "invalid regex",
        field(json!({"type": "string", "pattern": "+"})),
        &[],
        &[failing(
            json!({"field": "foo"}),
            &[
                "field: Invalid value: \"foo\": field in body should match '+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`'",
            ],
        )],
    );
}

#[test]
fn required_field() {
    let schema = json!({"type": "object", "required": ["field"], "properties": {
        "field": {"type": "object", "required": ["nested"], "properties": {"nested": {}}}}});
    check(
        "required field",
        schema,
        &[],
        &[
            failing(json!({"test": "a"}), &["field: Required value"]),
            failing(json!({"field": {}}), &["field.nested: Required value"]),
        ],
    );
}

#[test]
fn enums() {
    let schema = field(
        json!({"type": "object", "required": ["nestedint", "nestedstring"],
        "properties": {
            "nestedint": {"type": "integer", "enum": [1, 2]},
            "nestedstring": {"type": "string", "enum": ["a", "b"]}}}),
    );
    check(
        "enum",
        schema,
        &[],
        &[
            failing(
                json!({"field": {}}),
                &[
                    "field.nestedint: Required value",
                    "field.nestedstring: Required value",
                ],
            ),
            failing(
                json!({"field": {"nestedint": "x", "nestedstring": true}}),
                &[
                    r#"field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string""#,
                    r#"field.nestedint: Unsupported value: "x": supported values: "1", "2""#,
                    r#"field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean""#,
                    r#"field.nestedstring: Unsupported value: true: supported values: "a", "b""#,
                ],
            ),
        ],
    );
}

#[test]
fn immutability_transition_rule() {
    let schema = field(json!({"type": "string",
        "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}));
    check(
        "immutability transition rule",
        schema,
        &[(json!({"field": "x"}), Some(json!({"field": "x"})))],
        &[Failing {
            object: json!({"field": "y"}),
            old: Some(json!({"field": "x"})),
            errors: &[r#"field: Invalid value: "y": failed rule: self == oldSelf"#],
        }],
    );
}

#[test]
fn correlatable_transition_rule() {
    let schema = field(json!({"type": "array", "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["k1", "k2"],
        "items": {"type": "object", "properties": {
            "k1": {"type": "string"}, "k2": {"type": "string"},
            "v1": {"type": "number", "x-kubernetes-validations": [{"rule": "self >= oldSelf"}]}}}}));
    check(
        "correlatable transition rule",
        schema,
        &[(
            json!({"field": [{"k1": "a", "k2": "b", "v1": 1.2}]}),
            Some(json!({"field": [{"k1": "a", "k2": "b", "v1": 1.0}]})),
        )],
        &[Failing {
            object: json!({"field": [{"k1": "a", "k2": "b", "v1": 0.9}]}),
            old: Some(json!({"field": [{"k1": "a", "k2": "b", "v1": 1.0}]})),
            errors: &[r#"field[0].v1: Invalid value: 0.9: failed rule: self >= oldSelf"#],
        }],
    );
}

#[test]
fn validation_rule_under_non_correlatable_field() {
    let schema = field(
        json!({"type": "array", "items": {"type": "object", "properties": {
        "x": {"type": "string", "x-kubernetes-validations": [{"rule": "self == 'x'"}]}}}}),
    );
    check(
        "validation rule under non-correlatable field",
        schema,
        &objects(&[json!({"field": [{"x": "x"}]})]),
        &[failing(
            json!({"field": [{"x": "y"}]}),
            &[r#"field[0].x: Invalid value: "y": failed rule: self == 'x'"#],
        )],
    );
}

#[test]
fn max_properties_items_and_length() {
    check(
        "maxProperties",
        json!({"type": "object", "properties": {"fieldX": {"type": "object", "maxProperties": 2}}}),
        &[],
        &[failing(
            json!({"fieldX": {"a": true, "b": true, "c": true}}),
            &["fieldX: Too many: 3: must have at most 2 items"],
        )],
    );
    check(
        "maxItems",
        json!({"type": "object", "properties": {"fieldX": {"type": "array", "maxItems": 2}}}),
        &[],
        &[failing(
            json!({"fieldX": ["a", "b", "c"]}),
            &["fieldX: Too many: 3: must have at most 2 items"],
        )],
    );
    check(
        "maxLength",
        json!({"type": "object", "properties": {"fieldX": {"type": "string", "maxLength": 2}}}),
        &[],
        &[failing(
            json!({"fieldX": "abc"}),
            &["fieldX: Too long: may not be more than 2 bytes"],
        )],
    );
}

/// `TestItemsProperty`.
#[test]
fn items_as_a_property() {
    let in_object = json!({"properties": {"spec": {"properties": {
        "replicas": {"type": "integer"}}}}});
    assert!(
        validate(
            &json!({"spec": {"replicas": 1, "items": ["1", "2"]}}),
            &in_object,
            &FieldPath::new("")
        )
        .is_empty()
    );
    let in_array = json!({"properties": {"secrets": {"type": "array",
        "items": {"type": "string"}}}});
    assert!(
        validate(
            &json!({"secrets": ["1", "2"]}),
            &in_array,
            &FieldPath::new("")
        )
        .is_empty()
    );
}

/// The same int-or-string check under ratcheting: an unchanged boolean
/// stored before is let through, a changed one is not.
#[test]
fn int_or_string_is_ratcheted_as_any_type() {
    let schema = field(json!({"x-kubernetes-int-or-string": true}));
    let root = FieldPath::new("");
    assert!(
        validate_update(
            &json!({"field": true}),
            &json!({"field": true}),
            &schema,
            &root
        )
        .is_empty()
    );
    assert_eq!(
        validate_update(
            &json!({"field": false}),
            &json!({"field": true}),
            &schema,
            &root
        )
        .len(),
        1
    );
}
