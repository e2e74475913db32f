//! `api_core::decode`: the apiserver's decode path (parse, unknown and
//! duplicate fields, defaults, validation) with its Status for each failure.

use api_core::decode::{DecodeOptions, FieldValidation, decode};
use examples::cronjob::{ConcurrencyPolicy, CronJob};
use examples::memcached::Memcached;

fn opts(fv: FieldValidation) -> DecodeOptions {
    DecodeOptions {
        field_validation: fv,
        ..DecodeOptions::default()
    }
}

const GOOD: &str = r#"{
  "apiVersion": "batch.example.com/v1",
  "kind": "CronJob",
  "metadata": {"name": "nightly", "namespace": "default", "labels": {"app": "x"}},
  "spec": {
    "schedule": "0 3 * * *",
    "jobTemplate": {"image": "busybox", "ports": [{"name": "http", "port": 80}]}
  }
}"#;

#[test]
fn a_good_object_is_defaulted() {
    let d = decode::<CronJob>(GOOD.as_bytes(), &DecodeOptions::default()).unwrap();
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);
    assert_eq!(
        d.object.spec.concurrency_policy,
        Some(ConcurrencyPolicy::Allow)
    );
    assert_eq!(d.object.spec.successful_jobs_history_limit, Some(3));
    assert_eq!(d.object.metadata.name, "nightly");
}

