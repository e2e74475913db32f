//! The root object's schema and the `CustomResourceDefinition` of a
//! resource, from what the derive knows about it (`ResourceInfo`).

use schemars::Schema;
use serde_json::{Map, Value};

use crate::crd::{
    CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceDefinitionNames,
    CustomResourceDefinitionSpec, CustomResourceDefinitionVersion, CustomResourceSubresourceScale,
    CustomResourceSubresourceStatus, CustomResourceSubresources, CustomResourceValidation,
    SelectableField,
};
use crate::meta::ObjectMeta;
use crate::resource::{Resource, Scope};

use super::keywords::Rule;

/// A printer column of a resource.
#[derive(Debug)]
pub struct PrintColumn {
    /// Column name.
    pub name: &'static str,
    /// Column type.
    pub type_: &'static str,
    /// JSON path.
    pub json_path: &'static str,
    /// Description.
    pub description: Option<&'static str>,
    /// Format.
    pub format: Option<&'static str>,
    /// Priority.
    pub priority: i32,
}

/// The scale subresource of a resource.
#[derive(Debug)]
pub struct ScaleInfo {
    /// `.spec.replicas`
    pub spec_replicas_path: &'static str,
    /// `.status.replicas`
    pub status_replicas_path: &'static str,
    /// `.status.selector`
    pub label_selector_path: Option<&'static str>,
}

/// What `#[kube(...)]` says about a resource, beyond the `Resource` consts.
#[derive(Debug)]
pub struct ResourceInfo {
    /// Whether the version is served.
    pub served: bool,
    /// Whether the version is the storage version.
    pub storage: bool,
    /// Whether the version is deprecated.
    pub deprecated: bool,
    /// The deprecation warning.
    pub deprecation_warning: Option<&'static str>,
    /// Printer columns.
    pub printcolumns: &'static [PrintColumn],
    /// The scale subresource.
    pub scale: Option<ScaleInfo>,
    /// Selectable fields.
    pub selectable: &'static [&'static str],
    /// Whether the status subresource is on.
    pub status_subresource: bool,
    /// The root object's description.
    pub description: Option<&'static str>,
    /// The `spec` property's description, when `spec_doc` replaces the
    /// spec type's.
    pub spec_description: Option<&'static str>,
    /// The `status` property's description (`status_doc`).
    pub status_description: Option<&'static str>,
    /// Whether `spec` is required.
    pub spec_required: bool,
    /// CEL rules on the root.
    pub validations: &'static [Rule],
    /// The CRD's annotations (`annotation("key", "value")`).
    pub annotations: &'static [(&'static str, &'static str)],
    /// The CRD's labels (`label("key", "value")`).
    pub labels: &'static [(&'static str, &'static str)],
}

const API_VERSION_DESCRIPTION: &str = "APIVersion defines the versioned schema of this representation of an object.\nServers should convert recognized schemas to the latest internal value, and\nmay reject unrecognized values.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DESCRIPTION: &str = "Kind is a string value representing the REST resource this object represents.\nServers may infer this from the endpoint the client submits requests to.\nCannot be updated.\nIn CamelCase.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// The body of a root schema.
pub enum RootBody {
    /// `spec` and, when declared, `status`.
    SpecStatus {
        /// The spec's schema.
        spec: Schema,
        /// The status's schema.
        status: Option<Schema>,
    },
    /// `no_spec`: the struct's own properties at the top level.
    Flat(Schema),
}

/// `schema` with `description` replaced, when one is given.
fn described(mut schema: Value, description: Option<&'static str>) -> Value {
    if let (Some(d), Value::Object(m)) = (description, &mut schema) {
        m.insert("description".into(), d.into());
    }
    schema
}

