//! KAL `uniquemarkers` (pkg/analysis/uniquemarkers/testdata/src/a/a.go). A Go
//! marker is a `#[kube(..)]` key (`items:X` is `items(x = ..)`, `+default` is
//! `#[default(..)]`); a Go type's markers go on the Rust newtype (its field,
//! or the container for `example`). A key given twice is rejected by the
//! attribute parser. Go `int` is `i32`; Go field names without json tags are
//! camelCase here.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Go `type A` with `MinProperties` twice (there is no type-level `min_properties`).
#[derive(ApiType, Serialize, Deserialize)]
#[kube(min_properties = 3, min_properties = 5)] // KAL a/a.go:type A
pub struct A {}

/// d.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(example = "homer", example = "bart")] // KAL a/a.go:type NonUniqueKubebuilderExampleAlias
pub struct NonUniqueKubebuilderExampleAlias(pub String);

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
#[kube(example = "bart")]
pub struct UniqueKubebuilderExampleAlias(pub String);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueMinLengthStringAlias(#[kube(min_length = 5, min_length = 1)] pub String); // KAL a/a.go:type NonUniqueMinLengthStringAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMinLengthStringAlias(#[kube(min_length = 5)] pub String);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueEnumAlias(#[kube(enum = ["Foo", "Bar"], enum = ["Baz", "Qux"])] pub String); // KAL a/a.go:type NonUniqueEnumAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueEnumAlias(#[kube(enum = ["Baz", "Qux"])] pub String);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueExclusiveMaximumAlias(#[kube(exclusive_maximum = 5, exclusive_maximum = 5)] pub i32); // KAL a/a.go:type NonUniqueExclusiveMaximumAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueExclusiveMaximumAlias(#[kube(exclusive_maximum = 5)] pub i32);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueExclusiveMinimumAlias(#[kube(exclusive_minimum = 2, exclusive_minimum = 2)] pub i32); // KAL a/a.go:type NonUniqueExclusiveMinimumAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueExclusiveMinimumAlias(#[kube(exclusive_minimum = 2)] pub i32);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueFormatAlias(#[kube(format = "date", format = "password")] pub String); // KAL a/a.go:type NonUniqueFormatAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueFormatAlias(#[kube(format = "date")] pub String);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueMaxItemsAlias(#[kube(max_items = 3, max_items = 7)] pub Vec<String>); // KAL a/a.go:type NonUniqueMaxItemsAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMaxItemsAlias(#[kube(max_items = 3)] pub Vec<String>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueMaxPropertiesAlias(#[kube(max_properties = 2, max_properties = 6)] pub BTreeMap<String, String>); // KAL a/a.go:type NonUniqueMaxPropertiesAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMaxPropertiesAlias(#[kube(max_properties = 2)] pub BTreeMap<String, String>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueMaximumAlias(#[kube(maximum = 50, maximum = 75)] pub i32); // KAL a/a.go:type NonUniqueMaximumAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMaximumAlias(#[kube(maximum = 50)] pub i32);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueMinItemsAlias(#[kube(min_items = 4, min_items = 5)] pub Vec<String>); // KAL a/a.go:type NonUniqueMinItemsAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMinItemsAlias(#[kube(min_items = 4)] pub Vec<String>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueMinLengthCustomAlias(#[kube(min_length = 40, min_length = 45)] pub String); // KAL a/a.go:type NonUniqueMinLengthCustomAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMinLengthCustomAlias(#[kube(min_length = 40)] pub String);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueMinPropertiesFieldAlias(#[kube(min_properties = 4, min_properties = 5)] pub BTreeMap<String, String>); // KAL a/a.go:type NonUniqueMinPropertiesFieldAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMinPropertiesFieldAlias(#[kube(min_properties = 4)] pub BTreeMap<String, String>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueMinimumAlias(#[kube(minimum = 5, minimum = 7)] pub i32); // KAL a/a.go:type NonUniqueMinimumAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMinimumAlias(#[kube(minimum = 5)] pub i32);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueMultipleOfAlias(#[kube(multiple_of = 7, multiple_of = 11)] pub i32); // KAL a/a.go:type NonUniqueMultipleOfAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMultipleOfAlias(#[kube(multiple_of = 7)] pub i32);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniquePatternAlias(#[kube(pattern = "^\\w+$", pattern = "^\\d+$")] pub String); // KAL a/a.go:type NonUniquePatternAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniquePatternAlias(#[kube(pattern = "^\\w+$")] pub String);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueItemsEnumAlias(#[kube(items(enum = ["Apple", "Orange"], enum = ["Banana", "Grape"]))] pub Vec<String>); // KAL a/a.go:type NonUniqueItemsEnumAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsEnumAlias(#[kube(items(enum = ["Banana", "Grape"]))] pub Vec<String>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueItemsExclusiveMaximumAlias(#[kube(items(exclusive_maximum = 5, exclusive_maximum = 5))] pub Vec<i32>); // KAL a/a.go:type NonUniqueItemsExclusiveMaximumAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsExclusiveMaximumAlias(#[kube(items(exclusive_maximum = 5))] pub Vec<i32>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueItemsExclusiveMinimumAlias(#[kube(items(exclusive_minimum = 2, exclusive_minimum = 2))] pub Vec<i32>); // KAL a/a.go:type NonUniqueItemsExclusiveMinimumAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsExclusiveMinimumAlias(#[kube(items(exclusive_minimum = 2))] pub Vec<i32>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueItemsFormatAlias(#[kube(items(format = "date-time", format = "password"))] pub Vec<String>); // KAL a/a.go:type NonUniqueItemsFormatAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsFormatAlias(#[kube(items(format = "password"))] pub Vec<String>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueItemsMaxItemsAlias(#[kube(items(max_items = 2, max_items = 4))] pub Vec<Vec<String>>); // KAL a/a.go:type NonUniqueItemsMaxItemsAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMaxItemsAlias(#[kube(items(max_items = 2))] pub Vec<Vec<String>>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueItemsMaxPropertiesAlias(#[kube(items(max_properties = 1, max_properties = 4))] pub Vec<BTreeMap<String, String>>); // KAL a/a.go:type NonUniqueItemsMaxPropertiesAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMaxPropertiesAlias(#[kube(items(max_properties = 1))] pub Vec<BTreeMap<String, String>>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueItemsMaximumAlias(#[kube(items(maximum = 25, maximum = 10))] pub Vec<i32>); // KAL a/a.go:type NonUniqueItemsMaximumAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMaximumAlias(#[kube(items(maximum = 25))] pub Vec<i32>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueItemsMinItemsAlias(#[kube(items(min_items = 4, min_items = 2))] pub Vec<Vec<String>>); // KAL a/a.go:type NonUniqueItemsMinItemsAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMinItemsAlias(#[kube(items(min_items = 4))] pub Vec<Vec<String>>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueItemsMinLengthAlias(#[kube(items(min_length = 8, min_length = 2))] pub Vec<String>); // KAL a/a.go:type NonUniqueItemsMinLengthAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMinLengthAlias(#[kube(items(min_length = 8))] pub Vec<String>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueItemsMinPropertiesAlias(#[kube(items(min_properties = 4, min_properties = 2))] pub Vec<BTreeMap<String, String>>); // KAL a/a.go:type NonUniqueItemsMinPropertiesAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMinPropertiesAlias(#[kube(items(min_properties = 4))] pub Vec<BTreeMap<String, String>>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueItemsMinimumAlias(#[kube(items(minimum = 20, minimum = 30))] pub Vec<i32>); // KAL a/a.go:type NonUniqueItemsMinimumAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMinimumAlias(#[kube(items(minimum = 20))] pub Vec<i32>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueItemsMultipleOfAlias(#[kube(items(multiple_of = 7, multiple_of = 11))] pub Vec<i32>); // KAL a/a.go:type NonUniqueItemsMultipleOfAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMultipleOfAlias(#[kube(items(multiple_of = 7))] pub Vec<i32>);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct NonUniqueItemsPatternAlias(#[kube(items(pattern = "^\\w+$", pattern = "^\\d+$"))] pub Vec<String>); // KAL a/a.go:type NonUniqueItemsPatternAlias

/// d (copy of the passing newtype).
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsPatternAlias(#[kube(items(pattern = "^\\w+$"))] pub Vec<String>);

/// A.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AFields {
    /// f.
    #[kube(validation(rule = "self.matches('[0-9A-Za-z]')", message = "should match regex"), validation(rule = "isURL(self)", message = "should be a URL"))]
    pub allowed_non_unique_markers: String,
    /// f.
    #[default("homer")]
    #[default("bart")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_unique_basic_default: Option<String>, // KAL a/a.go:A.NonUniqueBasicDefault
    /// f.
    #[kube(example = "homer", example = "bart")]
    pub non_unique_kubebuilder_example: String, // KAL a/a.go:A.NonUniqueKubebuilderExample
    /// f (the type has its own value).
    #[kube(example = "homer")]
    pub non_unique_kubebuilder_example_from_alias_with_kubebuilder_example: UniqueKubebuilderExampleAlias, // KAL a/a.go:A.NonUniqueKubebuilderExampleFromAliasWithKubebuilderExample
    /// f.
    #[kube(min_length = 1, min_length = 5)]
    pub non_unique_min_length: String, // KAL a/a.go:A.NonUniqueMinLength
    /// f (the type has its own value).
    #[kube(min_length = 1)]
    pub non_unique_min_length_from_alias_with_min_length: UniqueMinLengthStringAlias, // KAL a/a.go:A.NonUniqueMinLengthFromAliasWithMinLength
    /// f.
    #[kube(enum = ["Foo", "Bar"], enum = ["Baz", "Qux"])]
    pub non_unique_enum: String, // KAL a/a.go:A.NonUniqueEnum
    /// f (the type has its own value).
    #[kube(enum = ["Foo", "Bar"])]
    pub non_unique_enum_from_alias_with_enum: UniqueEnumAlias, // KAL a/a.go:A.NonUniqueEnumFromAliasWithEnum
    /// f.
    #[kube(exclusive_maximum = 10, exclusive_maximum = 10)]
    pub non_unique_exclusive_maximum: i32, // KAL a/a.go:A.NonUniqueExclusiveMaximum
    /// f (the type has its own value).
    #[kube(exclusive_maximum = 10)]
    pub non_unique_exclusive_maximum_from_alias_with_exclusive_maximum: UniqueExclusiveMaximumAlias, // KAL a/a.go:A.NonUniqueExclusiveMaximumFromAliasWithExclusiveMaximum
    /// f.
    #[kube(exclusive_minimum = 2, exclusive_minimum = 2)]
    pub non_unique_exclusive_minimum: i32, // KAL a/a.go:A.NonUniqueExclusiveMinimum
    /// f (the type has its own value).
    #[kube(exclusive_minimum = 2)]
    pub non_unique_exclusive_minimum_from_alias_with_exclusive_minimum: UniqueExclusiveMinimumAlias, // KAL a/a.go:A.NonUniqueExclusiveMinimumFromAliasWithExclusiveMinimum
    /// f.
    #[kube(format = "date-time", format = "password")]
    pub non_unique_format: String, // KAL a/a.go:A.NonUniqueFormat
    /// f (the type has its own value).
    #[kube(format = "date-time")]
    pub non_unique_format_from_alias_with_format: UniqueFormatAlias, // KAL a/a.go:A.NonUniqueFormatFromAliasWithFormat
    /// f.
    #[kube(max_items = 10, max_items = 5)]
    pub non_unique_max_items: Vec<String>, // KAL a/a.go:A.NonUniqueMaxItems
    /// f (the type has its own value).
    #[kube(max_items = 10)]
    pub non_unique_max_items_from_alias_with_max_items: UniqueMaxItemsAlias, // KAL a/a.go:A.NonUniqueMaxItemsFromAliasWithMaxItems
    /// f.
    #[kube(max_properties = 3, max_properties = 5)]
    pub non_unique_max_properties: BTreeMap<String, String>, // KAL a/a.go:A.NonUniqueMaxProperties
    /// f (the type has its own value).
    #[kube(max_properties = 3)]
    pub non_unique_max_properties_from_alias_with_max_properties: UniqueMaxPropertiesAlias, // KAL a/a.go:A.NonUniqueMaxPropertiesFromAliasWithMaxProperties
    /// f.
    #[kube(maximum = 100, maximum = 200)]
    pub non_unique_maximum: i32, // KAL a/a.go:A.NonUniqueMaximum
    /// f (the type has its own value).
    #[kube(maximum = 100)]
    pub non_unique_maximum_from_alias_with_maximum: UniqueMaximumAlias, // KAL a/a.go:A.NonUniqueMaximumFromAliasWithMaximum
    /// f.
    #[kube(min_items = 1, min_items = 2)]
    pub non_unique_min_items: Vec<String>, // KAL a/a.go:A.NonUniqueMinItems
    /// f (the type has its own value).
    #[kube(min_items = 1)]
    pub non_unique_min_items_from_alias_with_min_items: UniqueMinItemsAlias, // KAL a/a.go:A.NonUniqueMinItemsFromAliasWithMinItems
    /// f.
    #[kube(min_length = 30, min_length = 35)]
    pub non_unique_min_length_custom: String, // KAL a/a.go:A.NonUniqueMinLengthCustom
    /// f (the type has its own value).
    #[kube(min_length = 30)]
    pub non_unique_min_length_custom_from_alias_with_min_length: UniqueMinLengthCustomAlias, // KAL a/a.go:A.NonUniqueMinLengthCustomFromAliasWithMinLength
    /// f.
    #[kube(min_properties = 1, min_properties = 2)]
    pub non_unique_min_properties_field: BTreeMap<String, String>, // KAL a/a.go:A.NonUniqueMinPropertiesField
    /// f (the type has its own value).
    #[kube(min_properties = 1)]
    pub non_unique_min_properties_field_from_alias_with_min_properties: UniqueMinPropertiesFieldAlias, // KAL a/a.go:A.NonUniqueMinPropertiesFieldFromAliasWithMinProperties
    /// f.
    #[kube(minimum = 10, minimum = 20)]
    pub non_unique_minimum: i32, // KAL a/a.go:A.NonUniqueMinimum
    /// f (the type has its own value).
    #[kube(minimum = 10)]
    pub non_unique_minimum_from_alias_with_minimum: UniqueMinimumAlias, // KAL a/a.go:A.NonUniqueMinimumFromAliasWithMinimum
    /// f.
    #[kube(multiple_of = 3, multiple_of = 5)]
    pub non_unique_multiple_of: i32, // KAL a/a.go:A.NonUniqueMultipleOf
    /// f (the type has its own value).
    #[kube(multiple_of = 3)]
    pub non_unique_multiple_of_from_alias_with_multiple_of: UniqueMultipleOfAlias, // KAL a/a.go:A.NonUniqueMultipleOfFromAliasWithMultipleOf
    /// f.
    #[kube(pattern = "^[a-z]+$", pattern = "^[0-9]+$")]
    pub non_unique_pattern: String, // KAL a/a.go:A.NonUniquePattern
    /// f (the type has its own value).
    #[kube(pattern = "^[a-z]+$")]
    pub non_unique_pattern_from_alias_with_pattern: UniquePatternAlias, // KAL a/a.go:A.NonUniquePatternFromAliasWithPattern
    /// f.
    #[kube(items(enum = ["Apple", "Orange"], enum = ["Banana", "Grape"]))]
    pub non_unique_items_enum: Vec<String>, // KAL a/a.go:A.NonUniqueItemsEnum
    /// f (the type has its own value).
    #[kube(items(enum = ["Apple", "Orange"]))]
    pub non_unique_items_enum_from_alias_with_items_enum: UniqueItemsEnumAlias, // KAL a/a.go:A.NonUniqueItemsEnumFromAliasWithItemsEnum
    /// f.
    #[kube(items(exclusive_maximum = 10, exclusive_maximum = 10))]
    pub non_unique_items_exclusive_maximum: Vec<i32>, // KAL a/a.go:A.NonUniqueItemsExclusiveMaximum
    /// f (the type has its own value).
    #[kube(items(exclusive_maximum = 10))]
    pub non_unique_items_exclusive_maximum_from_alias_with_items_exclusive_maximum: UniqueItemsExclusiveMaximumAlias, // KAL a/a.go:A.NonUniqueItemsExclusiveMaximumFromAliasWithItemsExclusiveMaximum
    /// f.
    #[kube(items(exclusive_minimum = 1, exclusive_minimum = 1))]
    pub non_unique_items_exclusive_minimum: Vec<i32>, // KAL a/a.go:A.NonUniqueItemsExclusiveMinimum
    /// f (the type has its own value).
    #[kube(items(exclusive_minimum = 1))]
    pub non_unique_items_exclusive_minimum_from_alias_with_items_exclusive_minimum: UniqueItemsExclusiveMinimumAlias, // KAL a/a.go:A.NonUniqueItemsExclusiveMinimumFromAliasWithItemsExclusiveMinimum
    /// f.
    #[kube(items(format = "date-time", format = "password"))]
    pub non_unique_items_format: Vec<String>, // KAL a/a.go:A.NonUniqueItemsFormat
    /// f (the type has its own value).
    #[kube(items(format = "date-time"))]
    pub non_unique_items_format_from_alias_with_items_format: UniqueItemsFormatAlias, // KAL a/a.go:A.NonUniqueItemsFormatFromAliasWithItemsFormat
    /// f.
    #[kube(items(max_items = 5, max_items = 10))]
    pub non_unique_items_max_items: Vec<Vec<String>>, // KAL a/a.go:A.NonUniqueItemsMaxItems
    /// f (the type has its own value).
    #[kube(items(max_items = 5))]
    pub non_unique_items_max_items_from_alias_with_items_max_items: UniqueItemsMaxItemsAlias, // KAL a/a.go:A.NonUniqueItemsMaxItemsFromAliasWithItemsMaxItems
    /// f.
    #[kube(items(max_properties = 3, max_properties = 5))]
    pub non_unique_items_max_properties: Vec<BTreeMap<String, String>>, // KAL a/a.go:A.NonUniqueItemsMaxProperties
    /// f (the type has its own value).
    #[kube(items(max_properties = 3))]
    pub non_unique_items_max_properties_from_alias_with_items_max_properties: UniqueItemsMaxPropertiesAlias, // KAL a/a.go:A.NonUniqueItemsMaxPropertiesFromAliasWithItemsMaxProperties
    /// f.
    #[kube(items(maximum = 100, maximum = 50))]
    pub non_unique_items_maximum: Vec<i32>, // KAL a/a.go:A.NonUniqueItemsMaximum
    /// f (the type has its own value).
    #[kube(items(maximum = 100))]
    pub non_unique_items_maximum_from_alias_with_items_maximum: UniqueItemsMaximumAlias, // KAL a/a.go:A.NonUniqueItemsMaximumFromAliasWithItemsMaximum
    /// f.
    #[kube(items(min_items = 1, min_items = 2))]
    pub non_unique_items_min_items: Vec<Vec<String>>, // KAL a/a.go:A.NonUniqueItemsMinItems
    /// f (the type has its own value).
    #[kube(items(min_items = 1))]
    pub non_unique_items_min_items_from_alias_with_items_min_items: UniqueItemsMinItemsAlias, // KAL a/a.go:A.NonUniqueItemsMinItemsFromAliasWithItemsMinItems
    /// f.
    #[kube(items(min_length = 5, min_length = 10))]
    pub non_unique_items_min_length: Vec<String>, // KAL a/a.go:A.NonUniqueItemsMinLength
    /// f (the type has its own value).
    #[kube(items(min_length = 5))]
    pub non_unique_items_min_length_from_alias_with_items_min_length: UniqueItemsMinLengthAlias, // KAL a/a.go:A.NonUniqueItemsMinLengthFromAliasWithItemsMinLength
    /// f.
    #[kube(items(min_properties = 1, min_properties = 2))]
    pub non_unique_items_min_properties: Vec<BTreeMap<String, String>>, // KAL a/a.go:A.NonUniqueItemsMinProperties
    /// f (the type has its own value).
    #[kube(items(min_properties = 1))]
    pub non_unique_items_min_properties_from_alias_with_items_min_properties: UniqueItemsMinPropertiesAlias, // KAL a/a.go:A.NonUniqueItemsMinPropertiesFromAliasWithItemsMinProperties
    /// f.
    #[kube(items(minimum = 0, minimum = -5))]
    pub non_unique_items_minimum: Vec<i32>, // KAL a/a.go:A.NonUniqueItemsMinimum
    /// f (the type has its own value).
    #[kube(items(minimum = 0))]
    pub non_unique_items_minimum_from_alias_with_items_minimum: UniqueItemsMinimumAlias, // KAL a/a.go:A.NonUniqueItemsMinimumFromAliasWithItemsMinimum
    /// f.
    #[kube(items(multiple_of = 3, multiple_of = 5))]
    pub non_unique_items_multiple_of: Vec<i32>, // KAL a/a.go:A.NonUniqueItemsMultipleOf
    /// f (the type has its own value).
    #[kube(items(multiple_of = 3))]
    pub non_unique_items_multiple_of_from_alias_with_items_multiple_of: UniqueItemsMultipleOfAlias, // KAL a/a.go:A.NonUniqueItemsMultipleOfFromAliasWithItemsMultipleOf
    /// f.
    #[kube(items(pattern = "^[a-z]+$", pattern = "^[0-9]+$"))]
    pub non_unique_items_pattern: Vec<String>, // KAL a/a.go:A.NonUniqueItemsPattern
    /// f (the type has its own value).
    #[kube(items(pattern = "^[a-z]+$"))]
    pub non_unique_items_pattern_from_alias_with_items_pattern: UniqueItemsPatternAlias, // KAL a/a.go:A.NonUniqueItemsPatternFromAliasWithItemsPattern
}

fn main() {}
