//! meta.k8s.io/v1 types: [`TypeMeta`], [`ObjectMeta`], [`ListMeta`],
//! [`OwnerReference`], [`ManagedFieldsEntry`], [`LabelSelector`], the
//! timestamps [`Time`] and [`MicroTime`], and status conditions
//! ([`Conditions`], [`Condition`], [`ConditionStatus`]).
//!
//! With them, the common types users embed from elsewhere in Kubernetes:
//! [`IntOrString`] (intstr), the Go duration string [`Duration`] (meta/v1),
//! the core/v1 references [`ObjectReference`], [`LocalObjectReference`] and
//! [`TypedLocalObjectReference`], and arbitrary embedded JSON,
//! [`RawExtension`] (runtime), each with controller-gen's schema.
//!
//! The JSON is exactly what Kubernetes writes: camelCase keys, empty
//! strings, zero generations, empty lists and maps left out.

mod conditions;
mod duration;
mod int_or_string;
mod quantity;
mod raw_extension;
mod references;
mod time;

use std::borrow::Cow;
use std::collections::BTreeMap;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

pub use conditions::{
    Condition, ConditionStatus, ConditionType, Conditions, DuplicateConditionType,
    ParseConditionStatusError,
};
pub use duration::{Duration, DurationParseError, DurationRangeError};
pub use int_or_string::{IntOrString, IntOrStringError};
pub use quantity::{Quantity, QuantityFormat, QuantityParseError};
pub use raw_extension::RawExtension;
pub use references::{LocalObjectReference, ObjectReference, TypedLocalObjectReference};
pub use time::{MicroTime, Time, TimeParseError};

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// `apiVersion` and `kind`, the type information every object carries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TypeMeta {
    /// The versioned schema of the object: `group/version`, or `version` for the core group.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The REST resource type in CamelCase (`Deployment`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
}

impl TypeMeta {
    /// TypeMeta with the given `apiVersion` and `kind`.
    pub fn new(api_version: impl Into<String>, kind: impl Into<String>) -> Self {
        TypeMeta {
            api_version: api_version.into(),
            kind: kind.into(),
        }
    }
}

/// The metadata of every persisted object (meta/v1 `ObjectMeta`).
///
/// Strings are empty when unset and left out of the JSON, as in Go;
/// `generation` 0 is left out too.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    /// The object's name, unique within its namespace.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// A prefix the server uses to generate a unique name when `name` is empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub generate_name: String,
    /// The namespace of a namespaced object; empty for cluster-scoped ones.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Deprecated and no longer set by servers; kept so that old objects round-trip.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub self_link: String,
    /// The unique id of this object over time, set by the server on creation.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// The opaque version of this object, for optimistic concurrency and watches.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resource_version: String,
    /// The generation of the desired state, bumped by the server when the spec changes.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub generation: i64,
    /// When the object was created, set by the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<Time>,
    /// When the object will be deleted; set by the server when deletion is requested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<Time>,
    /// Seconds allowed for graceful termination before the object is removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_grace_period_seconds: Option<i64>,
    /// Key/value pairs used to organize and select objects.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// Unstructured key/value data for tools and extensions.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    /// The objects this object depends on (its owners).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub owner_references: Vec<OwnerReference>,
    /// Conditions that must be cleared before the object is removed from storage.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub finalizers: Vec<String>,
    /// Which field manager owns which fields (server-side apply).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub managed_fields: Vec<ManagedFieldsEntry>,
}

impl ObjectMeta {
    /// Metadata with only a name.
    pub fn named(name: impl Into<String>) -> Self {
        ObjectMeta {
            name: name.into(),
            ..Default::default()
        }
    }

    /// This metadata in `namespace`.
    pub fn in_namespace(mut self, namespace: impl Into<String>) -> Self {
        self.namespace = namespace.into();
        self
    }
}

/// An owner of an object (meta/v1 `OwnerReference`). The owner must be in
/// the same namespace as the dependent, or be cluster-scoped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerReference {
    /// API version of the referent.
    pub api_version: String,
    /// Kind of the referent.
    pub kind: String,
    /// Name of the referent.
    pub name: String,
    /// UID of the referent.
    pub uid: String,
    /// If true, this reference points to the managing controller.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<bool>,
    /// If true, the owner cannot be deleted from storage before this reference is removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_owner_deletion: Option<bool>,
}

