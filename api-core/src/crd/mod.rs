//! The `apiextensions.k8s.io/v1` [`CustomResourceDefinition`] model, with
//! JSON and YAML export in the style of controller-gen, YAML read-back, and
//! [`merge`] to join the versions of one kind into a single CRD.
//!
//! Only what a generator writes is modelled (no `status`): every field of the
//! CRDs that controller-gen produces, including conversion webhooks,
//! subresources, printer columns and selectable fields. Empty lists and maps,
//! `false` flags (other than `served`/`storage`) and zero priorities are left
//! out of the output, so regenerating never adds `shortNames: []`.
//!
//! ```
//! use api_core::crd::{
//!     CustomResourceDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionSpec,
//!     CustomResourceDefinitionVersion, CustomResourceValidation,
//! };
//! use api_core::ObjectMeta;
//!
//! let crd = CustomResourceDefinition {
//!     metadata: ObjectMeta::named("foos.example.com"),
//!     spec: CustomResourceDefinitionSpec {
//!         group: "example.com".into(),
//!         names: CustomResourceDefinitionNames::for_kind("Foo", "foos"),
//!         scope: "Namespaced".into(),
//!         versions: vec![CustomResourceDefinitionVersion {
//!             schema: Some(CustomResourceValidation::new(serde_json::json!({"type": "object"}))),
//!             ..CustomResourceDefinitionVersion::new("v1", true, true)
//!         }],
//!         ..Default::default()
//!     },
//! };
//! let yaml = crd.to_yaml();
//! assert!(yaml.starts_with("---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"));
//! assert_eq!(CustomResourceDefinition::from_yaml(&yaml).unwrap(), crd);
//! ```

mod compat;
mod merge;
mod yaml;

use std::fmt;

use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize, Serializer};

use crate::meta::ObjectMeta;
use crate::resource::check_type_field;

pub use compat::{CompatibilityWarning, compare_versions, compatibility_warnings};
pub use merge::{MergeError, merge};
pub use yaml::{from_yaml_stream, to_yaml_stream, yaml_to_json};

/// The `apiVersion` of a CustomResourceDefinition.
pub const API_VERSION: &str = "apiextensions.k8s.io/v1";
/// The `kind` of a CustomResourceDefinition.
pub const KIND: &str = "CustomResourceDefinition";

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// A CustomResourceDefinition (`apiextensions.k8s.io/v1`): the definition
/// of one kind served by the apiserver.
///
/// Serialised with `apiVersion` and `kind` first. Decoding accepts a
/// missing `apiVersion` or `kind` but rejects a wrong one; any `status` is
/// ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(try_from = "CrdWire")]
pub struct CustomResourceDefinition {
    /// The object's metadata; `name` must be `<plural>.<group>`.
    pub metadata: ObjectMeta,
    /// The definition.
    pub spec: CustomResourceDefinitionSpec,
}

/// What a CRD looks like on the wire, before `apiVersion` and `kind` are checked.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CrdWire {
    #[serde(default)]
    api_version: Option<String>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    metadata: Option<ObjectMeta>,
    spec: CustomResourceDefinitionSpec,
}

impl TryFrom<CrdWire> for CustomResourceDefinition {
    type Error = String;

    fn try_from(wire: CrdWire) -> Result<Self, String> {
        if let Some(api_version) = &wire.api_version {
            check_type_field::<serde::de::value::Error>("apiVersion", API_VERSION, api_version)
                .map_err(|e| e.to_string())?;
        }
        if let Some(kind) = &wire.kind {
            check_type_field::<serde::de::value::Error>("kind", KIND, kind)
                .map_err(|e| e.to_string())?;
        }
        Ok(CustomResourceDefinition {
            metadata: wire.metadata.unwrap_or_default(),
            spec: wire.spec,
        })
    }
}

impl Serialize for CustomResourceDefinition {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("CustomResourceDefinition", 4)?;
        s.serialize_field("apiVersion", API_VERSION)?;
        s.serialize_field("kind", KIND)?;
        s.serialize_field("metadata", &self.metadata)?;
        s.serialize_field("spec", &self.spec)?;
        s.end()
    }
}

impl CustomResourceDefinition {
    /// The CRD's name, `metadata.name` (`<plural>.<group>`).
    pub fn name(&self) -> &str {
        &self.metadata.name
    }

    /// The CRD as a JSON value, with `apiVersion` and `kind`.
    pub fn to_json(&self) -> serde_json::Value {
        // Every field is a string-keyed map, string, number or bool: this
        // cannot fail.
        serde_json::to_value(self).expect("a CRD is always representable as JSON")
    }

