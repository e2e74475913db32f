//! KAL `nofloats` (pkg/analysis/nofloats/testdata/src/a). The struct is a
//! spec (floats are errors there); the Go type declarations are ApiType
//! newtypes, where a float is a warning (an error under `deny(deprecated)`).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub type Float32Alias = f32;
pub type Float64Alias = f64;
pub type Float32AliasB = f32;
pub type Float32AliasPtrB = Option<f32>;

/// Floats.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "kal.example.com", version = "v1", kind = "Floats")]
#[serde(rename_all = "camelCase")]
pub struct FloatsSpec {
    /// f.
    pub invalid_float32: f32, // KAL a/a.go:Floats.InvalidFloat32
    /// f.
    pub invalid_float64: f64, // KAL a/a.go:Floats.InvalidFloat64
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_float32_ptr: Option<f32>, // KAL a/a.go:Floats.InvalidFloat32Ptr
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_float64_ptr: Option<f64>, // KAL a/a.go:Floats.InvalidFloat64Ptr
    /// f.
    pub invalid_float32_slice: Vec<f32>, // KAL a/a.go:Floats.InvalidFloat32Slice
    /// f.
    pub invalid_float64_slice: Vec<f64>, // KAL a/a.go:Floats.InvalidFloat64Slice
    /// f.
    pub invalid_float32_ptr_slice: Vec<Option<f32>>, // KAL a/a.go:Floats.InvalidFloat32PtrSlice
    /// f.
    pub invalid_float64_ptr_slice: Vec<Option<f64>>, // KAL a/a.go:Floats.InvalidFloat64PtrSlice
    /// f.
    pub invalid_float32_alias: Float32Alias, // KAL a/a.go:Floats.InvalidFloat32Alias
    /// f.
    pub invalid_float64_alias: Float64Alias, // KAL a/a.go:Floats.InvalidFloat64Alias
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_float32_ptr_alias: Option<Float32Alias>, // KAL a/a.go:Floats.InvalidFloat32PtrAlias
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_float64_ptr_alias: Option<Float64Alias>, // KAL a/a.go:Floats.InvalidFloat64PtrAlias
    /// f.
    pub invalid_float32_slice_alias: Vec<Float32Alias>, // KAL a/a.go:Floats.InvalidFloat32SliceAlias
    /// f.
    pub invalid_float64_slice_alias: Vec<Float64Alias>, // KAL a/a.go:Floats.InvalidFloat64SliceAlias
    /// f.
    pub invalid_float32_ptr_slice_alias: Vec<Option<Float32Alias>>, // KAL a/a.go:Floats.InvalidFloat32PtrSliceAlias
    /// f.
    pub invalid_float64_ptr_slice_alias: Vec<Option<Float64Alias>>, // KAL a/a.go:Floats.InvalidFloat64PtrSliceAlias
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_string_to_float32: BTreeMap<String, f32>, // KAL a/a.go:Floats.InvalidMapStringToFloat32
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_string_to_float64: BTreeMap<String, f64>, // KAL a/a.go:Floats.InvalidMapStringToFloat64
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_string_to_float32_ptr: BTreeMap<String, Option<f32>>, // KAL a/a.go:Floats.InvalidMapStringToFloat32Ptr
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_string_to_float64_ptr: BTreeMap<String, Option<f64>>, // KAL a/a.go:Floats.InvalidMapStringToFloat64Ptr
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_float32_to_string: BTreeMap<f32, String>, // KAL a/a.go:Floats.InvalidMapFloat32ToString
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_float64_to_string: BTreeMap<f64, String>, // KAL a/a.go:Floats.InvalidMapFloat64ToString
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_float32_ptr_to_string: BTreeMap<Option<f32>, String>, // KAL a/a.go:Floats.InvalidMapFloat32PtrToString
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_float64_ptr_to_string: BTreeMap<Option<f64>, String>, // KAL a/a.go:Floats.InvalidMapFloat64PtrToString
    /// f.
    pub invalid_float32_alias_from_another_file: Float32AliasB, // KAL a/a.go:Floats.InvalidFloat32AliasFromAnotherFile
    /// f.
    pub invalid_float32_ptr_alias_from_another_file: Float32AliasPtrB, // KAL a/a.go:Floats.InvalidFloat32PtrAliasFromAnotherFile
}

/// Go type declarations: ApiType newtypes (a float warns there).
pub mod decl {
    use super::*;

    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct Float32Alias(pub f32); // KAL a/a.go:type Float32Alias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct Float64Alias(pub f64); // KAL a/a.go:type Float64Alias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct Float32AliasPtr(pub Option<f32>); // KAL a/a.go:type Float32AliasPtr
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct Float64AliasPtr(pub Option<f64>); // KAL a/a.go:type Float64AliasPtr
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct Float32AliasSlice(pub Vec<f32>); // KAL a/a.go:type Float32AliasSlice
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct Float64AliasSlice(pub Vec<f64>); // KAL a/a.go:type Float64AliasSlice
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct Float32AliasPtrSlice(pub Vec<Option<f32>>); // KAL a/a.go:type Float32AliasPtrSlice
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct Float64AliasPtrSlice(pub Vec<Option<f64>>); // KAL a/a.go:type Float64AliasPtrSlice
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(allow(no_maps))]
    pub struct MapStringToFloat32Alias(pub BTreeMap<String, f32>); // KAL a/a.go:type MapStringToFloat32Alias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(allow(no_maps))]
    pub struct MapStringToFloat64Alias(pub BTreeMap<String, f64>); // KAL a/a.go:type MapStringToFloat64Alias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(allow(no_maps))]
    pub struct MapStringToFloat32PtrAlias(pub BTreeMap<String, Option<f32>>); // KAL a/a.go:type MapStringToFloat32PtrAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(allow(no_maps))]
    pub struct MapStringToFloat64PtrAlias(pub BTreeMap<String, Option<f64>>); // KAL a/a.go:type MapStringToFloat64PtrAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct Float32AliasB(pub f32); // KAL a/b.go:type Float32AliasB
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct Float32AliasPtrB(pub Option<f32>); // KAL a/b.go:type Float32AliasPtrB
}

fn main() {}
