//! Conversions between api-core's meta types and k8s-openapi's (feature
//! `k8s-openapi`): `ObjectMeta`, `OwnerReference`, `ManagedFieldsEntry`,
//! `ListMeta`, `LabelSelector`, `Condition`, `Time` and `MicroTime`.
//!
//! Both sides write the same JSON; they differ in how they hold "absent".
//! k8s-openapi wraps every optional field in an `Option`, api-core follows
//! Go's types, where an empty string, a zero generation and an empty list
//! or map are absent (`omitempty`), as on the wire. So a conversion is
//! lossless for everything the API can tell apart: k8s-openapi's
//! `Some("")`, `Some(0)` generation and `Some(vec![])` become api-core's
//! empty values and come back as `None`, which Go, the apiserver and the
//! JSON treat as the same. Times are converted at their precision
//! (seconds for `Time`, microseconds for `MicroTime`), as both write them;
//! k8s-openapi's times before the year 0000 (which RFC 3339 cannot write)
//! become 0000-01-01. `ListMeta.shardInfo` (alpha in Kubernetes 1.36,
//! for sharded lists, which no server here answers) has no api-core field
//! and is dropped.
//!
//! ```
//! use api_core::meta::ObjectMeta;
//! use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
//!
//! let ours = ObjectMeta::named("web").in_namespace("default");
//! let theirs = metav1::ObjectMeta::from(ours.clone());
//! assert_eq!(theirs.name.as_deref(), Some("web"));
//! assert_eq!(theirs.labels, None);
//! assert_eq!(ObjectMeta::from(theirs), ours);
//! ```

use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use k8s_openapi::jiff::Timestamp;

use crate::meta::{
    Condition, ConditionStatus, LabelSelector, LabelSelectorRequirement, ListMeta,
    ManagedFieldsEntry, MicroTime, ObjectMeta, OwnerReference, ParseConditionStatusError, Time,
};

/// `Some(s)` unless `s` is empty.
fn non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

/// `Some(v)` unless `v` is empty.
fn non_empty_vec<T>(v: Vec<T>) -> Option<Vec<T>> {
    (!v.is_empty()).then_some(v)
}

/// `Some(m)` unless `m` is empty.
fn non_empty_map<K, V>(
    m: std::collections::BTreeMap<K, V>,
) -> Option<std::collections::BTreeMap<K, V>> {
    (!m.is_empty()).then_some(m)
}

fn timestamp(secs: i64, nanos: u32) -> Timestamp {
    // api-core's times are within the years 0000 to 9999, which jiff
    // holds; the fallback is unreachable.
    Timestamp::new(secs, i32::try_from(nanos).unwrap_or(0)).unwrap_or(Timestamp::UNIX_EPOCH)
}

fn unix_parts(t: Timestamp) -> (i64, u32) {
    let secs = t.as_second();
    let nanos = t.subsec_nanosecond();
    // A time before the epoch with a fraction: jiff counts the fraction
    // down from the second, chrono up from the one before.
    if nanos < 0 {
        (secs - 1, u32::try_from(nanos + 1_000_000_000).unwrap_or(0))
    } else {
        (secs, u32::try_from(nanos).unwrap_or(0))
    }
}

impl From<Time> for metav1::Time {
    fn from(t: Time) -> Self {
        let (secs, nanos) = t.unix_parts();
        metav1::Time(timestamp(secs, nanos))
    }
}

impl From<metav1::Time> for Time {
    fn from(t: metav1::Time) -> Self {
        let (secs, nanos) = unix_parts(t.0);
        Time::from_unix_parts_clamped(secs, nanos)
    }
}

impl From<MicroTime> for metav1::MicroTime {
    fn from(t: MicroTime) -> Self {
        let (secs, nanos) = t.unix_parts();
        metav1::MicroTime(timestamp(secs, nanos))
    }
}

impl From<metav1::MicroTime> for MicroTime {
    fn from(t: metav1::MicroTime) -> Self {
        let (secs, nanos) = unix_parts(t.0);
        MicroTime::from_unix_parts_clamped(secs, nanos)
    }
}

impl From<OwnerReference> for metav1::OwnerReference {
    fn from(r: OwnerReference) -> Self {
        metav1::OwnerReference {
            api_version: r.api_version,
            block_owner_deletion: r.block_owner_deletion,
            controller: r.controller,
            kind: r.kind,
            name: r.name,
            uid: r.uid,
        }
    }
}

impl From<metav1::OwnerReference> for OwnerReference {
    fn from(r: metav1::OwnerReference) -> Self {
        OwnerReference {
            api_version: r.api_version,
            kind: r.kind,
            name: r.name,
            uid: r.uid,
            controller: r.controller,
            block_owner_deletion: r.block_owner_deletion,
        }
    }
}

impl From<ManagedFieldsEntry> for metav1::ManagedFieldsEntry {
    fn from(e: ManagedFieldsEntry) -> Self {
        metav1::ManagedFieldsEntry {
            api_version: non_empty(e.api_version),
            fields_type: non_empty(e.fields_type),
            fields_v1: e.fields_v1.map(metav1::FieldsV1),
            manager: non_empty(e.manager),
            operation: non_empty(e.operation),
            subresource: non_empty(e.subresource),
            time: e.time.map(Into::into),
        }
    }
}

impl From<metav1::ManagedFieldsEntry> for ManagedFieldsEntry {
    fn from(e: metav1::ManagedFieldsEntry) -> Self {
        ManagedFieldsEntry {
            manager: e.manager.unwrap_or_default(),
            operation: e.operation.unwrap_or_default(),
            api_version: e.api_version.unwrap_or_default(),
            time: e.time.map(Into::into),
            fields_type: e.fields_type.unwrap_or_default(),
            fields_v1: e.fields_v1.map(|f| f.0),
            subresource: e.subresource.unwrap_or_default(),
        }
    }
}