/// One field manager's record (meta/v1 `ManagedFieldsEntry`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ManagedFieldsEntry {
    /// The workflow managing the fields.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub manager: String,
    /// The operation that wrote the entry: `Apply` or `Update`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub operation: String,
    /// The version of the resource the field set applies to.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// When the entry was added or last changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<Time>,
    /// The format of `fieldsV1`; only `FieldsV1` exists.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub fields_type: String,
    /// The field set, in the `FieldsV1` format.
    #[serde(default, rename = "fieldsV1", skip_serializing_if = "Option::is_none")]
    pub fields_v1: Option<serde_json::Value>,
    /// The subresource the entry applies to, empty for the main resource.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub subresource: String,
}

/// The metadata of a list (meta/v1 `ListMeta`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListMeta {
    /// Deprecated and no longer set by servers.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub self_link: String,
    /// The version of the list, from which a watch can be started.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resource_version: String,
    /// Set when the list is paginated and more items remain; pass it as `continue`.
    #[serde(default, rename = "continue", skip_serializing_if = "String::is_empty")]
    pub continue_: String,
    /// How many items remain after this page, when the server can tell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remaining_item_count: Option<i64>,
}

/// A label query over a set of objects (meta/v1 `LabelSelector`). The
/// results of `match_labels` and `match_expressions` are ANDed; an empty
/// selector matches everything. Turn it into a matcher with
/// [`crate::labels::Selector::from_label_selector`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    /// Requirements that are ANDed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_expressions: Vec<LabelSelectorRequirement>,
    /// `{key: value}` pairs, each equivalent to an `In` requirement with one value.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub match_labels: BTreeMap<String, String>,
}

/// One requirement of a [`LabelSelector`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelectorRequirement {
    /// The label key the requirement applies to.
    pub key: String,
    /// `In`, `NotIn`, `Exists` or `DoesNotExist`.
    pub operator: String,
    /// The values; non-empty for `In` and `NotIn`, empty for `Exists` and `DoesNotExist`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

macro_rules! schema_impl {
    ($ty:ty, $name:literal, $schema:tt) => {
        impl JsonSchema for $ty {
            fn schema_name() -> Cow<'static, str> {
                Cow::Borrowed($name)
            }
            fn inline_schema() -> bool {
                true
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!($schema)
            }
        }
    };
}

// controller-gen writes embedded ObjectMeta (and ListMeta) as a bare object:
// the apiserver validates metadata itself.
schema_impl!(ObjectMeta, "ObjectMeta", { "type": "object" });
schema_impl!(ListMeta, "ListMeta", { "type": "object" });
schema_impl!(TypeMeta, "TypeMeta", {
    "type": "object",
    "properties": {
        "apiVersion": { "type": "string" },
        "kind": { "type": "string" }
    }
});

schema_impl!(OwnerReference, "OwnerReference", {
    "description": "OwnerReference contains enough information to let you identify an owning\nobject. An owning object must be in the same namespace as the dependent, or\nbe cluster-scoped, so there is no namespace field.",
    "type": "object",
    "properties": {
        "apiVersion": { "description": "API version of the referent.", "type": "string" },
        "blockOwnerDeletion": {
            "description": "If true, AND if the owner has the \"foregroundDeletion\" finalizer, then\nthe owner cannot be deleted from the key-value store until this\nreference is removed.",
            "type": "boolean"
        },
        "controller": { "description": "If true, this reference points to the managing controller.", "type": "boolean" },
        "kind": { "description": "Kind of the referent.", "type": "string" },
        "name": { "description": "Name of the referent.", "type": "string" },
        "uid": { "description": "UID of the referent.", "type": "string" }
    },
    "required": ["apiVersion", "kind", "name", "uid"],
    "x-kubernetes-map-type": "atomic"
});

schema_impl!(ManagedFieldsEntry, "ManagedFieldsEntry", {
    "type": "object",
    "properties": {
        "apiVersion": { "type": "string" },
        "fieldsType": { "type": "string" },
        "fieldsV1": { "type": "object", "x-kubernetes-preserve-unknown-fields": true },
        "manager": { "type": "string" },
        "operation": { "type": "string" },
        "subresource": { "type": "string" },
        "time": { "type": "string", "format": "date-time" }
    }
});

