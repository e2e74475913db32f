//! The bad-input matrix: hostile bodies for `decode` and hostile objects for
//! the registry, each with the Status the apiserver would answer (code,
//! reason, and the field or message). None may panic.

use api_core::Status;
use api_core::decode::{DecodeOptions, FieldValidation, decode};
use api_core::registry::{DefaultStrategy, Registry};
use examples::cronjob::CronJob;

const GOOD: &str = r#"{
  "apiVersion": "batch.example.com/v1",
  "kind": "CronJob",
  "metadata": {"name": "nightly", "namespace": "default", "labels": {"app": "x"}},
  "spec": {
    "schedule": "0 3 * * *",
    "jobTemplate": {"image": "busybox", "ports": [{"name": "http", "port": 80}]}
  }
}"#;

/// What a case must give.
enum Expect {
    /// Decoded, with exactly these warnings.
    Ok(&'static [&'static str]),
    /// This code and reason, and a message containing the text.
    Err(i32, &'static str, &'static str),
    /// A 422 with a cause at this field.
    Invalid(&'static str),
}

fn strict() -> DecodeOptions {
    DecodeOptions {
        field_validation: FieldValidation::Strict,
        ..DecodeOptions::default()
    }
}

/// GOOD with `from` replaced by `to` (once, and it must be there).
fn good_with(from: &str, to: &str) -> Vec<u8> {
    assert!(GOOD.contains(from), "{from:?} is not in GOOD");
    GOOD.replacen(from, to, 1).into_bytes()
}

fn check(name: &str, result: Result<Vec<String>, Status>, expect: &Expect) {
    match (result, expect) {
        (Ok(warnings), Expect::Ok(want)) => assert_eq!(warnings, *want, "{name}"),
        (Err(s), Expect::Err(code, reason, text)) => {
            assert_eq!(
                (s.code, s.reason.as_str()),
                (*code, *reason),
                "{name}: {s:?}"
            );
            assert!(
                s.message.contains(text),
                "{name}: {:?} does not contain {text:?}",
                s.message
            );
        }
        (Err(s), Expect::Invalid(field)) => {
            assert_eq!(
                (s.code, s.reason.as_str()),
                (422, "Invalid"),
                "{name}: {s:?}"
            );
            let causes = &s.details.as_ref().expect("details").causes;
            assert!(
                causes.iter().any(|c| c.field == *field),
                "{name}: no cause at {field}: {causes:?}"
            );
        }
        (Ok(w), _) => panic!("{name}: decoded (warnings {w:?}), expected an error"),
        (Err(s), Expect::Ok(_)) => panic!("{name}: expected success, got {s:?}"),
    }
}