impl From<ObjectMeta> for metav1::ObjectMeta {
    fn from(m: ObjectMeta) -> Self {
        metav1::ObjectMeta {
            annotations: non_empty_map(m.annotations),
            creation_timestamp: m.creation_timestamp.map(Into::into),
            deletion_grace_period_seconds: m.deletion_grace_period_seconds,
            deletion_timestamp: m.deletion_timestamp.map(Into::into),
            finalizers: non_empty_vec(m.finalizers),
            generate_name: non_empty(m.generate_name),
            generation: (m.generation != 0).then_some(m.generation),
            labels: non_empty_map(m.labels),
            managed_fields: non_empty_vec(m.managed_fields.into_iter().map(Into::into).collect()),
            name: non_empty(m.name),
            namespace: non_empty(m.namespace),
            owner_references: non_empty_vec(
                m.owner_references.into_iter().map(Into::into).collect(),
            ),
            resource_version: non_empty(m.resource_version),
            self_link: non_empty(m.self_link),
            uid: non_empty(m.uid),
        }
    }
}

impl From<&ObjectMeta> for metav1::ObjectMeta {
    fn from(m: &ObjectMeta) -> Self {
        m.clone().into()
    }
}

impl From<metav1::ObjectMeta> for ObjectMeta {
    fn from(m: metav1::ObjectMeta) -> Self {
        ObjectMeta {
            name: m.name.unwrap_or_default(),
            generate_name: m.generate_name.unwrap_or_default(),
            namespace: m.namespace.unwrap_or_default(),
            self_link: m.self_link.unwrap_or_default(),
            uid: m.uid.unwrap_or_default(),
            resource_version: m.resource_version.unwrap_or_default(),
            generation: m.generation.unwrap_or_default(),
            creation_timestamp: m.creation_timestamp.map(Into::into),
            deletion_timestamp: m.deletion_timestamp.map(Into::into),
            deletion_grace_period_seconds: m.deletion_grace_period_seconds,
            labels: m.labels.unwrap_or_default(),
            annotations: m.annotations.unwrap_or_default(),
            owner_references: m
                .owner_references
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
            finalizers: m.finalizers.unwrap_or_default(),
            managed_fields: m
                .managed_fields
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
        }
    }
}

impl From<&metav1::ObjectMeta> for ObjectMeta {
    fn from(m: &metav1::ObjectMeta) -> Self {
        m.clone().into()
    }
}

impl From<ListMeta> for metav1::ListMeta {
    // Kubernetes 1.36 added `shardInfo` (alpha), which the other versions
    // lack: it is left unset (no server here shards lists).
    #[allow(clippy::needless_update)]
    fn from(m: ListMeta) -> Self {
        metav1::ListMeta {
            continue_: non_empty(m.continue_),
            remaining_item_count: m.remaining_item_count,
            resource_version: non_empty(m.resource_version),
            self_link: non_empty(m.self_link),
            ..Default::default()
        }
    }
}

impl From<metav1::ListMeta> for ListMeta {
    fn from(m: metav1::ListMeta) -> Self {
        ListMeta {
            self_link: m.self_link.unwrap_or_default(),
            resource_version: m.resource_version.unwrap_or_default(),
            continue_: m.continue_.unwrap_or_default(),
            remaining_item_count: m.remaining_item_count,
        }
    }
}

impl From<LabelSelectorRequirement> for metav1::LabelSelectorRequirement {
    fn from(r: LabelSelectorRequirement) -> Self {
        metav1::LabelSelectorRequirement {
            key: r.key,
            operator: r.operator,
            values: non_empty_vec(r.values),
        }
    }
}

impl From<metav1::LabelSelectorRequirement> for LabelSelectorRequirement {
    fn from(r: metav1::LabelSelectorRequirement) -> Self {
        LabelSelectorRequirement {
            key: r.key,
            operator: r.operator,
            values: r.values.unwrap_or_default(),
        }
    }
}

impl From<LabelSelector> for metav1::LabelSelector {
    fn from(s: LabelSelector) -> Self {
        metav1::LabelSelector {
            match_expressions: non_empty_vec(
                s.match_expressions.into_iter().map(Into::into).collect(),
            ),
            match_labels: non_empty_map(s.match_labels),
        }
    }
}

impl From<metav1::LabelSelector> for LabelSelector {
    fn from(s: metav1::LabelSelector) -> Self {
        LabelSelector {
            match_expressions: s
                .match_expressions
                .unwrap_or_default()
                .into_iter()
                .map(Into::into)
                .collect(),
            match_labels: s.match_labels.unwrap_or_default(),
        }
    }
}

impl From<Condition> for metav1::Condition {
    fn from(c: Condition) -> Self {
        metav1::Condition {
            last_transition_time: c.last_transition_time.into(),
            message: c.message,
            observed_generation: c.observed_generation,
            reason: c.reason,
            status: c.status.as_str().to_string(),
            type_: c.type_,
        }
    }
}

impl TryFrom<metav1::Condition> for Condition {
    type Error = ParseConditionStatusError;

    /// The condition, unless its status is not `True`, `False` or
    /// `Unknown` (which the apiserver would refuse).
    fn try_from(c: metav1::Condition) -> Result<Self, Self::Error> {
        Ok(Condition {
            type_: c.type_,
            status: c.status.parse::<ConditionStatus>()?,
            observed_generation: c.observed_generation,
            last_transition_time: c.last_transition_time.into(),
            reason: c.reason,
            message: c.message,
        })
    }
}
