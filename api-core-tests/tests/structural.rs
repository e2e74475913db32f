//! The structural-schema checker (`api_core::schema::structural`) against
//! apiserver.md §5: real CRDs pass, every rule has a failing case with the
//! apiserver's error type and field path, and no input makes it panic or
//! overflow the stack.
//!
//! The corpus fixtures in `tests/fixtures/corpus-json/` are controller-gen
//! CRDs from kubernetes-sigs/controller-tools @ 434758187ddd
//! (`pkg/crd/testdata/`, Apache-2.0), converted once to JSON, unchanged in
//! content, with PyYAML (`CORPUS` being the directory of the YAML files):
//!
//! ```sh
//! python3 -c 'import yaml, json, glob, os
//! for f in sorted(glob.glob(os.environ["CORPUS"] + "/*.yaml")):
//!     doc = next(d for d in yaml.safe_load_all(open(f)) if d is not None)
//!     out = "api-core-tests/tests/fixtures/corpus-json/" + os.path.basename(f)[:-5] + ".json"
//!     with open(out, "w") as o: json.dump(doc, o, indent=2, sort_keys=True); o.write("\n")'
//! ```

use api_core::schema::structural::{
    MAX_SCHEMA_DEPTH, SchemaCheckOptions, check_crd, check_schema, prune,
};
use api_core::validation::{ErrorList, ErrorType, FieldError};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

// ---------------------------------------------------------------- helpers

fn check(schema: Value) -> ErrorList {
    check_schema(&schema, &SchemaCheckOptions::default())
}

fn check_with_status(schema: Value) -> ErrorList {
    check_schema(
        &schema,
        &SchemaCheckOptions {
            status_subresource: true,
        },
    )
}

fn listing(errors: &ErrorList) -> String {
    errors
        .iter()
        .map(|e| format!("  {} [{}]", e, e.error_type.as_str()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first error of type `ty` at `field`; panics with all errors if none.
#[track_caller]
fn expect(errors: &ErrorList, ty: ErrorType, field: &str) -> FieldError {
    match errors
        .iter()
        .find(|e| e.error_type == ty && e.field == field)
    {
        Some(e) => e.clone(),
        None => panic!(
            "expected {} at {field}, got:\n{}",
            ty.as_str(),
            listing(errors)
        ),
    }
}

/// Like [`expect`], and that error must be the only one.
#[track_caller]
fn expect_only(errors: &ErrorList, ty: ErrorType, field: &str) -> FieldError {
    let e = expect(errors, ty, field);
    assert_eq!(
        errors.len(),
        1,
        "expected one error, got:\n{}",
        listing(errors)
    );
    e
}

#[track_caller]
fn expect_none(errors: &ErrorList) {
    assert!(
        errors.is_empty(),
        "expected no errors, got:\n{}",
        listing(errors)
    );
}

/// A resource root whose `spec` is the given schema.
fn with_spec(spec: Value) -> Value {
    json!({
        "type": "object",
        "properties": {
            "apiVersion": {"type": "string"},
            "kind": {"type": "string"},
            "metadata": {"type": "object"},
            "spec": spec,
        }
    })
}

/// A resource root whose `spec` is an object with the given properties.
fn with_spec_props(props: Value) -> Value {
    with_spec(json!({"type": "object", "properties": props}))
}

const SPEC: &str = "openAPIV3Schema.properties[spec]";

fn at_spec(rest: &str) -> String {
    format!("{SPEC}{rest}")
}

/// A valid v1 CRD with one version and the status subresource.
fn crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {
                "kind": "Widget",
                "listKind": "WidgetList",
                "plural": "widgets",
                "singular": "widget",
                "shortNames": ["wd"],
                "categories": ["all"]
            },
            "scope": "Namespaced",
            "versions": [{
                "name": "v1",
                "served": true,
                "storage": true,
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "properties": {
                        "apiVersion": {"type": "string"},
                        "kind": {"type": "string"},
                        "metadata": {"type": "object"},
                        "spec": {"type": "object", "properties": {
                            "size": {"type": "integer", "default": 1},
                            "colour": {"type": "string"},
                            "ready": {"type": "boolean"},
                            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                            "items": {"type": "array", "items": {"type": "string"}}
                        }},
                        "status": {"type": "object", "properties": {
                            "replicas": {"type": "integer"},
                            "selector": {"type": "string"}
                        }}
                    }
                }},
                "subresources": {"status": {}}
            }]
        }
    })
}

/// `crd()` changed at a JSON pointer.
fn crd_with(pointer: &str, value: Value) -> Value {
    let mut c = crd();
    set(&mut c, pointer, value);
    c
}

fn set(v: &mut Value, pointer: &str, value: Value) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let parent = v
        .pointer_mut(parent)
        .unwrap_or_else(|| panic!("no {parent}"));
    match parent {
        Value::Object(m) => {
            m.insert(key.to_string(), value);
        }
        Value::Array(a) => {
            let i: usize = key.parse().unwrap();
            if i == a.len() {
                a.push(value);
            } else {
                a[i] = value;
            }
        }
        _ => panic!("{pointer}"),
    }
}

fn remove(v: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    v.pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .unwrap()
        .remove(key);
}

const V0: &str = "spec.versions[0]";
const V0_SCHEMA: &str = "spec.versions[0].schema.openAPIV3Schema";

/// Drops a value without recursion (a deeply nested `Value` would
/// overflow the stack in its own `Drop`).
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

// ----------------------------------------------------------------- corpus

#[test]
fn every_corpus_crd_passes() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/corpus-json");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let crd: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let errors = check_crd(&crd);
        assert!(
            errors.is_empty(),
            "{} has errors:\n{}",
            path.display(),
            listing(&errors)
        );
        seen += 1;
    }
    assert_eq!(seen, 8, "corpus fixtures missing");
}

#[test]
fn the_base_fixtures_are_valid() {
    expect_none(&check_crd(&crd()));
    expect_none(&check(with_spec_props(json!({"a": {"type": "string"}}))));
}

// ------------------------------------------- 5.1 forbidden keywords

#[test]
fn unsupported_keywords_are_forbidden() {
    for (key, value) in [
        ("$ref", json!("#/definitions/a")),
        ("id", json!("a")),
        ("definitions", json!({"a": {"type": "string"}})),
        ("dependencies", json!({"a": ["b"]})),
        ("patternProperties", json!({"^a": {"type": "string"}})),
        ("deprecated", json!(true)),
        ("discriminator", json!({"propertyName": "kind"})),
        ("readOnly", json!(true)),
        ("writeOnly", json!(true)),
        ("xml", json!({"name": "a"})),
    ] {
        let mut spec = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        spec[key] = value;
        let errors = check(with_spec(spec));
        let e = expect_only(&errors, ErrorType::Forbidden, &at_spec(&format!(".{key}")));
        assert_eq!(e.detail, format!("{key} is not supported"));
    }
    let errors = check(with_spec_props(json!({"list": {
        "type": "array", "items": {"type": "string"}, "additionalItems": false
    }})));
    let e = expect_only(
        &errors,
        ErrorType::Forbidden,
        &at_spec(".properties[list].additionalItems"),
    );
    assert_eq!(e.detail, "additionalItems is not supported");
}

#[test]
fn schema_keyword_fails_conversion_only() {
    // `$schema` is only rejected when the schema is made structural.
    let mut schema = with_spec_props(json!({"a": {"type": "string"}}));
    schema["$schema"] = json!("http://json-schema.org/draft-04/schema#");
    let e = expect_only(&check(schema), ErrorType::Invalid, "openAPIV3Schema");
    assert_eq!(e.detail, "OpenAPIV3Schema 'schema' is not supported");
}

#[test]
fn items_must_not_be_an_array() {
    let errors = check(with_spec_props(json!({"list": {
        "type": "array", "items": [{"type": "string"}]
    }})));
    let e = expect_only(
        &errors,
        ErrorType::Forbidden,
        &at_spec(".properties[list].items"),
    );
    assert_eq!(e.detail, "items must be a schema object and not an array");
}

#[test]
fn type_must_be_an_openapi_type() {
    let errors = check(with_spec_props(json!({"a": {"type": "date"}})));
    let e = expect_only(
        &errors,
        ErrorType::NotSupported,
        &at_spec(".properties[a].type"),
    );
    assert_eq!(
        e.error_body(),
        r#"Unsupported value: "date": supported values: "array", "boolean", "integer", "number", "object", "string""#
    );

    let errors = check(with_spec_props(json!({"a": {"type": "null"}})));
    expect(
        &errors,
        ErrorType::NotSupported,
        &at_spec(".properties[a].type"),
    );
    let e = expect(
        &errors,
        ErrorType::Forbidden,
        &at_spec(".properties[a].type"),
    );
    assert_eq!(
        e.detail,
        "type cannot be set to null, use nullable as an alternative"
    );
}

#[test]
fn unique_items_is_forbidden() {
    let errors = check(with_spec_props(json!({"list": {
        "type": "array", "items": {"type": "string"}, "uniqueItems": true
    }})));
    expect_only(
        &errors,
        ErrorType::Forbidden,
        &at_spec(".properties[list].uniqueItems"),
    );
}

#[test]
fn defaults_are_forbidden_in_top_level_meta() {
    let mut schema = with_spec_props(json!({"a": {"type": "string"}}));
    schema["properties"]["metadata"]["default"] = json!({});
    let e = expect_only(
        &check(schema),
        ErrorType::Forbidden,
        "openAPIV3Schema.properties[metadata].default",
    );
    assert_eq!(e.detail, "must not be set in top-level metadata");

    let mut schema = with_spec_props(json!({"a": {"type": "string"}}));
    schema["properties"]["kind"]["default"] = json!("Widget");
    let e = expect_only(
        &check(schema),
        ErrorType::Forbidden,
        "openAPIV3Schema.properties[kind].default",
    );
    assert_eq!(e.detail, "must not be set in top-level kind");

    let mut schema = with_spec_props(json!({"a": {"type": "string"}}));
    schema["properties"]["apiVersion"]["default"] = json!("example.com/v1");
    expect_only(
        &check(schema),
        ErrorType::Forbidden,
        "openAPIV3Schema.properties[apiVersion].default",
    );
}

