//! KAL `maxlength` passing cases (src/a), with `deny(max_length)`.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

pub type StringAlias = String;
pub type StringAliasB = String;

/// Go `+kubebuilder:validation:MaxLength:=512 type StringAliasWithMaxLength string`.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(deny(max_length))]
pub struct StringAliasWithMaxLength(#[kube(max_length = 512)] pub String); // KAL a/a.go:type StringAliasWithMaxLength

/// Go `+kubebuilder:validation:MaxLength:=512 type StringAliasWithMaxLengthB string` (b.go).
#[derive(ApiType, Serialize, Deserialize)]
#[kube(deny(max_length))]
pub struct StringAliasWithMaxLengthB(#[kube(max_length = 512)] pub String); // KAL a/b.go:type StringAliasWithMaxLengthB

/// Go `+kubebuilder:validation:Enum:="A";"B";"C" type EnumStringAlias string`.
#[derive(ApiType, Serialize, Deserialize)]
pub enum EnumStringAlias {
    A,
    B,
    C,
} // KAL a/a.go:type EnumStringAlias

/// MaxLength.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(deny(max_length))]
#[serde(rename_all = "camelCase")]
pub struct MaxLength {
    /// f.
    #[kube(max_length = 256)]
    pub string_with_max_length: String, // KAL a/a.go:MaxLength.StringWithMaxLength
    /// f.
    #[kube(max_length = 128)]
    pub string_alias_with_max_length_on_field: StringAlias, // KAL a/a.go:MaxLength.StringAliasWithMaxLengthOnField
    /// f.
    pub string_alias_with_max_length_on_alias: StringAliasWithMaxLength, // KAL a/a.go:MaxLength.StringAliasWithMaxLengthOnAlias
    /// f.
    #[kube(max_length = 128)]
    pub string_alias_from_another_file_with_max_length_on_field: StringAliasB, // KAL a/a.go:MaxLength.StringAliasFromAnotherFileWithMaxLengthOnField
    /// f.
    pub string_alias_with_max_length_from_another_file: StringAliasWithMaxLengthB, // KAL a/a.go:MaxLength.StringAliasWithMaxLengthFromAnotherFile
    /// f.
    #[kube(enum = ["A", "B", "C"])]
    pub enum_string: String, // KAL a/a.go:MaxLength.EnumString
    /// f.
    pub enum_string_alias: EnumStringAlias, // KAL a/a.go:MaxLength.EnumStringAlias
    /// f.
    #[kube(max_items = 256)]
    pub array_with_max_items: Vec<i32>, // KAL a/a.go:MaxLength.ArrayWithMaxItems
    /// f.
    #[kube(max_items = 64, items(max_length = 64))]
    pub string_array_with_max_items_and_max_element_length: Vec<String>, // KAL a/a.go:MaxLength.StringArrayWithMaxItemsAndMaxElementLength
    /// f.
    #[kube(max_items = 64, items(max_length = 64))]
    pub string_alias_array_with_max_items_and_max_element_length: Vec<StringAlias>, // KAL a/a.go:MaxLength.StringAliasArrayWithMaxItemsAndMaxElementLength
}

fn main() {}
