//! `#[serde(flatten)]`, Go's `json:",inline"`: the flattened type's fields,
//! required fields and CEL rules become the outer object's, as
//! controller-gen inlines them (Gateway API's `BackendRef` inlines
//! `BackendObjectReference` with its rules).

use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// BackendObjectReference references a Kubernetes object.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[kube(validation(
    rule = "(size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true",
    message = "Must have port for Service reference"
))]
pub struct BackendObjectReference {
    /// group is the group of the referent.
    #[kube(max_length = 253)]
    #[default("")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// kind is the kind of the referent.
    #[kube(max_length = 63)]
    #[default("Service")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// name is the name of the referent.
    #[kube(max_length = 253)]
    pub name: String,
    /// port is the port of the referent.
    #[kube(minimum = 1, maximum = 65535)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<i32>,
}

/// BackendRef defines how a Route should forward a request.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[kube(validation(rule = "self.weight <= 100", message = "weight is at most 100"))]
pub struct BackendRef {
    /// BackendObjectReference references a Kubernetes object.
    #[serde(flatten)]
    pub backend: BackendObjectReference,
    /// weight is the proportion of requests.
    #[kube(minimum = 0)]
    #[default(1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<i32>,
}

/// The flattened type's rules come before the object's own, as
/// controller-gen's flattener merges them (`append(src, dst...)` in
/// controller-tools' `flattenAllOfInto`); before, flattening dropped them
/// (issue 14, bug 2).
#[test]
fn flattening_keeps_the_inlined_types_rules() {
    let schema = BackendRef::api_schema(&mut api_core::__private::generator()).to_value();
    assert_eq!(
        schema["x-kubernetes-validations"],
        json!([
            {
                "message": "Must have port for Service reference",
                "rule": "(size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true"
            },
            {"message": "weight is at most 100", "rule": "self.weight <= 100"}
        ])
    );
    assert_eq!(schema["required"], json!(["name"]));
    let props: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(props, ["group", "kind", "name", "port", "weight"]);
}

/// A type with no rules of its own gets the inlined type's alone.
#[test]
fn flattening_into_a_type_without_rules() {
    /// Wrapper.
    #[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
    pub struct Wrapper {
        /// The reference.
        #[serde(flatten)]
        pub reference: BackendObjectReference,
    }
    let schema = Wrapper::api_schema(&mut api_core::__private::generator()).to_value();
    assert_eq!(
        schema["x-kubernetes-validations"][0]["message"],
        "Must have port for Service reference"
    );
    assert_eq!(
        schema["x-kubernetes-validations"].as_array().unwrap().len(),
        1
    );
}