#[test]
fn defaults_are_forbidden_in_additional_properties_of_embedded_metadata() {
    let errors = check(with_spec_props(json!({"template": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {"metadata": {"type": "object", "properties": {
            "labels": {"type": "object", "additionalProperties": {"type": "string", "default": "x"}}
        }}}
    }})));
    let e = expect_only(
        &errors,
        ErrorType::Forbidden,
        &at_spec(
            ".properties[template].properties[metadata].properties[labels].additionalProperties.default",
        ),
    );
    assert_eq!(
        e.detail,
        "must not be set inside additionalProperties applying to object metadata"
    );
}

#[test]
fn nullable_root_is_forbidden() {
    let mut schema = with_spec_props(json!({"a": {"type": "string"}}));
    schema["nullable"] = json!(true);
    let e = expect_only(
        &check(schema),
        ErrorType::Forbidden,
        "openAPIV3Schema.nullable",
    );
    assert_eq!(e.detail, "nullable cannot be true at the root");
}

#[test]
fn preserve_unknown_fields_must_be_true_or_undefined() {
    let errors = check(with_spec(json!({
        "type": "object", "x-kubernetes-preserve-unknown-fields": false
    })));
    let e = expect_only(
        &errors,
        ErrorType::Invalid,
        &at_spec(".x-kubernetes-preserve-unknown-fields"),
    );
    assert_eq!(e.detail, "must be true or undefined");
    assert_eq!(e.bad_value, Some(json!(false)));
}

#[test]
fn embedded_resource_is_forbidden_inside_resource_meta() {
    let errors = check(with_spec_props(json!({"template": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {"metadata": {"type": "object", "properties": {
            "nested": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "x-kubernetes-preserve-unknown-fields": true
            }
        }}}
    }})));
    let e = expect_only(
        &errors,
        ErrorType::Forbidden,
        &at_spec(
            ".properties[template].properties[metadata].properties[nested].x-kubernetes-embedded-resource",
        ),
    );
    assert_eq!(e.detail, "must not be used inside of resource meta");
}

#[test]
fn mistyped_keywords_are_reported() {
    let errors = check(with_spec_props(json!({"a": {"type": 5}})));
    expect(
        &errors,
        ErrorType::TypeInvalid,
        &at_spec(".properties[a].type"),
    );
    let errors = check(with_spec_props(json!({"a": "string"})));
    expect(&errors, ErrorType::TypeInvalid, &at_spec(".properties[a]"));
    let errors = check(with_spec_props(
        json!({"a": {"type": "string", "maxLength": "5"}}),
    ));
    expect_only(
        &errors,
        ErrorType::TypeInvalid,
        &at_spec(".properties[a].maxLength"),
    );
    let errors = check(json!(42));
    expect_only(&errors, ErrorType::TypeInvalid, "openAPIV3Schema");
}

// ------------------------------------------- 5.2 structural invariants

#[test]
fn type_is_required_everywhere() {
    let e = expect_only(
        &check(json!({"properties": {"spec": {"type": "object"}}})),
        ErrorType::Required,
        "openAPIV3Schema.type",
    );
    assert_eq!(e.detail, "must not be empty at the root");

    let e = expect_only(
        &check(with_spec_props(json!({"a": {"description": "no type"}}))),
        ErrorType::Required,
        &at_spec(".properties[a].type"),
    );
    assert_eq!(e.detail, "must not be empty for specified object fields");

    let e = expect_only(
        &check(with_spec_props(
            json!({"list": {"type": "array", "items": {"minLength": 1}}}),
        )),
        ErrorType::Required,
        &at_spec(".properties[list].items.type"),
    );
    assert_eq!(e.detail, "must not be empty for specified array items");

    let e = expect_only(
        &check(with_spec_props(
            json!({"map": {"type": "object", "additionalProperties": {}}}),
        )),
        ErrorType::Required,
        &at_spec(".properties[map].additionalProperties.type"),
    );
    assert_eq!(e.detail, "must not be empty for specified object fields");
}

#[test]
fn int_or_string_and_preserve_unknown_fields_need_no_type() {
    expect_none(&check(with_spec_props(json!({
        "port": {"x-kubernetes-int-or-string": true},
        "raw": {"x-kubernetes-preserve-unknown-fields": true},
        "portWithAnyOf": {
            "x-kubernetes-int-or-string": true,
            "anyOf": [{"type": "integer"}, {"type": "string"}]
        },
        "portWithAllOf": {
            "x-kubernetes-int-or-string": true,
            "allOf": [
                {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                {"pattern": "^[0-9]+%?$"}
            ]
        }
    }))));
}

#[test]
fn root_type_must_be_object() {
    let e = expect_only(
        &check(json!({"type": "string"})),
        ErrorType::Invalid,
        "openAPIV3Schema.type",
    );
    assert_eq!(e.detail, "must be object at the root");
}

#[test]
fn arrays_need_items() {
    let e = expect_only(
        &check(with_spec_props(json!({"list": {"type": "array"}}))),
        ErrorType::Required,
        &at_spec(".properties[list].items"),
    );
    assert_eq!(e.detail, "must be specified");
}

#[test]
fn additional_properties_is_forbidden_at_the_root_and_on_embedded_resources() {
    let e = expect_only(
        &check(json!({"type": "object", "additionalProperties": {"type": "string"}})),
        ErrorType::Forbidden,
        "openAPIV3Schema.additionalProperties",
    );
    assert_eq!(e.detail, "must not be used at the root");

    let errors = check(with_spec_props(json!({"template": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
        "additionalProperties": {"type": "string"}
    }})));
    let e = expect_only(
        &errors,
        ErrorType::Forbidden,
        &at_spec(".properties[template].additionalProperties"),
    );
    assert_eq!(
        e.detail,
        "must not be used if x-kubernetes-embedded-resource is set"
    );
}

#[test]
fn int_or_string_excludes_preserve_unknown_fields_and_embedded_resource() {
    let errors = check(with_spec_props(json!({"port": {
        "x-kubernetes-int-or-string": true,
        "x-kubernetes-preserve-unknown-fields": true
    }})));
    let e = expect_only(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[port].x-kubernetes-preserve-unknown-fields"),
    );
    assert_eq!(
        e.detail,
        "must be false if x-kubernetes-int-or-string is true"
    );

    let errors = check(with_spec_props(json!({"port": {
        "type": "object",
        "x-kubernetes-int-or-string": true,
        "x-kubernetes-embedded-resource": true,
        "properties": {"a": {"type": "string"}}
    }})));
    expect_only(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[port].x-kubernetes-embedded-resource"),
    );
}

#[test]
fn embedded_resources_are_objects_with_properties() {
    let errors = check(with_spec_props(json!({"template": {
        "type": "string",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true
    }})));
    let e = expect_only(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[template].type"),
    );
    assert_eq!(
        e.detail,
        "must be object if x-kubernetes-embedded-resource is true"
    );

    let errors = check(with_spec_props(json!({"template": {
        "type": "object", "x-kubernetes-embedded-resource": true
    }})));
    let e = expect_only(
        &errors,
        ErrorType::Required,
        &at_spec(".properties[template].properties"),
    );
    assert_eq!(
        e.detail,
        "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"
    );
}

#[test]
fn kind_and_api_version_are_strings_and_metadata_an_object() {
    let mut schema = with_spec_props(json!({"a": {"type": "string"}}));
    schema["properties"]["kind"] = json!({"type": "integer"});
    let e = expect_only(
        &check(schema),
        ErrorType::Invalid,
        "openAPIV3Schema.properties[kind].type",
    );
    assert_eq!(e.detail, "must be string");

    let errors = check(with_spec_props(json!({"template": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {"apiVersion": {"type": "boolean"}, "metadata": {"type": "string"}}
    }})));
    expect(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[template].properties[apiVersion].type"),
    );
    let e = expect(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[template].properties[metadata].type"),
    );
    assert_eq!(e.detail, "must be object");
    assert_eq!(errors.len(), 2, "{}", listing(&errors));
}

#[test]
fn root_metadata_may_only_restrict_name_and_generate_name() {
    let mut ok = with_spec_props(json!({"a": {"type": "string"}}));
    ok["properties"]["metadata"] = json!({"type": "object", "properties": {
        "name": {"type": "string", "maxLength": 20},
        "generateName": {"type": "string"}
    }});
    expect_none(&check(ok));

    for metadata in [
        json!({"type": "object", "properties": {"labels": {"type": "object"}}}),
        json!({"type": "object", "description": "standard object metadata"}),
        json!({"type": "object", "required": ["name"]}),
    ] {
        let mut schema = with_spec_props(json!({"a": {"type": "string"}}));
        schema["properties"]["metadata"] = metadata;
        let e = expect_only(
            &check(schema),
            ErrorType::Forbidden,
            "openAPIV3Schema.properties[metadata]",
        );
        assert_eq!(
            e.detail,
            "must not specify anything other than name and generateName, but metadata is implicitly specified"
        );
    }

    let mut schema = with_spec_props(json!({"a": {"type": "string"}}));
    schema["properties"]["metadata"] = json!({"type": "string"});
    let e = expect_only(
        &check(schema),
        ErrorType::Invalid,
        "openAPIV3Schema.properties[metadata].type",
    );
    assert_eq!(e.detail, "must be object");
}