    /// The CRD as indented JSON, `apiVersion` and `kind` first, the other
    /// fields in declaration order (schemas in `serde_json::Map` order).
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a CRD is always representable as JSON")
    }

    /// The CRD as one YAML document in the controller-gen style: it starts
    /// with `---`, map keys are sorted at every level (schema included) in
    /// the order sigs.k8s.io/yaml uses, list items are not indented past
    /// their key, multi-line strings are literal blocks (`|-`), and strings
    /// that a YAML 1.1 reader would take for something else (`yes`, `on`,
    /// `1.0`, `2024-01-01`, `~`, ...) are quoted.
    pub fn to_yaml(&self) -> String {
        yaml::document(&self.to_json())
    }

    /// Reads a CRD from YAML holding exactly one document (a leading `---`
    /// and empty documents are fine).
    pub fn from_yaml(text: &str) -> Result<Self, CrdError> {
        let mut docs: Vec<Self> = yaml::parse_stream(text)?;
        match docs.len() {
            1 => Ok(docs.remove(0)),
            found => Err(CrdError::DocumentCount(found)),
        }
    }

    /// Reads a CRD from JSON text.
    pub fn from_json(text: &str) -> Result<Self, CrdError> {
        serde_json::from_str(text).map_err(|e| CrdError::Json(e.to_string()))
    }

    /// Shortens every description of every version's schema to at most
    /// `max_len` bytes, as controller-gen's `crd:maxDescLen=N` does: `0`
    /// drops them all (the root's too); a longer description is cut at the
    /// last sentence end within the limit, else at the last space (with
    /// `...`), else at the limit (with `...`).
    ///
    /// ```
    /// use api_core::crd::{CustomResourceDefinition, CustomResourceValidation};
    /// use serde_json::json;
    ///
    /// let mut crd = CustomResourceDefinition::default();
    /// crd.spec.versions.push(Default::default());
    /// crd.spec.versions[0].schema = Some(CustomResourceValidation::new(json!({
    ///     "description": "A widget. It turns.",
    ///     "properties": {"description": {"type": "string", "description": "Text."}}
    /// })));
    /// crd.truncate_descriptions(10);
    /// let schema = &crd.spec.versions[0].schema.as_ref().unwrap().open_api_v3_schema;
    /// assert_eq!(schema["description"], "A widget.");
    /// crd.truncate_descriptions(0);
    /// let schema = &crd.spec.versions[0].schema.as_ref().unwrap().open_api_v3_schema;
    /// assert_eq!(schema, &json!({"properties": {"description": {"type": "string"}}}));
    /// ```
    pub fn truncate_descriptions(&mut self, max_len: usize) {
        for version in &mut self.spec.versions {
            if let Some(schema) = &mut version.schema {
                truncate_schema_descriptions(&mut schema.open_api_v3_schema, max_len);
            }
        }
    }

    /// The version marked `storage: true`, if exactly one is.
    pub fn storage_version(&self) -> Option<&CustomResourceDefinitionVersion> {
        let mut storage = self.spec.versions.iter().filter(|v| v.storage);
        match (storage.next(), storage.next()) {
            (Some(v), None) => Some(v),
            _ => None,
        }
    }
}

/// Why YAML or JSON text could not be read as CRDs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CrdError {
    /// The text is not YAML, or it does not have the shape of a CRD; the
    /// message names the line and column.
    Yaml(String),
    /// The text is not JSON, or it does not have the shape of a CRD.
    Json(String),
    /// [`CustomResourceDefinition::from_yaml`] found this many documents
    /// instead of one.
    DocumentCount(usize),
}

impl fmt::Display for CrdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CrdError::Yaml(msg) => write!(f, "invalid CRD YAML: {msg}"),
            CrdError::Json(msg) => write!(f, "invalid CRD JSON: {msg}"),
            CrdError::DocumentCount(n) => {
                write!(f, "expected exactly one YAML document, found {n}")
            }
        }
    }
}

impl std::error::Error for CrdError {}

/// The `spec` of a CustomResourceDefinition.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionSpec {
    /// The API group (`example.com`).
    pub group: String,
    /// The names of the kind: kind, plural, singular, short names, ...
    pub names: CustomResourceDefinitionNames,
    /// `Namespaced` or `Cluster`.
    pub scope: String,
    /// The served versions, sorted by name as controller-gen writes them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<CustomResourceDefinitionVersion>,
    /// How objects are converted between versions; absent means `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversion: Option<CustomResourceConversion>,
    /// Legacy v1beta1 pruning switch; v1 only allows `false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preserve_unknown_fields: Option<bool>,
}

