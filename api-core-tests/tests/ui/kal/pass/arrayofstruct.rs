//! KAL `arrayofstruct` (pkg/analysis/arrayofstruct/testdata/src/a). We have no
//! such lint (a list item type with no required field compiles); every case
//! compiles, so all of them are here. Lists declare `list_type = "atomic"`
//! (that is `ssatags`' business); Go fields without json tags are camelCase.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// ValidStruct.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidStruct {
    /// f.
    #[kube(list_type = "atomic")]
    pub items: Vec<ValidItem>, // KAL a/a.go:ValidStruct.Items
}

/// ValidItem.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidItem {
    /// f.
    #[kube(required)]
    pub name: String,
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// ValidStructWithPointer.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidStructWithPointer {
    /// f.
    #[kube(list_type = "atomic")]
    pub items: Vec<Box<ValidPointerItem>>, // KAL a/a.go:ValidStructWithPointer.Items
}

/// ValidPointerItem.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidPointerItem {
    /// f.
    #[kube(required)]
    pub id: String,
}

/// ValidPrimitiveArray.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidPrimitiveArray {
    /// f.
    pub strings: Vec<String>, // KAL a/a.go:ValidPrimitiveArray.Strings
    /// f.
    pub ints: Vec<i32>, // KAL a/a.go:ValidPrimitiveArray.Ints
}

/// InvalidStruct.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvalidStruct {
    /// f.
    #[kube(list_type = "atomic")]
    pub items: Vec<InvalidItem>, // KAL a/a.go:InvalidStruct.Items
}

/// InvalidItem: no required field.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvalidItem {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// InvalidStructWithPointer.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvalidStructWithPointer {
    /// f.
    #[kube(list_type = "atomic")]
    pub items: Vec<Box<InvalidPointerItem>>, // KAL a/a.go:InvalidStructWithPointer.Items
}

/// InvalidPointerItem: no required field.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvalidPointerItem {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
}

/// InvalidStructWithInlineStruct.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvalidStructWithInlineStruct {
    /// f (Go: an anonymous struct; a named one here).
    #[kube(list_type = "atomic")]
    pub items: Vec<InlineItem>, // KAL a/a.go:InvalidStructWithInlineStruct.Items
}

/// The Go anonymous item struct: no required field.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InlineItem {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// ValidAllRequired.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidAllRequired {
    /// f.
    #[kube(list_type = "atomic")]
    pub items: Vec<AllRequiredItem>, // KAL a/a.go:ValidAllRequired.Items
}

/// AllRequiredItem.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AllRequiredItem {
    /// f.
    #[kube(required)]
    pub name: String,
    /// f.
    #[kube(required)]
    pub description: String,
}

pub type ItemAlias = InvalidItem;

/// InvalidStructWithAlias.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvalidStructWithAlias {
    /// f.
    #[kube(list_type = "atomic")]
    pub items: Vec<ItemAlias>, // KAL a/a.go:InvalidStructWithAlias.Items
}

/// ValidMultipleArrays.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidMultipleArrays {
    /// f.
    #[kube(list_type = "atomic")]
    pub valid_items: Vec<ValidItem>, // KAL a/a.go:ValidMultipleArrays.ValidItems
    /// f.
    #[kube(list_type = "atomic")]
    pub invalid_items: Vec<InvalidItem>, // KAL a/a.go:ValidMultipleArrays.InvalidItems
}

fn main() {}
