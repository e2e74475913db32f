//! KAL `nomaps` (pkg/analysis/nomaps/testdata/src/a, and src/c whose policy,
//! AllowStringToStringMaps, is the default one and ours). Go defined map
//! types used by fields are Rust aliases; Go `*map` is `Option<map>`.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub type MapStringComponent = BTreeMap<String, Component>;
pub type PtrMapStringComponent = Option<BTreeMap<String, Component>>;
pub type MapStringInt = BTreeMap<String, i32>;
pub type MapIntString = BTreeMap<i32, String>;
pub type MapStringComponentAlias = BTreeMap<String, Component>;
pub type MapStringPtrComponentAlias = Option<BTreeMap<String, Component>>;
pub type MapStringIntAlias = BTreeMap<String, i32>;
pub type DefinedMapStringComponentAlias = MapStringComponent;
pub type DefinedMapStringComponentPtrAlias = Option<MapStringComponent>;
pub type MapStringComponentB = BTreeMap<String, Component>;
pub type PtrMapStringComponentB = Option<BTreeMap<String, Component>>;
pub type MapStringIntB = BTreeMap<String, i32>;
pub type MapIntStringB = BTreeMap<i32, String>;

/// No maps.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(allow(list_type))]
#[serde(rename_all = "camelCase")]
pub struct NoMapsTestStruct {
    /// f.
    pub map_components: BTreeMap<String, Component>, // KAL a/a.go:NoMapsTestStruct.MapComponents | c/c.go:NoMapsTestStruct.MapComponents
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ptr_map_components: Option<BTreeMap<String, Component>>, // KAL a/a.go:NoMapsTestStruct.PtrMapComponents | c/c.go:NoMapsTestStruct.PtrMapComponents
    /// f.
    pub map_string_int: BTreeMap<String, i32>, // KAL a/a.go:NoMapsTestStruct.MapStringInt | c/c.go:NoMapsTestStruct.MapStringInt
}

/// Defined map types.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NoMapsTestStructWithDefiningType {
    /// f.
    pub map_string_component: MapStringComponent, // KAL a/a.go:NoMapsTestStructWithDefiningType.MapStringComponent | c/c.go:NoMapsTestStructWithDefiningType.MapStringComponent
    /// f.
    pub ptr_map_string_component: PtrMapStringComponent, // KAL a/a.go:NoMapsTestStructWithDefiningType.PtrMapStringComponent | c/c.go:NoMapsTestStructWithDefiningType.PtrMapStringComponent
    /// f.
    pub map_string_int: MapStringInt, // KAL a/a.go:NoMapsTestStructWithDefiningType.MapStringInt | c/c.go:NoMapsTestStructWithDefiningType.MapStringInt
    /// f.
    pub map_int_string: MapIntString, // KAL a/a.go:NoMapsTestStructWithDefiningType.MapIntString | c/c.go:NoMapsTestStructWithDefiningType.MapIntString
}

/// Defined map types from another file.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NoMapsTestStructWithDefiningTypeAcrossFiles {
    /// f.
    pub map_string_component: MapStringComponentB, // KAL a/a.go:NoMapsTestStructWithDefiningTypeAcrossFiles.MapStringComponent | c/c.go:NoMapsTestStructWithDefiningTypeAcrossFiles.MapStringComponent
    /// f.
    pub ptr_map_string_component: PtrMapStringComponentB, // KAL a/a.go:NoMapsTestStructWithDefiningTypeAcrossFiles.PtrMapStringComponent | c/c.go:NoMapsTestStructWithDefiningTypeAcrossFiles.PtrMapStringComponent
    /// f.
    pub map_string_int: MapStringIntB, // KAL a/a.go:NoMapsTestStructWithDefiningTypeAcrossFiles.MapStringInt | c/c.go:NoMapsTestStructWithDefiningTypeAcrossFiles.MapStringInt
    /// f.
    pub map_int_string: MapIntStringB, // KAL a/a.go:NoMapsTestStructWithDefiningTypeAcrossFiles.MapIntString | c/c.go:NoMapsTestStructWithDefiningTypeAcrossFiles.MapIntString
}

/// Aliases.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NoMapsTestStructWithAlias {
    /// f.
    pub map_string_component_alias: MapStringComponentAlias, // KAL a/a.go:NoMapsTestStructWithAlias.MapStringComponentAlias | c/c.go:NoMapsTestStructWithAlias.MapStringComponentAlias
    /// f.
    pub map_string_ptr_component_alias: MapStringPtrComponentAlias, // KAL a/a.go:NoMapsTestStructWithAlias.MapStringPtrComponentAlias | c/c.go:NoMapsTestStructWithAlias.MapStringPtrComponentAlias
    /// f.
    pub map_string_int_alias: MapStringIntAlias, // KAL a/a.go:NoMapsTestStructWithAlias.MapStringIntAlias | c/c.go:NoMapsTestStructWithAlias.MapStringIntAlias
    /// f.
    pub defined_map_string_component_alias: DefinedMapStringComponentAlias, // KAL a/a.go:NoMapsTestStructWithAlias.DefinedMapStringComponentAlias | c/c.go:NoMapsTestStructWithAlias.DefinedMapStringComponentAlias
    /// f.
    pub defined_map_string_component_ptr_alias: DefinedMapStringComponentPtrAlias, // KAL a/a.go:NoMapsTestStructWithAlias.DefinedMapStringComponentPtrAlias | c/c.go:NoMapsTestStructWithAlias.DefinedMapStringComponentPtrAlias
}

/// Embedded (Go) = flattened (Rust): not reported again.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NoMapsTestStructWithEmbedded {
}

/// A component.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Component {
    /// f.
    pub key: String,
    /// f.
    pub value: i32,
}


/// A string-based type (Go `type StringBasedType string`).
#[derive(ApiType, Serialize, Deserialize, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct StringBasedType(pub String);

/// Maps keyed by a string-based type: no `ApiType` impl (only `String` keys).
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MapWithStringBasedTypes {
    /// f.
    #[serde(rename = "stringBasedMapKey", default, skip_serializing_if = "BTreeMap::is_empty")]
    pub map_with_string_based_key: BTreeMap<StringBasedType, String>, // KAL c/c.go:MapWithStringBasedTypes.MapWithStringBasedKey
    /// f.
    #[serde(rename = "stringBasedMapKeyAndElem", default, skip_serializing_if = "BTreeMap::is_empty")]
    pub map_with_string_based_key_and_elem: BTreeMap<StringBasedType, StringBasedType>, // KAL c/c.go:MapWithStringBasedTypes.MapWithStringBasedKeyAndElem
}

fn main() {}
