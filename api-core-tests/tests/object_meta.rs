//! ObjectMeta validation on create and update, case for case against
//! apimachinery's `objectmeta.go` (and the ObjectMeta parts of
//! `pkg/apis/meta/v1/validation`): exact paths, error types and messages.

use std::collections::BTreeMap;

use api_core::validation::names::{self, name_is_dns_label, name_is_dns_subdomain};
use api_core::validation::object_meta::{
    FIELD_MANAGER_MAX_LENGTH, MAX_SUBRESOURCE_NAME_LENGTH, METADATA_PATH,
    TOTAL_ANNOTATION_SIZE_LIMIT_B, annotations_size, is_go_printable, parse_group_version,
    validate_annotations, validate_annotations_size, validate_field_manager, validate_finalizers,
    validate_immutable_field, validate_labels, validate_managed_fields, validate_no_new_finalizers,
    validate_nonnegative_field, validate_object_meta, validate_object_meta_create,
    validate_object_meta_update, validate_owner_references,
};
use api_core::{
    ErrorList, ErrorType, FieldPath, ManagedFieldsEntry, ObjectMeta, OwnerReference, Time,
};
use serde_json::json;

// ---------------------------------------------------------------- helpers

const SUBDOMAIN_REGEX_MSG: &str = r"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/// The full messages (`field: body`), in order.
fn messages(errs: &ErrorList) -> Vec<String> {
    errs.iter().map(ToString::to_string).collect()
}

/// `(type, field)` of each error, in order.
fn kinds(errs: &ErrorList) -> Vec<(ErrorType, &str)> {
    errs.iter()
        .map(|e| (e.error_type, e.field.as_str()))
        .collect()
}

fn no_names(_: &str, _: bool) -> Vec<String> {
    Vec::new()
}

fn create(meta: &ObjectMeta, namespaced: bool) -> ErrorList {
    validate_object_meta(meta, namespaced, name_is_dns_subdomain, &METADATA_PATH)
}

fn update(new: &ObjectMeta, old: &ObjectMeta) -> ErrorList {
    validate_object_meta_update(new, old, &METADATA_PATH)
}

fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn owner(api_version: &str, kind: &str, name: &str, uid: &str) -> OwnerReference {
    OwnerReference {
        api_version: api_version.into(),
        kind: kind.into(),
        name: name.into(),
        uid: uid.into(),
        ..Default::default()
    }
}

fn controller(kind: &str, uid: &str, is_controller: Option<bool>) -> OwnerReference {
    OwnerReference {
        controller: is_controller,
        ..owner("customresourceVersion", kind, "name", uid)
    }
}

fn managed(manager: &str, operation: &str, fields_type: &str) -> ManagedFieldsEntry {
    ManagedFieldsEntry {
        manager: manager.into(),
        operation: operation.into(),
        api_version: "v1".into(),
        fields_type: fields_type.into(),
        ..Default::default()
    }
}

fn valid_meta() -> ObjectMeta {
    ObjectMeta::named("test").in_namespace("default")
}

/// A stored object as an update sees it: named, versioned.
fn stored() -> ObjectMeta {
    ObjectMeta {
        resource_version: "1".into(),
        ..ObjectMeta::named("test")
    }
}

fn at(secs: i64) -> Time {
    Time::from_unix_seconds(secs).unwrap()
}

// ------------------------------------------------------------------ create

#[test]
fn valid_metadata_passes() {
    assert!(create(&valid_meta(), true).is_empty());
    assert!(create(&ObjectMeta::named("node-1.example.com"), false).is_empty());
    let full = ObjectMeta {
        generate_name: "test-".into(),
        generation: 3,
        labels: map(&[("app", "web"), ("example.com/tier", ""), ("a_b", "A.b-9")]),
        annotations: map(&[("Example.com/Note", "anything goes: {}\n")]),
        owner_references: vec![controller("ReplicaSet", "1", Some(true))],
        finalizers: vec!["example.com/cleanup".into(), "orphan".into()],
        managed_fields: vec![
            managed("kubectl", "Update", "FieldsV1"),
            managed("", "Apply", ""),
        ],
        ..valid_meta()
    };
    assert_eq!(messages(&create(&full, true)), Vec::<String>::new());
}

#[test]
fn create_wrapper_is_rooted_at_metadata() {
    let errs = validate_object_meta_create(&ObjectMeta::default(), true, name_is_dns_subdomain);
    assert_eq!(
        messages(&errs),
        [
            "metadata.name: Required value: name or generateName is required",
            "metadata.namespace: Required value",
        ]
    );
}