schema_impl!(LabelSelectorRequirement, "LabelSelectorRequirement", {
    "description": "A label selector requirement is a selector that contains values, a key, and an operator that\nrelates the key and values.",
    "type": "object",
    "properties": {
        "key": { "description": "key is the label key that the selector applies to.", "type": "string" },
        "operator": {
            "description": "operator represents a key's relationship to a set of values.\nValid operators are In, NotIn, Exists and DoesNotExist.",
            "type": "string"
        },
        "values": {
            "description": "values is an array of string values. If the operator is In or NotIn,\nthe values array must be non-empty. If the operator is Exists or DoesNotExist,\nthe values array must be empty. This array is replaced during a strategic\nmerge patch.",
            "type": "array",
            "items": { "type": "string" },
            "x-kubernetes-list-type": "atomic"
        }
    },
    "required": ["key", "operator"]
});

impl JsonSchema for LabelSelector {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("LabelSelector")
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let requirement = generator.subschema_for::<LabelSelectorRequirement>();
        json_schema!({
            "description": "A label selector is a label query over a set of resources. The result of matchLabels and\nmatchExpressions are ANDed. An empty label selector matches all objects. A null\nlabel selector matches no objects.",
            "type": "object",
            "properties": {
                "matchExpressions": {
                    "description": "matchExpressions is a list of label selector requirements. The requirements are ANDed.",
                    "type": "array",
                    "items": requirement,
                    "x-kubernetes-list-type": "atomic"
                },
                "matchLabels": {
                    "description": "matchLabels is a map of {key,value} pairs. A single {key,value} in the matchLabels\nmap is equivalent to an element of matchExpressions, whose key field is \"key\", the\noperator is \"In\", and the values array contains only \"value\". The requirements are ANDed.",
                    "type": "object",
                    "additionalProperties": { "type": "string" }
                }
            },
            "x-kubernetes-map-type": "atomic"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn empty_meta_is_empty_object() {
        assert_eq!(
            serde_json::to_value(ObjectMeta::default()).unwrap(),
            json!({})
        );
        assert_eq!(
            serde_json::to_value(ListMeta::default()).unwrap(),
            json!({})
        );
        assert_eq!(
            serde_json::to_value(TypeMeta::default()).unwrap(),
            json!({})
        );
    }

    #[test]
    fn object_meta_uses_kubernetes_names() {
        let v = json!({
            "name": "web", "generateName": "web-", "namespace": "default", "selfLink": "/x",
            "uid": "8f1c", "resourceVersion": "42", "generation": 3,
            "creationTimestamp": "2024-01-01T00:00:00Z", "deletionTimestamp": "2024-01-02T00:00:00Z",
            "deletionGracePeriodSeconds": 30,
            "labels": {"app": "web"}, "annotations": {"a": "b"},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs", "uid": "1", "controller": true, "blockOwnerDeletion": true}],
            "finalizers": ["example.com/f"],
            "managedFields": [{"manager": "kubectl", "operation": "Update", "apiVersion": "v1", "time": "2024-01-01T00:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {}}, "subresource": "status"}]
        });
        let meta: ObjectMeta = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(meta.generation, 3);
        assert_eq!(meta.deletion_grace_period_seconds, Some(30));
        assert_eq!(serde_json::to_value(&meta).unwrap(), v);
    }

    #[test]
    fn list_meta_continue() {
        let v = json!({"resourceVersion": "7", "continue": "abc", "remainingItemCount": 3});
        let m: ListMeta = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(m.continue_, "abc");
        assert_eq!(serde_json::to_value(&m).unwrap(), v);
    }

    #[test]
    fn label_selector_schema_is_inline_and_atomic() {
        let s = schemars::SchemaGenerator::default().into_root_schema_for::<LabelSelector>();
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(v["x-kubernetes-map-type"], "atomic");
        assert_eq!(
            v["properties"]["matchExpressions"]["items"]["required"],
            json!(["key", "operator"])
        );
        assert!(!v.to_string().contains("$ref"));
    }
}
