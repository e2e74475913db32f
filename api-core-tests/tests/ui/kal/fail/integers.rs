//! KAL `integers` (pkg/analysis/integers/testdata/src/a): only i32/i64.
//! Go `int`/`uint` are Rust `isize`/`usize`; a Go pointer is `Option`; a Go
//! defined type used by a field is a Rust alias (checked through the type
//! layer), a Go type declaration is a Rust newtype (checked where defined).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub type InvalidIntAlias = isize;
pub type InvalidUIntAlias = usize;
pub type InvalidIntAliasAlias = InvalidIntAlias;
pub type IntB = isize;
pub type InvalidSliceIntAliasB = Vec<isize>;

/// Integers.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Integers {
    /// f.
    pub invalid_int: isize, // KAL a/a.go:Integers.InvalidInt
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_int_ptr: Option<isize>, // KAL a/a.go:Integers.InvalidIntPtr
    /// f.
    pub invalid_int8: i8, // KAL a/a.go:Integers.InvalidInt8
    /// f.
    pub invalid_int16: i16, // KAL a/a.go:Integers.InvalidInt16
    /// f.
    pub invalid_u_int: usize, // KAL a/a.go:Integers.InvalidUInt
    /// f.
    pub invalid_u_int_ptr: usize, // KAL a/a.go:Integers.InvalidUIntPtr
    /// f.
    pub invalid_u_int8: u8, // KAL a/a.go:Integers.InvalidUInt8
    /// f.
    pub invalid_u_int16: u16, // KAL a/a.go:Integers.InvalidUInt16
    /// f.
    pub invalid_u_int32: u32, // KAL a/a.go:Integers.InvalidUInt32
    /// f.
    pub invalid_u_int64: u64, // KAL a/a.go:Integers.InvalidUInt64
    /// f.
    pub invalid_int_alias: InvalidIntAlias, // KAL a/a.go:Integers.InvalidIntAlias
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_int_alias_ptr: Option<InvalidIntAlias>, // KAL a/a.go:Integers.InvalidIntAliasPtr
    /// f.
    pub invalid_u_int_alias: InvalidUIntAlias, // KAL a/a.go:Integers.InvalidUIntAlias
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_u_int_alias_ptr: Option<InvalidUIntAlias>, // KAL a/a.go:Integers.InvalidUIntAliasPtr
    /// f.
    pub invalid_int_alias_alias: InvalidIntAliasAlias, // KAL a/a.go:Integers.InvalidIntAliasAlias
    /// f.
    pub invalid_slice_int: Vec<isize>, // KAL a/a.go:Integers.InvalidSliceInt
    /// f.
    pub invalid_slice_int_ptr: Vec<Option<isize>>, // KAL a/a.go:Integers.InvalidSliceIntPtr
    /// f.
    pub invalid_slice_u_int: Vec<usize>, // KAL a/a.go:Integers.InvalidSliceUInt
    /// f.
    pub invalid_slice_u_int_ptr: Vec<Option<usize>>, // KAL a/a.go:Integers.InvalidSliceUIntPtr
    /// f.
    pub invalid_slice_int_alias: Vec<InvalidIntAlias>, // KAL a/a.go:Integers.InvalidSliceIntAlias
    /// f.
    pub invalid_slice_int_alias_ptr: Vec<Option<InvalidIntAlias>>, // KAL a/a.go:Integers.InvalidSliceIntAliasPtr
    /// f.
    pub invalid_slice_u_int_alias: Vec<InvalidUIntAlias>, // KAL a/a.go:Integers.InvalidSliceUIntAlias
    /// f.
    pub invalid_slice_u_int_alias_ptr: Vec<Option<InvalidUIntAlias>>, // KAL a/a.go:Integers.InvalidSliceUIntAliasPtr
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_string_to_int: BTreeMap<String, isize>, // KAL a/a.go:Integers.InvalidMapStringToInt
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_string_to_u_int: BTreeMap<String, usize>, // KAL a/a.go:Integers.InvalidMapStringToUInt
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_int_to_string: BTreeMap<isize, String>, // KAL a/a.go:Integers.InvalidMapIntToString
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_u_int_to_string: BTreeMap<usize, String>, // KAL a/a.go:Integers.InvalidMapUIntToString
    /// f.
    pub invalid_int_from_another_file: IntB, // KAL a/a.go:Integers.InvalidIntFromAnotherFile
    /// f.
    pub invalid_slice_int_alias_from_another_file: InvalidSliceIntAliasB, // KAL a/a.go:Integers.InvalidSliceIntAliasFromAnotherFile
}

/// Go type declarations: Rust newtypes, checked where they are defined.
pub mod decl {
    use super::*;

    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidIntAlias(pub isize); // KAL a/a.go:type InvalidIntAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidIntPtrAlias(pub Option<isize>); // KAL a/a.go:type InvalidIntPtrAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidInt8Alias(pub i8); // KAL a/a.go:type InvalidInt8Alias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidInt16Alias(pub i16); // KAL a/a.go:type InvalidInt16Alias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidUIntAlias(pub usize); // KAL a/a.go:type InvalidUIntAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidUIntPtrAlias(pub Option<usize>); // KAL a/a.go:type InvalidUIntPtrAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidUInt8Alias(pub u8); // KAL a/a.go:type InvalidUInt8Alias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidUInt16Alias(pub u16); // KAL a/a.go:type InvalidUInt16Alias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidUInt32Alias(pub u32); // KAL a/a.go:type InvalidUInt32Alias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidUInt64Alias(pub u64); // KAL a/a.go:type InvalidUInt64Alias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidIntAliasAlias(pub super::InvalidIntAlias); // KAL a/a.go:type InvalidIntAliasAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidSliceIntAlias(pub Vec<isize>); // KAL a/a.go:type InvalidSliceIntAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidSliceIntPtrAlias(pub Vec<Option<isize>>); // KAL a/a.go:type InvalidSliceIntPtrAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidSliceIntAliasAlias(pub Vec<super::InvalidIntAlias>); // KAL a/a.go:type InvalidSliceIntAliasAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidSliceIntAliasPtrAlias(pub Vec<Option<super::InvalidIntAlias>>); // KAL a/a.go:type InvalidSliceIntAliasPtrAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct IntB(pub isize); // KAL a/b.go:type IntB
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct InvalidSliceIntAliasB(pub Vec<isize>); // KAL a/b.go:type InvalidSliceIntAliasB
}

fn main() {}