#[test]
fn metadata_must_not_be_specified_in_junctors() {
    let mut schema = with_spec_props(json!({"a": {"type": "string"}}));
    schema["anyOf"] = json!([{"properties": {"metadata": {}}}, {"required": ["spec"]}]);
    let e = expect_only(
        &check(schema),
        ErrorType::Forbidden,
        "openAPIV3Schema.anyOf[0].properties[metadata]",
    );
    assert_eq!(e.detail, "must not be specified in a nested context");
}

#[test]
fn patterns_must_compile() {
    let errors = check(with_spec_props(
        json!({"a": {"type": "string", "pattern": "^(a"}}),
    ));
    let e = expect_only(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[a].pattern"),
    );
    assert!(
        e.detail
            .starts_with("must be a valid regular expression, but isn't: error parsing regexp: "),
        "{}",
        e.detail
    );
    // Go (RE2) syntax the regex crate needs help with.
    expect_none(&check(with_spec_props(json!({
        "letters": {"type": "string", "pattern": "^\\p{L}[\\p{L}\\p{N}_-]*$"},
        "folded": {"type": "string", "pattern": "(?i)^[a-z]+$"},
        "quoted": {"type": "string", "pattern": "^\\Q1.2(\\E$"},
        "long": {"type": "string", "pattern": "^\\w{1,1000}$"}
    }))));
    // Go's repeat limit is 1000.
    let errors = check(with_spec_props(
        json!({"a": {"type": "string", "pattern": "^a{1001}$"}}),
    ));
    expect_only(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[a].pattern"),
    );
}

// ------------------------------------------------------- 5.3 junctors

#[test]
fn junctors_must_not_specify_structure() {
    for (key, value) in [
        ("type", json!("string")),
        ("description", json!("d")),
        ("title", json!("t")),
        ("default", json!("x")),
        ("additionalProperties", json!({"type": "string"})),
        ("nullable", json!(true)),
        ("x-kubernetes-preserve-unknown-fields", json!(true)),
        ("x-kubernetes-embedded-resource", json!(true)),
        ("x-kubernetes-int-or-string", json!(true)),
        ("x-kubernetes-list-type", json!("atomic")),
        ("x-kubernetes-list-map-keys", json!(["a"])),
        ("x-kubernetes-map-type", json!("atomic")),
        ("x-kubernetes-validations", json!([{"rule": "true"}])),
    ] {
        for junctor in ["allOf", "anyOf", "oneOf"] {
            let mut clause = json!({"required": ["a"]});
            clause[key] = value.clone();
            let mut spec = json!({"type": "object", "properties": {"a": {"type": "string"}}});
            spec[junctor] = json!([clause]);
            let errors = check(with_spec(spec));
            let e = expect(
                &errors,
                ErrorType::Forbidden,
                &at_spec(&format!(".{junctor}[0].{key}")),
            );
            assert!(
                e.detail.ends_with("to be structural"),
                "{key}: {}",
                e.detail
            );
        }
        let mut clause = json!({"required": ["a"]});
        clause[key] = value.clone();
        let spec =
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "not": clause});
        expect(
            &check(with_spec(spec)),
            ErrorType::Forbidden,
            &at_spec(&format!(".not.{key}")),
        );
    }
}

#[test]
fn int_or_string_exceptions_are_exact() {
    // anything but the exact pattern is judged like any junctor
    let errors = check(with_spec_props(json!({"port": {
        "x-kubernetes-int-or-string": true,
        "anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 5}]
    }})));
    expect(
        &errors,
        ErrorType::Forbidden,
        &at_spec(".properties[port].anyOf[0].type"),
    );
    expect(
        &errors,
        ErrorType::Forbidden,
        &at_spec(".properties[port].anyOf[1].type"),
    );
    assert_eq!(errors.len(), 2, "{}", listing(&errors));

    // the allOf form only exempts the first allOf entry
    let errors = check(with_spec_props(json!({"port": {
        "x-kubernetes-int-or-string": true,
        "allOf": [
            {"anyOf": [{"type": "integer"}, {"type": "string"}]},
            {"anyOf": [{"type": "integer"}, {"type": "string"}]}
        ]
    }})));
    expect(
        &errors,
        ErrorType::Forbidden,
        &at_spec(".properties[port].allOf[1].anyOf[0].type"),
    );
    expect(
        &errors,
        ErrorType::Forbidden,
        &at_spec(".properties[port].allOf[1].anyOf[1].type"),
    );
    assert_eq!(errors.len(), 2, "{}", listing(&errors));
}

#[test]
fn junctor_fields_must_be_specified_structurally() {
    let errors = check(with_spec(json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "anyOf": [{"properties": {"b": {"minLength": 1}}}, {"required": ["a"]}]
    })));
    let e = expect_only(&errors, ErrorType::Required, &at_spec(".properties[b]"));
    assert_eq!(
        e.detail,
        "because it is defined in openAPIV3Schema.properties[spec].anyOf[0].properties[b]"
    );

    let mut schema = with_spec_props(json!({"a": {"type": "string"}}));
    schema["oneOf"] =
        json!([{"properties": {"spec": {"properties": {"a": {"items": {"minLength": 1}}}}}}]);
    let e = expect_only(
        &check(schema),
        ErrorType::Required,
        &at_spec(".properties[a].items"),
    );
    assert_eq!(
        e.detail,
        "because it is defined in openAPIV3Schema.oneOf[0].properties[spec].properties[a].items"
    );

    expect_none(&check(with_spec(json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "oneOf": [{"required": ["a"]}, {"properties": {"b": {"minLength": 2}}, "required": ["b"]}],
        "not": {"properties": {"a": {"enum": ["forbidden"]}}}
    }))));
}

// ---------------------- 5.4 properties, additionalProperties, extensions

#[test]
fn properties_and_additional_properties_are_exclusive() {
    let errors = check(with_spec(json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "additionalProperties": {"type": "string"}
    })));
    let e = expect_only(
        &errors,
        ErrorType::Forbidden,
        &at_spec(".additionalProperties"),
    );
    assert_eq!(
        e.detail,
        "additionalProperties and properties are mutual exclusive"
    );

    let errors = check(with_spec(json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "additionalProperties": false
    })));
    expect_only(
        &errors,
        ErrorType::Forbidden,
        &at_spec(".additionalProperties"),
    );

    // `true` without a schema is a no-op
    expect_none(&check(with_spec(json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "additionalProperties": true
    }))));
}

#[test]
fn map_type_needs_an_object_and_a_known_value() {
    let e = expect_only(
        &check(with_spec_props(
            json!({"a": {"type": "string", "x-kubernetes-map-type": "atomic"}}),
        )),
        ErrorType::Invalid,
        &at_spec(".properties[a].type"),
    );
    assert_eq!(
        e.detail,
        "must be object if x-kubernetes-map-type is specified"
    );
    let errors = check(with_spec_props(
        json!({"a": {"x-kubernetes-map-type": "atomic"}}),
    ));
    let e = errors
        .iter()
        .find(|e| e.detail == "must be object if x-kubernetes-map-type is specified")
        .unwrap();
    assert_eq!(
        (e.error_type, e.field.as_str()),
        (ErrorType::Required, at_spec(".properties[a].type").as_str())
    );
    expect_only(
        &check(with_spec_props(
            json!({"a": {"type": "object", "x-kubernetes-map-type": "partial"}}),
        )),
        ErrorType::NotSupported,
        &at_spec(".properties[a].x-kubernetes-map-type"),
    );
}

#[test]
fn list_type_needs_an_array_and_a_known_value() {
    let e = expect_only(
        &check(with_spec_props(
            json!({"a": {"type": "object", "x-kubernetes-list-type": "atomic"}}),
        )),
        ErrorType::Invalid,
        &at_spec(".properties[a].type"),
    );
    assert_eq!(
        e.detail,
        "must be array if x-kubernetes-list-type is specified"
    );
    expect_only(
        &check(with_spec_props(json!({"a": {
            "type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "bag"
        }}))),
        ErrorType::NotSupported,
        &at_spec(".properties[a].x-kubernetes-list-type"),
    );
}

#[test]
fn set_items_must_be_atomic() {
    let errors = check(with_spec_props(json!({"a": {
        "type": "array",
        "x-kubernetes-list-type": "set",
        "items": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"}
    }})));
    let e = expect_only(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[a].items.x-kubernetes-list-type"),
    );
    assert_eq!(
        e.detail,
        "must be atomic as item of a list with x-kubernetes-list-type=set"
    );

    let errors = check(with_spec_props(json!({"a": {
        "type": "array",
        "x-kubernetes-list-type": "set",
        "items": {"type": "object", "properties": {"b": {"type": "string"}}}
    }})));
    expect_only(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[a].items.x-kubernetes-map-type"),
    );

    expect_none(&check(with_spec_props(json!({
        "scalars": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
        "objects": {
            "type": "array", "x-kubernetes-list-type": "set",
            "items": {"type": "object", "x-kubernetes-map-type": "atomic", "properties": {"b": {"type": "string"}}}
        }
    }))));
}

fn map_list(items: Value, keys: Value) -> Value {
    with_spec_props(json!({"ports": {
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": keys,
        "items": items
    }}))
}

fn port_item() -> Value {
    json!({
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {"type": "string"},
            "protocol": {"type": "string", "default": "TCP"},
            "port": {"type": "integer"},
            "tags": {"type": "array", "items": {"type": "string"}}
        }
    })
}

