//! KAL `nodurations` (pkg/analysis/nodurations/testdata/src/a). Go `time.Duration`
//! is `std::time::Duration`; `metav1.Duration` (a Go duration string) is
//! api-core's meta/v1 `Duration`, re-exported from a module `metav1`. (A
//! user's type named `Duration` is not a duration by its name alone.)
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

/// meta/v1, as Go imports it: its `Duration` is a Go duration string
/// (`1h30m0s`) that clients in other languages must parse, so it is a
/// duration whatever the module calls it.
pub mod metav1 {
    pub use api_core::Duration;
}

pub type DurationAlias = Duration;
pub type DurationAliasB = Duration;
pub type DurationAliasWithMetaV1 = metav1::Duration;
pub type DurationAliasBWithMetaV1 = metav1::Duration;

/// Durations.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(allow(list_type))]
#[serde(rename_all = "camelCase")]
pub struct Durations {
    /// f.
    pub invalid_duration: Duration, // KAL a/a.go:Durations.InvalidDuration
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_duration_ptr: Option<Duration>, // KAL a/a.go:Durations.InvalidDurationPtr
    /// f.
    pub invalid_duration_slice: Vec<Duration>, // KAL a/a.go:Durations.InvalidDurationSlice
    /// f.
    pub invalid_duration_ptr_slice: Vec<Option<Duration>>, // KAL a/a.go:Durations.InvalidDurationPtrSlice
    /// f.
    pub invalid_duration_alias: DurationAlias, // KAL a/a.go:Durations.InvalidDurationAlias
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_duration_ptr_alias: Option<DurationAlias>, // KAL a/a.go:Durations.InvalidDurationPtrAlias
    /// f.
    pub invalid_duration_slice_alias: Vec<DurationAlias>, // KAL a/a.go:Durations.InvalidDurationSliceAlias
    /// f.
    pub invalid_duration_ptr_slice_alias: Vec<Option<DurationAlias>>, // KAL a/a.go:Durations.InvalidDurationPtrSliceAlias
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_string_to_duration: BTreeMap<String, Duration>, // KAL a/a.go:Durations.InvalidMapStringToDuration
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_string_to_duration_ptr: BTreeMap<String, Option<Duration>>, // KAL a/a.go:Durations.InvalidMapStringToDurationPtr
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_duration_to_string: BTreeMap<Duration, String>, // KAL a/a.go:Durations.InvalidMapDurationToString
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_duration_ptr_to_string: BTreeMap<Option<Duration>, String>, // KAL a/a.go:Durations.InvalidMapDurationPtrToString
    /// f.
    pub invalid_duration_alias_from_another_file: DurationAliasB, // KAL a/a.go:Durations.InvalidDurationAliasFromAnotherFile
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_duration_ptr_alias_from_another_file: Option<DurationAliasB>, // KAL a/a.go:Durations.InvalidDurationPtrAliasFromAnotherFile
}

