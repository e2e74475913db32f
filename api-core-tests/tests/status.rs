//! The meta/v1 `Status` kind: JSON, reasons and codes, and the constructors
//! of apimachinery's `pkg/api/errors`, checked against what the apiserver
//! returns.

use api_core::status::{
    GroupKind, GroupResource, Status, StatusCause, StatusDetails, StatusReason,
};
use api_core::validation::{ErrorList, FieldError, FieldPath};
use proptest::prelude::*;
use serde_json::{Value, json};

fn memcached_errors() -> ErrorList {
    let metadata = FieldPath::new("metadata");
    let spec = FieldPath::new("spec");
    let status = FieldPath::new("status");
    let conditions = status.child("conditions");

    let mut errors = ErrorList::new();
    errors.push(FieldError::required(
        &metadata.child("name"),
        "name or generateName is required",
    ));
    errors.push(FieldError::invalid(
        &spec.child("size"),
        0,
        "must be greater than or equal to 1",
    ));
    errors.push(FieldError::not_supported(
        &spec.child("policy"),
        "Sometimes",
        &["Allow", "Forbid"],
    ));
    errors.push(FieldError::too_long(&metadata.child("annotations"), 262144));
    errors.push(FieldError::duplicate(&conditions.index(1), "Ready"));
    errors
}

/// The 422 body the apiserver sends for the same errors, written by hand
/// from apimachinery's `NewInvalid`.
fn apiserver_memcached_422() -> Value {
    json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": "Memcached.cache.example.com \"mc\" is invalid: [\
            metadata.name: Required value: name or generateName is required, \
            spec.size: Invalid value: 0: must be greater than or equal to 1, \
            spec.policy: Unsupported value: \"Sometimes\": supported values: \"Allow\", \"Forbid\", \
            metadata.annotations: Too long: may not be more than 262144 bytes, \
            status.conditions[1]: Duplicate value: \"Ready\"]",
        "reason": "Invalid",
        "details": {
            "name": "mc",
            "group": "cache.example.com",
            "kind": "Memcached",
            "causes": [
                {
                    "reason": "FieldValueRequired",
                    "message": "Required value: name or generateName is required",
                    "field": "metadata.name"
                },
                {
                    "reason": "FieldValueInvalid",
                    "message": "Invalid value: 0: must be greater than or equal to 1",
                    "field": "spec.size"
                },
                {
                    "reason": "FieldValueNotSupported",
                    "message": "Unsupported value: \"Sometimes\": supported values: \"Allow\", \"Forbid\"",
                    "field": "spec.policy"
                },
                {
                    "reason": "FieldValueTooLong",
                    "message": "Too long: may not be more than 262144 bytes",
                    "field": "metadata.annotations"
                },
                {
                    "reason": "FieldValueDuplicate",
                    "message": "Duplicate value: \"Ready\"",
                    "field": "status.conditions[1]"
                }
            ]
        },
        "code": 422
    })
}

#[test]
fn invalid_matches_the_apiserver_field_by_field() {
    let status = Status::invalid(
        GroupKind::new("cache.example.com", "Memcached"),
        "mc",
        &memcached_errors(),
    );
    let got = serde_json::to_value(&status).unwrap();
    let want = apiserver_memcached_422();

    // Field by field first, so that a failure names the field.
    let got_obj = got.as_object().unwrap();
    let want_obj = want.as_object().unwrap();
    for (key, value) in want_obj {
        assert_eq!(got_obj.get(key), Some(value), "field {key}");
    }
    let got_causes = got["details"]["causes"].as_array().unwrap();
    let want_causes = want["details"]["causes"].as_array().unwrap();
    assert_eq!(got_causes.len(), want_causes.len());
    for (i, (g, w)) in got_causes.iter().zip(want_causes).enumerate() {
        assert_eq!(g, w, "cause {i}");
    }
    assert_eq!(got, want);

    assert_eq!(
        status.message,
        "Memcached.cache.example.com \"mc\" is invalid: [metadata.name: Required value: name or generateName is required, \
         spec.size: Invalid value: 0: must be greater than or equal to 1, \
         spec.policy: Unsupported value: \"Sometimes\": supported values: \"Allow\", \"Forbid\", \
         metadata.annotations: Too long: may not be more than 262144 bytes, \
         status.conditions[1]: Duplicate value: \"Ready\"]"
    );
    assert_eq!(status.to_string(), status.message);
    assert!(status.is_invalid());
    assert!(status.is_failure());
    assert!(!status.is_success());
    assert_eq!(status.code(), 422);
    assert_eq!(status.reason(), &StatusReason::Invalid);
    assert!(status.has_cause("FieldValueDuplicate"));
    assert_eq!(
        status.cause("FieldValueInvalid").map(|c| c.field.as_str()),
        Some("spec.size")
    );
}

