//! References to other objects, as core/v1 declares them:
//! [`ObjectReference`], [`LocalObjectReference`] and
//! [`TypedLocalObjectReference`].
//!
//! The API conventions discourage embedding these in new APIs (their
//! fields mean different things in different places); a focused reference
//! type of your own (`fooRef` with exactly the fields you honour) is
//! better. They are here for APIs that mirror Kubernetes' own.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

use crate::api_type::ApiType;
use crate::facts::{self, FieldFacts, TypeFacts};
use crate::resource::Resource;

const STRING: &TypeFacts = <String as ApiType>::FACTS;

/// A reference to any object, in any namespace (core/v1
/// `ObjectReference`). Every field is optional; empty strings are left out
/// of the JSON, as in Go, whose field order the JSON keeps.
///
/// The schema is atomic (`x-kubernetes-map-type: atomic`): a patch or an
/// apply replaces the whole reference.
///
/// ```
/// use api_core::ObjectReference;
///
/// let r = ObjectReference { kind: "Pod".into(), name: "web-0".into(), ..Default::default() };
/// assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"kind":"Pod","name":"web-0"}"#);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectReference {
    /// Kind of the referent.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Namespace of the referent.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Name of the referent.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// UID of the referent.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// API version of the referent.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// The specific resourceVersion this reference is made to, if any.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resource_version: String,
    /// A part of the object rather than the whole (`spec.containers{name}`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub field_path: String,
}

impl ObjectReference {
    /// A reference to `object`: its `apiVersion`, kind, name, namespace,
    /// uid and resourceVersion, as client-go's `reference.GetReference`
    /// fills them (events use such references).
    pub fn for_object<R: Resource>(object: &R) -> Self {
        let meta = object.metadata();
        ObjectReference {
            kind: R::KIND.to_string(),
            namespace: meta.namespace.clone(),
            name: meta.name.clone(),
            uid: meta.uid.clone(),
            api_version: R::api_version().into_owned(),
            resource_version: meta.resource_version.clone(),
            field_path: String::new(),
        }
    }
}

/// A reference to an object in the same namespace, by name (core/v1
/// `LocalObjectReference`: `imagePullSecrets`, `secretRef`). The name is
/// optional in the schema (with default `""`) for compatibility, but an
/// empty one is almost certainly wrong.
///
/// ```
/// use api_core::LocalObjectReference;
///
/// let r = LocalObjectReference::new("registry-credentials");
/// assert_eq!(serde_json::to_string(&r).unwrap(), r#"{"name":"registry-credentials"}"#);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LocalObjectReference {
    /// Name of the referent.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
}

impl LocalObjectReference {
    /// A reference to the object named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        LocalObjectReference { name: name.into() }
    }
}

/// A reference to an object of a given kind in the same namespace
/// (core/v1 `TypedLocalObjectReference`: a volume's `dataSource`). `kind`
/// and `name` are required and always written; `apiGroup` is left out for
/// the core group.
///
/// Go's field is a `*string` without `omitempty`, so Go writes
/// `"apiGroup": null` for the core group; this type leaves the key out
/// instead (the schema does not allow `null`, and the apiserver drops a
/// `null` there anyway). Decoding accepts both.
///
/// ```
/// use api_core::TypedLocalObjectReference;
///
/// let r = TypedLocalObjectReference::new(Some("snapshot.storage.k8s.io"), "VolumeSnapshot", "snap-1");
/// assert_eq!(
///     serde_json::to_string(&r).unwrap(),
///     r#"{"apiGroup":"snapshot.storage.k8s.io","kind":"VolumeSnapshot","name":"snap-1"}"#
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TypedLocalObjectReference {
    /// The group of the referent; `None` for the core group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_group: Option<String>,
    /// Kind of the referent.
    pub kind: String,
    /// Name of the referent.
    pub name: String,
}

impl TypedLocalObjectReference {
    /// A reference to the object `name` of `kind` in `api_group` (`None`
    /// for the core group).
    pub fn new(api_group: Option<&str>, kind: impl Into<String>, name: impl Into<String>) -> Self {
        TypedLocalObjectReference {
            api_group: api_group.map(str::to_string),
            kind: kind.into(),
            name: name.into(),
        }
    }

    /// A reference to `object`: its group (`None` for the core group),
    /// kind and name.
    pub fn for_object<R: Resource>(object: &R) -> Self {
        TypedLocalObjectReference {
            api_group: (!R::GROUP.is_empty()).then(|| R::GROUP.to_string()),
            kind: R::KIND.to_string(),
            name: object.name().to_string(),
        }
    }
}

// The schemas are controller-gen's (v0.21) for the Go types of k8s.io/api
// v0.36.0 (core/v1/types.go): descriptions from the doc comments, with the
// lines after `---`, the `TODO` lines and the markers dropped.

