//! KAL `integers` passing cases (pkg/analysis/integers/testdata/src/a).
//! The maps also allow `no_maps`: KAL runs one linter at a time.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub type ValidInt32Alias = i32;

/// Integers.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Integers {
    /// f.
    pub valid_string: String, // KAL a/a.go:Integers.ValidString
    /// f.
    pub valid_map: BTreeMap<String, String>, // KAL a/a.go:Integers.ValidMap
    /// f.
    pub valid_int32: i32, // KAL a/a.go:Integers.ValidInt32
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_int32_ptr: Option<i32>, // KAL a/a.go:Integers.ValidInt32Ptr
    /// f.
    pub valid_int64: i64, // KAL a/a.go:Integers.ValidInt64
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_int64_ptr: Option<i64>, // KAL a/a.go:Integers.ValidInt64Ptr
    /// f.
    pub valid_int32_alias: ValidInt32Alias, // KAL a/a.go:Integers.ValidInt32Alias
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_int32_alias_ptr: Option<ValidInt32Alias>, // KAL a/a.go:Integers.ValidInt32AliasPtr
    /// f.
    pub valid_slice_int32: Vec<i32>, // KAL a/a.go:Integers.ValidSliceInt32
    /// f.
    pub valid_slice_int32_ptr: Vec<Option<i32>>, // KAL a/a.go:Integers.ValidSliceInt32Ptr
    /// f.
    pub valid_slice_int64: Vec<i64>, // KAL a/a.go:Integers.ValidSliceInt64
    /// f.
    pub valid_slice_int64_ptr: Vec<Option<i64>>, // KAL a/a.go:Integers.ValidSliceInt64Ptr
    /// f.
    #[kube(allow(no_maps))]
    pub valid_map_string_to_int32: BTreeMap<String, i32>, // KAL a/a.go:Integers.ValidMapStringToInt32
    /// f.
    #[kube(allow(no_maps))]
    pub valid_map_string_to_int64: BTreeMap<String, i64>, // KAL a/a.go:Integers.ValidMapStringToInt64
}

/// Go type declarations: ApiType newtypes.
pub mod decl {
    use super::*;

    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct ValidInt32Alias(pub i32); // KAL a/a.go:type ValidInt32Alias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct ValidInt32PtrAlias(pub Option<i32>); // KAL a/a.go:type ValidInt32PtrAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct ValidInt64Alias(pub i64); // KAL a/a.go:type ValidInt64Alias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct ValidInt64PtrAlias(pub Option<i64>); // KAL a/a.go:type ValidInt64PtrAlias
}

fn main() {}