#[test]
fn keys_are_written_in_go_order() {
    let status = Status::invalid(
        GroupKind::new("cache.example.com", "Memcached"),
        "mc",
        &memcached_errors(),
    );
    let text = serde_json::to_string(&status).unwrap();
    assert!(
        text.starts_with(
            r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"#
        ),
        "{text}"
    );
    assert!(
        text.ends_with(r#""field":"status.conditions[1]"}]},"code":422}"#),
        "{text}"
    );
    assert!(text.contains(
        r#""reason":"Invalid","details":{"name":"mc","group":"cache.example.com","kind":"Memcached","causes":[{"reason":"FieldValueRequired","#
    ));
}

#[test]
fn invalid_with_one_error_is_not_bracketed() {
    let spec = FieldPath::new("spec");
    let errors: ErrorList = vec![FieldError::forbidden(&spec.child("x"), "no")].into();
    let status = Status::invalid(GroupKind::new("apps", "Deployment"), "web", &errors);
    assert_eq!(
        status.message,
        "Deployment.apps \"web\" is invalid: spec.x: Forbidden: no"
    );
}

#[test]
fn invalid_dedups_the_message_but_not_the_causes() {
    let spec = FieldPath::new("spec");
    let errors: ErrorList = vec![
        FieldError::required(&spec, ""),
        FieldError::required(&spec, ""),
    ]
    .into();
    let status = Status::invalid(GroupKind::new("", "Pod"), "p", &errors);
    assert_eq!(status.message, "Pod \"p\" is invalid: spec: Required value");
    assert_eq!(status.causes().len(), 2);
    assert_eq!(
        status.causes()[0],
        StatusCause::new("FieldValueRequired", "Required value", "spec")
    );
}

#[test]
fn invalid_with_no_errors() {
    let status = Status::invalid(
        GroupKind::new("cache.example.com", "Memcached"),
        "mc",
        &ErrorList::new(),
    );
    assert_eq!(
        status.message,
        "Memcached.cache.example.com \"mc\" is invalid"
    );
    assert_eq!(
        serde_json::to_value(&status).unwrap(),
        json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": "Memcached.cache.example.com \"mc\" is invalid",
            "reason": "Invalid",
            "details": {"name": "mc", "group": "cache.example.com", "kind": "Memcached"},
            "code": 422
        })
    );
}