/// The names of a custom kind (`spec.names`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionNames {
    /// The CamelCase kind (`Foo`).
    pub kind: String,
    /// The list kind (`FooList`); left out when empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub list_kind: String,
    /// The lowercase plural used in URLs (`foos`).
    pub plural: String,
    /// The lowercase singular (`foo`); left out when empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub singular: String,
    /// Short names for the CLI (`fo`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    /// Categories the kind belongs to (`all`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
}

impl CustomResourceDefinitionNames {
    /// The names controller-gen writes for `kind` with `plural`: list kind
    /// `<Kind>List` and singular `lower(kind)`.
    pub fn for_kind(kind: impl Into<String>, plural: impl Into<String>) -> Self {
        let kind = kind.into();
        CustomResourceDefinitionNames {
            list_kind: format!("{kind}List"),
            singular: kind.to_lowercase(),
            kind,
            plural: plural.into(),
            ..Default::default()
        }
    }
}

/// One version of a custom kind (`spec.versions[i]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionVersion {
    /// The version name (`v1`, `v1beta1`).
    pub name: String,
    /// Whether the version is served by the REST API; always written.
    #[serde(default)]
    pub served: bool,
    /// Whether objects are stored in this version; exactly one version has
    /// it. Always written.
    #[serde(default)]
    pub storage: bool,
    /// Whether the version is deprecated; written only when true.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// The warning returned to clients of a deprecated version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_warning: Option<String>,
    /// The validation schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<CustomResourceValidation>,
    /// The status and scale subresources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subresources: Option<CustomResourceSubresources>,
    /// Extra columns for `kubectl get`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_printer_columns: Vec<CustomResourceColumnDefinition>,
    /// Fields usable in field selectors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub selectable_fields: Vec<SelectableField>,
}

impl CustomResourceDefinitionVersion {
    /// A version with only a name and its `served` and `storage` flags.
    pub fn new(name: impl Into<String>, served: bool, storage: bool) -> Self {
        CustomResourceDefinitionVersion {
            name: name.into(),
            served,
            storage,
            ..Default::default()
        }
    }
}

/// The schema of a version (`schema`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomResourceValidation {
    /// The OpenAPI v3 schema of the whole object (JSON key `openAPIV3Schema`);
    /// left out when null.
    #[serde(
        rename = "openAPIV3Schema",
        default,
        skip_serializing_if = "serde_json::Value::is_null"
    )]
    pub open_api_v3_schema: serde_json::Value,
}

impl CustomResourceValidation {
    /// A validation with the given root schema.
    pub fn new(open_api_v3_schema: serde_json::Value) -> Self {
        CustomResourceValidation { open_api_v3_schema }
    }
}

/// The subresources of a version (`subresources`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceSubresources {
    /// The `/status` subresource; written as `status: {}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<CustomResourceSubresourceStatus>,
    /// The `/scale` subresource.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<CustomResourceSubresourceScale>,
}

/// The `/status` subresource; it has no settings and is written as `{}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomResourceSubresourceStatus {}

/// The `/scale` subresource: where the replica counts and selector live.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceSubresourceScale {
    /// JSON path of the desired replicas, under `.spec.` (`.spec.replicas`).
    pub spec_replicas_path: String,
    /// JSON path of the observed replicas, under `.status.` (`.status.replicas`).
    pub status_replicas_path: String,
    /// JSON path of the label selector string, under `.spec.` or `.status.`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector_path: Option<String>,
}

/// An extra column for `kubectl get` (`additionalPrinterColumns[i]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceColumnDefinition {
    /// The column header.
    pub name: String,
    /// The OpenAPI type: `integer`, `number`, `string`, `boolean` or `date`
    /// (JSON key `type`).
    #[serde(rename = "type")]
    pub type_: String,
    /// The OpenAPI format (`int32`, `date-time`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// A description of the column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// 0 shows the column in the standard view; higher values only in the
    /// wide view. Left out when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub priority: i32,
    /// The simple JSON path of the value, evaluated on each object.
    pub json_path: String,
}

/// A field that can be used in field selectors (`selectableFields[i]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SelectableField {
    /// The simple JSON path of the field (`.spec.color`).
    pub json_path: String,
}

/// How objects are converted between versions (`spec.conversion`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceConversion {
    /// `None` (only `apiVersion` changes) or `Webhook`.
    pub strategy: String,
    /// The webhook, for the `Webhook` strategy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook: Option<WebhookConversion>,
}

/// A conversion webhook (`spec.conversion.webhook`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookConversion {
    /// How to reach the webhook.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_config: Option<WebhookClientConfig>,
    /// The `ConversionReview` versions the webhook understands, preferred first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conversion_review_versions: Vec<String>,
}

