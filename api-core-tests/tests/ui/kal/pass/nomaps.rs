//! KAL `nomaps` passing cases (src/a, and src/c whose policy is the default).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// No maps.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(allow(list_type))]
#[serde(rename_all = "camelCase")]
pub struct NoMapsTestStruct {
    /// f.
    pub primitive: i32, // KAL a/a.go:NoMapsTestStruct.Primitive | c/c.go:NoMapsTestStruct.Primitive
    /// f.
    pub components: Vec<Component>, // KAL a/a.go:NoMapsTestStruct.Components | c/c.go:NoMapsTestStruct.Components
    /// f.
    #[serde(rename = "specialCase")]
    pub labels: BTreeMap<String, String>, // KAL a/a.go:NoMapsTestStruct.Labels | c/c.go:NoMapsTestStruct.Labels
}

/// A component.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Component {
    /// f.
    pub key: String, // KAL a/a.go:Component.Key | c/c.go:Component.Key
    /// f.
    pub value: i32, // KAL a/a.go:Component.Value | c/c.go:Component.Value
}

/// A string-based type (Go `type StringBasedType string`).
#[derive(ApiType, Serialize, Deserialize, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct StringBasedType(pub String); // KAL c/c.go:type StringBasedType

/// Maps of string-based types.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MapWithStringBasedTypes {
    /// f.
    #[serde(rename = "stringBasedMapElem", default, skip_serializing_if = "BTreeMap::is_empty")]
    pub map_with_string_based_element: BTreeMap<String, StringBasedType>, // KAL c/c.go:MapWithStringBasedTypes.MapWithStringBasedElement
}

fn main() {}