#[test]
fn custom_name_function_is_used_for_name_and_prefix() {
    // TestValidateObjectMetaCustomName
    fn only_test(s: &str, _prefix: bool) -> Vec<String> {
        if s == "test" {
            Vec::new()
        } else {
            vec!["name-gen".to_string()]
        }
    }
    let meta = ObjectMeta {
        generate_name: "foo".into(),
        ..ObjectMeta::named("test")
    };
    let errs = validate_object_meta(&meta, false, only_test, &FieldPath::new("field"));
    assert_eq!(
        messages(&errs),
        [r#"field.generateName: Invalid value: "foo": name-gen"#]
    );

    // The prefix flag is passed through.
    fn prefix_seen(_: &str, prefix: bool) -> Vec<String> {
        vec![format!("prefix={prefix}")]
    }
    let errs = validate_object_meta(&meta, false, prefix_seen, &METADATA_PATH);
    assert_eq!(
        messages(&errs),
        [
            r#"metadata.generateName: Invalid value: "foo": prefix=true"#,
            r#"metadata.name: Invalid value: "test": prefix=false"#,
        ]
    );
}

#[test]
fn generate_name_may_end_with_a_dash() {
    // TestValidateObjectMetaTrimsTrailingSlash
    let meta = ObjectMeta {
        generate_name: "foo-".into(),
        ..ObjectMeta::named("test")
    };
    assert!(
        validate_object_meta(
            &meta,
            false,
            name_is_dns_subdomain,
            &FieldPath::new("field")
        )
        .is_empty()
    );
    // Without the prefix masking the same value is not a name.
    let named = ObjectMeta::named("foo-");
    assert_eq!(
        messages(&create(&named, false)),
        [format!(
            r#"metadata.name: Invalid value: "foo-": {SUBDOMAIN_REGEX_MSG}"#
        )]
    );
}

#[test]
fn bad_generate_name_is_invalid() {
    let meta = ObjectMeta {
        generate_name: "Foo-".into(),
        ..ObjectMeta::named("test")
    };
    let errs = create(&meta, false);
    assert_eq!(
        kinds(&errs),
        [(ErrorType::Invalid, "metadata.generateName")]
    );
    assert_eq!(
        messages(&errs),
        [format!(
            r#"metadata.generateName: Invalid value: "Foo-": {SUBDOMAIN_REGEX_MSG}"#
        )]
    );
    // The bad value is the prefix as written, not the masked one.
    assert_eq!(errs.as_slice()[0].bad_value, Some(json!("Foo-")));
}

#[test]
fn generate_name_alone_still_needs_a_generated_name() {
    // Validation runs after name generation: an empty name is an error.
    let meta = ObjectMeta {
        generate_name: "foo-".into(),
        ..ObjectMeta::default()
    };
    let errs = create(&meta, false);
    assert_eq!(
        messages(&errs),
        ["metadata.name: Required value: name or generateName is required"]
    );
    assert_eq!(errs.as_slice()[0].error_type, ErrorType::Required);
    assert_eq!(
        errs.as_slice()[0].detail,
        "name or generateName is required"
    );
}

#[test]
fn uppercase_name_is_invalid() {
    let errs = create(&ObjectMeta::named("Test").in_namespace("default"), true);
    assert_eq!(
        messages(&errs),
        [format!(
            r#"metadata.name: Invalid value: "Test": {SUBDOMAIN_REGEX_MSG}"#
        )]
    );
    // A DNS-label name function gives its own message.
    let errs = validate_object_meta(
        &ObjectMeta::named("a.b"),
        false,
        name_is_dns_label,
        &METADATA_PATH,
    );
    assert_eq!(
        messages(&errs),
        [r#"metadata.name: Invalid value: "a.b": must not contain dots"#]
    );
}

#[test]
fn name_length_limit_is_253() {
    let ok = "a".repeat(253);
    assert!(create(&ObjectMeta::named(ok), false).is_empty());
    let long = "a".repeat(254);
    let errs = create(&ObjectMeta::named(long.clone()), false);
    assert_eq!(
        messages(&errs),
        [format!(
            r#"metadata.name: Invalid value: "{long}": must be no more than 253 characters"#
        )]
    );
    // Too long and malformed: both problems.
    let errs = create(&ObjectMeta::named("A".repeat(254)), false);
    assert_eq!(errs.len(), 2);
    assert_eq!(
        errs.as_slice()[0].detail,
        "must be no more than 253 characters"
    );
    assert_eq!(errs.as_slice()[1].detail, SUBDOMAIN_REGEX_MSG);
}

#[test]
fn namespace_must_be_a_dns_label() {
    // TestValidateObjectMetaNamespaces
    let meta = ObjectMeta::named("test").in_namespace("foo.bar");
    let errs = validate_object_meta(&meta, true, no_names, &FieldPath::new("field"));
    assert_eq!(
        messages(&errs),
        [r#"field.namespace: Invalid value: "foo.bar": must not contain dots"#]
    );

    let errs = create(
        &ObjectMeta::named("test").in_namespace("a".repeat(64)),
        true,
    );
    assert_eq!(kinds(&errs), [(ErrorType::Invalid, "metadata.namespace")]);
    assert_eq!(
        errs.as_slice()[0].detail,
        "must be no more than 63 characters"
    );
    assert!(
        create(
            &ObjectMeta::named("test").in_namespace("a".repeat(63)),
            true
        )
        .is_empty()
    );

    let errs = create(
        &ObjectMeta::named("test").in_namespace("Ab".repeat(32)),
        true,
    );
    assert_eq!(
        kinds(&errs),
        [
            (ErrorType::Invalid, "metadata.namespace"),
            (ErrorType::Invalid, "metadata.namespace")
        ]
    );
    assert_eq!(
        errs.as_slice()[0].detail,
        "must be no more than 63 characters"
    );
    assert!(
        errs.as_slice()[1]
            .detail
            .starts_with("a lowercase RFC 1123 label must consist of")
    );
}

#[test]
fn namespaced_types_need_a_namespace() {
    let errs = create(&ObjectMeta::named("test"), true);
    assert_eq!(messages(&errs), ["metadata.namespace: Required value"]);
    assert_eq!(errs.as_slice()[0].error_type, ErrorType::Required);
    assert_eq!(errs.as_slice()[0].detail, "");
}

#[test]
fn cluster_scoped_types_forbid_a_namespace() {
    let errs = create(&valid_meta(), false);
    assert_eq!(
        messages(&errs),
        ["metadata.namespace: Forbidden: not allowed on this type"]
    );
    assert_eq!(errs.as_slice()[0].error_type, ErrorType::Forbidden);
    // Even a malformed namespace is only forbidden, not validated.
    let errs = create(&ObjectMeta::named("test").in_namespace("Not Valid"), false);
    assert_eq!(
        messages(&errs),
        ["metadata.namespace: Forbidden: not allowed on this type"]
    );
}

#[test]
fn generation_must_not_be_negative() {
    let meta = ObjectMeta {
        generation: -1,
        ..valid_meta()
    };
    let errs = create(&meta, true);
    assert_eq!(
        messages(&errs),
        ["metadata.generation: Invalid value: -1: must be greater than or equal to 0"]
    );
    assert_eq!(errs.as_slice()[0].bad_value, Some(json!(-1)));
    for ok in [0, 1, i64::MAX] {
        let meta = ObjectMeta {
            generation: ok,
            ..valid_meta()
        };
        assert!(create(&meta, true).is_empty(), "{ok}");
    }
    assert_eq!(
        messages(&validate_nonnegative_field(i64::MIN, &FieldPath::new("x"))),
        [format!(
            "x: Invalid value: {}: must be greater than or equal to 0",
            i64::MIN
        )]
    );
}

#[test]
fn labels_are_checked_at_the_map_path() {
    let meta = ObjectMeta {
        labels: map(&[
            ("good", "-bad-value"),
            ("nospecialchars^=@", "ok"),
            ("Example.com/abc", "ok"),
        ]),
        ..valid_meta()
    };
    let errs = create(&meta, true);
    // Keys in order: "Example.com/abc", "good", "nospecialchars^=@".
    assert_eq!(
        kinds(&errs),
        vec![(ErrorType::Invalid, "metadata.labels"); 3]
    );
    let m = messages(&errs);
    assert!(
        m[0].starts_with(
            r#"metadata.labels: Invalid value: "Example.com/abc": prefix part a lowercase RFC 1123 subdomain"#
        ),
        "{m:?}"
    );
    assert_eq!(
        m[1],
        r#"metadata.labels: Invalid value: "-bad-value": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"#
    );
    assert_eq!(
        m[2],
        r#"metadata.labels: Invalid value: "nospecialchars^=@": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"#
    );
}

#[test]
fn label_key_and_value_errors_are_both_reported() {
    let errs = validate_labels(&map(&[("a/b/c", &"v".repeat(64))]), &FieldPath::new("l"));
    assert_eq!(errs.len(), 2);
    assert!(
        errs.as_slice()[0]
            .detail
            .starts_with("a qualified name must consist of")
    );
    assert_eq!(errs.as_slice()[0].bad_value, Some(json!("a/b/c")));
    assert_eq!(
        errs.as_slice()[1].detail,
        "must be no more than 63 characters"
    );
    assert_eq!(errs.as_slice()[1].bad_value, Some(json!("v".repeat(64))));
    // An empty value is a valid label value; an empty key is not a name.
    let errs = validate_labels(&map(&[("", "")]), &FieldPath::new("l"));
    assert_eq!(errs.len(), 2);
    assert_eq!(errs.as_slice()[0].detail, "name part must be non-empty");
}

#[test]
fn annotation_keys_are_qualified_names_in_any_case() {
    // TestValidateAnnotations success cases
    for key in [
        "simple",
        "now-with-dashes",
        "1-starts-with-num",
        "1234",
        "simple/simple",
        "now-with-dashes/simple",
        "now-with-dashes/now-with-dashes",
        "now.with.dots/simple",
        "now-with.dashes-and.dots/simple",
        "1-num.2-num/3-num",
        "1234/5678",
        "1.2.3.4/5678",
        "UpperCase123",
        "Example.COM/UpperCase",
    ] {
        let errs = validate_annotations(&map(&[(key, "bar")]), &FieldPath::new("field"));
        assert!(errs.is_empty(), "{key}: {errs}");
    }
    for (key, expect) in [
        ("nospecialchars^=@", "name part must consist of"),
        ("cantendwithadash-", "name part must consist of"),
        ("only/one/slash", "a qualified name must consist of"),
        (&"a".repeat(254), "name part must be no more than"),
    ] {
        let errs = validate_annotations(&map(&[(key, "bar")]), &FieldPath::new("field"));
        assert_eq!(errs.len(), 1, "{key}: {errs}");
        assert!(
            errs.as_slice()[0].detail.starts_with(expect),
            "{key}: {errs}"
        );
        assert_eq!(errs.as_slice()[0].field, "field");
    }
    // The key is reported as written, not lowercased.
    let errs = create(
        &ObjectMeta {
            annotations: map(&[("Bad^Key", "x")]),
            ..valid_meta()
        },
        true,
    );
    assert_eq!(kinds(&errs), [(ErrorType::Invalid, "metadata.annotations")]);
    assert_eq!(errs.as_slice()[0].bad_value, Some(json!("Bad^Key")));
}

#[test]
fn annotations_total_size_limit() {
    assert_eq!(TOTAL_ANNOTATION_SIZE_LIMIT_B, 262_144);
    let limit = TOTAL_ANNOTATION_SIZE_LIMIT_B;
    // Exactly at the limit: key + value = 256 KiB.
    for ok in [
        map(&[("a", &"b".repeat(limit - 1))]),
        map(&[
            ("a", &"b".repeat(limit / 2 - 1)),
            ("c", &"d".repeat(limit / 2 - 1)),
        ]),
    ] {
        assert!(annotations_size(&ok) <= limit);
        let errs = create(
            &ObjectMeta {
                annotations: ok,
                ..valid_meta()
            },
            true,
        );
        assert!(errs.is_empty(), "{errs}");
    }
    for over in [
        map(&[("a", &"b".repeat(limit))]),
        map(&[("a", &"b".repeat(limit / 2)), ("c", &"d".repeat(limit / 2))]),
    ] {
        let errs = create(
            &ObjectMeta {
                annotations: over,
                ..valid_meta()
            },
            true,
        );
        assert_eq!(
            messages(&errs),
            ["metadata.annotations: Too long: may not be more than 262144 bytes"]
        );
        assert_eq!(errs.as_slice()[0].error_type, ErrorType::TooLong);
        assert_eq!(errs.as_slice()[0].bad_value, None);
    }
    // Bytes, not characters: 'é' is two bytes.
    let multi = map(&[("a", &"é".repeat(limit / 2))]);
    assert_eq!(annotations_size(&multi), limit + 1);
    assert_eq!(
        validate_annotations_size(&multi),
        Err("annotations size 262145 is larger than limit 262144".to_string())
    );
    assert_eq!(
        validate_annotations_size(&map(&[("a", &"é".repeat(limit / 2 - 1))])),
        Ok(())
    );
    // Key errors come first, then the size.
    let errs = validate_annotations(
        &map(&[("bad key", &"x".repeat(limit))]),
        &FieldPath::new("a"),
    );
    assert_eq!(
        kinds(&errs),
        [(ErrorType::Invalid, "a"), (ErrorType::TooLong, "a")]
    );
}

#[test]
fn owner_references_valid() {
    let refs = vec![
        owner("customresourceVersion", "customresourceKind", "name", "1"),
        owner("apps/v1", "ReplicaSet", "rs", "2"),
        owner("v1", "Pod", "p", "3"),
        // Only core/v1 events are banned.
        owner("events.k8s.io/v1", "Event", "e", "4"),
        owner("v2", "Event", "e", "5"),
    ];
    let errs = validate_owner_references(&refs, &FieldPath::new("o"));
    assert!(errs.is_empty(), "{errs}");
}

#[test]
fn owner_reference_fields_are_required_at_the_list_path() {
    let errs = create(
        &ObjectMeta {
            owner_references: vec![OwnerReference::default()],
            ..valid_meta()
        },
        true,
    );
    assert_eq!(
        messages(&errs),
        [
            r#"metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty"#,
            r#"metadata.ownerReferences.kind: Invalid value: "": kind must not be empty"#,
            r#"metadata.ownerReferences.name: Invalid value: "": name must not be empty"#,
            r#"metadata.ownerReferences.uid: Invalid value: "": uid must not be empty"#,
        ]
    );
    // Entries are not indexed, as in Go: the second entry reports at the same path.
    let refs = vec![owner("v1", "Pod", "p", "1"), owner("v1", "Pod", "p", "")];
    assert_eq!(
        messages(&validate_owner_references(&refs, &FieldPath::new("o"))),
        [r#"o.uid: Invalid value: "": uid must not be empty"#]
    );
}

#[test]
fn owner_reference_api_version_must_have_a_version() {
    for bad in ["", "/", "apps/", "a/b/c", "a/b/"] {
        let errs = validate_owner_references(&[owner(bad, "K", "n", "u")], &METADATA_PATH);
        assert_eq!(
            messages(&errs),
            [format!(
                "metadata.apiVersion: Invalid value: {}: version must not be empty",
                serde_json::to_string(bad).unwrap()
            )],
            "{bad}"
        );
    }
    for ok in ["v1", "/v1", "apps/v1", "example.com/v1alpha1", "WeIrD"] {
        let errs = validate_owner_references(&[owner(ok, "K", "n", "u")], &METADATA_PATH);
        assert!(errs.is_empty(), "{ok}: {errs}");
    }
    assert_eq!(parse_group_version(""), Some(("", "")));
    assert_eq!(parse_group_version("/"), Some(("", "")));
    assert_eq!(parse_group_version("v1"), Some(("", "v1")));
    assert_eq!(parse_group_version("/v1"), Some(("", "v1")));
    assert_eq!(parse_group_version("apps/v1"), Some(("apps", "v1")));
    assert_eq!(parse_group_version("apps/"), Some(("apps", "")));
    assert_eq!(parse_group_version("a/b/c"), None);
}

#[test]
fn events_cannot_be_owners() {
    let event = owner("v1", "Event", "name", "1");
    let errs = create(
        &ObjectMeta {
            owner_references: vec![event.clone()],
            ..valid_meta()
        },
        true,
    );
    assert_eq!(
        messages(&errs),
        [
            r#"metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"name","uid":"1"}: /v1, Kind=Event is disallowed from being an owner"#
        ]
    );
    assert_eq!(
        errs.as_slice()[0].bad_value,
        Some(serde_json::to_value(&event).unwrap())
    );
    // "/v1" parses to the same group and version.
    let errs = validate_owner_references(&[owner("/v1", "Event", "n", "1")], &METADATA_PATH);
    assert_eq!(errs.len(), 1);
    assert_eq!(
        errs.as_slice()[0].detail,
        "/v1, Kind=Event is disallowed from being an owner"
    );
    // Other errors of the entry come first.
    let errs = validate_owner_references(&[owner("v1", "Event", "", "")], &METADATA_PATH);
    assert_eq!(
        kinds(&errs),
        [
            (ErrorType::Invalid, "metadata.name"),
            (ErrorType::Invalid, "metadata.uid"),
            (ErrorType::Invalid, "metadata"),
        ]
    );
}

#[test]
fn only_one_controller() {
    // TestValidateObjectMetaOwnerReferences
    let one = vec![
        controller("customresourceKind", "1", Some(false)),
        controller("customresourceKind", "2", Some(true)),
        controller("customresourceKind", "3", Some(false)),
        controller("customresourceKind", "4", None),
    ];
    assert!(validate_owner_references(&one, &METADATA_PATH).is_empty());

    let two = vec![
        controller("customresourceKind1", "1", Some(false)),
        controller("customresourceKind2", "2", Some(true)),
        controller("customresourceKind3", "3", Some(true)),
        controller("customresourceKind4", "4", None),
    ];
    let errs = create(
        &ObjectMeta {
            owner_references: two.clone(),
            ..valid_meta()
        },
        true,
    );
    assert_eq!(
        kinds(&errs),
        [(ErrorType::Invalid, "metadata.ownerReferences")]
    );
    assert_eq!(
        errs.as_slice()[0].detail,
        "Only one reference can have Controller set to true. Found \"true\" in references for customresourceKind2/name and customresourceKind3/name"
    );
    // The bad value is the whole list.
    assert_eq!(
        errs.as_slice()[0].bad_value,
        Some(serde_json::to_value(&two).unwrap())
    );
    assert!(
        errs.to_string().starts_with(
            r#"metadata.ownerReferences: Invalid value: [{"apiVersion":"customresourceVersion","#
        ),
        "{errs}"
    );

    // Every further controller is compared with the first one.
    let three = vec![
        controller("A", "1", Some(true)),
        controller("B", "2", Some(true)),
        controller("C", "3", Some(true)),
    ];
    let details: Vec<String> = validate_owner_references(&three, &METADATA_PATH)
        .into_iter()
        .map(|e| e.detail)
        .collect();
    assert_eq!(
        details,
        [
            "Only one reference can have Controller set to true. Found \"true\" in references for A/name and B/name",
            "Only one reference can have Controller set to true. Found \"true\" in references for A/name and C/name",
        ]
    );
}

#[test]
fn finalizer_names_are_qualified_names() {
    let ok: Vec<String> = ["example.com/cleanup", "kubernetes", "orphan", "a_b.C-d"]
        .map(String::from)
        .to_vec();
    assert!(validate_finalizers(&ok, &METADATA_PATH).is_empty());
    let bad: Vec<String> = ["a/b/c", "-x"].map(String::from).to_vec();
    let errs = create(
        &ObjectMeta {
            finalizers: bad,
            ..valid_meta()
        },
        true,
    );
    assert_eq!(
        kinds(&errs),
        vec![(ErrorType::Invalid, "metadata.finalizers"); 2]
    );
    assert_eq!(errs.as_slice()[0].bad_value, Some(json!("a/b/c")));
    assert_eq!(errs.as_slice()[1].bad_value, Some(json!("-x")));
}

#[test]
fn orphan_and_foreground_deletion_conflict() {
    // TestValidateFinalizersPreventConflictingFinalizers
    let meta = ObjectMeta {
        resource_version: "1".into(),
        finalizers: vec!["orphan".into(), "foregroundDeletion".into()],
        ..ObjectMeta::named("test")
    };
    let errs = validate_object_meta(
        &meta,
        false,
        name_is_dns_subdomain,
        &FieldPath::new("field"),
    );
    assert_eq!(
        messages(&errs),
        [
            r#"field.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set"#
        ]
    );
    // One of them alone is fine, and so is a repeated one.
    let alone: Vec<String> = vec!["foregroundDeletion".into(), "foregroundDeletion".into()];
    assert!(validate_finalizers(&alone, &METADATA_PATH).is_empty());
}

#[test]
fn managed_fields_operation_and_fields_type() {
    // TestValidateManagedFieldsInvalid / Valid
    let entries = vec![
        managed("", "Update", "RandomVersion"),
        managed("", "RandomOperation", "FieldsV1"),
        managed("", "", "FieldsV1"),
        managed("field\nmanager", "Update", "FieldsV1"),
        managed("", "Apply", ""),
        managed("", "apply", "fieldsv1"),
    ];
    let errs = create(
        &ObjectMeta {
            managed_fields: entries,
            ..valid_meta()
        },
        true,
    );
    assert_eq!(
        messages(&errs),
        [
            r#"metadata.managedFields[0].fieldsType: Invalid value: "RandomVersion": must be `FieldsV1`"#,
            r#"metadata.managedFields[1].operation: Invalid value: "RandomOperation": must be `Apply` or `Update`"#,
            r#"metadata.managedFields[2].operation: Invalid value: "": must be `Apply` or `Update`"#,
            r#"metadata.managedFields[3].manager: Invalid value: "field\nmanager": invalid character U+000A (at position 5)"#,
            r#"metadata.managedFields[5].operation: Invalid value: "apply": must be `Apply` or `Update`"#,
            r#"metadata.managedFields[5].fieldsType: Invalid value: "fieldsv1": must be `FieldsV1`"#,
        ]
    );
    assert!(errs.iter().all(|e| e.error_type == ErrorType::Invalid));
}

#[test]
fn field_manager_must_be_printable() {
    let p = FieldPath::new("fieldManager");
    for ok in [
        "filedManager",
        "你好",
        "🍔",
        "kube controller-manager",
        "",
        "a\u{301}",
    ] {
        assert!(validate_field_manager(ok, &p).is_empty(), "{ok:?}");
    }
    assert_eq!(
        messages(&validate_field_manager("a\u{7}", &p)),
        [r#"fieldManager: Invalid value: "a\a": invalid character U+0007 (at position 1)"#]
    );
    // Positions are byte offsets; every bad character is reported.
    let errs = validate_field_manager("é\u{0}x\u{a0}\u{10FFFF}", &p);
    let details: Vec<&str> = errs.iter().map(|e| e.detail.as_str()).collect();
    assert_eq!(
        details,
        [
            "invalid character U+0000 (at position 2)",
            "invalid character U+00A0 (at position 4)",
            "invalid character U+10FFFF (at position 6)",
        ]
    );
    assert!(
        errs.iter()
            .all(|e| e.bad_value == Some(json!("é\u{0}x\u{a0}\u{10FFFF}")))
    );
}

#[test]
fn go_printable_characters() {
    for c in [
        ' ',
        'a',
        '~',
        '¡',
        '®',
        'é',
        '\u{301}',
        '你',
        '🍔',
        '€',
        '\u{1F6DC}',
    ] {
        assert!(is_go_printable(c), "{c:?} U+{:04X}", c as u32);
    }
    for c in [
        '\0',
        '\t',
        '\n',
        '\u{7f}',
        '\u{85}',
        '\u{a0}',
        '\u{ad}',
        '\u{378}',
        '\u{2000}',
        '\u{200b}',
        '\u{2028}',
        '\u{2029}',
        '\u{3000}',
        '\u{feff}',
        '\u{e000}',
        '\u{fdd0}',
        '\u{fffe}',
        '\u{10ffff}',
        // Added in Unicode 16.0, after Go's tables (15.0.0).
        '\u{1FAE9}',
    ] {
        assert!(!is_go_printable(c), "U+{:04X}", c as u32);
    }
    // ASCII: exactly the graphic characters and the space.
    for b in 0u8..128 {
        assert_eq!(is_go_printable(b as char), (0x20..0x7f).contains(&b), "{b}");
    }
}

#[test]
fn manager_and_subresource_length_limits() {
    assert_eq!(FIELD_MANAGER_MAX_LENGTH, 128);
    assert_eq!(MAX_SUBRESOURCE_NAME_LENGTH, 256);
    let p = FieldPath::new("fieldManager");
    assert!(validate_field_manager(&"f".repeat(128), &p).is_empty());
    assert_eq!(
        messages(&validate_field_manager(&"f".repeat(129), &p)),
        ["fieldManager: Too long: may not be more than 128 bytes"]
    );
    // Bytes, not characters: 43 three-byte characters are 129 bytes.
    assert_eq!(validate_field_manager(&"你".repeat(43), &p).len(), 1);
    // Too long comes before the bad characters.
    let errs = validate_field_manager(&format!("{}\t", "f".repeat(128)), &p);
    assert_eq!(
        kinds(&errs),
        [
            (ErrorType::TooLong, "fieldManager"),
            (ErrorType::Invalid, "fieldManager")
        ]
    );

    let mut entry = managed("m", "Apply", "FieldsV1");
    entry.subresource = "s".repeat(256);
    assert!(validate_managed_fields(&[entry.clone()], &METADATA_PATH).is_empty());
    entry.subresource.push('s');
    entry.manager = "m".repeat(129);
    let errs = validate_managed_fields(&[managed("m", "Apply", ""), entry], &METADATA_PATH);
    assert_eq!(
        messages(&errs),
        [
            "metadata[1].manager: Too long: may not be more than 128 bytes",
            "metadata[1].subresource: Too long: may not be more than 256 bytes",
        ]
    );
}

#[test]
fn create_errors_come_in_go_order() {
    let meta = ObjectMeta {
        name: "Bad".into(),
        generate_name: "-".into(),
        namespace: "ns".into(),
        generation: -2,
        labels: map(&[("k", "-")]),
        annotations: map(&[("-", "")]),
        owner_references: vec![owner("v1", "", "n", "u")],
        finalizers: vec!["/".into()],
        managed_fields: vec![managed("", "x", "")],
        ..Default::default()
    };
    let fields: Vec<String> = create(&meta, false).into_iter().map(|e| e.field).collect();
    assert_eq!(
        fields,
        [
            "metadata.generateName",
            "metadata.name",
            "metadata.namespace",
            "metadata.generation",
            "metadata.labels",
            "metadata.annotations",
            "metadata.ownerReferences.kind",
            "metadata.finalizers",
            "metadata.finalizers",
            "metadata.finalizers",
            "metadata.managedFields[0].operation",
        ]
    );
}

// ------------------------------------------------------------------ update

#[test]
fn unchanged_update_passes() {
    let old = ObjectMeta {
        uid: "u-1".into(),
        generation: 2,
        creation_timestamp: Some(at(10)),
        labels: map(&[("a", "b")]),
        finalizers: vec!["x/a".into()],
        ..stored()
    };
    assert!(update(&old, &old).is_empty());
    let mut new = old.clone();
    new.resource_version = "2".into();
    new.generation = 3;
    new.labels.insert("c".to_string(), "d".to_string());
    new.finalizers.push("y/b".to_string());
    assert!(update(&new, &old).is_empty(), "{}", update(&new, &old));
}

#[test]
fn update_needs_a_resource_version() {
    let mut new = stored();
    new.resource_version.clear();
    let errs = update(&new, &stored());
    assert_eq!(
        messages(&errs),
        [r#"metadata.resourceVersion: Invalid value: "": must be specified for an update"#]
    );
    assert_eq!(errs.as_slice()[0].error_type, ErrorType::Invalid);
}

#[test]
fn generation_must_not_be_decremented() {
    // TestObjectMetaGenerationUpdate
    let old = ObjectMeta {
        generation: 5,
        ..stored()
    };
    let new = ObjectMeta {
        generation: 4,
        ..stored()
    };
    assert_eq!(
        messages(&validate_object_meta_update(
            &new,
            &old,
            &FieldPath::new("field")
        )),
        ["field.generation: Invalid value: 4: must not be decremented"]
    );
    for (o, n) in [(1, 2), (5, 5), (0, 7)] {
        let old = ObjectMeta {
            generation: o,
            ..stored()
        };
        let new = ObjectMeta {
            generation: n,
            ..stored()
        };
        assert!(update(&new, &old).is_empty(), "{o} -> {n}");
    }
    // As in Go, update only compares: a negative generation that does not go
    // down is not reported again.
    let old = ObjectMeta {
        generation: -5,
        ..stored()
    };
    let new = ObjectMeta {
        generation: -3,
        ..stored()
    };
    assert!(update(&new, &old).is_empty());
}

#[test]
fn identity_fields_are_immutable() {
    let old = ObjectMeta {
        namespace: "ns".into(),
        uid: "uid-1".into(),
        ..stored()
    };
    let mut new = old.clone();
    new.name = "other".into();
    new.namespace = "ns2".into();
    new.uid = "uid-2".into();
    assert_eq!(
        messages(&update(&new, &old)),
        [
            r#"metadata.name: Invalid value: "other": field is immutable"#,
            r#"metadata.namespace: Invalid value: "ns2": field is immutable"#,
            r#"metadata.uid: Invalid value: "uid-2": field is immutable"#,
        ]
    );
    // Clearing a field is a change too.
    let mut cleared = old.clone();
    cleared.uid.clear();
    assert_eq!(
        messages(&update(&cleared, &old)),
        [r#"metadata.uid: Invalid value: "": field is immutable"#]
    );
}

#[test]
fn creation_timestamp_is_immutable() {
    // TestValidateObjectMetaUpdateIgnoresCreationTimestamp: one error each.
    let with = |t: Option<Time>| ObjectMeta {
        creation_timestamp: t,
        ..stored()
    };
    let errs = update(&with(None), &with(Some(at(10))));
    assert_eq!(
        messages(&errs),
        ["metadata.creationTimestamp: Invalid value: null: field is immutable"]
    );
    let errs = update(&with(Some(at(10))), &with(None));
    assert_eq!(
        messages(&errs),
        [
            r#"metadata.creationTimestamp: Invalid value: "1970-01-01T00:00:10Z": field is immutable"#
        ]
    );
    let errs = update(&with(Some(at(10))), &with(Some(at(11))));
    assert_eq!(errs.len(), 1);
    assert_eq!(
        errs.as_slice()[0].bad_value,
        Some(json!("1970-01-01T00:00:10Z"))
    );
    assert!(update(&with(Some(at(10))), &with(Some(at(10)))).is_empty());
}

#[test]
fn deletion_fields_are_immutable() {
    // TestValidateObjectMetaUpdatePreventsDeletionFieldMutation
    let now = at(1000);
    let later = at(2000);
    let meta = |ts: Option<Time>, grace: Option<i64>| ObjectMeta {
        deletion_timestamp: ts,
        deletion_grace_period_seconds: grace,
        ..stored()
    };
    let cases: Vec<(&str, ObjectMeta, ObjectMeta, Vec<&str>)> = vec![
        (
            "valid without deletion fields",
            meta(None, None),
            meta(None, None),
            vec![],
        ),
        (
            "valid with deletion fields",
            meta(Some(now), Some(30)),
            meta(Some(now), Some(30)),
            vec![],
        ),
        (
            "invalid set deletionTimestamp",
            meta(None, None),
            meta(Some(now), None),
            vec![
                r#"field.deletionTimestamp: Invalid value: "1970-01-01T00:16:40Z": field is immutable"#,
            ],
        ),
        (
            "invalid clear deletionTimestamp",
            meta(Some(now), None),
            meta(None, None),
            vec!["field.deletionTimestamp: Invalid value: null: field is immutable"],
        ),
        (
            "invalid change deletionTimestamp",
            meta(Some(now), None),
            meta(Some(later), None),
            vec![
                r#"field.deletionTimestamp: Invalid value: "1970-01-01T00:33:20Z": field is immutable"#,
            ],
        ),
        (
            "invalid set deletionGracePeriodSeconds",
            meta(None, None),
            meta(None, Some(30)),
            vec!["field.deletionGracePeriodSeconds: Invalid value: 30: field is immutable"],
        ),
        (
            "invalid clear deletionGracePeriodSeconds",
            meta(None, Some(30)),
            meta(None, None),
            vec!["field.deletionGracePeriodSeconds: Invalid value: null: field is immutable"],
        ),
        (
            "invalid change deletionGracePeriodSeconds",
            meta(None, Some(30)),
            meta(None, Some(40)),
            vec!["field.deletionGracePeriodSeconds: Invalid value: 40: field is immutable"],
        ),
    ];
    for (name, old, new, expected) in cases {
        let errs = validate_object_meta_update(&new, &old, &FieldPath::new("field"));
        assert_eq!(messages(&errs), expected, "{name}");
    }
}

#[test]
fn no_new_finalizers_while_deleting() {
    // TestValidateFinalizersUpdate
    let deleting = |finalizers: &[&str]| ObjectMeta {
        deletion_timestamp: Some(at(0)),
        finalizers: finalizers.iter().map(|f| f.to_string()).collect(),
        ..stored()
    };
    let errs = update(&deleting(&["x/a", "y/b"]), &deleting(&["x/a"]));
    assert_eq!(
        messages(&errs),
        [
            r#"metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"y/b"}"#
        ]
    );
    assert_eq!(errs.as_slice()[0].error_type, ErrorType::Forbidden);

    // Changing one is adding one.
    let errs = update(&deleting(&["x/b"]), &deleting(&["x/a"]));
    assert!(errs.to_string().contains(r#"[]string{"x/b"}"#), "{errs}");

    // Several new ones are listed once each, sorted.
    let errs = update(&deleting(&["z", "x/a", "b", "z"]), &deleting(&["x/a"]));
    assert_eq!(
        errs.as_slice()[0].detail,
        r#"no new finalizers can be added if the object is being deleted, found new finalizers []string{"b", "z"}"#
    );

    // Removing is fine, and so is adding while not being deleted.
    assert!(update(&deleting(&["x/a"]), &deleting(&["x/a", "y/b"])).is_empty());
    let alive = |finalizers: &[&str]| ObjectMeta {
        finalizers: finalizers.iter().map(|f| f.to_string()).collect(),
        ..stored()
    };
    assert!(update(&alive(&["x/a", "y/b"]), &alive(&["x/a"])).is_empty());

    // Quoting follows Go's %#v.
    let errs = validate_no_new_finalizers(
        &["a\"b".to_string(), "tab\there".to_string()],
        &[],
        &FieldPath::new("f"),
    );
    assert_eq!(
        errs.as_slice()[0].detail,
        r#"no new finalizers can be added if the object is being deleted, found new finalizers []string{"a\"b", "tab\there"}"#
    );
}

#[test]
fn update_revalidates_labels_annotations_owners_and_managed_fields_only() {
    let old = stored();
    let new = ObjectMeta {
        labels: map(&[("bad key", "v")]),
        annotations: map(&[("a", &"b".repeat(TOTAL_ANNOTATION_SIZE_LIMIT_B))]),
        owner_references: vec![owner("v1", "Event", "e", "1")],
        managed_fields: vec![managed("", "Patch", "")],
        // Neither finalizer names, nor their conflict, nor the name are checked on update.
        finalizers: vec!["a/b/c".into(), "orphan".into(), "foregroundDeletion".into()],
        ..stored()
    };
    assert_eq!(
        kinds(&update(&new, &old)),
        [
            (ErrorType::Invalid, "metadata.labels"),
            (ErrorType::TooLong, "metadata.annotations"),
            (ErrorType::Invalid, "metadata.ownerReferences"),
            (ErrorType::Invalid, "metadata.managedFields[0].operation"),
        ]
    );
    let badly_named = ObjectMeta {
        resource_version: "1".into(),
        ..ObjectMeta::named("Not A Name")
    };
    assert!(update(&badly_named, &badly_named).is_empty());
}

#[test]
fn update_errors_come_in_go_order() {
    let old = ObjectMeta {
        deletion_timestamp: Some(at(5)),
        generation: 9,
        ..stored()
    };
    let new = ObjectMeta {
        name: "renamed".into(),
        resource_version: String::new(),
        generation: 1,
        finalizers: vec!["new".into()],
        labels: map(&[("k", "-")]),
        ..Default::default()
    };
    let fields: Vec<String> = update(&new, &old).into_iter().map(|e| e.field).collect();
    assert_eq!(
        fields,
        [
            "metadata.finalizers",
            "metadata.resourceVersion",
            "metadata.generation",
            "metadata.name",
            "metadata.deletionTimestamp",
            "metadata.labels",
        ]
    );
}

#[test]
fn immutable_field_helper() {
    let p = FieldPath::new("spec");
    let f = p.child("selector");
    assert!(validate_immutable_field(&json!({"a": 1}), &json!({"a": 1}), &f).is_empty());
    assert_eq!(
        messages(&validate_immutable_field(
            &json!({"a": 2}),
            &json!({"a": 1}),
            &f
        )),
        [r#"spec.selector: Invalid value: {"a":2}: field is immutable"#]
    );
    assert_eq!(
        messages(&validate_immutable_field("new", "old", &f)),
        [r#"spec.selector: Invalid value: "new": field is immutable"#]
    );
    assert_eq!(
        messages(&validate_immutable_field(&[1, 2][..], &[1][..], &f)),
        ["spec.selector: Invalid value: [1,2]: field is immutable"]
    );
}

#[test]
fn status_cause_bodies() {
    // What a client sees in a StatusCause: the body without the field.
    let errs = create(&ObjectMeta::named("x"), true);
    assert_eq!(errs.as_slice()[0].error_body(), "Required value");
    assert_eq!(errs.as_slice()[0].error_type.as_str(), "FieldValueRequired");
    // A names helper gives the namespace message.
    assert_eq!(
        names::validate_namespace_name("a.b", false),
        ["must not contain dots"]
    );
}