#[test]
fn list_map_keys_rules() {
    expect_none(&check(map_list(port_item(), json!(["name", "protocol"]))));
    let ports = at_spec(".properties[ports]");

    // keys need list-type map
    let errors = check(with_spec_props(json!({"ports": {
        "type": "array", "x-kubernetes-list-map-keys": ["name"], "items": port_item()
    }})));
    expect_only(
        &errors,
        ErrorType::Required,
        &format!("{ports}.x-kubernetes-list-type"),
    );
    let errors = check(with_spec_props(json!({"ports": {
        "type": "array", "x-kubernetes-list-type": "atomic",
        "x-kubernetes-list-map-keys": ["name"], "items": port_item()
    }})));
    let e = expect_only(
        &errors,
        ErrorType::Invalid,
        &format!("{ports}.x-kubernetes-list-type"),
    );
    assert_eq!(
        e.detail,
        "must be map if x-kubernetes-list-map-keys is non-empty"
    );

    // map needs keys
    let errors = check(with_spec_props(json!({"ports": {
        "type": "array", "x-kubernetes-list-type": "map", "items": port_item()
    }})));
    expect_only(
        &errors,
        ErrorType::Required,
        &format!("{ports}.x-kubernetes-list-map-keys"),
    );

    // map needs one object items schema
    let errors = check(with_spec_props(json!({"ports": {
        "type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]
    }})));
    let e = errors
        .iter()
        .find(|e| e.detail == "must have a schema if x-kubernetes-list-type is map")
        .expect("missing items error");
    assert_eq!(e.field, format!("{ports}.items"));
    let errors = check(map_list(json!([port_item()]), json!(["name"])));
    let e = errors
        .iter()
        .find(|e| e.detail == "must only have a single schema if x-kubernetes-list-type is map")
        .expect("missing single schema error");
    assert_eq!(
        (e.error_type, e.field.clone()),
        (ErrorType::Invalid, format!("{ports}.items"))
    );
    let errors = check(map_list(json!({"type": "string"}), json!(["name"])));
    expect_only(&errors, ErrorType::Invalid, &format!("{ports}.items.type"));

    // keys are scalar item properties, without duplicates
    let e = expect_only(
        &check(map_list(port_item(), json!(["name", "missing"]))),
        ErrorType::Invalid,
        &format!("{ports}.x-kubernetes-list-map-keys"),
    );
    assert_eq!(e.detail, "entries must all be names of item properties");
    let e = expect_only(
        &check(map_list(port_item(), json!(["name", "name"]))),
        ErrorType::Invalid,
        &format!("{ports}.x-kubernetes-list-map-keys"),
    );
    assert_eq!(e.detail, "must not contain duplicate entries");
    let mut item = port_item();
    item["required"] = json!(["name", "tags"]);
    let e = expect_only(
        &check(map_list(item, json!(["name", "tags"]))),
        ErrorType::Invalid,
        &format!("{ports}.items.properties[tags].type"),
    );
    assert_eq!(
        e.detail,
        "must be a scalar type if parent array's x-kubernetes-list-type is map"
    );
}

#[test]
fn map_and_set_items_and_keys_are_not_nullable_and_keys_are_required_or_defaulted() {
    let ports = at_spec(".properties[ports]");
    let mut item = port_item();
    item["nullable"] = json!(true);
    let e = expect_only(
        &check(map_list(item, json!(["name"]))),
        ErrorType::Forbidden,
        &format!("{ports}.items.nullable"),
    );
    assert_eq!(
        e.detail,
        "cannot be nullable when x-kubernetes-list-type is map"
    );

    let errors = check(with_spec_props(json!({"tags": {
        "type": "array", "x-kubernetes-list-type": "set",
        "items": {"type": "string", "nullable": true}
    }})));
    expect_only(
        &errors,
        ErrorType::Forbidden,
        &at_spec(".properties[tags].items.nullable"),
    );

    let e = expect_only(
        &check(map_list(port_item(), json!(["name", "port"]))),
        ErrorType::Required,
        &format!("{ports}.items.properties[port].default"),
    );
    assert_eq!(
        e.detail,
        "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"
    );

    let mut item = port_item();
    item["properties"]["name"]["nullable"] = json!(true);
    expect_only(
        &check(map_list(item, json!(["name"]))),
        ErrorType::Forbidden,
        &format!("{ports}.items.properties[name].nullable"),
    );
}

fn with_rule(rule: Value) -> Value {
    with_spec(json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "m": {"type": "object", "additionalProperties": {"type": "string"}}},
        "x-kubernetes-validations": [rule]
    }))
}

#[test]
fn validation_rules_basic_checks() {
    let rule = |f: &str| at_spec(&format!(".x-kubernetes-validations[0].{f}"));
    expect_none(&check(with_rule(json!({
        "rule": "has(self.a)", "message": "a is required", "reason": "FieldValueRequired", "fieldPath": ".a"
    }))));
    expect_none(&check(with_rule(
        json!({"rule": "self.m.size() < 3", "fieldPath": ".m['some.key']"}),
    )));

    let e = expect_only(
        &check(with_rule(json!({"rule": "  "}))),
        ErrorType::Required,
        &rule("rule"),
    );
    assert_eq!(e.detail, "rule is not specified");
    let e = expect_only(
        &check(with_rule(json!({"rule": "true", "message": "  "}))),
        ErrorType::Invalid,
        &rule("message"),
    );
    assert_eq!(e.detail, "must be non-empty if specified");
    let e = expect_only(
        &check(with_rule(json!({"rule": "true", "message": "two\nlines"}))),
        ErrorType::Invalid,
        &rule("message"),
    );
    assert_eq!(e.detail, "must not contain line breaks");
    let e = expect_only(
        &check(with_rule(json!({"rule": "true &&\ntrue"}))),
        ErrorType::Required,
        &rule("message"),
    );
    assert_eq!(
        e.detail,
        "message must be specified if rule contains line breaks"
    );
    expect_only(
        &check(with_rule(json!({"rule": "true", "messageExpression": " "}))),
        ErrorType::Required,
        &rule("messageExpression"),
    );
    let e = expect_only(
        &check(with_rule(
            json!({"rule": "true", "reason": "FieldValueTooLong"}),
        )),
        ErrorType::NotSupported,
        &rule("reason"),
    );
    assert_eq!(
        e.detail,
        r#"supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired""#
    );
    // as in Go, a blank path is also not a valid path
    let errors = check(with_rule(json!({"rule": "true", "fieldPath": " "})));
    let details: Vec<&str> = errors.iter().map(|e| e.detail.as_str()).collect();
    assert_eq!(
        details,
        ["must be non-empty if specified", "must be a valid path"]
    );
    assert!(
        errors
            .iter()
            .all(|e| e.error_type == ErrorType::Invalid && e.field == rule("fieldPath"))
    );
    let errors = check(with_rule(json!({"rule": "true", "fieldPath": ".a\n"})));
    let e = expect(&errors, ErrorType::Invalid, &rule("fieldPath"));
    assert_eq!(e.detail, "must not contain line breaks");
    let e = expect_only(
        &check(with_rule(json!({"rule": "true", "fieldPath": ".b"}))),
        ErrorType::Invalid,
        &rule("fieldPath"),
    );
    assert_eq!(e.detail, "must be a valid path");
}

// ------------------------------------------------------- 5.5 defaults

#[test]
fn defaults_must_be_pruned() {
    let errors = check(with_spec(json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "default": {"a": "x", "b": "unknown"}
    })));
    let e = expect_only(&errors, ErrorType::Invalid, &at_spec(".default"));
    assert_eq!(e.detail, "must not have unknown fields");

    // unknown fields are fine below x-kubernetes-preserve-unknown-fields
    expect_none(&check(with_spec(json!({
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": true,
        "properties": {"a": {"type": "string"}},
        "default": {"a": "x", "b": "unknown"}
    }))));
}

#[test]
fn defaults_must_validate_against_their_schema() {
    let field = |name: &str| at_spec(&format!(".properties[{name}].default"));
    let cases: Vec<(Value, ErrorType, String)> = vec![
        (
            json!({"type": "integer", "default": "one"}),
            ErrorType::TypeInvalid,
            field("x"),
        ),
        (
            json!({"type": "integer", "default": 1.5}),
            ErrorType::TypeInvalid,
            field("x"),
        ),
        (
            json!({"type": "string", "enum": ["a", "b"], "default": "c"}),
            ErrorType::NotSupported,
            field("x"),
        ),
        (
            json!({"type": "integer", "minimum": 1, "default": 0}),
            ErrorType::Invalid,
            field("x"),
        ),
        (
            json!({"type": "integer", "maximum": 1, "exclusiveMaximum": true, "default": 1}),
            ErrorType::Invalid,
            field("x"),
        ),
        (
            json!({"type": "number", "multipleOf": 2, "default": 3}),
            ErrorType::Invalid,
            field("x"),
        ),
        (
            json!({"type": "string", "maxLength": 2, "default": "abc"}),
            ErrorType::TooLong,
            field("x"),
        ),
        (
            json!({"type": "string", "minLength": 2, "default": "a"}),
            ErrorType::Invalid,
            field("x"),
        ),
        (
            json!({"type": "string", "pattern": "^[a-z]+$", "default": "A1"}),
            ErrorType::Invalid,
            field("x"),
        ),
        (
            json!({"type": "array", "items": {"type": "string"}, "maxItems": 1, "default": ["a", "b"]}),
            ErrorType::TooMany,
            field("x"),
        ),
        (
            json!({"type": "array", "items": {"type": "string"}, "minItems": 2, "default": ["a"]}),
            ErrorType::Invalid,
            field("x"),
        ),
        (
            json!({"type": "array", "items": {"type": "string"}, "default": ["a", 2]}),
            ErrorType::TypeInvalid,
            format!("{}[1]", field("x")),
        ),
        (
            json!({"type": "object", "required": ["b"], "properties": {"b": {"type": "string"}}, "default": {}}),
            ErrorType::Required,
            format!("{}.b", field("x")),
        ),
        (
            json!({"type": "object", "properties": {"b": {"type": "object", "properties": {"c": {"type": "boolean"}}}}, "default": {"b": {"c": "yes"}}}),
            ErrorType::TypeInvalid,
            format!("{}.b.c", field("x")),
        ),
        (
            json!({"type": "object", "maxProperties": 1, "additionalProperties": {"type": "string"}, "default": {"a": "1", "b": "2"}}),
            ErrorType::TooMany,
            field("x"),
        ),
    ];
    for (schema, ty, path) in cases {
        let errors = check(with_spec_props(json!({"x": schema})));
        expect_only(&errors, ty, &path);
    }
    let e = expect_only(
        &check(with_spec_props(
            json!({"x": {"type": "integer", "default": "one"}}),
        )),
        ErrorType::TypeInvalid,
        &field("x"),
    );
    assert_eq!(e.detail, "in body must be of type integer: \"string\"");

    // a valid default of each kind
    expect_none(&check(with_spec_props(json!({
        "i": {"type": "integer", "minimum": 0, "maximum": 10, "default": 10},
        "s": {"type": "string", "enum": ["a", "b"], "pattern": "^[ab]$", "default": "b"},
        "n": {"type": "string", "nullable": true, "default": "x"},
        "o": {"type": "object", "properties": {"p": {"type": "integer", "default": 1}}, "default": {}},
        "l": {"type": "array", "items": {"type": "integer"}, "default": [1, 2.0]},
        "m": {"type": "object", "additionalProperties": {"type": "string"}, "default": {"k": "v"}}
    }))));
}

