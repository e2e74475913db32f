//! KAL `uniquemarkers` passing cases (src/a/a.go).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// d.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(example = "bart")] // KAL a/a.go:type UniqueKubebuilderExampleAlias
pub struct UniqueKubebuilderExampleAlias(pub String);

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMinLengthStringAlias(#[kube(min_length = 5)] pub String); // KAL a/a.go:type UniqueMinLengthStringAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueEnumAlias(#[kube(enum = ["Baz", "Qux"])] pub String); // KAL a/a.go:type UniqueEnumAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueExclusiveMaximumAlias(#[kube(exclusive_maximum = 5)] pub i32); // KAL a/a.go:type UniqueExclusiveMaximumAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueExclusiveMinimumAlias(#[kube(exclusive_minimum = 2)] pub i32); // KAL a/a.go:type UniqueExclusiveMinimumAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueFormatAlias(#[kube(format = "date")] pub String); // KAL a/a.go:type UniqueFormatAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMaxItemsAlias(#[kube(max_items = 3)] pub Vec<String>); // KAL a/a.go:type UniqueMaxItemsAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMaxPropertiesAlias(#[kube(max_properties = 2)] pub BTreeMap<String, String>); // KAL a/a.go:type UniqueMaxPropertiesAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMaximumAlias(#[kube(maximum = 50)] pub i32); // KAL a/a.go:type UniqueMaximumAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMinItemsAlias(#[kube(min_items = 4)] pub Vec<String>); // KAL a/a.go:type UniqueMinItemsAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMinLengthCustomAlias(#[kube(min_length = 40)] pub String); // KAL a/a.go:type UniqueMinLengthCustomAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMinPropertiesFieldAlias(#[kube(min_properties = 4)] pub BTreeMap<String, String>); // KAL a/a.go:type UniqueMinPropertiesFieldAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMinimumAlias(#[kube(minimum = 5)] pub i32); // KAL a/a.go:type UniqueMinimumAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueMultipleOfAlias(#[kube(multiple_of = 7)] pub i32); // KAL a/a.go:type UniqueMultipleOfAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniquePatternAlias(#[kube(pattern = "^\\w+$")] pub String); // KAL a/a.go:type UniquePatternAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsEnumAlias(#[kube(items(enum = ["Banana", "Grape"]))] pub Vec<String>); // KAL a/a.go:type UniqueItemsEnumAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsExclusiveMaximumAlias(#[kube(items(exclusive_maximum = 5))] pub Vec<i32>); // KAL a/a.go:type UniqueItemsExclusiveMaximumAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsExclusiveMinimumAlias(#[kube(items(exclusive_minimum = 2))] pub Vec<i32>); // KAL a/a.go:type UniqueItemsExclusiveMinimumAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsFormatAlias(#[kube(items(format = "password"))] pub Vec<String>); // KAL a/a.go:type UniqueItemsFormatAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMaxItemsAlias(#[kube(items(max_items = 2))] pub Vec<Vec<String>>); // KAL a/a.go:type UniqueItemsMaxItemsAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMaxPropertiesAlias(#[kube(items(max_properties = 1))] pub Vec<BTreeMap<String, String>>); // KAL a/a.go:type UniqueItemsMaxPropertiesAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMaximumAlias(#[kube(items(maximum = 25))] pub Vec<i32>); // KAL a/a.go:type UniqueItemsMaximumAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMinItemsAlias(#[kube(items(min_items = 4))] pub Vec<Vec<String>>); // KAL a/a.go:type UniqueItemsMinItemsAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMinLengthAlias(#[kube(items(min_length = 8))] pub Vec<String>); // KAL a/a.go:type UniqueItemsMinLengthAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMinPropertiesAlias(#[kube(items(min_properties = 4))] pub Vec<BTreeMap<String, String>>); // KAL a/a.go:type UniqueItemsMinPropertiesAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMinimumAlias(#[kube(items(minimum = 20))] pub Vec<i32>); // KAL a/a.go:type UniqueItemsMinimumAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsMultipleOfAlias(#[kube(items(multiple_of = 7))] pub Vec<i32>); // KAL a/a.go:type UniqueItemsMultipleOfAlias

/// d.
#[derive(ApiType, Serialize, Deserialize)]
pub struct UniqueItemsPatternAlias(#[kube(items(pattern = "^\\w+$"))] pub Vec<String>); // KAL a/a.go:type UniqueItemsPatternAlias

/// A.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AFields {
    /// f.
    #[kube(validation(rule = "self.matches('[0-9A-Za-z]')", message = "should match regex"), validation(rule = "isURL(self)", message = "should be a URL"))]
    pub allowed_non_unique_markers: String, // KAL a/a.go:A.AllowedNonUniqueMarkers
    /// f.
    #[default("homer")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unique_basic_default: Option<String>, // KAL a/a.go:A.UniqueBasicDefault
    /// f.
    #[kube(example = "homer")]
    pub unique_kubebuilder_example: String, // KAL a/a.go:A.UniqueKubebuilderExample
    /// f.
    #[kube(min_length = 1)]
    pub unique_min_length: String, // KAL a/a.go:A.UniqueMinLength
    /// f.
    #[kube(enum = ["Foo", "Bar"])]
    pub unique_enum: String, // KAL a/a.go:A.UniqueEnum
    /// f.
    #[kube(exclusive_maximum = 10)]
    pub unique_exclusive_maximum: i32, // KAL a/a.go:A.UniqueExclusiveMaximum
    /// f.
    #[kube(exclusive_minimum = 2)]
    pub unique_exclusive_minimum: i32, // KAL a/a.go:A.UniqueExclusiveMinimum
    /// f.
    #[kube(format = "date-time")]
    pub unique_format: String, // KAL a/a.go:A.UniqueFormat
    /// f.
    #[kube(max_items = 10)]
    pub unique_max_items: Vec<String>, // KAL a/a.go:A.UniqueMaxItems
    /// f.
    #[kube(max_properties = 3)]
    pub unique_max_properties: BTreeMap<String, String>, // KAL a/a.go:A.UniqueMaxProperties
    /// f.
    #[kube(maximum = 100)]
    pub unique_maximum: i32, // KAL a/a.go:A.UniqueMaximum
    /// f.
    #[kube(min_items = 1)]
    pub unique_min_items: Vec<String>, // KAL a/a.go:A.UniqueMinItems
    /// f.
    #[kube(min_length = 30)]
    pub unique_min_length_custom: String, // KAL a/a.go:A.UniqueMinLengthCustom
    /// f.
    #[kube(min_properties = 1)]
    pub unique_min_properties_field: BTreeMap<String, String>, // KAL a/a.go:A.UniqueMinPropertiesField
    /// f.
    #[kube(minimum = 10)]
    pub unique_minimum: i32, // KAL a/a.go:A.UniqueMinimum
    /// f.
    #[kube(multiple_of = 3)]
    pub unique_multiple_of: i32, // KAL a/a.go:A.UniqueMultipleOf
    /// f.
    #[kube(pattern = "^[a-z]+$")]
    pub unique_pattern: String, // KAL a/a.go:A.UniquePattern
    /// f.
    #[kube(items(enum = ["Apple", "Orange"]))]
    pub unique_items_enum: Vec<String>, // KAL a/a.go:A.UniqueItemsEnum
    /// f.
    #[kube(items(exclusive_maximum = 10))]
    pub unique_items_exclusive_maximum: Vec<i32>, // KAL a/a.go:A.UniqueItemsExclusiveMaximum
    /// f.
    #[kube(items(exclusive_minimum = 1))]
    pub unique_items_exclusive_minimum: Vec<i32>, // KAL a/a.go:A.UniqueItemsExclusiveMinimum
    /// f.
    #[kube(items(format = "date-time"))]
    pub unique_items_format: Vec<String>, // KAL a/a.go:A.UniqueItemsFormat
    /// f.
    #[kube(items(max_items = 5))]
    pub unique_items_max_items: Vec<Vec<String>>, // KAL a/a.go:A.UniqueItemsMaxItems
    /// f.
    #[kube(items(max_properties = 3))]
    pub unique_items_max_properties: Vec<BTreeMap<String, String>>, // KAL a/a.go:A.UniqueItemsMaxProperties
    /// f.
    #[kube(items(maximum = 100))]
    pub unique_items_maximum: Vec<i32>, // KAL a/a.go:A.UniqueItemsMaximum
    /// f.
    #[kube(items(min_items = 1))]
    pub unique_items_min_items: Vec<Vec<String>>, // KAL a/a.go:A.UniqueItemsMinItems
    /// f.
    #[kube(items(min_length = 5))]
    pub unique_items_min_length: Vec<String>, // KAL a/a.go:A.UniqueItemsMinLength
    /// f.
    #[kube(items(min_properties = 1))]
    pub unique_items_min_properties: Vec<BTreeMap<String, String>>, // KAL a/a.go:A.UniqueItemsMinProperties
    /// f.
    #[kube(items(minimum = 0))]
    pub unique_items_minimum: Vec<i32>, // KAL a/a.go:A.UniqueItemsMinimum
    /// f.
    #[kube(items(multiple_of = 3))]
    pub unique_items_multiple_of: Vec<i32>, // KAL a/a.go:A.UniqueItemsMultipleOf
    /// f.
    #[kube(items(pattern = "^[a-z]+$"))]
    pub unique_items_pattern: Vec<String>, // KAL a/a.go:A.UniqueItemsPattern
}

fn main() {}