impl JsonSchema for ObjectReference {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("ObjectReference")
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "ObjectReference contains enough information to let you inspect or modify the referred object.",
            "type": "object",
            "properties": {
                "apiVersion": { "description": "API version of the referent.", "type": "string" },
                "fieldPath": {
                    "description": "If referring to a piece of an object instead of an entire object, this string\nshould contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].\nFor example, if the object reference is to a container within a pod, this would take on a value like:\n\"spec.containers{name}\" (where \"name\" refers to the name of the container that triggered\nthe event) or if no container name is specified \"spec.containers[2]\" (container with\nindex 2 in this pod). This syntax is chosen only to have some well-defined way of\nreferencing a part of an object.",
                    "type": "string"
                },
                "kind": {
                    "description": "Kind of the referent.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
                    "type": "string"
                },
                "name": {
                    "description": "Name of the referent.\nMore info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
                    "type": "string"
                },
                "namespace": {
                    "description": "Namespace of the referent.\nMore info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/",
                    "type": "string"
                },
                "resourceVersion": {
                    "description": "Specific resourceVersion to which this reference is made, if any.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency",
                    "type": "string"
                },
                "uid": {
                    "description": "UID of the referent.\nMore info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#uids",
                    "type": "string"
                }
            },
            "x-kubernetes-map-type": "atomic"
        })
    }
}

impl JsonSchema for LocalObjectReference {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("LocalObjectReference")
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "LocalObjectReference contains enough information to let you locate the\nreferenced object inside the same namespace.",
            "type": "object",
            "properties": {
                "name": {
                    "default": "",
                    "description": "Name of the referent.\nThis field is effectively required, but due to backwards compatibility is\nallowed to be empty. Instances of this type with an empty value here are\nalmost certainly wrong.\nMore info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
                    "type": "string"
                }
            },
            "x-kubernetes-map-type": "atomic"
        })
    }
}

impl JsonSchema for TypedLocalObjectReference {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("TypedLocalObjectReference")
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "TypedLocalObjectReference contains enough information to let you locate the\ntyped referenced object inside the same namespace.",
            "type": "object",
            "properties": {
                "apiGroup": {
                    "description": "APIGroup is the group for the resource being referenced.\nIf APIGroup is not specified, the specified Kind must be in the core API group.\nFor any other third-party types, APIGroup is required.",
                    "type": "string"
                },
                "kind": {
                    "description": "Kind is the type of resource being referenced",
                    "type": "string"
                },
                "name": {
                    "description": "Name is the name of resource being referenced",
                    "type": "string"
                }
            },
            "required": ["kind", "name"],
            "x-kubernetes-map-type": "atomic"
        })
    }
}

/// The JSON value of a string field, for list-map keys.
fn string_json(s: &str) -> Option<serde_json::Value> {
    Some(serde_json::Value::String(s.to_string()))
}

impl ApiType for ObjectReference {
    const FACTS: &'static TypeFacts = {
        const FIELDS: &[FieldFacts] = &[
            FieldFacts::new("kind", STRING, false),
            FieldFacts::new("namespace", STRING, false),
            FieldFacts::new("name", STRING, false),
            FieldFacts::new("uid", STRING, false),
            FieldFacts::new("apiVersion", STRING, false),
            FieldFacts::new("resourceVersion", STRING, false),
            FieldFacts::new("fieldPath", STRING, false),
        ];
        &TypeFacts::object(FIELDS, facts::ATOMIC)
    };

    fn field_json(&self, name: &str) -> Option<serde_json::Value> {
        match name {
            "kind" => string_json(&self.kind),
            "namespace" => string_json(&self.namespace),
            "name" => string_json(&self.name),
            "uid" => string_json(&self.uid),
            "apiVersion" => string_json(&self.api_version),
            "resourceVersion" => string_json(&self.resource_version),
            "fieldPath" => string_json(&self.field_path),
            _ => None,
        }
    }
}

impl ApiType for LocalObjectReference {
    const FACTS: &'static TypeFacts = {
        // `name` has a default (`""`), so it can key a list map, as
        // `imagePullSecrets` does.
        const FIELDS: &[FieldFacts] = &[FieldFacts {
            defaulted: true,
            ..FieldFacts::new("name", STRING, false)
        }];
        &TypeFacts::object(FIELDS, facts::ATOMIC)
    };

    fn field_json(&self, name: &str) -> Option<serde_json::Value> {
        match name {
            "name" => string_json(&self.name),
            _ => None,
        }
    }
}

impl ApiType for TypedLocalObjectReference {
    const FACTS: &'static TypeFacts = {
        const FIELDS: &[FieldFacts] = &[
            FieldFacts::new("apiGroup", STRING, false),
            FieldFacts::new("kind", STRING, true),
            FieldFacts::new("name", STRING, true),
        ];
        &TypeFacts::object(FIELDS, facts::ATOMIC)
    };

    fn field_json(&self, name: &str) -> Option<serde_json::Value> {
        match name {
            "apiGroup" => serde_json::to_value(&self.api_group).ok(),
            "kind" => string_json(&self.kind),
            "name" => string_json(&self.name),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{Kind, resolve};

    #[test]
    fn facts_resolve_fields_and_are_atomic() {
        let f = <ObjectReference as ApiType>::FACTS;
        assert_eq!(f.kind, Kind::Object);
        assert_ne!(f.flags & facts::ATOMIC, 0);
        assert!(f.field("fieldPath").is_some());
        let l = <Vec<LocalObjectReference> as ApiType>::FACTS;
        assert_eq!(resolve(l, "[0].name").map(|t| t.kind), Some(Kind::String));
        assert_eq!(
            crate::facts::list_map_key_problem(<LocalObjectReference as ApiType>::FACTS, "name"),
            0
        );
        let t = <TypedLocalObjectReference as ApiType>::FACTS;
        assert_eq!(crate::facts::list_map_key_problem(t, "kind"), 0);
        assert_eq!(crate::facts::list_map_key_problem(t, "apiGroup"), 3);
    }
}