#[test]
fn defaults_are_only_checked_on_structural_schemas() {
    // as in Go, a structural error hides default errors
    let errors = check(with_spec_props(json!({
        "x": {"type": "integer", "default": "one"},
        "y": {"description": "no type"}
    })));
    expect_only(
        &errors,
        ErrorType::Required,
        &at_spec(".properties[y].type"),
    );
}

/// Metadata in defaults is validated as ObjectMeta (upstream's
/// `objectmeta.Validate`), also in embedded resources deeper in a default,
/// and a wrongly typed TypeMeta/ObjectMeta field is reported alone.
#[test]
fn embedded_resource_defaults_have_valid_metadata() {
    let embedded = json!({
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true
    });
    // a label value with a space, in the resource's own default
    let mut own = embedded.clone();
    own["default"] =
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"a": "x y"}}});
    let errors = check(with_spec_props(json!({"template": own})));
    let e = expect_only(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[template].default.metadata.labels"),
    );
    assert!(e.detail.contains("a valid label must be"), "{}", e.detail);

    // a name that is no path segment, in a default one level above the
    // resource, and inside a list of resources
    let errors = check(with_spec_props(json!({"holder": {
        "type": "object",
        "properties": {
            "one": embedded.clone(),
            "many": {"type": "array", "items": embedded.clone()}
        },
        "default": {
            "one": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a/b"}},
            "many": [{"apiVersion": "v1", "kind": "Pod"}, {"kind": "Pod"}]
        }
    }})));
    expect(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[holder].default.one.metadata.name"),
    );
    expect(
        &errors,
        ErrorType::Required,
        &at_spec(".properties[holder].default.many[1].apiVersion"),
    );
    assert_eq!(errors.len(), 2, "{}", listing(&errors));

    // a wrongly typed field is reported alone: no Required for the
    // missing kind, no value checks
    let errors = check(with_spec_props(json!({"holder": {
        "type": "object",
        "properties": {"one": embedded.clone()},
        "default": {"one": {"apiVersion": 1, "metadata": {"name": "%"}}}
    }})));
    let e = expect_only(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[holder].default.one.apiVersion"),
    );
    assert_eq!(e.detail, "must be a string");

    // a default inside the metadata: checked in an object of the resource
    let errors = check(with_spec_props(json!({"template": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {"metadata": {"type": "object", "properties": {
            "namespace": {"type": "string", "default": "Not_A_Label"},
            "name": {"type": "string", "default": "ok"}
        }}}
    }})));
    let e = expect_only(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[template].properties[metadata].properties[namespace].default"),
    );
    assert!(
        e.detail
            .starts_with("must result in valid metadata: metadata.namespace: Invalid value"),
        "{}",
        e.detail
    );
}

/// Metadata checks of defaults stay within the nesting limits: a deep
/// value in a default's metadata, and a default deep below an embedded
/// resource's metadata, are checked without exhausting the stack.
#[test]
fn deep_metadata_defaults_are_bounded() {
    let mut deep = json!(1);
    for _ in 0..500 {
        deep = json!({"f": deep});
    }
    let errors = check(with_spec_props(json!({"template": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
        "default": {"apiVersion": "v1", "kind": "Pod", "metadata": {
            "managedFields": [{"manager": "m", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": deep}]
        }}
    }})));
    expect_none(&errors);

    // labels that are objects: the default is refused for its metadata
    let mut schema = json!({"type": "string", "default": "x"});
    let mut at = String::new();
    for _ in 0..120 {
        schema = json!({"type": "object", "properties": {"a": schema}});
        at.push_str(".properties[a]");
    }
    let errors = check(with_spec_props(json!({"template": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {"metadata": {"type": "object", "properties": {"labels": schema}}}
    }})));
    let e = expect_only(
        &errors,
        ErrorType::Invalid,
        &at_spec(&format!(
            ".properties[template].properties[metadata].properties[labels]{at}.default"
        )),
    );
    assert!(
        e.detail.starts_with("must result in valid metadata"),
        "{}",
        e.detail
    );
}

#[test]
fn embedded_resource_defaults_need_type_meta() {
    let errors = check(with_spec_props(json!({"template": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
        "default": {"apiVersion": "v1"}
    }})));
    // upstream's `validateEmbeddedResource`: Required without a detail
    let e = expect_only(
        &errors,
        ErrorType::Required,
        &at_spec(".properties[template].default.kind"),
    );
    assert_eq!(e.detail, "");

    expect_none(&check(with_spec_props(json!({"template": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true,
        "default": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {}}
    }}))));

    let errors = check(with_spec_props(json!({"template": {
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {"metadata": {"type": "object", "properties": {
            "labels": {"type": "object", "additionalProperties": {"type": "string"}, "default": {"a": 1}}
        }}}
    }})));
    let e = expect_only(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[template].properties[metadata].properties[labels].default"),
    );
    assert!(
        e.detail.starts_with("must result in valid metadata"),
        "{}",
        e.detail
    );
}

#[test]
fn too_deep_defaults_are_reported() {
    let mut deep = json!(1);
    for _ in 0..2000 {
        deep = Value::Array(vec![deep]);
    }
    let schema = with_spec_props(
        json!({"x": {"type": "array", "items": {"x-kubernetes-preserve-unknown-fields": true}}}),
    );
    let mut schema = schema;
    schema["properties"]["spec"]["properties"]["x"]["default"] = deep;
    let errors = check(schema.clone());
    expect_only(
        &errors,
        ErrorType::Invalid,
        &at_spec(".properties[x].default"),
    );
    // the error renders without copying the whole value
    assert!(errors.to_string().contains("levels deep"));
    dismantle(schema);
}

// ------------------------------------------------------------ pruning

#[test]
fn pruning_follows_the_schema() {
    let schema = json!({
        "type": "object",
        "properties": {
            "spec": {"type": "object", "properties": {
                "a": {"type": "string"},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "raw": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {
                    "known": {"type": "object", "properties": {"k": {"type": "string"}}}
                }},
                "list": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "string"}}}},
                "template": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
                    "spec": {"type": "object"}
                }}
            }}
        }
    });
    let mut value = json!({
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {"name": "w", "anything": 1},
        "spec": {
            "a": "x",
            "b": "dropped",
            "labels": {"x": "y"},
            "raw": {"free": {"form": true}, "known": {"k": "v", "dropped": 1}},
            "list": [{"n": "1", "dropped": 2}],
            "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"x": 1}, "spec": {"dropped": 1}, "dropped": 1}
        },
        "status": {"dropped": true}
    });
    prune(&mut value, &schema, true);
    assert_eq!(
        value,
        json!({
            "apiVersion": "example.com/v1",
            "kind": "Widget",
            "metadata": {"name": "w", "anything": 1},
            "spec": {
                "a": "x",
                "labels": {"x": "y"},
                "raw": {"free": {"form": true}, "known": {"k": "v"}},
                "list": [{"n": "1"}],
                "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"x": 1}, "spec": {}}
            }
        })
    );

    // not at the resource root, TypeMeta and ObjectMeta are pruned too
    let mut value = json!({"kind": "Widget", "spec": {"a": "x"}});
    prune(&mut value, &schema, false);
    assert_eq!(value, json!({"spec": {"a": "x"}}));
}

#[test]
fn pruning_handles_deep_values() {
    let mut deep = json!({"a": 1});
    for _ in 0..100_000 {
        deep = Value::Array(vec![deep]);
    }
    let mut value = obj(vec![("spec", obj(vec![("list", deep)]))]);
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "list": {"type": "array", "items": {"type": "array"}}
    }}}});
    prune(&mut value, &schema, true);
    dismantle(value);
}

// ------------------------------------------------ 5.6 status subresource

#[test]
fn status_subresource_restricts_the_root() {
    let mut schema = with_spec_props(json!({"a": {"type": "string"}}));
    schema["description"] = json!("Widget");
    schema["required"] = json!(["spec"]);
    schema["x-kubernetes-preserve-unknown-fields"] = json!(true);
    schema["x-kubernetes-validations"] = json!([{"rule": "true"}]);
    expect_none(&check_with_status(schema));

    for (key, value) in [
        ("enum", json!([{}])),
        ("anyOf", json!([{"required": ["spec"]}])),
        ("allOf", json!([{"required": ["spec"]}])),
        ("oneOf", json!([{"required": ["spec"]}])),
        ("not", json!({"required": ["status"]})),
        ("minProperties", json!(1)),
    ] {
        let mut schema = with_spec_props(json!({"a": {"type": "string"}}));
        schema[key] = value;
        let errors = check_with_status(schema.clone());
        let e = expect_only(&errors, ErrorType::Invalid, "openAPIV3Schema");
        assert!(
            e.detail
                .starts_with("only [Description Type Format Title Maximum"),
            "{}",
            e.detail
        );
        assert!(e.detail.ends_with(
            "fields are allowed at the root of the schema if the status subresource is enabled"
        ));
        assert_eq!(e.bad_value, Some(schema.clone()));
        // without the status subresource these are fine
        expect_none(&check(schema));
    }

    let mut schema = with_spec_props(json!({"a": {"type": "string"}}));
    schema["nullable"] = json!(true);
    let errors = check_with_status(schema);
    expect(&errors, ErrorType::Invalid, "openAPIV3Schema");
    expect(&errors, ErrorType::Forbidden, "openAPIV3Schema.nullable");

    let errors = check_with_status(json!({"type": "array", "items": {"type": "string"}}));
    let e = errors
        .iter()
        .find(|e| e.detail.starts_with("only \"object\" is allowed"))
        .expect("missing root type error");
    assert_eq!(
        (e.error_type, e.field.as_str()),
        (ErrorType::Invalid, "openAPIV3Schema.type")
    );
}