#[test]
fn invalid_quotes_the_name_like_go() {
    let status = Status::invalid(GroupKind::new("", "ConfigMap"), "a\"b\n", &ErrorList::new());
    assert_eq!(status.message, r#"ConfigMap "a\"b\n" is invalid"#);
    assert_eq!(status.details.unwrap().name, "a\"b\n");
}

#[test]
fn core_group_renders_only_the_kind_or_resource() {
    assert_eq!(GroupKind::new("", "Pod").to_string(), "Pod");
    assert_eq!(
        GroupKind::new("apps", "Deployment").to_string(),
        "Deployment.apps"
    );
    assert_eq!(GroupResource::new("", "pods").to_string(), "pods");
    assert_eq!(
        GroupResource::new("cache.example.com", "memcacheds").to_string(),
        "memcacheds.cache.example.com"
    );
    assert!(GroupResource::default().is_empty());
    assert!(GroupKind::default().is_empty());
    assert!(!GroupResource::new("", "pods").is_empty());

    let status = Status::invalid(GroupKind::new("", "Pod"), "web", &ErrorList::new());
    assert_eq!(status.message, "Pod \"web\" is invalid");
    let v = serde_json::to_value(&status).unwrap();
    // An empty group is left out of the details.
    assert_eq!(v["details"], json!({"name": "web", "kind": "Pod"}));
}

#[test]
fn every_reason_has_its_code_and_string() {
    let table: &[(StatusReason, &str, i32)] = &[
        (StatusReason::Unknown, "", 500),
        (StatusReason::Unauthorized, "Unauthorized", 401),
        (StatusReason::Forbidden, "Forbidden", 403),
        (StatusReason::NotFound, "NotFound", 404),
        (StatusReason::AlreadyExists, "AlreadyExists", 409),
        (StatusReason::Conflict, "Conflict", 409),
        (StatusReason::Gone, "Gone", 410),
        (StatusReason::Invalid, "Invalid", 422),
        (StatusReason::ServerTimeout, "ServerTimeout", 500),
        (StatusReason::StoreReadError, "StorageReadError", 500),
        (StatusReason::Timeout, "Timeout", 504),
        (StatusReason::TooManyRequests, "TooManyRequests", 429),
        (StatusReason::BadRequest, "BadRequest", 400),
        (StatusReason::MethodNotAllowed, "MethodNotAllowed", 405),
        (StatusReason::NotAcceptable, "NotAcceptable", 406),
        (
            StatusReason::RequestEntityTooLarge,
            "RequestEntityTooLarge",
            413,
        ),
        (
            StatusReason::UnsupportedMediaType,
            "UnsupportedMediaType",
            415,
        ),
        (StatusReason::InternalError, "InternalError", 500),
        (StatusReason::Expired, "Expired", 410),
        (StatusReason::ServiceUnavailable, "ServiceUnavailable", 503),
        (
            StatusReason::Other("SomethingNew".into()),
            "SomethingNew",
            500,
        ),
    ];
    for (reason, s, code) in table {
        assert_eq!(reason.as_str(), *s, "{reason:?}");
        assert_eq!(reason.code(), *code, "{reason:?}");
        assert_eq!(reason.to_string(), *s);
        assert_eq!(&StatusReason::from(*s), reason);
        assert_eq!(&s.parse::<StatusReason>().unwrap(), reason);
        assert_eq!(serde_json::to_value(reason).unwrap(), json!(s));
        assert_eq!(
            &serde_json::from_value::<StatusReason>(json!(s)).unwrap(),
            reason
        );
    }
    // ALL lists every known reason once, Other excepted.
    assert_eq!(StatusReason::ALL.len(), table.len() - 1);
    for r in StatusReason::ALL {
        assert!(table.iter().any(|(t, _, _)| t == r));
        assert!(!matches!(r, StatusReason::Other(_)));
    }
    assert!(!StatusReason::Unknown.is_known());
    assert!(StatusReason::Unknown.is_unknown());
    assert!(!StatusReason::Other("X".into()).is_known());
    assert!(StatusReason::NotFound.is_known());
    assert_eq!(StatusReason::default(), StatusReason::Unknown);
}

/// The reason of every constructor gives the constructor's own code.
#[test]
fn constructors_use_their_reasons_code() {
    let gr = || GroupResource::new("apps", "deployments");
    let gk = || GroupKind::new("apps", "Deployment");
    let all = [
        Status::not_found(gr(), "web"),
        Status::already_exists(gr(), "web"),
        Status::generate_name_conflict(gr(), "web-x", 1),
        Status::conflict(gr(), "web", "stale"),
        Status::apply_conflict(vec![], "conflict"),
        Status::invalid(gk(), "web", &ErrorList::new()),
        Status::bad_request("bad"),
        Status::unauthorized(""),
        Status::forbidden(gr(), "web", "no"),
        Status::gone("gone"),
        Status::resource_expired("old"),
        Status::method_not_supported(gr(), "create"),
        Status::server_timeout(gr(), "get", 2),
        Status::server_timeout_for_kind(gk(), "get", 2),
        Status::timeout("slow", 0),
        Status::too_many_requests("slow down", 3),
        Status::too_many_requests_error("slow down"),
        Status::request_entity_too_large("big"),
        Status::unsupported_media_type(&["application/json"]),
        Status::not_acceptable(&["application/json"]),
        Status::internal_error("boom"),
        Status::service_unavailable("down"),
        Status::failure(StatusReason::Gone, "x"),
    ];
    for s in &all {
        assert_eq!(s.code, s.reason.code(), "{s:?}");
        assert_eq!(s.status, "Failure");
        assert!(s.is_failure());
        assert!(!s.message.is_empty());
        assert!(s.metadata == Default::default());
    }
}

fn details(group: &str, kind: &str, name: &str) -> Option<StatusDetails> {
    Some(StatusDetails {
        name: name.into(),
        group: group.into(),
        kind: kind.into(),
        ..StatusDetails::default()
    })
}

#[test]
fn not_found() {
    let s = Status::not_found(GroupResource::new("cache.example.com", "memcacheds"), "mc");
    assert_eq!(s.message, r#"memcacheds.cache.example.com "mc" not found"#);
    assert_eq!(s.reason, StatusReason::NotFound);
    assert_eq!(s.code, 404);
    assert_eq!(s.details, details("cache.example.com", "memcacheds", "mc"));
    assert!(s.is_not_found());
    assert!(!s.is_conflict());

    let core = Status::not_found(GroupResource::new("", "pods"), "web");
    assert_eq!(core.message, r#"pods "web" not found"#);
    assert_eq!(
        serde_json::to_value(&core).unwrap(),
        json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {},
            "status": "Failure", "message": "pods \"web\" not found", "reason": "NotFound",
            "details": {"name": "web", "kind": "pods"}, "code": 404
        })
    );
}

#[test]
fn already_exists_and_generate_name_conflict() {
    let s = Status::already_exists(GroupResource::new("apps", "deployments"), "web");
    assert_eq!(s.message, r#"deployments.apps "web" already exists"#);
    assert_eq!(
        (s.reason.clone(), s.code),
        (StatusReason::AlreadyExists, 409)
    );
    assert_eq!(s.details, details("apps", "deployments", "web"));
    assert!(s.is_already_exists());
    assert!(!s.is_conflict());

    let s = Status::generate_name_conflict(GroupResource::new("", "pods"), "web-abcde", 1);
    assert_eq!(
        s.message,
        r#"pods "web-abcde" already exists, the server was not able to generate a unique name for the object"#
    );
    assert_eq!(
        (s.reason.clone(), s.code),
        (StatusReason::AlreadyExists, 409)
    );
    let d = s.details.clone().unwrap();
    assert_eq!((d.kind.as_str(), d.name.as_str()), ("pods", "web-abcde"));
    assert_eq!(d.retry_after_seconds, 1);
    assert_eq!(s.suggests_client_delay(), Some(1));
}

#[test]
fn conflict() {
    let s = Status::conflict(
        GroupResource::new("apps", "deployments"),
        "web",
        "the object has been modified; please apply your changes to the latest version and try again",
    );
    assert_eq!(
        s.message,
        "Operation cannot be fulfilled on deployments.apps \"web\": the object has been modified; \
         please apply your changes to the latest version and try again"
    );
    assert_eq!((s.reason.clone(), s.code), (StatusReason::Conflict, 409));
    assert_eq!(s.details, details("apps", "deployments", "web"));
    assert!(s.is_conflict());

    let causes = vec![StatusCause::new(
        "FieldManagerConflict",
        "conflict with \"kubectl\"",
        ".spec.replicas",
    )];
    let s = Status::apply_conflict(causes.clone(), "Apply failed with 1 conflict");
    assert_eq!(s.message, "Apply failed with 1 conflict");
    assert_eq!(s.causes(), causes.as_slice());
    assert!(s.is_conflict());
}

#[test]
fn simple_messages() {
    let s = Status::bad_request("the body is not JSON");
    assert_eq!(
        (
            s.message.as_str(),
            s.reason.clone(),
            s.code,
            s.details.is_none()
        ),
        ("the body is not JSON", StatusReason::BadRequest, 400, true)
    );
    assert!(s.is_bad_request());

    let s = Status::unauthorized("");
    assert_eq!(s.message, "not authorized");
    assert_eq!(
        (s.reason.clone(), s.code),
        (StatusReason::Unauthorized, 401)
    );
    assert!(s.details.is_none());
    assert_eq!(
        Status::unauthorized("token expired").message,
        "token expired"
    );
    assert!(s.is_unauthorized());

    let s = Status::gone("the resource is gone");
    assert_eq!(
        (s.message.as_str(), s.reason.clone(), s.code),
        ("the resource is gone", StatusReason::Gone, 410)
    );
    assert!(s.is_gone());
    assert!(!s.is_resource_expired());

    let s = Status::resource_expired("too old resource version: 1 (42)");
    assert_eq!(
        (s.message.as_str(), s.reason.clone(), s.code),
        (
            "too old resource version: 1 (42)",
            StatusReason::Expired,
            410
        )
    );
    assert!(s.is_resource_expired());
    // Expired is a known reason, so the code 410 does not make it Gone.
    assert!(!s.is_gone());

    let s = Status::service_unavailable("etcd is down");
    assert_eq!(
        (s.message.as_str(), s.reason.clone(), s.code),
        ("etcd is down", StatusReason::ServiceUnavailable, 503)
    );
    assert!(s.is_service_unavailable());
    assert!(s.details.is_none());
}

#[test]
fn forbidden_has_three_forms() {
    let gr = GroupResource::new("apps", "deployments");
    let s = Status::forbidden(gr.clone(), "web", "User \"bob\" cannot get resource");
    assert_eq!(
        s.message,
        r#"deployments.apps "web" is forbidden: User "bob" cannot get resource"#
    );
    assert_eq!((s.reason.clone(), s.code), (StatusReason::Forbidden, 403));
    assert_eq!(s.details, details("apps", "deployments", "web"));
    assert!(s.is_forbidden());

    let s = Status::forbidden(gr, "", "no list");
    assert_eq!(s.message, "deployments.apps is forbidden: no list");
    assert_eq!(s.details, details("apps", "deployments", ""));

    let s = Status::forbidden(GroupResource::default(), "web", "no");
    assert_eq!(s.message, "forbidden: no");
    // The details are there, with only the name.
    assert_eq!(
        serde_json::to_value(&s).unwrap()["details"],
        json!({"name": "web"})
    );
    let s = Status::forbidden(GroupResource::default(), "", "no");
    assert_eq!(serde_json::to_value(&s).unwrap()["details"], json!({}));
}

#[test]
fn method_not_supported() {
    let s = Status::method_not_supported(GroupResource::new("apps", "deployments"), "create");
    assert_eq!(
        s.message,
        r#"create is not supported on resources of kind "deployments.apps""#
    );
    assert_eq!(
        (s.reason.clone(), s.code),
        (StatusReason::MethodNotAllowed, 405)
    );
    assert_eq!(s.details, details("apps", "deployments", ""));
    assert!(s.is_method_not_supported());
}

#[test]
fn timeouts() {
    let s = Status::server_timeout(GroupResource::new("", "pods"), "list", 2);
    assert_eq!(
        s.message,
        "The list operation against pods could not be completed at this time, please try again."
    );
    assert_eq!(
        (s.reason.clone(), s.code),
        (StatusReason::ServerTimeout, 500)
    );
    let d = s.details.clone().unwrap();
    assert_eq!(
        (d.kind.as_str(), d.name.as_str(), d.retry_after_seconds),
        ("pods", "list", 2)
    );
    assert!(s.is_server_timeout());
    assert!(!s.is_internal_error());
    assert_eq!(s.suggests_client_delay(), Some(2));
    // A ServerTimeout suggests a delay even without a retry time.
    let s0 = Status::server_timeout(GroupResource::new("", "pods"), "list", 0);
    assert_eq!(s0.suggests_client_delay(), Some(0));

    let s = Status::server_timeout_for_kind(GroupKind::new("apps", "Deployment"), "get", 1);
    assert_eq!(
        s.message,
        "The get operation against Deployment.apps could not be completed at this time, please try again."
    );
    assert_eq!(s.details.as_ref().unwrap().kind, "Deployment");

    let s = Status::timeout("request did not complete within 60s", 0);
    assert_eq!(s.message, "Timeout: request did not complete within 60s");
    assert_eq!((s.reason.clone(), s.code), (StatusReason::Timeout, 504));
    // Go always sets the details, so an empty object is written.
    assert_eq!(serde_json::to_value(&s).unwrap()["details"], json!({}));
    assert_eq!(s.suggests_client_delay(), None);
    assert!(s.is_timeout());
    let s = Status::timeout("x", 5);
    assert_eq!(
        serde_json::to_value(&s).unwrap()["details"],
        json!({"retryAfterSeconds": 5})
    );
    assert_eq!(s.suggests_client_delay(), Some(5));
}

#[test]
fn too_many_requests_and_too_large() {
    let s = Status::too_many_requests("the server is busy", 7);
    assert_eq!(s.message, "the server is busy");
    assert_eq!(
        (s.reason.clone(), s.code),
        (StatusReason::TooManyRequests, 429)
    );
    assert_eq!(s.details.as_ref().unwrap().retry_after_seconds, 7);
    assert_eq!(s.suggests_client_delay(), Some(7));
    assert!(s.is_too_many_requests());

    let s = Status::too_many_requests_error("limit reached");
    assert_eq!(s.message, "Too many requests: limit reached");
    assert!(s.details.is_none());

    let s = Status::request_entity_too_large("limit is 3145728");
    assert_eq!(s.message, "Request entity too large: limit is 3145728");
    assert_eq!(
        (s.reason.clone(), s.code),
        (StatusReason::RequestEntityTooLarge, 413)
    );
    assert!(s.details.is_none());
    assert!(s.is_request_entity_too_large());
}

#[test]
fn media_types() {
    let s = Status::unsupported_media_type(&[
        "application/json-patch+json",
        "application/merge-patch+json",
        "application/apply-patch+yaml",
    ]);
    assert_eq!(
        s.message,
        "the body of the request was in an unknown format - accepted media types include: \
         application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"
    );
    assert_eq!(
        (s.reason.clone(), s.code),
        (StatusReason::UnsupportedMediaType, 415)
    );
    assert!(s.is_unsupported_media_type());

    let accepted = vec![
        "application/json".to_string(),
        "application/yaml".to_string(),
        "application/vnd.kubernetes.protobuf".to_string(),
    ];
    let s = Status::not_acceptable(&accepted);
    assert_eq!(
        s.message,
        "only the following media types are accepted: application/json, application/yaml, \
         application/vnd.kubernetes.protobuf"
    );
    assert_eq!(
        (s.reason.clone(), s.code),
        (StatusReason::NotAcceptable, 406)
    );
    assert!(s.is_not_acceptable());
}

#[test]
fn internal_error() {
    let err = std::io::Error::other("disk on fire");
    let s = Status::internal_error(&err);
    assert_eq!(s.message, "Internal error occurred: disk on fire");
    assert_eq!(
        (s.reason.clone(), s.code),
        (StatusReason::InternalError, 500)
    );
    assert_eq!(
        serde_json::to_value(&s).unwrap()["details"],
        json!({"causes": [{"message": "disk on fire"}]})
    );
    assert!(s.is_internal_error());
}

#[test]
fn success() {
    let s = Status::success();
    assert!(s.is_success());
    assert!(!s.is_failure());
    assert_eq!(
        serde_json::to_value(&s).unwrap(),
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 200})
    );
    // A default Status writes only the type fields and the metadata.
    assert_eq!(
        serde_json::to_string(&Status::default()).unwrap(),
        r#"{"kind":"Status","apiVersion":"v1","metadata":{}}"#
    );
}