/// DurationsWithMetaV1Package.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DurationsWithMetaV1Package {
    /// f.
    pub invalid_duration: metav1::Duration, // KAL a/a.go:DurationsWithMetaV1Package.InvalidDuration
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_duration_ptr: Option<metav1::Duration>, // KAL a/a.go:DurationsWithMetaV1Package.InvalidDurationPtr
    /// f.
    pub invalid_duration_slice: Vec<metav1::Duration>, // KAL a/a.go:DurationsWithMetaV1Package.InvalidDurationSlice
    /// f.
    pub invalid_duration_ptr_slice: Vec<Option<metav1::Duration>>, // KAL a/a.go:DurationsWithMetaV1Package.InvalidDurationPtrSlice
    /// f.
    pub invalid_duration_alias: DurationAliasWithMetaV1, // KAL a/a.go:DurationsWithMetaV1Package.InvalidDurationAlias
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_duration_ptr_alias: Option<DurationAliasWithMetaV1>, // KAL a/a.go:DurationsWithMetaV1Package.InvalidDurationPtrAlias
    /// f.
    pub invalid_duration_slice_alias: Vec<DurationAliasWithMetaV1>, // KAL a/a.go:DurationsWithMetaV1Package.InvalidDurationSliceAlias
    /// f.
    pub invalid_duration_ptr_slice_alias: Vec<Option<DurationAliasWithMetaV1>>, // KAL a/a.go:DurationsWithMetaV1Package.InvalidDurationPtrSliceAlias
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_string_to_duration: BTreeMap<String, metav1::Duration>, // KAL a/a.go:DurationsWithMetaV1Package.InvalidMapStringToDuration
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_string_to_duration_ptr: BTreeMap<String, Option<metav1::Duration>>, // KAL a/a.go:DurationsWithMetaV1Package.InvalidMapStringToDurationPtr
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_duration_to_string: BTreeMap<metav1::Duration, String>, // KAL a/a.go:DurationsWithMetaV1Package.InvalidMapDurationToString
    /// f.
    #[kube(allow(no_maps))]
    pub invalid_map_duration_ptr_to_string: BTreeMap<Option<metav1::Duration>, String>, // KAL a/a.go:DurationsWithMetaV1Package.InvalidMapDurationPtrToString
    /// f.
    pub invalid_duration_alias_from_another_file: DurationAliasBWithMetaV1, // KAL a/a.go:DurationsWithMetaV1Package.InvalidDurationAliasFromAnotherFile
}

/// Go type declarations: ApiType newtypes.
pub mod decl {
    use super::*;

    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct DurationAlias(pub Duration); // KAL a/a.go:type DurationAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct DurationAliasPtr(pub Option<Duration>); // KAL a/a.go:type DurationAliasPtr
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct DurationAliasSlice(pub Vec<Duration>); // KAL a/a.go:type DurationAliasSlice
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct DurationAliasPtrSlice(pub Vec<Option<Duration>>); // KAL a/a.go:type DurationAliasPtrSlice
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(allow(no_maps))]
    pub struct MapStringToDurationAlias(pub BTreeMap<String, Duration>); // KAL a/a.go:type MapStringToDurationAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(allow(no_maps))]
    pub struct MapStringToDurationPtrAlias(pub BTreeMap<String, Option<Duration>>); // KAL a/a.go:type MapStringToDurationPtrAlias
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct DurationAliasWithMetaV1(pub metav1::Duration); // KAL a/a.go:type DurationAliasWithMetaV1
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct DurationAliasPtrWithMetaV1(pub Option<metav1::Duration>); // KAL a/a.go:type DurationAliasPtrWithMetaV1
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct DurationAliasSliceWithMetaV1(pub Vec<metav1::Duration>); // KAL a/a.go:type DurationAliasSliceWithMetaV1
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct DurationAliasPtrSliceWithMetaV1(pub Vec<Option<metav1::Duration>>); // KAL a/a.go:type DurationAliasPtrSliceWithMetaV1
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(allow(no_maps))]
    pub struct MapStringToDurationAliaWithMetaV1(pub BTreeMap<String, metav1::Duration>); // KAL a/a.go:type MapStringToDurationAliaWithMetaV1
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    #[kube(allow(no_maps))]
    pub struct MapStringToDurationPtrAliasWithMetaV1(pub BTreeMap<String, Option<metav1::Duration>>); // KAL a/a.go:type MapStringToDurationPtrAliasWithMetaV1
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct DurationAliasB(pub Duration); // KAL a/b.go:type DurationAliasB
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct DurationAliasPtrB(pub Option<Duration>); // KAL a/b.go:type DurationAliasPtrB
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct DurationAliasBWithMetaV1(pub metav1::Duration); // KAL a/b.go:type DurationAliasBWithMetaV1
    /// d.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct DurationAliasPtrBWithMetaV1(pub Option<metav1::Duration>); // KAL a/b.go:type DurationAliasPtrBWithMetaV1
}

fn main() {}