/// How to reach a webhook: exactly one of `url` or `service`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookClientConfig {
    /// An `https://` URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// A service in the cluster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<ServiceReference>,
    /// The base64-encoded PEM CA bundle that signs the webhook's certificate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ca_bundle: Option<String>,
}

/// A reference to a service (`clientConfig.service`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceReference {
    /// The service's namespace.
    pub namespace: String,
    /// The service's name.
    pub name: String,
    /// The URL path requests are sent to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The port; the apiserver defaults it to 443.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<i32>,
}

impl WebhookClientConfig {
    /// A webhook at an `https://` URL.
    pub fn url(url: impl Into<String>) -> Self {
        WebhookClientConfig {
            url: Some(url.into()),
            ..Self::default()
        }
    }

    /// A webhook behind the service `namespace/name` (port 443 unless
    /// [`port`](Self::port) says otherwise).
    pub fn service(namespace: impl Into<String>, name: impl Into<String>) -> Self {
        WebhookClientConfig {
            service: Some(ServiceReference {
                namespace: namespace.into(),
                name: name.into(),
                path: None,
                port: None,
            }),
            ..Self::default()
        }
    }

    /// Sets the service's URL path (`/convert`); no effect on a URL config.
    pub fn path(mut self, path: impl Into<String>) -> Self {
        if let Some(service) = &mut self.service {
            service.path = Some(path.into());
        }
        self
    }

    /// Sets the service's port; no effect on a URL config.
    pub fn port(mut self, port: i32) -> Self {
        if let Some(service) = &mut self.service {
            service.port = Some(port);
        }
        self
    }

    /// Sets the base64-encoded PEM CA bundle.
    pub fn ca_bundle(mut self, ca_bundle: impl Into<String>) -> Self {
        self.ca_bundle = Some(ca_bundle.into());
        self
    }
}

impl CustomResourceConversion {
    /// `strategy: None`: the apiserver only rewrites `apiVersion`.
    pub fn none() -> Self {
        CustomResourceConversion {
            strategy: "None".into(),
            webhook: None,
        }
    }

    /// `strategy: Webhook` with `client_config`, speaking
    /// `ConversionReview` `v1`.
    pub fn webhook(client_config: WebhookClientConfig) -> Self {
        CustomResourceConversion {
            strategy: "Webhook".into(),
            webhook: Some(WebhookConversion {
                client_config: Some(client_config),
                conversion_review_versions: vec!["v1".into()],
            }),
        }
    }
}

/// [`CustomResourceDefinition::truncate_descriptions`] on one schema and
/// the schemas below it (iteratively: schemas may be deep).
fn truncate_schema_descriptions(schema: &mut serde_json::Value, max_len: usize) {
    let mut stack = vec![schema];
    while let Some(node) = stack.pop() {
        let serde_json::Value::Object(map) = node else {
            continue;
        };
        if max_len == 0 {
            map.remove("description");
        } else if let Some(serde_json::Value::String(d)) = map.get_mut("description")
            && d.len() > max_len
        {
            *d = truncate_description(d, max_len);
        }
        for (key, value) in map.iter_mut() {
            match key.as_str() {
                "properties" | "patternProperties" | "definitions" => {
                    if let serde_json::Value::Object(children) = value {
                        stack.extend(children.values_mut());
                    }
                }
                "items" | "additionalProperties" | "additionalItems" | "not" => stack.push(value),
                "allOf" | "anyOf" | "oneOf" => {
                    if let serde_json::Value::Array(children) = value {
                        stack.extend(children.iter_mut());
                    }
                }
                _ => {}
            }
        }
    }
}

/// controller-gen's `truncateString`: the first `max_len` bytes, cut back
/// to the last sentence terminal (kept), or to the last whitespace (plus
/// `...`), or kept whole (plus `...`).
fn truncate_description(desc: &str, max_len: usize) -> String {
    let mut end = max_len.min(desc.len());
    while !desc.is_char_boundary(end) {
        end -= 1;
    }
    let head = &desc[..end];
    // Unicode's Sentence_Terminal, for the scripts Kubernetes docs use.
    let terminal = |c: char| {
        matches!(
            c,
            '.' | '!' | '?' | '。' | '！' | '？' | '‼' | '⁇' | '⁈' | '⁉'
        )
    };
    if let Some((i, c)) = head.char_indices().rev().find(|&(_, c)| terminal(c))
        && i > 0
    {
        return head[..i + c.len_utf8()].to_string();
    }
    if let Some((i, _)) = head.char_indices().rev().find(|&(_, c)| c.is_whitespace())
        && i > 0
    {
        return format!("{}...", &head[..i]);
    }
    format!("{head}...")
}