#[test]
fn defaults_and_validation_can_be_switched_off() {
    let o = DecodeOptions {
        apply_defaults: false,
        validate: false,
        ..DecodeOptions::default()
    };
    let d = decode::<Memcached>(br#"{"spec": {"size": 99}}"#, &o).unwrap();
    assert_eq!(d.object.spec.size, Some(99));
    let d = decode::<Memcached>(br#"{"spec": {}}"#, &o).unwrap();
    assert_eq!(d.object.spec.size, None);
}

#[test]
fn malformed_json_is_a_bad_request_with_line_and_column() {
    for (input, needle) in [
        ("{\"spec\": {\"size\": 1,}}", "line 1 column"),
        ("{\"spec\": ", "EOF while parsing"),
        ("", "EOF while parsing"),
        ("[]", "invalid type: sequence"),
        ("{\"spec\": {}} trailing", "trailing characters"),
    ] {
        let s = decode::<Memcached>(input.as_bytes(), &DecodeOptions::default()).unwrap_err();
        assert_eq!((s.code, s.reason.as_str()), (400, "BadRequest"), "{input}");
        assert!(s.message.contains(needle), "{input}: {}", s.message);
    }
}

/// A value of the wrong JSON type is the schema's 422 at its path, as the
/// apiserver reports it, not serde's message (issue 14, bug 3).
#[test]
fn wrong_json_types_are_422_at_the_field() {
    for (input, cause) in [
        (
            "{\"spec\": {\"size\": \"one\"}}",
            r#"spec.size: Invalid value: "string": spec.size in body must be of type integer: "string""#,
        ),
        (
            "{\"spec\": {\"size\": 1.5}}",
            r#"spec.size: Invalid value: "number": spec.size in body must be of type integer: "number""#,
        ),
        (
            "{\"spec\": \"x\"}",
            r#"spec: Invalid value: "string": spec in body must be of type object: "string""#,
        ),
        // Out of i32's range, and out of the schema's too.
        (
            "{\"spec\": {\"size\": 99999999999}}",
            "spec.size: Invalid value: 99999999999: spec.size in body should be less than or equal to 3",
        ),
    ] {
        let s = decode::<Memcached>(input.as_bytes(), &DecodeOptions::default()).unwrap_err();
        assert_eq!((s.code, s.reason.as_str()), (422, "Invalid"), "{input}");
        assert_eq!(
            s.message,
            format!(r#"Memcached.cache.example.com "" is invalid: {cause}"#),
            "{input}"
        );
    }
}

#[test]
fn invalid_utf8_in_a_field_is_a_bad_request() {
    let s = decode::<Memcached>(
        b"{\"metadata\": {\"name\": \"\xff\"}, \"spec\": {}}",
        &DecodeOptions::default(),
    )
    .unwrap_err();
    assert_eq!(s.code, 400);
    assert!(s.message.contains("invalid unicode"), "{}", s.message);
    // In a dropped unknown field it is dropped with the field, as Go's
    // decoder accepts it there.
    let d =
        decode::<Memcached>(b"{\"spec\": {\"x\": \"\xff\"}}", &DecodeOptions::default()).unwrap();
    assert_eq!(d.warnings, [r#"unknown field "spec.x""#]);
}

#[test]
fn wrong_type_meta_is_a_bad_request_naming_both() {
    let s = decode::<Memcached>(br#"{"kind": "Pod", "spec": {}}"#, &DecodeOptions::default())
        .unwrap_err();
    assert_eq!(s.code, 400);
    assert!(
        s.message
            .contains(r#"wrong kind: expected "Memcached", found "Pod""#),
        "{}",
        s.message
    );
    let s = decode::<Memcached>(
        br#"{"apiVersion": "v1", "spec": {}}"#,
        &DecodeOptions::default(),
    )
    .unwrap_err();
    assert!(
        s.message
            .contains(r#"expected "cache.example.com/v1alpha1", found "v1""#),
        "{}",
        s.message
    );
}

#[test]
fn unknown_fields_warn_ignore_or_fail() {
    let input =
        br#"{"spec": {"size": 1, "sise": 2}, "bogus": {"a": 1}, "metadata": {"nmae": "x"}}"#;
    let d = decode::<Memcached>(input, &opts(FieldValidation::Warn)).unwrap();
    assert_eq!(
        d.warnings,
        [
            r#"unknown field "spec.sise""#,
            r#"unknown field "bogus""#,
            r#"unknown field "metadata.nmae""#
        ]
    );
    let d = decode::<Memcached>(input, &opts(FieldValidation::Ignore)).unwrap();
    assert!(d.warnings.is_empty());
    let s = decode::<Memcached>(input, &opts(FieldValidation::Strict)).unwrap_err();
    assert_eq!(s.code, 400);
    assert_eq!(
        s.message,
        r#"strict decoding error: unknown field "spec.sise", unknown field "bogus", unknown field "metadata.nmae""#
    );
    // Paths into lists.
    let input = br#"{"spec": {"schedule": "0 3 * * *", "jobTemplate": {"image": "b", "ports": [{"name": "a", "port": 1, "x": 1}]}}}"#;
    let d = decode::<CronJob>(input, &DecodeOptions::default()).unwrap();
    assert_eq!(
        d.warnings,
        [r#"unknown field "spec.jobTemplate.ports[0].x""#]
    );
}

#[test]
fn duplicate_keys_in_maps_warn_or_fail_and_in_structs_fail() {
    let input = br#"{"metadata": {"labels": {"a": "1", "a": "2"}}, "spec": {}}"#;
    let d = decode::<Memcached>(input, &DecodeOptions::default()).unwrap();
    assert_eq!(d.warnings, [r#"duplicate field "metadata.labels.a""#]);
    assert_eq!(d.object.metadata.labels["a"], "2");
    let s = decode::<Memcached>(input, &DecodeOptions::strict()).unwrap_err();
    assert_eq!(
        s.message,
        r#"strict decoding error: duplicate field "metadata.labels.a""#
    );
    // serde rejects a repeated struct field outright.
    let s = decode::<Memcached>(
        br#"{"spec": {"size": 1, "size": 2}}"#,
        &DecodeOptions::default(),
    )
    .unwrap_err();
    assert_eq!(s.code, 400);
    assert!(
        s.message.contains("duplicate field `size`"),
        "{}",
        s.message
    );
}

#[test]
fn invalid_objects_are_422_with_every_cause() {
    let input = br#"{"metadata": {"name": "nightly"}, "spec": {"schedule": "x", "startingDeadlineSeconds": -1, "jobTemplate": {"image": ""}}}"#;
    let s = decode::<CronJob>(input, &DecodeOptions::default()).unwrap_err();
    assert_eq!((s.code, s.reason.as_str()), (422, "Invalid"));
    let details = s.details.as_ref().unwrap();
    assert_eq!(
        (
            details.group.as_str(),
            details.kind.as_str(),
            details.name.as_str()
        ),
        ("batch.example.com", "CronJob", "nightly")
    );
    let fields: Vec<&str> = details.causes.iter().map(|c| c.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "spec.schedule",
            "spec.schedule",
            "spec.startingDeadlineSeconds",
            "spec.jobTemplate.image"
        ]
    );
    assert!(
        s.message
            .starts_with(r#"CronJob.batch.example.com "nightly" is invalid: ["#),
        "{}",
        s.message
    );
}

#[test]
fn deep_nesting_never_crashes() {
    // In a known field: an error.
    let deep = format!(
        "{{\"spec\": {}{}}}",
        "{\"a\":".repeat(10_000),
        "}".repeat(10_000)
    );
    let s = decode::<Memcached>(deep.as_bytes(), &DecodeOptions::default()).unwrap_err();
    assert_eq!(s.code, 400);
    // Under a dropped unknown field, 10,000 levels in all (the root and
    // `spec` are two): skipped without recursion.
    let under_spec = |depth: usize| {
        format!(
            "{{\"spec\": {{\"x\": {}{}}}}}",
            "[".repeat(depth),
            "]".repeat(depth)
        )
    };
    let deep = under_spec(9_998);
    let d = decode::<Memcached>(deep.as_bytes(), &DecodeOptions::default()).unwrap();
    assert_eq!(d.warnings, [r#"unknown field "spec.x""#]);
    let s = decode::<Memcached>(deep.as_bytes(), &DecodeOptions::strict()).unwrap_err();
    assert_eq!(s.code, 400);
    // One level more is past the apiserver decoder's maxNestingDepth,
    // wherever it is (issue 27).
    let s =
        decode::<Memcached>(under_spec(9_999).as_bytes(), &DecodeOptions::default()).unwrap_err();
    assert_eq!(s.code, 400);
    assert!(s.message.contains("exceeded max depth"), "{}", s.message);
}

/// Well-formed JSON that does not fit the type is judged by the schema, as
/// the apiserver judges it: a missing required field and a value of the
/// wrong type are causes of one 422 at their field paths, not serde's
/// "missing field" (issue 14, bug 3).
#[test]
fn missing_required_fields_and_wrong_types_are_422_causes() {
    let input = br#"{"metadata": {"name": "nightly"}, "spec": {"startingDeadlineSeconds": "soon", "jobTemplate": {"image": "busybox"}}}"#;
    let s = decode::<CronJob>(input, &DecodeOptions::default()).unwrap_err();
    assert_eq!((s.code, s.reason.as_str()), (422, "Invalid"), "{s:?}");
    let causes: Vec<(&str, &str)> = s
        .causes()
        .iter()
        .map(|c| (c.field.as_str(), c.reason.as_str()))
        .collect();
    assert_eq!(
        causes,
        [
            ("spec.schedule", "FieldValueRequired"),
            ("spec.startingDeadlineSeconds", "FieldValueTypeInvalid"),
        ]
    );
    assert!(
        s.message
            .starts_with(r#"CronJob.batch.example.com "nightly" is invalid: ["#),
        "{}",
        s.message
    );
    assert!(
        s.message.contains("spec.schedule: Required value"),
        "{}",
        s.message
    );
    // A missing spec, when the spec is required.
    let s = decode::<CronJob>(br#"{"metadata": {"name": "n"}}"#, &DecodeOptions::default())
        .unwrap_err();
    assert_eq!(s.code, 422, "{s:?}");
    assert_eq!(
        s.message,
        r#"CronJob.batch.example.com "n" is invalid: spec: Required value"#
    );
    // What the schema does not explain stays serde's 400.
    let s = decode::<Memcached>(
        br#"{"spec": {"size": 1, "size": 2}}"#,
        &DecodeOptions::default(),
    )
    .unwrap_err();
    assert_eq!(s.code, 400);
}