// -------------------------------------------------------- 5.7 CRD checks

#[test]
fn crd_schema_errors_have_full_paths() {
    let c = crd_with(
        "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/size",
        json!({"minimum": 1}),
    );
    let e = expect_only(
        &check_crd(&c),
        ErrorType::Required,
        "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[size].type",
    );
    assert_eq!(e.detail, "must not be empty for specified object fields");

    // the version's status subresource applies to its schema
    let c = crd_with("/spec/versions/0/schema/openAPIV3Schema/enum", json!([{}]));
    expect_only(&check_crd(&c), ErrorType::Invalid, V0_SCHEMA);
    let mut c = crd_with("/spec/versions/0/schema/openAPIV3Schema/enum", json!([{}]));
    remove(&mut c, "/spec/versions/0/subresources");
    expect_none(&check_crd(&c));
}

#[test]
fn crd_name_is_plural_dot_group() {
    let e = expect_only(
        &check_crd(&crd_with("/metadata/name", json!("gadgets.example.com"))),
        ErrorType::Invalid,
        "metadata.name",
    );
    assert_eq!(e.detail, r#"must be spec.names.plural+"."+spec.group"#);

    let errors = check_crd(&crd_with("/metadata/name", json!("Widgets.example.com")));
    assert!(
        errors
            .iter()
            .all(|e| e.field == "metadata.name" && e.error_type == ErrorType::Invalid)
    );
    assert!(
        errors
            .iter()
            .any(|e| e.detail.starts_with("a lowercase RFC 1123 subdomain"))
    );

    let mut c = crd();
    remove(&mut c, "/metadata/name");
    let e = expect_only(&check_crd(&c), ErrorType::Required, "metadata.name");
    assert_eq!(e.detail, "name or generateName is required");
}

#[test]
fn crd_group_rules() {
    let mut c = crd();
    remove(&mut c, "/spec/group");
    set(&mut c, "/metadata/name", json!("widgets."));
    let errors = check_crd(&c);
    expect(&errors, ErrorType::Required, "spec.group");

    let mut c = crd_with("/spec/group", json!("Example.com"));
    set(&mut c, "/metadata/name", json!("widgets.Example.com"));
    let errors = check_crd(&c);
    let e = expect(&errors, ErrorType::Invalid, "spec.group");
    assert!(e.detail.starts_with("a lowercase RFC 1123 subdomain"));

    let mut c = crd_with("/spec/group", json!("example"));
    set(&mut c, "/metadata/name", json!("widgets.example"));
    let e = expect_only(&check_crd(&c), ErrorType::Invalid, "spec.group");
    assert_eq!(e.detail, "should be a domain with at least one dot");
}

#[test]
fn protected_groups_need_api_approval() {
    let annotation = "metadata.annotations[api-approved.kubernetes.io]";
    let mut c = crd_with("/spec/group", json!("widgets.k8s.io"));
    set(&mut c, "/metadata/name", json!("widgets.widgets.k8s.io"));
    let e = expect_only(&check_crd(&c), ErrorType::Required, annotation);
    assert!(
        e.detail
            .starts_with("protected groups must have approval annotation")
    );

    set(
        &mut c,
        "/metadata/annotations",
        json!({"api-approved.kubernetes.io": "yes"}),
    );
    expect_only(&check_crd(&c), ErrorType::Invalid, annotation);
    for ok in [
        "https://github.com/kubernetes/enhancements/pull/1111",
        "unapproved, experimental",
    ] {
        set(
            &mut c,
            "/metadata/annotations",
            json!({"api-approved.kubernetes.io": ok}),
        );
        expect_none(&check_crd(&c));
    }
}

#[test]
fn crd_scope_rules() {
    let mut c = crd();
    remove(&mut c, "/spec/scope");
    expect_only(&check_crd(&c), ErrorType::Required, "spec.scope");
    let e = expect_only(
        &check_crd(&crd_with("/spec/scope", json!("Global"))),
        ErrorType::NotSupported,
        "spec.scope",
    );
    assert_eq!(e.detail, r#"supported values: "Cluster", "Namespaced""#);
}

#[test]
fn crd_names_rules() {
    let mut c = crd();
    remove(&mut c, "/spec/names/plural");
    set(&mut c, "/metadata/name", json!(".example.com"));
    let errors = check_crd(&c);
    expect(&errors, ErrorType::Required, "spec.names.plural");

    let mut c = crd();
    remove(&mut c, "/spec/names/kind");
    remove(&mut c, "/spec/names/singular");
    remove(&mut c, "/spec/names/listKind");
    let errors = check_crd(&c);
    expect(&errors, ErrorType::Required, "spec.names.kind");
    expect(&errors, ErrorType::Required, "spec.names.singular");
    expect(&errors, ErrorType::Required, "spec.names.listKind");
    assert_eq!(errors.len(), 3, "{}", listing(&errors));

    // v1 defaulting fills in singular and listKind
    let mut c = crd();
    remove(&mut c, "/spec/names/singular");
    remove(&mut c, "/spec/names/listKind");
    expect_none(&check_crd(&c));

    let mut c = crd_with("/spec/names/plural", json!("Widgets"));
    set(&mut c, "/metadata/name", json!("Widgets.example.com"));
    expect(&check_crd(&c), ErrorType::Invalid, "spec.names.plural");
    expect_only(
        &check_crd(&crd_with("/spec/names/singular", json!("a_widget"))),
        ErrorType::Invalid,
        "spec.names.singular",
    );
    let e = expect_only(
        &check_crd(&crd_with("/spec/names/kind", json!("Wid_get"))),
        ErrorType::Invalid,
        "spec.names.kind",
    );
    assert!(
        e.detail
            .starts_with("may have mixed case, but should otherwise match: ")
    );
    expect_only(
        &check_crd(&crd_with("/spec/names/listKind", json!("1WidgetList"))),
        ErrorType::Invalid,
        "spec.names.listKind",
    );
    let e = expect_only(
        &check_crd(&crd_with("/spec/names/listKind", json!("Widget"))),
        ErrorType::Invalid,
        "spec.names.listKind",
    );
    assert_eq!(e.detail, "kind and listKind may not be the same");
    expect_only(
        &check_crd(&crd_with("/spec/names/shortNames", json!(["wd", "W"]))),
        ErrorType::Invalid,
        "spec.names.shortNames[1]",
    );
    expect_only(
        &check_crd(&crd_with(
            "/spec/names/categories",
            json!(["all", "my_things"]),
        )),
        ErrorType::Invalid,
        "spec.names.categories[1]",
    );
    expect_only(
        &check_crd(&crd_with(
            "/status",
            json!({"acceptedNames": {"plural": "Widgets", "kind": "Widget"}}),
        )),
        ErrorType::Invalid,
        "status.acceptedNames.plural",
    );
}

fn second_version(name: &str, storage: bool) -> Value {
    json!({
        "name": name, "served": true, "storage": storage,
        "schema": {"openAPIV3Schema": {"type": "object"}}
    })
}

#[test]
fn crd_versions_rules() {
    let e = expect_only(
        &check_crd(&crd_with("/spec/versions/0/name", json!("V1"))),
        ErrorType::Invalid,
        "spec.versions[0].name",
    );
    assert!(e.detail.starts_with("a DNS-1035 label"));

    let c = crd_with("/spec/versions/1", second_version("v1", false));
    let e = expect_only(&check_crd(&c), ErrorType::Invalid, "spec.versions");
    assert_eq!(e.detail, "must contain unique version names");

    for c in [
        crd_with("/spec/versions/0/storage", json!(false)),
        crd_with("/spec/versions/1", second_version("v2", true)),
        crd_with("/spec/versions", json!([])),
    ] {
        let e = expect_only(&check_crd(&c), ErrorType::Invalid, "spec.versions");
        assert_eq!(
            e.detail,
            "must have exactly one version marked as storage version"
        );
    }
    expect_none(&check_crd(&crd_with(
        "/spec/versions/1",
        second_version("v1beta1", false),
    )));

    let mut c = crd();
    remove(&mut c, "/spec/versions/0/schema");
    expect_only(
        &check_crd(&c),
        ErrorType::Required,
        "spec.versions[0].schema.openAPIV3Schema",
    );
}

#[test]
fn crd_deprecation_warning_rules() {
    let path = format!("{V0}.deprecationWarning");
    let e = expect_only(
        &check_crd(&crd_with(
            "/spec/versions/0/deprecationWarning",
            json!("old"),
        )),
        ErrorType::Invalid,
        &path,
    );
    assert_eq!(e.detail, "can only be set for deprecated versions");

    let mut c = crd_with("/spec/versions/0/deprecated", json!(true));
    expect_none(&check_crd(&c));
    set(
        &mut c,
        "/spec/versions/0/deprecationWarning",
        json!("use v2"),
    );
    expect_none(&check_crd(&c));
    for (warning, detail) in [
        (json!("x".repeat(257)), "must be <= 256 characters long".to_string()),
        (json!(""), "must not be an empty string".to_string()),
        (
            json!("bad\u{7}bell"),
            "must only contain printable UTF-8 characters; non-printable character found at index 3".to_string(),
        ),
    ] {
        set(&mut c, "/spec/versions/0/deprecationWarning", warning);
        let e = expect_only(&check_crd(&c), ErrorType::Invalid, &path);
        assert_eq!(e.detail, detail);
    }
}

#[test]
fn crd_stored_versions_rules() {
    expect_none(&check_crd(&crd_with(
        "/status",
        json!({"storedVersions": ["v1"]}),
    )));
    let e = expect_only(
        &check_crd(&crd_with("/status", json!({"storedVersions": []}))),
        ErrorType::Invalid,
        "status.storedVersions",
    );
    assert_eq!(e.detail, "must have at least one stored version");
    let c = crd_with("/spec/versions/1", second_version("v2", false));
    let c = {
        let mut c = c;
        set(&mut c, "/status", json!({"storedVersions": ["v2"]}));
        c
    };
    let e = expect_only(&check_crd(&c), ErrorType::Invalid, "status.storedVersions");
    assert_eq!(e.detail, "must have the storage version v1");
    let e = expect_only(
        &check_crd(&crd_with(
            "/status",
            json!({"storedVersions": ["v1", "v0"]}),
        )),
        ErrorType::Invalid,
        "status.storedVersions[1]",
    );
    assert!(
        e.detail
            .starts_with("missing from spec.versions; v0 was previously a storage version")
    );
}

#[test]
fn crd_preserve_unknown_fields_rules() {
    let errors = check_crd(&crd_with("/spec/preserveUnknownFields", json!(true)));
    let e = errors
        .iter()
        .find(|e| e.detail.starts_with("cannot set to true"))
        .expect("missing preserveUnknownFields error");
    assert_eq!(
        (e.error_type, e.field.as_str()),
        (ErrorType::Invalid, "spec.preserveUnknownFields")
    );
    // the base CRD has a default, which needs pruning
    let e = errors
        .iter()
        .find(|e| e.detail == "must be false in order to use defaults in the schema")
        .expect("missing defaults error");
    assert_eq!(e.field, "spec.preserveUnknownFields");
    assert_eq!(errors.len(), 2, "{}", listing(&errors));
}

fn webhook(client_config: Value, versions: Value) -> Value {
    crd_with(
        "/spec/conversion",
        json!({"strategy": "Webhook", "webhook": {"clientConfig": client_config, "conversionReviewVersions": versions}}),
    )
}

#[test]
fn crd_conversion_rules() {
    let service = json!({"service": {"name": "conv", "namespace": "system", "path": "/convert", "port": 9443}});
    expect_none(&check_crd(&webhook(
        service.clone(),
        json!(["v1", "v1beta1"]),
    )));
    expect_none(&check_crd(&webhook(
        json!({"url": "https://conv.example.com/convert"}),
        json!(["v1"]),
    )));
    expect_none(&check_crd(&crd_with(
        "/spec/conversion",
        json!({"strategy": "None"}),
    )));

    expect_only(
        &check_crd(&crd_with("/spec/conversion", json!({}))),
        ErrorType::Required,
        "spec.conversion.strategy",
    );
    expect_only(
        &check_crd(&crd_with("/spec/conversion", json!({"strategy": "Magic"}))),
        ErrorType::NotSupported,
        "spec.conversion.strategy",
    );
    let e = expect_only(
        &check_crd(&crd_with(
            "/spec/conversion",
            json!({"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"]}}),
        )),
        ErrorType::Required,
        "spec.conversion.webhookClientConfig",
    );
    assert_eq!(e.detail, "required when strategy is set to Webhook");
    let e = expect_only(
        &check_crd(&webhook(
            json!({"url": "https://a.example.com", "service": {"name": "a", "namespace": "b"}}),
            json!(["v1"]),
        )),
        ErrorType::Required,
        "spec.conversion.webhookClientConfig",
    );
    assert_eq!(e.detail, "exactly one of url or service is required");

    let url = "spec.conversion.webhookClientConfig.url";
    let e = expect_only(
        &check_crd(&webhook(
            json!({"url": "http://a.example.com"}),
            json!(["v1"]),
        )),
        ErrorType::Invalid,
        url,
    );
    assert_eq!(
        e.detail,
        "'https' is the only allowed URL scheme; desired format: https://host[/path]"
    );
    expect_only(
        &check_crd(&webhook(
            json!({"url": "https://a.example.com/x?y=1"}),
            json!(["v1"]),
        )),
        ErrorType::Invalid,
        url,
    );
    expect_only(
        &check_crd(&webhook(
            json!({"url": "https://user@a.example.com/"}),
            json!(["v1"]),
        )),
        ErrorType::Invalid,
        url,
    );

    let svc = "spec.conversion.webhookClientConfig.service";
    expect_only(
        &check_crd(&webhook(
            json!({"service": {"namespace": "system"}}),
            json!(["v1"]),
        )),
        ErrorType::Required,
        &format!("{svc}.name"),
    );
    expect_only(
        &check_crd(&webhook(
            json!({"service": {"name": "conv"}}),
            json!(["v1"]),
        )),
        ErrorType::Required,
        &format!("{svc}.namespace"),
    );
    expect_only(
        &check_crd(&webhook(
            json!({"service": {"name": "conv", "namespace": "s", "port": 70000}}),
            json!(["v1"]),
        )),
        ErrorType::Invalid,
        &format!("{svc}.port"),
    );
    let e = expect_only(
        &check_crd(&webhook(
            json!({"service": {"name": "conv", "namespace": "s", "path": "/a//b"}}),
            json!(["v1"]),
        )),
        ErrorType::Invalid,
        &format!("{svc}.path"),
    );
    assert_eq!(e.detail, "segment[1] may not be empty");

    let crv = "spec.conversion.conversionReviewVersions";
    expect_only(
        &check_crd(&webhook(service.clone(), json!([]))),
        ErrorType::Required,
        crv,
    );
    let e = expect_only(
        &check_crd(&webhook(service.clone(), json!(["v1", "v1"]))),
        ErrorType::Invalid,
        &format!("{crv}[1]"),
    );
    assert_eq!(e.detail, "duplicate version");
    let e = expect_only(
        &check_crd(&webhook(service.clone(), json!(["v2"]))),
        ErrorType::Invalid,
        crv,
    );
    assert_eq!(e.detail, "must include at least one of v1, v1beta1");
    expect(
        &check_crd(&webhook(service.clone(), json!(["v1", "V2"]))),
        ErrorType::Invalid,
        &format!("{crv}[1]"),
    );

    let e = expect_only(
        &check_crd(&crd_with(
            "/spec/conversion",
            json!({"strategy": "None", "webhook": {"clientConfig": {"url": "https://a.example.com"}}}),
        )),
        ErrorType::Forbidden,
        "spec.conversion.webhookClientConfig",
    );
    assert_eq!(
        e.detail,
        "should not be set when strategy is not set to Webhook"
    );
    expect_only(
        &check_crd(&crd_with(
            "/spec/conversion",
            json!({"strategy": "None", "webhook": {"conversionReviewVersions": ["v1"]}}),
        )),
        ErrorType::Forbidden,
        crv,
    );

    let mut c = webhook(service, json!(["v1"]));
    set(&mut c, "/spec/preserveUnknownFields", json!(true));
    let e = expect(
        &check_crd(&c),
        ErrorType::Invalid,
        "spec.conversion.strategy",
    );
    assert_eq!(
        e.detail,
        "must be None if spec.preserveUnknownFields is true"
    );
}

