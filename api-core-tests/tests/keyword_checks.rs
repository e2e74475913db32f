//! Keywords are checked at run time whatever the field's type: on a
//! newtype's own field, at a field whose type is a newtype, and at a field
//! whose type is a string enum that the field narrows (issue 14: the
//! schema said so, `validate` did not).

use api_core::prelude::*;
use api_core::validation::FieldPath;
use serde::{Deserialize, Serialize};

/// Duration is a string with units, as Gateway API's `Duration`.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GoDuration(#[kube(pattern = "^([0-9]{1,5}(h|m|s|ms)){1,4}$")] pub String);

/// A port number, bounded on the newtype's field.
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(transparent)]
pub struct PortNumber(#[kube(minimum = 1, maximum = 65535)] pub i32);

/// ProtocolType names a protocol.
#[derive(ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub enum ProtocolType {
    /// HTTP.
    #[serde(rename = "HTTP")]
    Http,
    /// HTTPS.
    #[serde(rename = "HTTPS")]
    Https,
    /// TCP.
    #[serde(rename = "TCP")]
    Tcp,
}

/// RouteSpec routes.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(group = "example.com", version = "v1", kind = "Route")]
#[serde(rename_all = "camelCase")]
pub struct RouteSpec {
    /// timeout of a request.
    #[kube(max_length = 6)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<GoDuration>,
    /// port to listen on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<PortNumber>,
    /// protocol of the listener; routes speak HTTP(S) only.
    #[kube(enum = ["HTTP", "HTTPS"])]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<ProtocolType>,
    /// protocols of the backends.
    #[kube(items(enum = ["HTTP", "HTTPS"]), max_items = 4)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub backend_protocols: Vec<ProtocolType>,
}

fn empty() -> RouteSpec {
    RouteSpec {
        timeout: None,
        port: None,
        protocol: None,
        backend_protocols: Vec::new(),
    }
}

fn errors(spec: RouteSpec) -> Vec<String> {
    let mut errors = api_core::ErrorList::new();
    Route::new("r", spec).validate(&FieldPath::new(""), &mut errors);
    errors.as_slice().iter().map(ToString::to_string).collect()
}

#[test]
fn valid_values_pass() {
    let spec = RouteSpec {
        timeout: Some(GoDuration("1h30m".into())),
        port: Some(PortNumber(8080)),
        protocol: Some(ProtocolType::Https),
        backend_protocols: vec![ProtocolType::Http],
    };
    assert_eq!(errors(spec), Vec::<String>::new());
}

#[test]
fn a_newtypes_own_keywords_are_checked() {
    let spec = RouteSpec {
        timeout: Some(GoDuration("soon".into())),
        port: Some(PortNumber(70000)),
        ..empty()
    };
    assert_eq!(
        errors(spec),
        [
            r#"spec.timeout: Invalid value: "soon": spec.timeout in body should match '^([0-9]{1,5}(h|m|s|ms)){1,4}$'"#,
            "spec.port: Invalid value: 70000: spec.port in body should be less than or equal to 65535",
        ]
    );
}

#[test]
fn keywords_at_a_field_of_newtype_type_are_checked() {
    let spec = RouteSpec {
        timeout: Some(GoDuration("10000h30m".into())),
        ..empty()
    };
    assert_eq!(
        errors(spec),
        ["spec.timeout: Too long: may not be more than 6 bytes"]
    );
}

#[test]
fn a_field_narrowing_an_enum_is_checked() {
    let spec = RouteSpec {
        protocol: Some(ProtocolType::Tcp),
        backend_protocols: vec![ProtocolType::Http, ProtocolType::Tcp],
        ..empty()
    };
    assert_eq!(
        errors(spec),
        [
            r#"spec.protocol: Unsupported value: "TCP": supported values: "HTTP", "HTTPS""#,
            r#"spec.backendProtocols[1]: Unsupported value: "TCP": supported values: "HTTP", "HTTPS""#,
        ]
    );
}

#[test]
fn the_schema_says_the_same() {
    let crd = serde_json::to_value(Route::crd().to_json()).unwrap();
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    assert_eq!(
        spec["protocol"]["enum"],
        serde_json::json!(["HTTP", "HTTPS"])
    );
    assert_eq!(spec["port"]["minimum"], 1);
    assert_eq!(spec["port"]["maximum"], 65535);
    assert_eq!(spec["timeout"]["maxLength"], 6);
    assert!(spec["timeout"]["pattern"].is_string());
}
