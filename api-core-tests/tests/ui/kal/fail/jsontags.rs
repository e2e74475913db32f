//! KAL `jsontags` (pkg/analysis/jsontags/testdata/src/a). A Go field without a
//! json tag is serialized under its Go name; the Rust equivalent is a field
//! without `rename`/`rename_all`, whose JSON name is its Rust name.
#![deny(deprecated)]
#![allow(non_snake_case)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// JSON tags.
#[derive(ApiType, Serialize, Deserialize)]
pub struct JSONTagTestStruct {
    /// f.
    pub NoJSONTag: String, // KAL a/a.go:JSONTagTestStruct.NoJSONTag
    /// f.
    #[serde(rename = "")]
    pub empty_json_tag: String, // KAL a/a.go:JSONTagTestStruct.EmptyJSONTag
    /// f.
    #[serde(rename = "non_camel_case_json_tag")]
    pub non_camel_case_json_tag: String, // KAL a/a.go:JSONTagTestStruct.NonCamelCaseJSONTag
    /// f.
    #[serde(rename = "with-hyphens-json-tag")]
    pub with_hyphens_json_tag: String, // KAL a/a.go:JSONTagTestStruct.WithHyphensJSONTag
    /// f.
    #[serde(rename = "PascalCaseJSONTag")]
    pub pascal_case_json_tag: String, // KAL a/a.go:JSONTagTestStruct.PascalCaseJSONTag
    /// f (Go embedded `E` with `json:"e-"`).
    #[serde(rename = "e-")]
    pub e: E, // KAL a/a.go:JSONTagTestStruct.E
}

/// D.
#[derive(ApiType, Serialize, Deserialize)]
pub struct D {}

/// The Go embedded `D` with `json:""` (a named field in Rust; a struct of its
/// own so that serde does not see two fields named "").
#[derive(ApiType, Serialize, Deserialize)]
pub struct EmbedsD {
    /// f.
    #[serde(rename = "")]
    pub d: D, // KAL a/a.go:JSONTagTestStruct.D
}

/// E.
#[derive(ApiType, Serialize, Deserialize)]
pub struct E {}

/// A.
#[derive(ApiType, Serialize, Deserialize)]
pub struct A {}

/// Extra fields next to a list's items.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(allow(list_type))]
pub struct ListWithAdditionalFields {
    /// f.
    pub items: Vec<A>,
    /// f.
    #[serde(rename = "extraField")]
    pub extra_field: String, // KAL a/a.go:ListWithAdditionalFields.ExtraField
    /// f.
    pub MissingTagField: String, // KAL a/a.go:ListWithAdditionalFields.MissingTagField
    /// f.
    #[serde(rename = "invalid_tag")]
    pub invalid_tag_field: String, // KAL a/a.go:ListWithAdditionalFields.InvalidTagField
}

/// Not a list.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NotActuallyAList {
    /// f.
    pub Items: A, // KAL a/a.go:NotActuallyAList.Items
    /// f.
    #[serde(rename = "otherField")]
    pub some_other_field: String, // KAL a/a.go:NotActuallyAList.SomeOtherField
}

fn main() {}