fn scale(scale: Value) -> Value {
    crd_with("/spec/versions/0/subresources/scale", scale)
}

#[test]
fn crd_scale_subresource_rules() {
    let sc = format!("{V0}.subresources.scale");
    expect_none(&check_crd(&scale(json!({
        "specReplicasPath": ".spec.size", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".status.selector"
    }))));
    expect_only(
        &check_crd(&scale(json!({"statusReplicasPath": ".status.replicas"}))),
        ErrorType::Required,
        &format!("{sc}.specReplicasPath"),
    );
    expect_only(
        &check_crd(&scale(json!({"specReplicasPath": ".spec.size"}))),
        ErrorType::Required,
        &format!("{sc}.statusReplicasPath"),
    );
    let e = expect_only(
        &check_crd(&scale(
            json!({"specReplicasPath": ".status.size", "statusReplicasPath": ".status.replicas"}),
        )),
        ErrorType::Invalid,
        &format!("{sc}.specReplicasPath"),
    );
    assert_eq!(e.detail, "should be a json path under .spec");
    let e = expect_only(
        &check_crd(&scale(
            json!({"specReplicasPath": ".spec.size", "statusReplicasPath": "status.replicas"}),
        )),
        ErrorType::Invalid,
        &format!("{sc}.statusReplicasPath"),
    );
    assert_eq!(e.detail, "must be a simple json path starting with .");
    let e = expect_only(
        &check_crd(&scale(json!({
            "specReplicasPath": ".spec.size", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".metadata.labels"
        }))),
        ErrorType::Invalid,
        &format!("{sc}.labelSelectorPath"),
    );
    assert_eq!(
        e.detail,
        "should be a json path under either .spec or .status"
    );
}

fn column(col: Value) -> Value {
    crd_with("/spec/versions/0/additionalPrinterColumns", json!([col]))
}

