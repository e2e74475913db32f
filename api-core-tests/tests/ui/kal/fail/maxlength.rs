//! KAL `maxlength` (pkg/analysis/maxlength/testdata/src/a). KAL's maxlength is
//! off by default and our `max_length` is `allow` by default; the KAL test
//! turns it on, so the types say `#[kube(deny(max_length))]`. The Go fields
//! have no json tags; JSON names are camelCase here (that is `jsontags`'
//! business). Go `int` is `i32`.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

pub type StringAlias = String;
pub type StringAliasB = String;

/// MaxLength.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(deny(max_length))]
#[serde(rename_all = "camelCase")]
pub struct MaxLength {
    /// f.
    pub string_alias_from_another_file: StringAliasB, // KAL a/a.go:MaxLength.StringAliasFromAnotherFile
    /// f.
    pub string_without_max_length: String, // KAL a/a.go:MaxLength.StringWithoutMaxLength
    /// f.
    pub string_alias_without_max_length: StringAlias, // KAL a/a.go:MaxLength.StringAliasWithoutMaxLength
    /// f.
    #[kube(format = "duration")]
    pub duration_format: String, // KAL a/a.go:MaxLength.DurationFormat
    /// f.
    #[kube(format = "date-time")]
    pub date_time_format: String, // KAL a/a.go:MaxLength.DateTimeFormat
    /// f.
    #[kube(format = "date")]
    pub date_format: String, // KAL a/a.go:MaxLength.DateFormat
    /// f.
    pub array_without_max_items: Vec<i32>, // KAL a/a.go:MaxLength.ArrayWithoutMaxItems
    /// f.
    #[kube(max_items = 128)]
    pub string_array_with_max_items_without_max_element_length: Vec<String>, // KAL a/a.go:MaxLength.StringArrayWithMaxItemsWithoutMaxElementLength
    /// f.
    pub string_array_without_max_items_without_max_element_length: Vec<String>, // KAL a/a.go:MaxLength.StringArrayWithoutMaxItemsWithoutMaxElementLength
    /// f.
    #[kube(items(max_length = 512))]
    pub string_array_without_max_items_with_max_element_length: Vec<String>, // KAL a/a.go:MaxLength.StringArrayWithoutMaxItemsWithMaxElementLength
    /// f.
    #[kube(max_items = 128)]
    pub string_alias_array_with_max_items_without_max_element_length: Vec<StringAlias>, // KAL a/a.go:MaxLength.StringAliasArrayWithMaxItemsWithoutMaxElementLength
    /// f.
    pub string_alias_array_without_max_items_without_max_element_length: Vec<StringAlias>, // KAL a/a.go:MaxLength.StringAliasArrayWithoutMaxItemsWithoutMaxElementLength
    /// f.
    #[kube(items(max_length = 512))]
    pub string_alias_array_without_max_items_with_max_element_length: Vec<StringAlias>, // KAL a/a.go:MaxLength.StringAliasArrayWithoutMaxItemsWithMaxElementLength
    /// f.
    pub string_alias_array_without_max_items_with_max_element_length_on_alias: Vec<StringAliasWithMaxLength>, // KAL a/a.go:MaxLength.StringAliasArrayWithoutMaxItemsWithMaxElementLengthOnAlias
    /// f (items of a newtype with `max_length`: bounded).
    #[kube(max_items = 64)]
    pub string_alias_array_with_max_items_and_max_element_length_on_alias: Vec<StringAliasWithMaxLength>, // KAL a/a.go:MaxLength.StringAliasArrayWithMaxItemsAndMaxElementLengthOnAlias
    /// f (Go: an anonymous struct; a named one here).
    pub r#struct: Struct, // KAL a/a.go:MaxLength.Struct
}

/// The Go anonymous struct.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(deny(max_length))]
#[serde(rename_all = "camelCase")]
pub struct Struct {
    /// f.
    #[kube(max_length = 256)]
    pub string_with_max_length: String, // KAL a/a.go:MaxLength.Struct.StringWithMaxLength
    /// f.
    pub string_without_max_length: String, // KAL a/a.go:MaxLength.Struct.StringWithoutMaxLength
}

/// Go `+kubebuilder:validation:MaxLength:=512 type StringAliasWithMaxLength string`.
#[derive(ApiType, Serialize, Deserialize)]
pub struct StringAliasWithMaxLength(#[kube(max_length = 512)] pub String);

fn main() {}
