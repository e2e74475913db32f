//! CRD validation ratcheting (`CRDValidationRatcheting`, GA in Kubernetes
//! 1.33) of the schema checks: `structural::validate_update` drops the
//! errors of values an update leaves as they were.
//!
//! The first three tests translate apiextensions-apiserver's
//! `pkg/apiserver/validation/ratcheting_test.go` (`TestScalarRatcheting`,
//! `TestObjectScalarFieldsRatcheting`, `TestObjectObjectFieldsRatcheting`);
//! the list cases follow `ratchetingValueValidator`'s correlation rules
//! (`correlateOldValueForChildAtNewIndex`: `map` lists by key, lists
//! without a list type by index, `set` and `atomic` lists not at all) and
//! the strategy's list-type check (`ValidateListSetsAndMaps` of the new
//! object only when the old one passes it).

use api_core::FieldPath;
use api_core::schema::structural::{validate, validate_update};
use serde_json::{Value, json};

fn number(min: Option<i64>, max: Option<i64>) -> Value {
    let mut s = json!({"type": "number"});
    if let Some(m) = min {
        s["minimum"] = json!(m);
    }
    if let Some(m) = max {
        s["maximum"] = json!(m);
    }
    s
}

/// `objectSchema`: zero (0..=0), small (..=50), medium (50..=10000),
/// large (10000..).
fn object_schema() -> Value {
    json!({"type": "object", "properties": {
        "zero": number(Some(0), Some(0)),
        "small": number(None, Some(50)),
        "medium": number(Some(50), Some(10000)),
        "large": number(Some(10000), None),
    }})
}

fn valid_update(schema: &Value, old: Value, new: Value) -> bool {
    validate_update(&new, &old, schema, &FieldPath::new("")).is_empty()
}

#[test]
fn scalar_ratcheting() {
    let medium = number(Some(50), Some(10000));
    assert!(valid_update(&medium, json!(1), json!(1)));
    assert!(!valid_update(&medium, json!(1), json!(2)));
    // Without an old value the same value is invalid.
    assert!(!validate(&json!(1), &medium, &FieldPath::new("")).is_empty());
}

#[test]
fn object_scalar_fields_ratcheting() {
    let schema = object_schema();
    assert!(valid_update(
        &schema,
        json!({"small": 500}),
        json!({"small": 500})
    ));
    assert!(valid_update(
        &schema,
        json!({"small": 501}),
        json!({"small": 501, "medium": 500})
    ));
    assert!(!valid_update(
        &schema,
        json!({"small": 500}),
        json!({"small": 501})
    ));
}

#[test]
fn object_object_fields_ratcheting() {
    let schema = json!({"type": "object", "properties": {"nested": object_schema()}});
    assert!(valid_update(
        &schema,
        json!({"nested": {"small": 500}}),
        json!({"nested": {"small": 500}})
    ));
    assert!(valid_update(
        &schema,
        json!({"nested": {"small": 501}}),
        json!({"nested": {"small": 501, "medium": 500}})
    ));
    assert!(!valid_update(
        &schema,
        json!({"nested": {"small": 500}}),
        json!({"nested": {"small": 501}})
    ));
}

fn list_schema(list_type: Option<&str>) -> Value {
    let mut s = json!({"type": "object", "properties": {"items": {
        "type": "array",
        "items": {"type": "object", "properties": {
            "name": {"type": "string"},
            "value": {"type": "string", "maxLength": 3}
        }}
    }}});
    if let Some(t) = list_type {
        s["properties"]["items"]["x-kubernetes-list-type"] = json!(t);
        if t == "map" {
            s["properties"]["items"]["x-kubernetes-list-map-keys"] = json!(["name"]);
            s["properties"]["items"]["items"]["required"] = json!(["name"]);
        }
    }
    s
}