/// The `openAPIV3Schema` of a resource, shaped like controller-gen's.
pub fn root_schema(info: &ResourceInfo, body: RootBody) -> Schema {
    let mut props = Map::new();
    props.insert(
        "apiVersion".into(),
        serde_json::json!({ "description": API_VERSION_DESCRIPTION, "type": "string" }),
    );
    props.insert(
        "kind".into(),
        serde_json::json!({ "description": KIND_DESCRIPTION, "type": "string" }),
    );
    props.insert("metadata".into(), serde_json::json!({ "type": "object" }));
    let mut required: Vec<Value> = Vec::new();
    match body {
        RootBody::SpecStatus { spec, status } => {
            props.insert(
                "spec".into(),
                described(spec.to_value(), info.spec_description),
            );
            if let Some(status) = status {
                props.insert(
                    "status".into(),
                    described(status.to_value(), info.status_description),
                );
            }
            if info.spec_required {
                required.push("spec".into());
            }
        }
        RootBody::Flat(schema) => {
            if let Value::Object(mut m) = schema.to_value() {
                if let Some(Value::Object(p)) = m.remove("properties") {
                    props.extend(p);
                }
                if let Some(Value::Array(r)) = m.remove("required") {
                    required.extend(r);
                }
            }
        }
    }
    let mut m = Map::new();
    if let Some(d) = info.description {
        m.insert("description".into(), d.into());
    }
    m.insert("properties".into(), Value::Object(props));
    if !required.is_empty() {
        m.insert("required".into(), Value::Array(required));
    }
    m.insert("type".into(), "object".into());
    if !info.validations.is_empty() {
        m.insert(
            "x-kubernetes-validations".into(),
            info.validations.iter().map(Rule::to_value).collect(),
        );
    }
    Schema::from(m)
}

/// The single-version CRD of a resource. Only this wrapper is generic (it
/// reads `R`'s constants); the body is compiled once for every resource.
pub fn build_crd<R: Resource>(info: &ResourceInfo, schema: Schema) -> CustomResourceDefinition {
    let names = Names {
        group: R::GROUP,
        version: R::VERSION,
        kind: R::KIND,
        plural: R::PLURAL,
        singular: R::SINGULAR,
        short_names: R::SHORT_NAMES,
        categories: R::CATEGORIES,
        scope: R::SCOPE,
    };
    build_crd_of(&names, info, schema)
}

/// The constants of a [`Resource`], for [`build_crd_of`].
struct Names {
    group: &'static str,
    version: &'static str,
    kind: &'static str,
    plural: &'static str,
    singular: &'static str,
    short_names: &'static [&'static str],
    categories: &'static [&'static str],
    scope: crate::resource::Scope,
}

fn build_crd_of(r: &Names, info: &ResourceInfo, schema: Schema) -> CustomResourceDefinition {
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let pairs = |v: &[(&str, &str)]| {
        v.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<std::collections::BTreeMap<_, _>>()
    };
    let subresources =
        (info.status_subresource || info.scale.is_some()).then(|| CustomResourceSubresources {
            status: info
                .status_subresource
                .then(CustomResourceSubresourceStatus::default),
            scale: info.scale.as_ref().map(|s| CustomResourceSubresourceScale {
                spec_replicas_path: s.spec_replicas_path.to_string(),
                status_replicas_path: s.status_replicas_path.to_string(),
                label_selector_path: s.label_selector_path.map(str::to_string),
            }),
        });
    CustomResourceDefinition {
        metadata: ObjectMeta {
            name: format!("{}.{}", r.plural, r.group),
            annotations: pairs(info.annotations),
            labels: pairs(info.labels),
            ..Default::default()
        },
        spec: CustomResourceDefinitionSpec {
            group: r.group.to_string(),
            names: CustomResourceDefinitionNames {
                kind: r.kind.to_string(),
                list_kind: format!("{}List", r.kind),
                plural: r.plural.to_string(),
                singular: r.singular.to_string(),
                short_names: strings(r.short_names),
                categories: strings(r.categories),
            },
            scope: r.scope.as_str().to_string(),
            versions: vec![CustomResourceDefinitionVersion {
                name: r.version.to_string(),
                served: info.served,
                storage: info.storage,
                deprecated: info.deprecated,
                deprecation_warning: info.deprecation_warning.map(str::to_string),
                schema: Some(CustomResourceValidation {
                    open_api_v3_schema: schema.to_value(),
                }),
                subresources,
                additional_printer_columns: info
                    .printcolumns
                    .iter()
                    .map(|c| CustomResourceColumnDefinition {
                        name: c.name.to_string(),
                        type_: c.type_.to_string(),
                        format: c.format.map(str::to_string),
                        description: c.description.map(str::to_string),
                        priority: c.priority,
                        json_path: c.json_path.to_string(),
                    })
                    .collect(),
                selectable_fields: info
                    .selectable
                    .iter()
                    .map(|p| SelectableField {
                        json_path: p.to_string(),
                    })
                    .collect(),
            }],
            conversion: None,
            preserve_unknown_fields: None,
        },
    }
}

/// The scope as a `Scope`.
pub const fn scope(namespaced: bool) -> Scope {
    if namespaced {
        Scope::Namespaced
    } else {
        Scope::Cluster
    }
}
