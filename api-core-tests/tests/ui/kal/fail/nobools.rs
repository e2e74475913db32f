//! KAL `nobools` (pkg/analysis/nobools/testdata/src/a). KAL's nobools is off
//! by default and our `no_bools` is `allow` by default; the KAL test turns the
//! linter on, so these types say `#[kube(deny(no_bools))]`.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub type BoolAlias = bool;
pub type BoolAliasB = bool;

/// Bools.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(deny(no_bools))]
#[serde(rename_all = "camelCase")]
pub struct Bools {
    /// f.
    pub invalid_bool: bool, // KAL a/a.go:Bools.InvalidBool
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_bool_ptr: Option<bool>, // KAL a/a.go:Bools.InvalidBoolPtr
    /// f.
    pub invalid_bool_slice: Vec<bool>, // KAL a/a.go:Bools.InvalidBoolSlice
    /// f.
    pub invalid_bool_ptr_slice: Vec<Option<bool>>, // KAL a/a.go:Bools.InvalidBoolPtrSlice
    /// f.
    pub invalid_bool_alias: BoolAlias, // KAL a/a.go:Bools.InvalidBoolAlias
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_bool_ptr_alias: Option<BoolAlias>, // KAL a/a.go:Bools.InvalidBoolPtrAlias
    /// f.
    pub invalid_bool_slice_alias: Vec<BoolAlias>, // KAL a/a.go:Bools.InvalidBoolSliceAlias
    /// f.
    pub invalid_bool_ptr_slice_alias: Vec<Option<BoolAlias>>, // KAL a/a.go:Bools.InvalidBoolPtrSliceAlias
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_string_to_bool: BTreeMap<String, bool>, // KAL a/a.go:Bools.InvalidMapStringToBool
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_string_to_bool_ptr: BTreeMap<String, Option<bool>>, // KAL a/a.go:Bools.InvalidMapStringToBoolPtr
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_bool_to_string: BTreeMap<bool, String>, // KAL a/a.go:Bools.InvalidMapBoolToString
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_bool_ptr_to_string: BTreeMap<Option<bool>, String>, // KAL a/a.go:Bools.InvalidMapBoolPtrToString
    /// f.
    pub invalid_bool_alias_from_another_file: BoolAliasB, // KAL a/a.go:Bools.InvalidBoolAliasFromAnotherFile
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_bool_ptr_alias_from_another_file: Option<BoolAliasB>, // KAL a/a.go:Bools.InvalidBoolPtrAliasFromAnotherFile
}

/// Go type declarations: ApiType newtypes.
pub mod decl {
    use super::*;

    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(deny(no_bools))]
    pub struct BoolAlias(pub bool); // KAL a/a.go:type BoolAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(deny(no_bools))]
    pub struct BoolAliasPtr(pub Option<bool>); // KAL a/a.go:type BoolAliasPtr
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(deny(no_bools))]
    pub struct BoolAliasSlice(pub Vec<bool>); // KAL a/a.go:type BoolAliasSlice
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(deny(no_bools))]
    pub struct BoolAliasPtrSlice(pub Vec<Option<bool>>); // KAL a/a.go:type BoolAliasPtrSlice
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(deny(no_bools), allow(no_maps))]
    pub struct MapStringToBoolAlias(pub BTreeMap<String, bool>); // KAL a/a.go:type MapStringToBoolAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(deny(no_bools), allow(no_maps))]
    pub struct MapStringToBoolPtrAlias(pub BTreeMap<String, Option<bool>>); // KAL a/a.go:type MapStringToBoolPtrAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(deny(no_bools))]
    pub struct BoolAliasB(pub bool); // KAL a/b.go:type BoolAliasB
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(deny(no_bools))]
    pub struct BoolAliasPtrB(pub Option<bool>); // KAL a/b.go:type BoolAliasPtrB
}

fn main() {}
