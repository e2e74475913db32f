//! KAL `ssatags` (pkg/analysis/ssatags/testdata/src/a). `+listType` is
//! `#[kube(list_type = ..)]`, `+listMapKey` is `list_map_keys = [..]`. Go
//! defined types are newtypes (`StringType` for Go `String`, `Object` for Go
//! `Object`); Go aliases are Rust aliases; Go `[]*T` is `Vec<Box<T>>`.
//! `list_type` warns, so `#![deny(deprecated)]` makes it an error.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// TestObject.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TestObject {
    /// f.
    pub name: String,
    /// f.
    pub id: i32,
}

/// SimpleObject.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SimpleObject {
    /// f.
    pub name: String,
}

/// Go `type String string`.
#[derive(ApiType, Serialize, Deserialize)]
pub struct StringType(pub String);

/// Go `type Object TestObject`.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Object(pub TestObject);

pub type StringAlias = String;
pub type ObjectAlias = TestObject;

/// Go embeds `TestObject` with a json name: a named field.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectWithNamedEmbedded {
    /// f.
    pub test_object: TestObject,
    /// f.
    pub embedded: String,
}

/// SSA tags.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SSATagsTestSpec {
    /// f.
    #[kube(list_type = "set")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set_object_list: Vec<TestObject>, // KAL a/a.go:SSATagsTestSpec.SetObjectList
    /// f.
    #[kube(list_type = "map", list_map_keys = ["name"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub map_primitive_list: Vec<String>, // KAL a/a.go:SSATagsTestSpec.MapPrimitiveList
    /// f.
    #[kube(list_type = "map")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub map_object_list_no_key: Vec<TestObject>, // KAL a/a.go:SSATagsTestSpec.MapObjectListNoKey
    /// f.
    #[kube(list_type = "map", list_map_keys = ["nonexistent"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub map_object_list_invalid_key: Vec<TestObject>, // KAL a/a.go:SSATagsTestSpec.MapObjectListInvalidKey
    /// f.
    #[kube(list_type = "map", list_map_keys = ["invalid_name"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub map_object_list_invalid_name: Vec<SimpleObject>, // KAL a/a.go:SSATagsTestSpec.MapObjectListInvalidName
    /// f.
    #[kube(list_type = "invalid")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invalid_list_type: Vec<String>, // KAL a/a.go:SSATagsTestSpec.InvalidListType
    /// f.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub object_array_no_marker: Vec<TestObject>, // KAL a/a.go:SSATagsTestSpec.ObjectArrayNoMarker
    /// f.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pointer_array_no_marker: Vec<Box<TestObject>>, // KAL a/a.go:SSATagsTestSpec.PointerArrayNoMarker
    /// f.
    #[kube(list_type = "set")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub object_set_list: Vec<Object>, // KAL a/a.go:SSATagsTestSpec.ObjectSetList
    /// f.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub object_no_marker: Vec<Object>, // KAL a/a.go:SSATagsTestSpec.ObjectNoMarker
    /// f.
    #[kube(list_type = "set")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pointer_to_object: Vec<Box<Object>>, // KAL a/a.go:SSATagsTestSpec.PointerToObject
    /// f.
    #[kube(list_type = "set")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub object_alias_set_list: Vec<ObjectAlias>, // KAL a/a.go:SSATagsTestSpec.ObjectAliasSetList
    /// f.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub object_alias_no_marker: Vec<ObjectAlias>, // KAL a/a.go:SSATagsTestSpec.ObjectAliasNoMarker
    /// f.
    #[kube(list_type = "set")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pointer_to_object_alias: Vec<Box<ObjectAlias>>, // KAL a/a.go:SSATagsTestSpec.PointerToObjectAlias
    /// f.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pointer_to_pointer_object: Vec<Box<Box<TestObject>>>, // KAL a/a.go:SSATagsTestSpec.PointerToPointerObject
    /// f.
    #[kube(list_type = "map", list_map_keys = ["name"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub object_with_named_embedded_struct: Vec<ObjectWithNamedEmbedded>, // KAL a/a.go:SSATagsTestSpec.ObjectWithNamedEmbeddedStruct
}

fn main() {}