#[test]
fn is_checks_fall_back_on_the_code_for_unknown_reasons() {
    let by_code = |code| Status {
        code,
        ..Status::default()
    };
    assert!(by_code(404).is_not_found());
    assert!(by_code(409).is_conflict());
    assert!(!by_code(409).is_already_exists());
    assert!(by_code(422).is_invalid());
    assert!(by_code(500).is_internal_error());
    assert!(!by_code(500).is_server_timeout());
    assert!(by_code(403).is_forbidden());

    let other = Status {
        reason: StatusReason::Other("Teapot".into()),
        code: 404,
        ..Status::default()
    };
    assert!(other.is_not_found());

    // A known reason with another code is not matched by the code.
    let gone = Status {
        reason: StatusReason::Gone,
        code: 404,
        ..Status::default()
    };
    assert!(!gone.is_not_found());
    // ... except for TooManyRequests and RequestEntityTooLarge, as in Go.
    let tmr = Status {
        reason: StatusReason::Gone,
        code: 429,
        ..Status::default()
    };
    assert!(tmr.is_too_many_requests());
}

#[test]
fn status_is_an_error() {
    fn as_error(e: &dyn std::error::Error) -> String {
        e.to_string()
    }
    let s = Status::not_found(GroupResource::new("", "pods"), "web");
    assert_eq!(as_error(&s), r#"pods "web" not found"#);
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(s);
    assert_eq!(boxed.to_string(), r#"pods "web" not found"#);
}

#[test]
fn json_round_trip() {
    let all = [
        Status::invalid(
            GroupKind::new("cache.example.com", "Memcached"),
            "mc",
            &memcached_errors(),
        ),
        Status::not_found(GroupResource::new("", "pods"), "web"),
        Status::server_timeout(GroupResource::new("", "pods"), "list", 2),
        Status::internal_error("boom"),
        Status::timeout("x", 0),
        Status::success(),
        Status::default(),
    ];
    for s in all {
        let text = serde_json::to_string(&s).unwrap();
        let back: Status = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s, "{text}");
    }
    let v = apiserver_memcached_422();
    let decoded: Status = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(serde_json::to_value(&decoded).unwrap(), v);
}

#[test]
fn decoding_a_server_status() {
    // Extra fields, a uid, list metadata and a meta.k8s.io apiVersion.
    let v = json!({
        "kind": "Status",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": "7"},
        "status": "Failure",
        "message": "pods \"web\" not found",
        "reason": "NotFound",
        "details": {"name": "web", "kind": "pods", "uid": "1234", "retryAfterSeconds": 0},
        "code": 404,
        "extra": [1, 2, 3]
    });
    let s: Status = serde_json::from_value(v).unwrap();
    assert_eq!(s.metadata.resource_version, "7");
    assert!(s.is_not_found());
    assert_eq!(s.details.as_ref().unwrap().uid, "1234");
    assert_eq!(s.to_string(), "pods \"web\" not found");
}

#[test]
fn decoding_tolerates_missing_type_fields_and_nulls() {
    let s: Status = serde_json::from_str(r#"{"message":"m","code":500}"#).unwrap();
    assert_eq!(s.message, "m");
    assert_eq!(s.code, 500);
    assert_eq!(s.reason, StatusReason::Unknown);

    let s: Status = serde_json::from_str("{}").unwrap();
    assert_eq!(s, Status::default());

    let s: Status = serde_json::from_str(
        r#"{"kind":null,"metadata":null,"status":null,"message":null,"reason":null,"details":null,"code":null}"#,
    )
    .unwrap();
    assert_eq!(s, Status::default());

    let s: Status =
        serde_json::from_str(r#"{"details":{"name":null,"causes":null,"retryAfterSeconds":null}}"#)
            .unwrap();
    assert_eq!(s.details, Some(StatusDetails::default()));

    let s: Status =
        serde_json::from_str(r#"{"details":{"causes":[{"reason":null,"message":"m"}]}}"#).unwrap();
    assert_eq!(s.causes(), &[StatusCause::new("", "m", "")]);
}

#[test]
fn decoding_keeps_an_unknown_reason() {
    let s: Status =
        serde_json::from_str(r#"{"kind":"Status","apiVersion":"v1","reason":"Teapot","code":418}"#)
            .unwrap();
    assert_eq!(s.reason, StatusReason::Other("Teapot".into()));
    assert_eq!(s.reason.as_str(), "Teapot");
    assert_eq!(
        serde_json::to_value(&s).unwrap(),
        json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "reason": "Teapot", "code": 418})
    );
    // A known string never ends up in Other.
    let s: Status = serde_json::from_str(r#"{"reason":"Conflict"}"#).unwrap();
    assert_eq!(s.reason, StatusReason::Conflict);
    let s: Status = serde_json::from_str(r#"{"reason":"StorageReadError"}"#).unwrap();
    assert_eq!(s.reason, StatusReason::StoreReadError);
}

#[test]
fn decoding_rejects_another_kind() {
    let err = serde_json::from_str::<Status>(r#"{"kind":"Pod","apiVersion":"v1"}"#).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("kind"), "{msg}");
    assert!(msg.contains("Pod"), "{msg}");
}

#[test]
fn decoding_garbage_is_an_error() {
    for text in [
        "",
        "null",
        "[]",
        "42",
        "\"Status\"",
        "{",
        r#"{"code":"404"}"#,
        r#"{"code":1e99}"#,
        r#"{"code":4294967296}"#,
        r#"{"reason":7}"#,
        r#"{"details":[]}"#,
        r#"{"details":{"causes":{}}}"#,
        r#"{"details":{"causes":[{"field":1}]}}"#,
        r#"{"details":["web","apps","Deployment"]}"#,
        r#"{"details":{"causes":[["r","m","f"]]}}"#,
        r#"{"metadata":"x"}"#,
        r#"{"message":{"a":1}}"#,
        r#"{"kind":7}"#,
    ] {
        assert!(
            serde_json::from_str::<Status>(text).is_err(),
            "{text:?} decoded"
        );
    }
}

fn arb_reason() -> impl Strategy<Value = StatusReason> {
    prop_oneof![
        (0..StatusReason::ALL.len()).prop_map(|i| StatusReason::ALL[i].clone()),
        "[A-Za-z]{1,12}".prop_map(StatusReason::from),
    ]
}

fn arb_cause() -> impl Strategy<Value = StatusCause> {
    (".{0,8}", ".{0,16}", "[a-z.\\[\\]0-9]{0,12}").prop_map(|(r, m, f)| StatusCause::new(r, m, f))
}

fn arb_details() -> impl Strategy<Value = Option<StatusDetails>> {
    proptest::option::of(
        (
            ".{0,8}",
            "[a-z.]{0,8}",
            "[A-Za-z]{0,8}",
            "[0-9a-f-]{0,8}",
            proptest::collection::vec(arb_cause(), 0..4),
            any::<i32>(),
        )
            .prop_map(|(name, group, kind, uid, causes, retry_after_seconds)| {
                StatusDetails {
                    name,
                    group,
                    kind,
                    uid,
                    causes,
                    retry_after_seconds,
                }
            }),
    )
}

proptest! {
    #[test]
    fn any_status_round_trips(
        status in prop_oneof![Just(String::new()), Just("Success".to_string()), Just("Failure".to_string())],
        message in ".{0,32}",
        reason in arb_reason(),
        details in arb_details(),
        code in any::<i32>(),
    ) {
        let s = Status { status, message, reason, details, code, ..Status::default() };
        let text = serde_json::to_string(&s).unwrap();
        let back: Status = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(back, s);
    }

    #[test]
    fn any_reason_string_is_kept(s in ".{0,24}") {
        let r: StatusReason = serde_json::from_value(Value::String(s.clone())).unwrap();
        prop_assert_eq!(r.as_str(), s.as_str());
        prop_assert_eq!(serde_json::to_value(&r).unwrap(), Value::String(s));
    }

    #[test]
    fn decoding_arbitrary_text_never_panics(text in ".{0,64}") {
        let _ = serde_json::from_str::<Status>(&text);
    }

    #[test]
    fn decoding_arbitrary_json_never_panics(
        v in proptest::collection::btree_map(
            prop_oneof![
                Just("kind".to_string()), Just("status".to_string()), Just("message".to_string()),
                Just("reason".to_string()), Just("details".to_string()), Just("code".to_string()),
                Just("metadata".to_string()), ".{0,6}",
            ],
            prop_oneof![
                Just(Value::Null), any::<bool>().prop_map(Value::from), any::<i64>().prop_map(Value::from),
                ".{0,8}".prop_map(Value::from), Just(json!({})), Just(json!([])),
                Just(json!({"causes": [{"reason": "r"}]})),
            ],
            0..6,
        )
    ) {
        let v = Value::Object(v.into_iter().collect());
        let _ = serde_json::from_value::<Status>(v);
    }

    #[test]
    fn invalid_has_one_cause_per_error(n in 0usize..6, name in "[a-z0-9-]{1,12}") {
        let spec = FieldPath::new("spec");
        let items = spec.child("items");
        let errors: ErrorList = (0..n).map(|i| FieldError::invalid(&items.index(i), i as i64, "bad")).collect();
        let s = Status::invalid(GroupKind::new("example.com", "Thing"), name.clone(), &errors);
        prop_assert_eq!(s.causes().len(), n);
        let prefix = format!("Thing.example.com \"{name}\" is invalid");
        prop_assert!(s.message.starts_with(&prefix));
        prop_assert_eq!(s.message.len() == prefix.len(), n == 0);
        prop_assert_eq!(s.message.contains(": ["), n > 1);
    }
}
