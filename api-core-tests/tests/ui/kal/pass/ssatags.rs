//! KAL `ssatags` cases that compile (src/a): the passing ones, and the
//! primitive lists without a list type, which KAL reports and we do not
//! (DESIGN: only lists of objects must declare one; see README).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// TestObject.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TestObject {
    /// f.
    pub name: String, // KAL a/a.go:TestObject.Name
    /// f.
    pub id: i32, // KAL a/a.go:TestObject.ID
}

/// SimpleObject.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SimpleObject {
    /// f.
    pub name: String, // KAL a/a.go:SimpleObject.Name
}

/// Go embeds `TestObject` without a json tag (inlined).
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectWithEmbedded {
    /// f.
    #[serde(flatten)]
    pub test_object: TestObject, // KAL a/a.go:ObjectWithEmbedded.TestObject
    /// f.
    pub embedded: String, // KAL a/a.go:ObjectWithEmbedded.Embedded
}

/// Go embeds `TestObject` with `json:",inline"`.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectWithInlineEmbedded {
    /// f.
    #[serde(flatten)]
    pub test_object: TestObject, // KAL a/a.go:ObjectWithInlineEmbedded.TestObject
    /// f.
    pub embedded: String, // KAL a/a.go:ObjectWithInlineEmbedded.Embedded
}

/// Go `type String string`.
#[derive(ApiType, Serialize, Deserialize)]
pub struct StringType(pub String); // KAL a/a.go:type String

/// Go `type Object TestObject`.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Object(pub TestObject); // KAL a/a.go:type Object

/// Go `type StringArray []string`.
#[derive(ApiType, Serialize, Deserialize)]
pub struct StringArray(pub Vec<String>); // KAL a/a.go:type StringArray

/// Go `+listType=atomic type StringArrayAtomic StringArray`.
#[derive(ApiType, Serialize, Deserialize)]
pub struct StringArrayAtomic(#[kube(list_type = "atomic")] pub Vec<String>); // KAL a/a.go:type StringArrayAtomic

/// Go `+listType=atomic type OtherFileStringArrayAtomic []string` (aa.go).
#[derive(ApiType, Serialize, Deserialize)]
pub struct OtherFileStringArrayAtomic(#[kube(list_type = "atomic")] pub Vec<String>); // KAL a/aa.go:type OtherFileStringArrayAtomic

pub type StringAlias = String;
pub type ObjectAlias = TestObject;
pub type StringArrayAlias = Vec<String>;

/// SSA tags.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SSATagsTestSpec {
    /// f.
    #[kube(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub atomic_string_list: Vec<String>, // KAL a/a.go:SSATagsTestSpec.AtomicStringList
    /// f.
    pub string_array_atomic: StringArrayAtomic, // KAL a/a.go:SSATagsTestSpec.StringArrayAtomic
    /// f.
    pub other_file_string_array_atomic: OtherFileStringArrayAtomic, // KAL a/a.go:SSATagsTestSpec.OtherFileStringArrayAtomic
    /// f.
    pub other_package_string_array_atomic: OtherFileStringArrayAtomic, // KAL a/a.go:SSATagsTestSpec.OtherPackageStringArrayAtomic
    /// f.
    #[kube(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub atomic_object_list: Vec<TestObject>, // KAL a/a.go:SSATagsTestSpec.AtomicObjectList
    /// f.
    #[kube(list_type = "set")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub set_primitive_list: Vec<String>, // KAL a/a.go:SSATagsTestSpec.SetPrimitiveList
    /// f.
    #[kube(list_type = "map", list_map_keys = ["name"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub map_object_list: Vec<TestObject>, // KAL a/a.go:SSATagsTestSpec.MapObjectList
    /// f.
    #[kube(list_type = "map", list_map_keys = ["name"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub map_object_list_valid: Vec<SimpleObject>, // KAL a/a.go:SSATagsTestSpec.MapObjectListValid
    /// f.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub primitive_array_no_marker: Vec<String>, // KAL a/a.go:SSATagsTestSpec.PrimitiveArrayNoMarker
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub single_value: Option<String>, // KAL a/a.go:SSATagsTestSpec.SingleValue
    /// f.
    #[kube(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub string_atomic_list: Vec<StringType>, // KAL a/a.go:SSATagsTestSpec.StringAtomicList
    /// f.
    #[kube(list_type = "set")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub string_set_list: Vec<StringType>, // KAL a/a.go:SSATagsTestSpec.StringSetList
    /// f.
    #[kube(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub object_atomic_list: Vec<Object>, // KAL a/a.go:SSATagsTestSpec.ObjectAtomicList
    /// f.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub string_no_marker: Vec<StringType>, // KAL a/a.go:SSATagsTestSpec.StringNoMarker
    /// f.
    #[kube(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pointer_to_string: Vec<Box<StringType>>, // KAL a/a.go:SSATagsTestSpec.PointerToString
    /// f.
    #[kube(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub string_alias_atomic_list: Vec<StringAlias>, // KAL a/a.go:SSATagsTestSpec.StringAliasAtomicList
    /// f.
    #[kube(list_type = "set")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub string_alias_set_list: Vec<StringAlias>, // KAL a/a.go:SSATagsTestSpec.StringAliasSetList
    /// f.
    #[kube(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub object_alias_atomic_list: Vec<ObjectAlias>, // KAL a/a.go:SSATagsTestSpec.ObjectAliasAtomicList
    /// f.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub string_alias_no_marker: Vec<StringAlias>, // KAL a/a.go:SSATagsTestSpec.StringAliasNoMarker
    /// f.
    #[kube(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pointer_to_string_alias: Vec<Box<StringAlias>>, // KAL a/a.go:SSATagsTestSpec.PointerToStringAlias
    /// f.
    #[kube(list_type = "atomic")]
    pub string_array_atomic_list: StringArray, // KAL a/a.go:SSATagsTestSpec.StringArrayAtomicList
    /// f.
    #[kube(list_type = "set")]
    pub string_array_set_list: StringArray, // KAL a/a.go:SSATagsTestSpec.StringArraySetList
    /// f.
    pub string_array_no_marker: StringArray, // KAL a/a.go:SSATagsTestSpec.StringArrayNoMarker
    /// f.
    #[kube(list_type = "atomic")]
    pub string_array_alias_atomic_list: StringArrayAlias, // KAL a/a.go:SSATagsTestSpec.StringArrayAliasAtomicList
    /// f.
    #[kube(list_type = "set")]
    pub string_array_alias_set_list: StringArrayAlias, // KAL a/a.go:SSATagsTestSpec.StringArrayAliasSetList
    /// f.
    pub string_array_alias_no_marker: StringArrayAlias, // KAL a/a.go:SSATagsTestSpec.StringArrayAliasNoMarker
    /// f.
    #[kube(list_type = "map", list_map_keys = ["name"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub object_with_embedded_struct: Vec<ObjectWithEmbedded>, // KAL a/a.go:SSATagsTestSpec.ObjectWithEmbeddedStruct
    /// f.
    #[kube(list_type = "map", list_map_keys = ["name"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub object_with_inline_embedded_struct: Vec<ObjectWithInlineEmbedded>, // KAL a/a.go:SSATagsTestSpec.ObjectWithInlineEmbeddedStruct
}

fn main() {}