#[tokio::test]
async fn hostile_bodies_for_decode() {
    // 10,000 levels in all (the apiserver decoder's `maxNestingDepth`),
    // most of them in an unknown field: skipped without recursion.
    let at_root = |depth: usize| {
        good_with(
            r#""spec""#,
            &format!(r#""x": {}{}, "spec""#, "[".repeat(depth), "]".repeat(depth)),
        )
    };
    let nested = at_root(9_999);
    // One level more: refused wherever it is (issue 27).
    let too_deep = at_root(10_000);
    // 10,000 levels where a string goes (metadata.labels.app): a type
    // error at the first level.
    let depth = 9_997;
    let nested_label = good_with(
        r#""app": "x""#,
        &format!(r#""app": {}{}"#, "[".repeat(depth), "]".repeat(depth)),
    );
    let mut invalid_utf8 = good_with("busybox", "busy\u{1}box");
    let at = invalid_utf8.iter().position(|&b| b == 1).expect("marker");
    invalid_utf8[at] = 0xff;
    let cases: Vec<(&str, Vec<u8>, DecodeOptions, Expect)> = vec![
        (
            "malformed JSON",
            b"{\"apiVersion\": }".to_vec(),
            DecodeOptions::default(),
            Expect::Err(400, "BadRequest", "line 1 column"),
        ),
        (
            "truncated",
            GOOD.as_bytes()[..GOOD.len() / 2].to_vec(),
            DecodeOptions::default(),
            Expect::Err(400, "BadRequest", "EOF while parsing"),
        ),
        (
            "invalid UTF-8",
            invalid_utf8,
            DecodeOptions::default(),
            Expect::Err(400, "BadRequest", "invalid unicode code point"),
        ),
        (
            "unknown field, default (warn)",
            good_with(r#""schedule""#, r#""scheduel": 1, "schedule""#),
            DecodeOptions::default(),
            Expect::Ok(&[r#"unknown field "spec.scheduel""#]),
        ),
        (
            "unknown field, strict",
            good_with(r#""schedule""#, r#""scheduel": 1, "schedule""#),
            strict(),
            Expect::Err(
                400,
                "BadRequest",
                r#"strict decoding error: unknown field "spec.scheduel""#,
            ),
        ),
        (
            "unknown field, ignore",
            good_with(r#""schedule""#, r#""scheduel": 1, "schedule""#),
            DecodeOptions {
                field_validation: FieldValidation::Ignore,
                ..DecodeOptions::default()
            },
            Expect::Ok(&[]),
        ),
        (
            "duplicate map key, default (warn)",
            good_with(r#""app": "x""#, r#""app": "x", "app": "y""#),
            DecodeOptions::default(),
            Expect::Ok(&[r#"duplicate field "metadata.labels.app""#]),
        ),
        (
            "duplicate map key, strict",
            good_with(r#""app": "x""#, r#""app": "x", "app": "y""#),
            strict(),
            Expect::Err(
                400,
                "BadRequest",
                r#"duplicate field "metadata.labels.app""#,
            ),
        ),
        (
            "duplicate struct field",
            good_with(
                r#""image": "busybox""#,
                r#""image": "a", "image": "busybox""#,
            ),
            DecodeOptions::default(),
            Expect::Err(400, "BadRequest", "duplicate field `image`"),
        ),
        (
            "wrong kind",
            good_with(r#""kind": "CronJob""#, r#""kind": "Job""#),
            DecodeOptions::default(),
            Expect::Err(400, "BadRequest", "Job"),
        ),
        (
            "wrong apiVersion",
            good_with("batch.example.com/v1", "batch.example.com/v2"),
            DecodeOptions::default(),
            Expect::Err(400, "BadRequest", "batch.example.com/v2"),
        ),
        (
            "integer beyond 2^53 (int64 fields keep to the safe-integer range)",
            good_with(
                r#""schedule""#,
                r#""startingDeadlineSeconds": 9007199254740993, "schedule""#,
            ),
            DecodeOptions::default(),
            Expect::Invalid("spec.startingDeadlineSeconds"),
        ),
        (
            "integer beyond i64",
            good_with(
                r#""schedule""#,
                r#""startingDeadlineSeconds": 99999999999999999999, "schedule""#,
            ),
            DecodeOptions::default(),
            Expect::Err(400, "BadRequest", "expected i64 at line 6"),
        ),
        (
            "integer beyond i32",
            good_with(r#""port": 80"#, r#""port": 2147483648"#),
            DecodeOptions::default(),
            // The schema's `maximum: 65535` explains it: the apiserver's 422.
            Expect::Invalid("spec.jobTemplate.ports[0].port"),
        ),
        (
            "float where an integer goes",
            good_with(r#""port": 80"#, r#""port": 80.5"#),
            DecodeOptions::default(),
            // The schema's type check: the apiserver's 422 at the field.
            Expect::Invalid("spec.jobTemplate.ports[0].port"),
        ),
        (
            "string where an object goes",
            good_with(
                r#"{"image": "busybox", "ports": [{"name": "http", "port": 80}]}"#,
                r#""busybox""#,
            ),
            DecodeOptions::default(),
            Expect::Invalid("spec.jobTemplate"),
        ),
        (
            "10,000 levels of nesting in an unknown field",
            nested,
            DecodeOptions::default(),
            Expect::Ok(&[r#"unknown field "x""#]),
        ),
        (
            "10,001 levels of nesting",
            too_deep,
            DecodeOptions::default(),
            Expect::Err(400, "BadRequest", "exceeded max depth"),
        ),
        (
            "10,000 levels of nesting where a string goes",
            nested_label,
            DecodeOptions::default(),
            Expect::Err(
                400,
                "BadRequest",
                "invalid type: sequence, expected a string",
            ),
        ),
        (
            "validation: every cause",
            good_with(r#""schedule": "0 3 * * *""#, r#""schedule": "never""#),
            DecodeOptions::default(),
            Expect::Invalid("spec.schedule"),
        ),
        (
            "validation: nested list item",
            good_with(r#""port": 80"#, r#""port": 70000"#),
            DecodeOptions::default(),
            Expect::Invalid("spec.jobTemplate.ports[0].port"),
        ),
    ];
    for (name, bytes, options, expect) in &cases {
        let result = decode::<CronJob>(bytes, options).map(|d| d.warnings);
        check(name, result, expect);
    }
}

#[tokio::test]
async fn a_64_mib_body_is_decoded_and_then_rejected_by_metadata_validation() {
    // 64 MiB in one annotation: the body decodes (bounded by its size), and
    // the registry rejects the annotations as over 256 KiB.
    let big = "a".repeat(64 << 20);
    let body = good_with(
        r#""labels""#,
        &format!(r#""annotations": {{"big": "{big}"}}, "labels""#),
    );
    drop(big);
    let decoded = decode::<CronJob>(&body, &DecodeOptions::default()).expect("decodes");
    drop(body);
    let registry = Registry::<CronJob>::new(DefaultStrategy);
    let result = registry
        .create("default", decoded.object)
        .await
        .map(|_| Vec::new());
    check(
        "64 MiB annotation",
        result,
        &Expect::Invalid("metadata.annotations"),
    );
}

#[tokio::test]
async fn hostile_objects_for_the_registry() {
    let good: CronJob = serde_json::from_str(GOOD).expect("GOOD decodes");
    let with_name = |name: &str| {
        let mut o = good.clone();
        o.metadata.name = name.to_string();
        o
    };
    let with_label = |key: &str, value: &str| {
        let mut o = good.clone();
        o.metadata.labels.insert(key.to_string(), value.to_string());
        o
    };
    let mut too_many_annotations = good.clone();
    for i in 0..300 {
        too_many_annotations
            .metadata
            .annotations
            .insert(format!("k{i}"), "v".repeat(1024));
    }
    let cases: Vec<(&str, CronJob, Expect)> = vec![
        (
            "name with ..",
            with_name(".."),
            Expect::Invalid("metadata.name"),
        ),
        (
            "name with /",
            with_name("a/b"),
            Expect::Invalid("metadata.name"),
        ),
        (
            "name with %",
            with_name("a%2fb"),
            Expect::Invalid("metadata.name"),
        ),
        (
            "upper-case name",
            with_name("Nightly"),
            Expect::Invalid("metadata.name"),
        ),
        (
            "300-character name",
            with_name(&"a".repeat(300)),
            Expect::Invalid("metadata.name"),
        ),
        (
            "empty name",
            with_name(""),
            Expect::Invalid("metadata.name"),
        ),
        (
            "label value over 63 characters",
            with_label("app", &"v".repeat(64)),
            Expect::Invalid("metadata.labels"),
        ),
        (
            "label key that is not a qualified name",
            with_label("bad key!", "v"),
            Expect::Invalid("metadata.labels"),
        ),
        (
            "label key prefix over 253 characters",
            with_label(&format!("{}/k", "a".repeat(254)), "v"),
            Expect::Invalid("metadata.labels"),
        ),
        (
            "annotations over 256 KiB in total",
            too_many_annotations,
            Expect::Invalid("metadata.annotations"),
        ),
    ];
    let registry = Registry::<CronJob>::new(DefaultStrategy);
    for (name, object, expect) in cases {
        let result = registry.create("default", object).await.map(|o| o.warnings);
        check(name, result, &expect);
    }
    // Nothing hostile reached storage.
    let list = registry
        .list("default", &Default::default())
        .await
        .expect("lists");
    assert!(list.items.is_empty(), "{} stored", list.items.len());
}