#[test]
fn crd_printer_column_rules() {
    let col = format!("{V0}.additionalPrinterColumns[0]");
    expect_none(&check_crd(&column(json!({
        "name": "Size", "type": "integer", "format": "int32", "jsonPath": ".spec.size", "priority": 1
    }))));
    expect_only(
        &check_crd(&column(
            json!({"type": "integer", "jsonPath": ".spec.size"}),
        )),
        ErrorType::Required,
        &format!("{col}.name"),
    );
    let e = expect_only(
        &check_crd(&column(json!({"name": "Size", "jsonPath": ".spec.size"}))),
        ErrorType::Required,
        &format!("{col}.type"),
    );
    assert_eq!(
        e.detail,
        "must be one of boolean,date,integer,number,string"
    );
    expect_only(
        &check_crd(&column(
            json!({"name": "Size", "type": "int", "jsonPath": ".spec.size"}),
        )),
        ErrorType::Invalid,
        &format!("{col}.type"),
    );
    let e = expect_only(
        &check_crd(&column(
            json!({"name": "Size", "type": "integer", "format": "uint8", "jsonPath": ".spec.size"}),
        )),
        ErrorType::Invalid,
        &format!("{col}.format"),
    );
    assert_eq!(
        e.detail,
        "must be one of byte,date,date-time,double,float,int32,int64,password"
    );
    expect_only(
        &check_crd(&column(json!({"name": "Size", "type": "integer"}))),
        ErrorType::Required,
        &format!("{col}.JSONPath"),
    );
    expect_only(
        &check_crd(&column(
            json!({"name": "Size", "type": "integer", "jsonPath": "spec.size"}),
        )),
        ErrorType::Invalid,
        &format!("{col}.JSONPath"),
    );
}

fn selectable(paths: &[&str]) -> Value {
    let fields: Vec<Value> = paths.iter().map(|p| json!({"jsonPath": p})).collect();
    crd_with("/spec/versions/0/selectableFields", Value::Array(fields))
}

#[test]
fn crd_selectable_fields_rules() {
    let sf = format!("{V0}.selectableFields");
    let jp = |i: usize| format!("{sf}[{i}].jsonPath");
    expect_none(&check_crd(&selectable(&[
        ".spec.colour",
        ".spec.size",
        ".spec.ready",
        ".spec.labels.team",
    ])));

    let e = expect_only(
        &check_crd(&selectable(&[".spec"])),
        ErrorType::Invalid,
        &jp(0),
    );
    assert_eq!(
        e.detail,
        "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."
    );
    let e = expect_only(
        &check_crd(&selectable(&[".spec.nope"])),
        ErrorType::Invalid,
        &jp(0),
    );
    assert_eq!(
        e.detail,
        "is an invalid path: does not refer to a valid field"
    );
    let e = expect_only(
        &check_crd(&selectable(&[".spec['colour']"])),
        ErrorType::Invalid,
        &jp(0),
    );
    assert_eq!(
        e.detail,
        "is an invalid path: array notation is not allowed"
    );
    expect_only(&check_crd(&selectable(&[""])), ErrorType::Required, &jp(0));
    expect_only(
        &check_crd(&selectable(&[".spec.colour", ".spec.size", ".spec.colour"])),
        ErrorType::Duplicate,
        &jp(2),
    );

    let mut c = selectable(&[".metadata.name"]);
    set(
        &mut c,
        "/spec/versions/0/schema/openAPIV3Schema/properties/metadata",
        json!({"type": "object", "properties": {"name": {"type": "string"}}}),
    );
    let e = expect_only(&check_crd(&c), ErrorType::Invalid, &jp(0));
    assert_eq!(e.detail, "must not point to fields in metadata");

    let mut c = crd();
    let mut props = Map::new();
    let mut paths = Vec::new();
    for i in 0..9 {
        props.insert(format!("f{i}"), json!({"type": "string"}));
        paths.push(json!({"jsonPath": format!(".spec.f{i}")}));
    }
    set(
        &mut c,
        "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties",
        Value::Object(props),
    );
    set(
        &mut c,
        "/spec/versions/0/selectableFields",
        Value::Array(paths),
    );
    let e = expect_only(&check_crd(&c), ErrorType::TooMany, &sf);
    assert_eq!(e.error_body(), "Too many: 9: must have at most 8 items");

    let mut c = selectable(&[".spec.colour"]);
    remove(&mut c, "/spec/versions/0/schema");
    let errors = check_crd(&c);
    expect(&errors, ErrorType::Invalid, &sf);
}

// ------------------------------------------------------------ robustness

#[test]
fn non_objects_are_errors_not_panics() {
    for v in [
        json!(null),
        json!(1),
        json!("crd"),
        json!([1, 2]),
        json!({}),
    ] {
        assert!(!check_crd(&v).is_empty());
        let _ = check(v.clone());
        let mut value = json!({"a": 1});
        prune(&mut value, &v, false);
    }
    let errors = check_crd(&json!({}));
    expect(&errors, ErrorType::Required, "metadata.name");
    expect(&errors, ErrorType::Required, "spec.group");
    expect(&errors, ErrorType::Required, "spec.scope");
    expect(&errors, ErrorType::Invalid, "spec.versions");
    expect(&errors, ErrorType::Required, "spec.names.kind");
    let wrong = json!({
        "metadata": [], "spec": {"group": 1, "names": "x", "versions": {"a": 1}, "conversion": 3},
        "status": {"storedVersions": "v1"}
    });
    assert!(!check_crd(&wrong).is_empty());
}

/// An object from key/value pairs, without `json!` (which serializes its
/// arguments recursively).
fn obj(pairs: Vec<(&str, Value)>) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn nested_schema(depth: usize, step: &str) -> Value {
    let mut schema = json!({"type": "string"});
    for _ in 0..depth {
        schema = match step {
            "properties" => obj(vec![
                ("type", json!("object")),
                ("properties", obj(vec![("a", schema)])),
            ]),
            "items" => obj(vec![("type", json!("array")), ("items", schema)]),
            "allOf" => obj(vec![("allOf", Value::Array(vec![schema]))]),
            _ => obj(vec![
                ("type", json!("object")),
                ("additionalProperties", schema),
            ]),
        };
    }
    schema
}

#[test]
fn deeply_nested_schemas_give_an_error_not_a_stack_overflow() {
    for step in ["properties", "items", "allOf", "additionalProperties"] {
        let schema = nested_schema(5000, step);
        let errors = check_schema(&schema, &SchemaCheckOptions::default());
        let e = errors
            .iter()
            .find(|e| e.error_type == ErrorType::Forbidden && e.detail.contains("nested more than"))
            .unwrap_or_else(|| panic!("{step}: no depth error:\n{}", listing(&errors)));
        assert_eq!(
            e.detail,
            format!("must not be nested more than {MAX_SCHEMA_DEPTH} schemas deep")
        );
        let _ = errors.to_string();
        let _ = check_schema(
            &schema,
            &SchemaCheckOptions {
                status_subresource: true,
            },
        );
        let mut value = json!({"a": {"a": {"a": 1}}});
        prune(&mut value, &schema, true);

        let c = crd_with("/spec/versions/0/schema/openAPIV3Schema", schema);
        let errors = check_crd(&c);
        assert!(!errors.is_empty());
        let _ = errors.to_string();
        dismantle(c);
    }
    // the limit itself is fine
    let schema = with_spec(nested_schema(MAX_SCHEMA_DEPTH - 2, "properties"));
    expect_none(&check_schema(&schema, &SchemaCheckOptions::default()));
    dismantle(schema);
}

/// Arbitrary JSON.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        ".{0,8}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(".{0,6}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

const KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "items",
    "additionalProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "default",
    "enum",
    "required",
    "nullable",
    "pattern",
    "minimum",
    "maximum",
    "maxLength",
    "minLength",
    "maxItems",
    "minItems",
    "description",
    "$ref",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string",
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-map-type",
    "x-kubernetes-validations",
    "metadata",
    "kind",
    "apiVersion",
    "spec",
    "name",
];

const WORDS: &[&str] = &[
    "object", "array", "string", "integer", "number", "boolean", "null", "map", "set", "atomic",
    "granular", "name", "rule", "message", "(", "^a+$", ".spec", "",
];

/// JSON built from schema keywords, so the checker's deeper paths run.
fn schema_like() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..10).prop_map(Value::from),
        prop::sample::select(WORDS).prop_map(Value::from),
    ];
    leaf.prop_recursive(8, 128, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(prop::sample::select(KEYWORDS), inner, 0..6).prop_map(
                |m| { Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()) }
            ),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_json_never_panics(v in any_json()) {
        let _ = check(v.clone());
        let _ = check_with_status(v.clone());
        let _ = check_crd(&v);
        let mut value = v.clone();
        prune(&mut value, &v, true);
    }

    #[test]
    fn schema_like_json_never_panics(v in schema_like(), doc in schema_like()) {
        let errors = check(v.clone());
        let _ = errors.to_string();
        let _ = check_with_status(v.clone());
        let c = crd_with("/spec/versions/0/schema/openAPIV3Schema", v.clone());
        let _ = check_crd(&c).to_string();
        let mut value = doc;
        prune(&mut value, &v, true);
        // pruning is idempotent
        let once = value.clone();
        prune(&mut value, &v, true);
        prop_assert_eq!(once, value);
    }

    #[test]
    fn arbitrary_crd_parts_never_panic(parts in prop::collection::vec((prop::sample::select(&[
        "/metadata/name", "/spec/group", "/spec/names", "/spec/names/kind", "/spec/scope",
        "/spec/versions/0", "/spec/versions/0/name", "/spec/versions/0/subresources",
        "/spec/versions/0/additionalPrinterColumns", "/spec/versions/0/selectableFields",
        "/spec/conversion", "/status", "/spec/versions/0/deprecationWarning",
    ][..]), any_json()), 1..4)) {
        let mut c = crd();
        for (pointer, value) in parts {
            let (parent, key) = pointer.rsplit_once('/').unwrap();
            match c.pointer_mut(parent) {
                Some(Value::Object(m)) => {
                    m.insert(key.to_string(), value);
                }
                Some(Value::Array(a)) if !a.is_empty() => a[0] = value,
                _ => {}
            }
        }
        let _ = check_crd(&c).to_string();
    }
}