#[test]
fn map_list_items_correlate_by_key() {
    let schema = list_schema(Some("map"));
    let old = json!({"items": [{"name": "a", "value": "too-long"}, {"name": "b", "value": "ok"}]});
    // Reordered, the invalid item unchanged: ratcheted.
    let new = json!({"items": [{"name": "b", "value": "ok"}, {"name": "a", "value": "too-long"}]});
    assert!(valid_update(&schema, old.clone(), new));
    // A new item with an invalid value is checked.
    let new = json!({"items": [
        {"name": "a", "value": "too-long"}, {"name": "b", "value": "ok"}, {"name": "c", "value": "long!"}
    ]});
    let errors = validate_update(&new, &old, &schema, &FieldPath::new("spec"));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors.as_slice()[0].field, "spec.items[2].value");
    // The invalid item changed (still invalid): checked.
    let new = json!({"items": [{"name": "a", "value": "too-long!"}, {"name": "b", "value": "ok"}]});
    assert!(!valid_update(&schema, old, new));
}

#[test]
fn items_of_lists_without_a_list_type_correlate_by_index() {
    let schema = list_schema(None);
    let old = json!({"items": [{"name": "a", "value": "too-long"}, {"name": "b", "value": "ok"}]});
    let same =
        json!({"items": [{"name": "a", "value": "too-long"}, {"name": "b", "value": "new"}]});
    assert!(valid_update(&schema, old.clone(), same));
    // Reordered: the invalid item is now at another index, which held
    // another value.
    let reordered =
        json!({"items": [{"name": "b", "value": "ok"}, {"name": "a", "value": "too-long"}]});
    assert!(!valid_update(&schema, old, reordered));
}

#[test]
fn set_and_atomic_list_items_do_not_correlate() {
    for list_type in ["set", "atomic"] {
        let schema = json!({"type": "object", "properties": {"tags": {
            "type": "array", "x-kubernetes-list-type": list_type,
            "items": {"type": "string", "maxLength": 3}
        }}});
        let old = json!({"tags": ["long-tag"]});
        // The list as a whole unchanged: ratcheted at the list.
        assert!(
            valid_update(&schema, old.clone(), old.clone()),
            "{list_type}"
        );
        // Another item added: the list changed, and its old item is
        // not correlated, so its error stands.
        let new = json!({"tags": ["long-tag", "ok"]});
        let errors = validate_update(&new, &old, &schema, &FieldPath::new(""));
        assert_eq!(errors.len(), 1, "{list_type}: {errors:?}");
        assert_eq!(errors.as_slice()[0].field, "tags[0]", "{list_type}");
    }
}

#[test]
fn list_uniqueness_is_checked_only_when_the_old_object_passed_it() {
    let schema = json!({"type": "object", "properties": {"tags": {
        "type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}
    }}, "x-kubernetes-preserve-unknown-fields": true});
    let duplicated = json!({"tags": ["a", "a"]});
    // Stored before the list became a set: still updatable.
    let mut touched = duplicated.clone();
    touched["other"] = json!(1);
    assert!(valid_update(&schema, duplicated.clone(), touched));
    // An object that passed may not gain a duplicate.
    let errors = validate_update(
        &duplicated,
        &json!({"tags": ["a"]}),
        &schema,
        &FieldPath::new(""),
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors.as_slice()[0].field, "tags[1]");
}

#[test]
fn required_fields_missing_from_an_unchanged_object_are_ratcheted() {
    // A property became required; an object stored without it is
    // unchanged below `spec`, so its `spec` errors are dropped (the
    // ratcheting validator turns a whole unchanged node's result into
    // warnings).
    let schema = json!({"type": "object", "properties": {
        "spec": {"type": "object", "required": ["size"], "properties": {"size": {"type": "integer"}}},
        "note": {"type": "string"}
    }});
    assert!(valid_update(
        &schema,
        json!({"spec": {}, "note": "a"}),
        json!({"spec": {}, "note": "b"})
    ));
    assert!(!valid_update(
        &schema,
        json!({"spec": {}, "note": "a"}),
        json!({"spec": {"other": 1}, "note": "a"})
    ));
}
