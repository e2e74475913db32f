//! The convention lints: what `#[derive(KubeResource)]` and
//! `#[derive(ApiType)]` check at compile time.
//!
//! Both derives check the type they are put on against the [Kubernetes API
//! conventions][conventions]. Each check is a named *lint* with a default
//! *level*. A problem is reported at the offending token, with a message that
//! names the type and the field, the problem, the lint, the fix (`help:`) and
//! the section of the conventions it enforces (`note:`):
//!
//! ```text
//! error: Thing.max_replicas: JSON name `max_replicas` is not lowerCamelCase [json_field_names]
//!          help: add `#[serde(rename_all = "camelCase")]` to `Thing`, or `#[serde(rename = "maxReplicas")]` to the field
//!          note: Kubernetes API conventions, "Naming conventions"; to allow it here: #[kube(allow(json_field_names))]
//!  --> src/lib.rs:8:9
//!   |
//! 8 |     pub max_replicas: i32,
//!   |         ^^^^^^^^^^^^
//! ```
//!
//! When a field's JSON name differs from its Rust name, the subject shows
//! both: `Durations.timeout_seconds (JSON `timeoutSeconds`)`. Every problem of
//! a type is reported in one build, not one per build.
//!
//! # Two layers
//!
//! **Syntax.** The derive reads the type as written: field names, serde
//! attributes, `#[kube(..)]` attributes and the written field types, down
//! through `Option`, `Box`, `Vec`, `BTreeSet`/`HashSet` and
//! `BTreeMap`/`HashMap`. It reports at the exact token: the `i8` in
//! `Option<Vec<i8>>`, the `3` in `#[default(3)]`, the `"WidgetList"` in
//! `kind = "WidgetList"`. A syntax finding is a plain `error:` (or a
//! warning, see [Levels](#levels)).
//!
//! **Types.** Syntax cannot see through a type alias (`type Port = u16`) or
//! into a type defined elsewhere. So every [`ApiType`](crate::ApiType) carries
//! *facts* about itself as associated consts: its JSON kind, its fields (JSON
//! name, type, required or defaulted), and flags for what it is or contains
//! (an unsigned or narrow integer, a float, a map of non-strings, a
//! `HashMap`, a `Duration`, a `bool`). The derive emits `const` items that
//! assert those facts, spanned at the field, so `pub port: Port` fails as
//! surely as `pub port: u16`, and a float three types down under a spec
//! fails at the spec field that leads to it. A failed assertion is an
//! `error[E0080]` whose message names the lint and the fix, and whose
//! "evaluation of `_::Type_field` failed" names the field:
//!
//! ```text
//! error[E0080]: evaluation panicked: this field's type is or contains an integer other than `i32`/`i64` [integer_width]
//!                 help: use `i32` or `i64` (bounded with `minimum = 0` if needed)
//!                 note: Kubernetes API conventions, "Primitive types"; to allow it: #[kube(allow(integer_width))] on this field, or where the type is defined
//!   --> src/lib.rs:11:15
//!    |
//! 11 |     pub port: Port,
//!    |               ^^^^ evaluation of `_::Endpoint_port` failed inside this call
//! ```
//!
//! (The messages are static, written once in `api_core`, because every
//! derive would otherwise have to write them out: that keeps the lint passes
//! at about 5% of the derive's expansion time.)
//!
//! The type layer checks [`integer_width`](#integer_width),
//! [`no_floats`](#no_floats), [`no_maps`](#no_maps),
//! [`no_durations`](#no_durations), [`no_bools`](#no_bools),
//! [`list_type`](#list_type) and [`printcolumn_path`](#printcolumn_path). The
//! other lints are about names and attributes, which syntax sees in full
//! (and [`hash_map`](#hash_map), a warning, is reported where the `HashMap`
//! is written).
//!
//! A problem is reported once, where it is: a field that the derive of a
//! nested type has already rejected, or allowed, does not count against the
//! types that use it. A `u64` field with `#[kube(allow(integer_width))]` in a
//! nested type is fine for every user of that type.
//!
//! # Levels
//!
//! | level | what happens |
//! |---|---|
//! | deny | a compile error |
//! | warn | a compiler warning |
//! | allow | nothing |
//!
//! Stable Rust has no warnings from procedural macros, so a warning is a
//! `#[deprecated]` constant named after the lint, used at the field's span:
//!
//! ```text
//! warning: use of deprecated constant `_::field_docs`: Undocumented.name: has no doc comment [field_docs]
//!            help: document it (`/// name is ...`): the comment becomes the field's description in the schema and `kubectl explain`
//!            note: Kubernetes API conventions, "Naming conventions"; to allow it here: #[kube(allow(field_docs))]
//! ```
//!
//! (A warning from the type layer reads ``use of deprecated associated
//! constant `_::__Lint::<false>::list_type` ``.) Because it is the
//! `deprecated` lint of rustc, `#![deny(deprecated)]` at the top of a crate,
//! `RUSTFLAGS="-D deprecated"` or `-D warnings` turn the lint warnings into
//! errors. The warn-level examples below use `#![deny(deprecated)]` so that
//! they fail to compile.
//!
//! ## Changing a level
//!
//! `#[kube(allow(..))]`, `#[kube(warn(..))]` and `#[kube(deny(..))]` take one
//! or more lint names. They go on a type (all of its fields; on a
//! `KubeResource`, also the resource-level lints
//! [`kind_naming`](#kind_naming) and [`printcolumn_path`](#printcolumn_path)),
//! on an enum variant, or on a field. The innermost one wins:
//!
//! ```
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A legacy type.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[kube(allow(json_field_names))]
//! pub struct Legacy {
//!     /// old_name is kept as the old API spelled it.
//!     pub old_name: String,
//!     /// checksum is unsigned in the old API.
//!     #[kube(allow(integer_width))]
//!     pub checksum: u64,
//! }
//! ```
//!
//! An override applies to both layers: `allow(integer_width)` on a field of
//! type `Port` (an alias of `u16`) silences the `const` check as well as any
//! syntax finding. An unknown lint name is an error, with a suggestion:
//!
//! ```text
//! error: unknown lint `no_float`
//!          help: did you mean `no_floats`?
//!          note: the lints are listed in the api_core::lints documentation
//! ```
//!
//! # Contexts
//!
//! A few lints depend on what a type is:
//!
//! | context | what | differences |
//! |---|---|---|
//! | spec | the struct that derives `KubeResource` | [`no_floats`](#no_floats) is an error, here and (through the type layer) anywhere below |
//! | status | an `ApiType` whose name ends in `Status` | [`no_floats`](#no_floats) warns |
//! | root status | the type a `KubeResource` names with `status = "..."` | [`status_optional`](#status_optional) applies to its fields |
//! | any | every other `ApiType` | [`no_floats`](#no_floats) warns at the field; the type that uses it decides |
//!
//! The status context goes by the name alone: a nested `ContainerStatus` is
//! checked as a status, a status type named `WidgetState` is not. The root
//! status context is exact: the `KubeResource` derive checks the type it
//! names, whatever its name.
//!
//! # The catalogue
//!
//! Names and default levels are stable.
//!
//! | lint | default | rule | convention |
//! |---|---|---|---|
//! | [`integer_width`](#integer_width) | deny | only `i32`/`i64` | [Primitive types][primitive-types] |
//! | [`no_floats`](#no_floats) | deny in spec, warn in status | no `f32`/`f64` | [Primitive types][primitive-types] |
//! | [`no_maps`](#no_maps) | deny | maps only of strings (or quantities) | [Lists of named subobjects preferred over maps][lists-of-named-subobjects] |
//! | [`hash_map`](#hash_map) | warn | `BTreeMap`, not `HashMap` | [Primitive types][primitive-types] |
//! | [`json_field_names`](#json_field_names) | deny | JSON names are lowerCamelCase | [Naming conventions][naming-conventions] |
//! | [`optional_field`](#optional_field) | deny | optional fields are `Option`s (or lists/maps), skipped when unset | [Optional vs. Required][optional-vs-required] |
//! | [`required_field`](#required_field) | deny | required fields are not `Option`s, not defaulted, never skipped | [Optional vs. Required][optional-vs-required] |
//! | [`default_or_required`](#default_or_required) | deny | a field with a default is optional | [Defaulting][defaulting] |
//! | [`no_durations`](#no_durations) | deny | no duration without its unit (`std::time::Duration`, meta/v1 `Duration`) | [Units][units] |
//! | [`duration_units`](#duration_units) | warn | integer durations say their unit: `fooSeconds` | [Units][units] |
//! | [`timestamp_naming`](#timestamp_naming) | deny | a time field is `fooTime`, never `fooTimestamp` | [Naming conventions][naming-conventions] |
//! | [`time_field_suffix`](#time_field_suffix) | warn | a `Time` field is named `somethingTime` | [Naming conventions][naming-conventions] |
//! | [`reference_naming`](#reference_naming) | deny | `fooRef`/`fooRefs`, never `Reference` | [Object references][object-references] |
//! | [`bool_naming`](#bool_naming) | deny | `fooable`, never `isFooable` | [Naming conventions][naming-conventions] |
//! | [`no_bools`](#no_bools) | allow | a string enum instead of a `bool` | [Primitive types][primitive-types] |
//! | [`no_phase`](#no_phase) | warn | no `phase`; use conditions | [Typical status properties][typical-status-properties] |
//! | [`conditions`](#conditions) | deny | conditions are an optional [`Conditions`](crate::Conditions) | [Typical status properties][typical-status-properties] |
//! | [`status_optional`](#status_optional) | warn | every status field is optional | [Optional vs. Required][optional-vs-required] |
//! | [`status_subresource`](#status_subresource) | warn | the status subresource comes with a status | [Spec and Status][spec-and-status] |
//! | [`list_type`](#list_type) | warn | lists of objects declare `list_type`; list-map keys are valid | [Lists of named subobjects preferred over maps][lists-of-named-subobjects] |
//! | [`enum_values`](#enum_values) | deny | enum values are CamelCase | [Constants][constants] |
//! | [`unions`](#unions) | deny | data-carrying enums map to a structural schema | [Unions][unions-conv] |
//! | [`kind_naming`](#kind_naming) | deny | kind, group, version and resource names | [Naming conventions][naming-conventions] |
//! | [`printcolumn_path`](#printcolumn_path) | deny | printer-column, scale and selectable paths resolve | [Naming conventions][naming-conventions] |
//! | [`field_docs`](#field_docs) | warn | every field has a description (its doc comment or its type's) | [Naming conventions][naming-conventions] |
//! | [`max_length`](#max_length) | allow | strings and lists are bounded | [Validation][validation] |
//! | [`duplicate_keywords`](#duplicate_keywords) | deny | a field does not repeat a keyword its type declares | [Validation][validation] |
//!
//! Each section below gives the rule, what to write instead, how to allow
//! it, an example the lint rejects and one it accepts. The accepted examples
//! start with `#![deny(deprecated)]`: they compile without a single lint
//! warning.
//!
//! # The lints
//!
//! ## `integer_width`
//!
//! **Default:** deny. **Convention:** [Primitive types][primitive-types].
//!
//! Integers are `i32` or `i64`. Unsigned integers (`u8` to `u128`, `usize`),
//! `isize`, `i8`, `i16` and `i128` are reported wherever they appear in a
//! field's type (`Option<Vec<u8>>`, the values of a map), and through
//! aliases and nested types by the type layer. Many clients have no unsigned
//! types, and the schema has only `int32` and `int64`.
//!
//! **Instead:** `i32`, or `i64` where values may exceed 2^31; add
//! `#[kube(minimum = 0)]` if the value must not be negative.
//!
//! **Allow:** `#[kube(allow(integer_width))]` on the field. For a nested
//! type, allow it on the field of that type: its users are not told again.
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A pool of workers.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Pool {
//!     /// replicas is the number of workers.
//!     pub replicas: u32,
//! }
//! ```
//!
//! Through an alias, the type layer reports it (`E0080`):
//!
//! ```compile_fail,E0080
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A port number.
//! pub type Port = u16;
//!
//! /// An endpoint.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Endpoint {
//!     /// port to connect to.
//!     pub port: Port,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A pool of workers.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Pool {
//!     /// replicas is the number of workers.
//!     #[kube(minimum = 0)]
//!     pub replicas: i32,
//! }
//!
//! let schema = Pool::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! let replicas = &schema.as_value()["properties"]["replicas"];
//! assert_eq!(replicas["format"], "int32");
//! assert_eq!(replicas["minimum"], 0);
//! ```
//!
//! ## `no_floats`
//!
//! **Default:** deny in a spec, warn in a status (and in any other type).
//! **Convention:** [Primitive types][primitive-types].
//!
//! No `f32` or `f64`: floats do not round-trip between languages. In the spec
//! of a `KubeResource` a float is an error, and so is a float anywhere below
//! the spec: the type layer reports it at the spec field that leads to it. In
//! a status type a float is a warning. In any other `ApiType` a float field
//! is a warning at the field, and the fact travels up: the type that uses it
//! decides (an error under a spec).
//!
//! **Instead:** an integer with the unit in its name (`targetMillis`), or a
//! string (a resource quantity such as `"500m"`) for fractional values.
//!
//! **Allow:** `#[kube(allow(no_floats))]` on the float field. Allowed in a
//! nested type, it is allowed for every user of that type.
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// ScalerSpec is the desired state of a Scaler.
//! #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(group = "example.com", version = "v1", kind = "Scaler")]
//! #[serde(rename_all = "camelCase")]
//! pub struct ScalerSpec {
//!     /// target is the load to keep.
//!     pub target: f64,
//! }
//! ```
//!
//! A float in a nested type is a warning there and an error at the spec
//! field that uses the type (`E0080`):
//!
//! ```compile_fail,E0080
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// ScalerSpec is the desired state of a Scaler.
//! #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(group = "example.com", version = "v1", kind = "Scaler")]
//! pub struct ScalerSpec {
//!     /// policy says how to scale.
//!     pub policy: Policy,
//! }
//!
//! /// A scaling policy.
//! #[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
//! pub struct Policy {
//!     /// weight of the policy.
//!     pub weight: f32,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// ScalerSpec is the desired state of a Scaler.
//! #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(group = "example.com", version = "v1", kind = "Scaler")]
//! #[serde(rename_all = "camelCase")]
//! pub struct ScalerSpec {
//!     /// targetMillis is the load to keep, in thousandths.
//!     pub target_millis: i64,
//! }
//!
//! let crd = Scaler::crd().to_json();
//! let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
//! assert_eq!(spec["properties"]["targetMillis"]["format"], "int64");
//! ```
//!
//! ## `no_maps`
//!
//! **Default:** deny. **Convention:** [Lists of named subobjects preferred
//! over maps][lists-of-named-subobjects].
//!
//! The only maps are maps of strings: `BTreeMap<String, String>` for
//! labels-like data (a value may also be a string enum or a string newtype),
//! and maps of quantities or int-or-strings (`BTreeMap<String, Quantity>`,
//! the shape of Kubernetes' own `ResourceList`). A map whose values are
//! numbers, lists or objects is reported; the type
//! layer looks into aliases and value types. Lists of named subobjects merge
//! and patch well and each item can be validated.
//!
//! **Instead:** a list of objects with a unique `name`, declared as a list
//! map: `#[kube(list_type = "map", list_map_keys = ["name"])]`.
//!
//! **Allow:** `#[kube(allow(no_maps))]` on the field.
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//! use std::collections::BTreeMap;
//!
//! /// Traffic routing.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Routing {
//!     /// weights of the backends, by name.
//!     #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
//!     pub weights: BTreeMap<String, i32>,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//! use std::collections::BTreeMap;
//!
//! /// Traffic routing.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Routing {
//!     /// backends with their weights, keyed by name.
//!     #[kube(list_type = "map", list_map_keys = ["name"])]
//!     #[serde(default, skip_serializing_if = "Vec::is_empty")]
//!     pub backends: Vec<Backend>,
//!     /// labels are plain strings.
//!     #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
//!     pub labels: BTreeMap<String, String>,
//! }
//!
//! /// A backend.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Backend {
//!     /// name of the backend.
//!     pub name: String,
//!     /// weight of the backend.
//!     pub weight: i32,
//! }
//!
//! let schema = Routing::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! let backends = &schema.as_value()["properties"]["backends"];
//! assert_eq!(backends["x-kubernetes-list-type"], "map");
//! assert_eq!(backends["x-kubernetes-list-map-keys"], serde_json::json!(["name"]));
//! ```
//!
//! ## `hash_map`
//!
//! **Default:** warn. **Convention:** [Primitive types][primitive-types].
//!
//! No `HashMap` or `HashSet`: they serialize in random order, so every write
//! of an object looks like a change. Reported where the `HashMap` or
//! `HashSet` is written in a field's type (syntax only: a nested type
//! reports its own, and an alias of a `HashMap` is not seen through).
//!
//! **Instead:** `BTreeMap` or `BTreeSet`.
//!
//! **Allow:** `#[kube(allow(hash_map))]` on the field.
//!
//! ```compile_fail
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//! use std::collections::HashMap;
//!
//! /// Selector.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Selector {
//!     /// labels to match.
//!     #[serde(default, skip_serializing_if = "HashMap::is_empty")]
//!     pub labels: HashMap<String, String>,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//! use std::collections::BTreeMap;
//!
//! /// Selector.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Selector {
//!     /// labels to match.
//!     #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
//!     pub labels: BTreeMap<String, String>,
//! }
//!
//! let labels = BTreeMap::from([("tier".to_string(), "web".to_string()), ("app".to_string(), "shop".to_string())]);
//! assert_eq!(
//!     serde_json::to_string(&Selector { labels }).unwrap(),
//!     r#"{"labels":{"app":"shop","tier":"web"}}"#
//! );
//! ```
//!
//! ## `json_field_names`
//!
//! **Default:** deny. **Convention:** [Naming conventions][naming-conventions].
//!
//! JSON field names are lowerCamelCase: `^[a-z][a-z0-9]*([A-Z][a-z0-9]*)*$`
//! (`maxReplicas`, `podIP`). The name checked is the one serde writes, after
//! `rename_all` and `rename`; fields of struct variants are checked too,
//! flattened and skipped fields are not.
//!
//! **Instead:** `#[serde(rename_all = "camelCase")]` on the type, or
//! `#[serde(rename = "...")]` on the field.
//!
//! **Allow:** `#[kube(allow(json_field_names))]` on the field or the type.
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// Scaling limits.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Limits {
//!     /// max_replicas is the upper bound.
//!     pub max_replicas: i32,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// Scaling limits.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! pub struct Limits {
//!     /// maxReplicas is the upper bound.
//!     pub max_replicas: i32,
//! }
//!
//! assert_eq!(serde_json::to_string(&Limits { max_replicas: 3 }).unwrap(), r#"{"maxReplicas":3}"#);
//! ```
//!
//! ## `optional_field`
//!
//! **Default:** deny. **Convention:** [Optional vs. Required][optional-vs-required].
//!
//! A field is optional when it says `#[kube(optional)]`, is an `Option<T>`,
//! or has `#[serde(default)]`. An optional field must
//!
//! - be an `Option<T>`, or a list or map (empty means unset): a plain `i32`
//!   cannot tell "unset" from `0`;
//! - be skipped when unset (`skip_serializing_if`), never written as `null`
//!   or as an empty list;
//! - if it is a list or map, default when absent (`#[serde(default)]`).
//!
//! **Instead:** `Option<T>` with
//! `#[serde(default, skip_serializing_if = "Option::is_none")]`; a list with
//! `#[serde(default, skip_serializing_if = "Vec::is_empty")]`.
//!
//! **Allow:** `#[kube(allow(optional_field))]` on the field.
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A container.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Container {
//!     /// image to run; written as `null` when unset.
//!     #[serde(default)]
//!     pub image: Option<String>,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A container.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Container {
//!     /// image to run.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub image: Option<String>,
//!     /// args to pass.
//!     #[serde(default, skip_serializing_if = "Vec::is_empty")]
//!     pub args: Vec<String>,
//! }
//!
//! let unset = Container { image: None, args: Vec::new() };
//! assert_eq!(serde_json::to_string(&unset).unwrap(), "{}");
//! let schema = Container::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! assert!(schema.as_value().get("required").is_none());
//! ```
//!
//! ## `required_field`
//!
//! **Default:** deny. **Convention:** [Optional vs. Required][optional-vs-required].
//!
//! A field is required when it is not optional (see
//! [`optional_field`](#optional_field)) or says `#[kube(required)]`. A
//! required field must not be an `Option`, must not have `#[serde(default)]`
//! (it could then be omitted) and must not have `skip_serializing_if` (it is
//! always written).
//!
//! **Instead:** a plain `T` with no serde default and no skipping; or make the
//! field optional.
//!
//! **Allow:** `#[kube(allow(required_field))]` on the field.
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A container.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Container {
//!     /// image to run.
//!     #[serde(skip_serializing_if = "String::is_empty")]
//!     pub image: String,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A container.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Container {
//!     /// image to run.
//!     pub image: String,
//! }
//!
//! let schema = Container::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! assert_eq!(schema.as_value()["required"], serde_json::json!(["image"]));
//! ```
//!
//! ## `default_or_required`
//!
//! **Default:** deny. **Convention:** [Defaulting][defaulting].
//!
//! A `#[default(..)]` on a required field can never apply: a required field
//! is always present. The default belongs on an optional field.
//!
//! **Instead:** make the field `Option<T>` with
//! `#[serde(default, skip_serializing_if = "Option::is_none")]`, or drop the
//! default.
//!
//! **Allow:** `#[kube(allow(default_or_required))]` on the field (some
//! controller-gen output declares required fields with defaults).
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A deployment.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Deployment {
//!     /// replicas is the number of pods.
//!     #[default(3)]
//!     pub replicas: i32,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A deployment.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Deployment {
//!     /// replicas is the number of pods.
//!     #[default(3)]
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub replicas: Option<i32>,
//! }
//!
//! let mut d = Deployment { replicas: None };
//! d.apply_defaults();
//! assert_eq!(d.replicas, Some(3));
//! let schema = Deployment::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! assert_eq!(schema.as_value()["properties"]["replicas"]["default"], 3);
//! ```
//!
//! ## `no_durations`
//!
//! **Default:** deny. **Convention:** [Units][units].
//!
//! No duration whose value does not carry its unit: `std::time::Duration`
//! (clients in other languages cannot parse how serde writes it), meta/v1
//! [`Duration`](crate::Duration) (a Go duration string), and a newtype named
//! `Duration` over an integer or a float. Decided by the type's facts
//! (`DURATION`), not by its name: a string newtype named `Duration` with a
//! pattern (Gateway API's, Prometheus' `Duration`) says its unit in the
//! value, which the conventions allow, and is not reported. Reported at the
//! field and through aliases and nested types.
//!
//! **Instead:** an integer with the unit in the name: `timeoutSeconds: i32`.
//!
//! **Allow:** `#[kube(allow(no_durations))]` on the field.
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//! use std::time::Duration;
//!
//! /// A probe.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Probe {
//!     /// timeout of one attempt.
//!     pub timeout: Duration,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A probe.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! pub struct Probe {
//!     /// timeoutSeconds is the timeout of one attempt.
//!     #[kube(minimum = 1)]
//!     pub timeout_seconds: i32,
//! }
//!
//! assert_eq!(serde_json::to_string(&Probe { timeout_seconds: 5 }).unwrap(), r#"{"timeoutSeconds":5}"#);
//! ```
//!
//! ## `duration_units`
//!
//! **Default:** warn. **Convention:** [Units][units].
//!
//! An `i32` or `i64` field whose JSON name says it is a duration (it contains
//! `timeout`, `period`, `interval`, `deadline`, `delay`, `duration` or `ttl`,
//! in any case) names its unit: `Seconds`, `Millis`, `Milliseconds`,
//! `Micros`, `Microseconds`, `Nanos`, `Nanoseconds`, `Minutes`, `Hours` or
//! `Days`, anywhere in the name (`ttlSecondsAfterFinished` is fine). The
//! match is on letters, so a name like `periodicity` is reported too: allow
//! it on such a field.
//!
//! **Instead:** `periodSeconds`, `retryDelayMillis`.
//!
//! **Allow:** `#[kube(allow(duration_units))]` on the field.
//!
//! ```compile_fail
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A probe.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Probe {
//!     /// period between two attempts.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub period: Option<i32>,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A probe.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! pub struct Probe {
//!     /// periodSeconds is the time between two attempts.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub period_seconds: Option<i32>,
//! }
//!
//! let schema = Probe::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! assert!(schema.as_value()["properties"].get("periodSeconds").is_some());
//! ```
//!
//! ## `timestamp_naming`
//!
//! **Default:** deny. **Convention:** [Naming conventions][naming-conventions].
//!
//! A time field whose JSON name contains `timestamp` (in any case) is
//! reported: the conventions name points in time `fooTime`. A time field is
//! a [`Time`](crate::Time) or [`MicroTime`](crate::MicroTime) (or a list, an
//! alias or a newtype of one: the type's facts say `TIME`) or a string with
//! `format = "date-time"`; a boolean such as `honorTimestamps` or a string
//! such as `timestampFormat` is not reported. `ObjectMeta`'s own
//! `creationTimestamp` and `deletionTimestamp` are not derived, so they are
//! not checked. A [`Time`](crate::Time) field named
//! `fooTimestamp` also gets a [`time_field_suffix`](#time_field_suffix)
//! warning.
//!
//! **Instead:** `lastUpdateTime`.
//!
//! **Allow:** `#[kube(allow(timestamp_naming))]` on the field (with
//! `time_field_suffix` for a `Time` field).
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// Sync state.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! pub struct SyncState {
//!     /// lastSyncTimestamp is when the last sync finished.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub last_sync_timestamp: Option<Time>,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// Sync state.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! pub struct SyncState {
//!     /// lastSyncTime is when the last sync finished.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub last_sync_time: Option<Time>,
//! }
//!
//! let schema = SyncState::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! assert_eq!(schema.as_value()["properties"]["lastSyncTime"]["format"], "date-time");
//! ```
//!
//! ## `time_field_suffix`
//!
//! **Default:** warn. **Convention:** [Naming conventions][naming-conventions].
//!
//! A field of type [`Time`](crate::Time) or [`MicroTime`](crate::MicroTime)
//! (or an `Option` of one) has a JSON name that ends in `Time`.
//!
//! **Instead:** `lastUpdateTime`, `startTime`.
//!
//! **Allow:** `#[kube(allow(time_field_suffix))]` on the field.
//!
//! ```compile_fail
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// Sync state.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! pub struct SyncState {
//!     /// lastSync is when the last sync finished.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub last_sync: Option<Time>,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// Sync state.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! pub struct SyncState {
//!     /// lastSyncTime is when the last sync finished.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub last_sync_time: Option<Time>,
//! }
//!
//! let at: Time = "2024-05-01T10:00:00Z".parse().unwrap();
//! assert_eq!(
//!     serde_json::to_string(&SyncState { last_sync_time: Some(at) }).unwrap(),
//!     r#"{"lastSyncTime":"2024-05-01T10:00:00Z"}"#
//! );
//! ```
//!
//! ## `reference_naming`
//!
//! **Default:** deny. **Convention:** [Object references][object-references].
//!
//! A JSON name with the word `Reference` (`secretReference`,
//! `referenceName`; not `preference`) is reported: a field that refers to
//! another object is `fooRef` (`fooRefs` for a list).
//!
//! **Instead:** `secretRef`, `configMapRefs`.
//!
//! **Allow:** `#[kube(allow(reference_naming))]` on the field.
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A volume.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! pub struct Volume {
//!     /// secretReference names the secret to mount.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub secret_reference: Option<String>,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A volume.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! pub struct Volume {
//!     /// secretRef names the secret to mount.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub secret_ref: Option<String>,
//! }
//!
//! let v = Volume { secret_ref: Some("tls".into()) };
//! assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"secretRef":"tls"}"#);
//! ```
//!
//! ## `bool_naming`
//!
//! **Default:** deny. **Convention:** [Naming conventions][naming-conventions].
//!
//! A `bool` (or `Option<bool>`) field whose JSON name is `is` followed by an
//! upper-case letter (`isEnabled`) is reported: booleans are adjectives
//! (`fooable`), not questions.
//!
//! **Instead:** `enabled`, `schedulable`.
//!
//! **Allow:** `#[kube(allow(bool_naming))]` on the field.
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A feature.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! pub struct Feature {
//!     /// isEnabled turns the feature on.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub is_enabled: Option<bool>,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A feature.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Feature {
//!     /// enabled turns the feature on.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub enabled: Option<bool>,
//! }
//!
//! let schema = Feature::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! assert_eq!(schema.as_value()["properties"]["enabled"]["type"], "boolean");
//! ```
//!
//! ## `no_bools`
//!
//! **Default:** allow. **Convention:** [Primitive types][primitive-types].
//!
//! Think twice about bools: many fields that start as a `bool` later need a
//! third state, and a string enum leaves room for it. When turned on, every
//! `bool` is reported, at the field and through aliases and nested types.
//!
//! **Instead:** a string enum (`#[derive(ApiType)]` on an enum of unit
//! variants).
//!
//! **Turn it on:** `#[kube(deny(no_bools))]` (or `warn`) on a type or a
//! field.
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A job.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[kube(deny(no_bools))]
//! pub struct Job {
//!     /// suspend stops new runs.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub suspend: Option<bool>,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A job.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[kube(deny(no_bools))]
//! #[serde(rename_all = "camelCase")]
//! pub struct Job {
//!     /// runPolicy says whether new runs start.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub run_policy: Option<RunPolicy>,
//! }
//!
//! /// Whether new runs start.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub enum RunPolicy {
//!     /// Runs start on schedule.
//!     Run,
//!     /// No new runs start.
//!     Suspend,
//! }
//!
//! let schema = Job::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! assert_eq!(schema.as_value()["properties"]["runPolicy"]["enum"], serde_json::json!(["Run", "Suspend"]));
//! ```
//!
//! ## `no_phase`
//!
//! **Default:** warn. **Convention:** [Typical status
//! properties][typical-status-properties].
//!
//! A JSON name that contains `phase` (in any case, in any type) is reported:
//! phases are deprecated; the state of an object is reported with conditions.
//!
//! **Instead:** [`Conditions`](crate::Conditions) in the status, one condition
//! per aspect (`Ready`, `Progressing`).
//!
//! **Allow:** `#[kube(allow(no_phase))]` on the field.
//!
//! ```compile_fail
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// WidgetStatus is the observed state of a Widget.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct WidgetStatus {
//!     /// phase of the rollout.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub phase: Option<String>,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// WidgetStatus is the observed state of a Widget.
//! #[derive(ApiType, Serialize, Deserialize, Default)]
//! pub struct WidgetStatus {
//!     /// conditions of the Widget.
//!     #[serde(default, skip_serializing_if = "Conditions::is_empty")]
//!     pub conditions: Conditions,
//! }
//!
//! let mut status = WidgetStatus::default();
//! status.conditions.set(Condition::new("Ready", ConditionStatus::True, "Available", "All replicas are ready."));
//! assert!(status.conditions.is_true("Ready"));
//! ```
//!
//! ## `conditions`
//!
//! **Default:** deny. **Convention:** [Typical status
//! properties][typical-status-properties].
//!
//! Conditions are [`Conditions`](crate::Conditions): a list keyed by
//! condition type, with the list-map schema (`x-kubernetes-list-type: map`,
//! keyed by `type`) and the condition helpers. Reported: a list of
//! [`Condition`](crate::Condition)s anywhere in a field's type, a field named
//! `conditions` that is not `Conditions`, an `Option<Conditions>` (empty
//! already means none), and required `conditions` in a resource's status
//! type (reported by the `KubeResource` derive at `status = "..."`). The
//! optional conditions of the convention are those of a resource's
//! top-level status: condition lists nested deeper may be required by
//! design (Gateway API's `RouteParentStatus.conditions` and
//! `ListenerStatus.conditions`) and are not reported.
//!
//! **Instead:** `pub conditions: Conditions` with
//! `#[serde(default, skip_serializing_if = "Conditions::is_empty")]`.
//!
//! **Allow:** `#[kube(allow(conditions))]` on the field (also for the
//! resource's check of its status), its type or the spec struct.
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// WidgetStatus is the observed state of a Widget.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct WidgetStatus {
//!     /// conditions of the Widget.
//!     #[serde(default, skip_serializing_if = "Vec::is_empty")]
//!     pub conditions: Vec<Condition>,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// WidgetStatus is the observed state of a Widget.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct WidgetStatus {
//!     /// conditions of the Widget.
//!     #[serde(default, skip_serializing_if = "Conditions::is_empty")]
//!     pub conditions: Conditions,
//! }
//!
//! let schema = WidgetStatus::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! let conditions = &schema.as_value()["properties"]["conditions"];
//! assert_eq!(conditions["x-kubernetes-list-type"], "map");
//! assert_eq!(conditions["x-kubernetes-list-map-keys"], serde_json::json!(["type"]));
//! ```
//!
//! ## `status_optional`
//!
//! **Default:** warn. **Convention:** [Optional vs. Required][optional-vs-required].
//!
//! Every field of a resource's status type (the type its `KubeResource`
//! names with `status = "..."`, see [Contexts](#contexts)) is optional:
//! controllers write the status piece by piece, and a new object has none.
//! The warning points at the `status = "..."` attribute.
//!
//! **Instead:** `Option<T>` with
//! `#[serde(default, skip_serializing_if = "Option::is_none")]`.
//!
//! **Allow:** `#[kube(allow(status_optional))]` on the field or the type.
//!
//! ```compile_fail
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// WidgetSpec is the desired state of a Widget.
//! #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(group = "example.com", version = "v1", kind = "Widget", status = "WidgetStatus")]
//! pub struct WidgetSpec {
//!     /// image is the container image to run.
//!     pub image: String,
//! }
//!
//! /// WidgetStatus is the observed state of a Widget.
//! #[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
//! #[serde(rename_all = "camelCase")]
//! pub struct WidgetStatus {
//!     /// readyReplicas is the number of ready pods.
//!     pub ready_replicas: i32,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// WidgetSpec is the desired state of a Widget.
//! #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(group = "example.com", version = "v1", kind = "Widget", status = "WidgetStatus")]
//! pub struct WidgetSpec {
//!     /// image is the container image to run.
//!     pub image: String,
//! }
//!
//! /// WidgetStatus is the observed state of a Widget.
//! #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default)]
//! #[serde(rename_all = "camelCase")]
//! pub struct WidgetStatus {
//!     /// readyReplicas is the number of ready pods.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub ready_replicas: Option<i32>,
//! }
//!
//! assert_eq!(serde_json::to_string(&WidgetStatus::default()).unwrap(), "{}");
//! ```
//!
//! ## `status_subresource`
//!
//! **Default:** warn. **Convention:** [Spec and Status][spec-and-status].
//! Beyond DESIGN.md's catalogue (kube-api-linter's `statussubresource`).
//!
//! `status_subresource = true` on a resource without `status = "..."`:
//! the subresource serves `/status`, and there is no status to serve. A
//! `status` turns the subresource on by itself.
//!
//! **Instead:** `status = "WidgetStatus"`, or no `status_subresource`.
//!
//! **Allow:** `#[kube(allow(status_subresource))]` on the spec struct (a
//! CRD reproduced as it is, controller-gen's `+kubebuilder:subresource:status`
//! on a type without a status field).
//!
//! ```compile_fail
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// WidgetSpec is the desired state of a Widget.
//! #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(group = "example.com", version = "v1", kind = "Widget", status_subresource = true)]
//! pub struct WidgetSpec {
//!     /// image is the container image to run.
//!     pub image: String,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// WidgetSpec is the desired state of a Widget.
//! #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(group = "example.com", version = "v1", kind = "Widget", status = "WidgetStatus")]
//! pub struct WidgetSpec {
//!     /// image is the container image to run.
//!     pub image: String,
//! }
//!
//! /// WidgetStatus is the observed state of a Widget.
//! #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default)]
//! pub struct WidgetStatus {
//!     /// ready is set once the widget serves.
//!     #[serde(default, skip_serializing_if = "Option::is_none")]
//!     pub ready: Option<String>,
//! }
//!
//! assert!(Widget::crd().to_json()["spec"]["versions"][0]["subresources"]["status"].is_object());
//! ```
//!
//! ## `list_type`
//!
//! **Default:** warn. **Convention:** [Lists of named subobjects preferred
//! over maps][lists-of-named-subobjects].
//!
//! A list of objects declares how server-side apply merges it:
//! `list_type = "map"` with `list_map_keys` for items with a unique key, or
//! `list_type = "atomic"` for a list replaced as a whole. Whether the items
//! are objects is checked through the type layer, so an alias or a nested
//! type counts. Lists of strings, numbers and string enums need no list type.
//!
//! The keys of a list map must be fields of the item type, be scalars, and be
//! required or have a default. A bad key, and `list_type = "map"` on a list
//! of scalars, are always errors, whatever the level of `list_type`: the
//! apiserver rejects such a CRD.
//!
//! **Instead:** `#[kube(list_type = "map", list_map_keys = ["name"])]`, or
//! `#[kube(list_type = "atomic")]`.
//!
//! **Allow:** `#[kube(allow(list_type))]` on the field (for a missing list
//! type only).
//!
//! ```compile_fail
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A service.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Service {
//!     /// ports to expose.
//!     #[serde(default, skip_serializing_if = "Vec::is_empty")]
//!     pub ports: Vec<Port>,
//! }
//!
//! /// A port.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Port {
//!     /// name of the port.
//!     pub name: String,
//!     /// port number.
//!     pub port: i32,
//! }
//! ```
//!
//! A list-map key that is not a field of the item (`E0080`):
//!
//! ```compile_fail,E0080
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A service.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Service {
//!     /// ports to expose.
//!     #[kube(list_type = "map", list_map_keys = ["id"])]
//!     #[serde(default, skip_serializing_if = "Vec::is_empty")]
//!     pub ports: Vec<Port>,
//! }
//!
//! /// A port.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Port {
//!     /// name of the port.
//!     pub name: String,
//!     /// port number.
//!     pub port: i32,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A service.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Service {
//!     /// ports to expose, by name.
//!     #[kube(list_type = "map", list_map_keys = ["name"])]
//!     #[serde(default, skip_serializing_if = "Vec::is_empty")]
//!     pub ports: Vec<Port>,
//! }
//!
//! /// A port.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Port {
//!     /// name of the port.
//!     pub name: String,
//!     /// port number.
//!     pub port: i32,
//! }
//!
//! let schema = Service::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! let ports = &schema.as_value()["properties"]["ports"];
//! assert_eq!(ports["x-kubernetes-list-type"], "map");
//! assert_eq!(ports["x-kubernetes-list-map-keys"], serde_json::json!(["name"]));
//! ```
//!
//! ## `enum_values`
//!
//! **Default:** deny. **Convention:** [Constants][constants].
//!
//! An enum of unit variants is a string enum; each value, as serde writes it
//! (after `rename_all` and `rename`), is a CamelCase constant:
//! `^[A-Z][a-zA-Z0-9]*$`. Acronyms are fine (`TCP`).
//!
//! **Instead:** CamelCase variants without `rename_all`, or
//! `#[serde(rename = "...")]` on a variant.
//!
//! **Allow:** `#[kube(allow(enum_values))]` on the enum or the variant.
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// How to replace pods.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[serde(rename_all = "kebab-case")]
//! pub enum Strategy {
//!     /// Replace all pods at once.
//!     Recreate,
//!     /// Replace pods one by one.
//!     RollingUpdate,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A protocol.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub enum Protocol {
//!     /// TCP.
//!     #[serde(rename = "TCP")]
//!     Tcp,
//!     /// HTTP/2.
//!     Http2,
//! }
//!
//! let schema = Protocol::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! assert_eq!(schema.as_value()["enum"], serde_json::json!(["TCP", "Http2"]));
//! ```
//!
//! ## `unions`
//!
//! **Default:** deny. **Convention:** [Unions][unions-conv].
//!
//! An enum with data must map to a structural schema. Accepted: serde's
//! default external tagging with newtype or struct variants, which becomes an
//! object with one optional member per variant and a `oneOf` that requires
//! exactly one; and internal tagging (`#[serde(tag = "kind")]`), a
//! discriminator: an object whose required `kind` property has the variant
//! names as its values and whose other properties are the members' fields
//! (optional, since each belongs to one variant). Reported:
//! `#[serde(untagged)]` (no schema can tell the variants apart), adjacent
//! tagging (`tag` with `content`, not supported yet), a unit variant among
//! data variants of an externally tagged enum (serde writes it as a string,
//! the others as objects) and a tuple variant (an array of mixed types). For a union of optional fields in a struct, see the
//! `exactly_one_of` rule of `#[kube(..)]` on types.
//!
//! **Instead:** an externally tagged enum of newtype or struct variants.
//!
//! **Allow:** `#[kube(allow(unions))]` on the enum: it then becomes
//! schemaless (`x-kubernetes-preserve-unknown-fields: true`).
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// Where to get the code.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[serde(untagged)]
//! pub enum Source {
//!     /// A git URL.
//!     Git(String),
//!     /// An archive size in bytes.
//!     Size(i64),
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// Where to get the code.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[serde(rename_all = "camelCase")]
//! pub enum Source {
//!     /// A git repository.
//!     Git(GitSource),
//!     /// Inline code.
//!     Inline {
//!         /// text of the code.
//!         text: String,
//!     },
//! }
//!
//! /// A git repository.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct GitSource {
//!     /// url of the repository.
//!     pub url: String,
//! }
//!
//! let git = Source::Git(GitSource { url: "https://example.com/repo.git".into() });
//! assert_eq!(serde_json::to_string(&git).unwrap(), r#"{"git":{"url":"https://example.com/repo.git"}}"#);
//! let schema = Source::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! assert_eq!(schema.as_value()["oneOf"].as_array().unwrap().len(), 2);
//! ```
//!
//! ## `kind_naming`
//!
//! **Default:** deny. **Convention:** [Naming conventions][naming-conventions].
//!
//! The names of a resource (checked by `#[derive(KubeResource)]`):
//!
//! - the kind is CamelCase (an upper-case letter, then letters and digits),
//!   and does not end in `List` (the name of the generated list kind) or
//!   `Controller` (a kind names the object, not what acts on it);
//! - the group is a lower-case DNS subdomain with at least one dot
//!   (`cache.example.com`);
//! - the version is `v<N>`, `v<N>alpha<M>` or `v<N>beta<M>` (`v1`,
//!   `v1alpha1`, `v2beta3`);
//! - the plural, the singular, the short names and the categories are
//!   DNS-1035 labels (lower-case letters, digits and `-`, starting with a
//!   letter, at most 63 characters).
//!
//! **Instead:** `kind = "Widget"`, `group = "apps.example.com"`,
//! `version = "v1alpha1"`.
//!
//! **Allow:** `#[kube(allow(kind_naming))]` on the spec struct.
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// WidgetSpec is the desired state of a Widget.
//! #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(group = "example.com", version = "v1", kind = "WidgetList")]
//! pub struct WidgetSpec {
//!     /// size of the widget.
//!     pub size: i32,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// MemcachedSpec is the desired state of Memcached.
//! #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(group = "cache.example.com", version = "v1alpha1", kind = "Memcached", namespaced, shortname = "mc")]
//! pub struct MemcachedSpec {
//!     /// size is the number of instances.
//!     pub size: i32,
//! }
//!
//! assert_eq!(Memcached::crd_name(), "memcacheds.cache.example.com");
//! assert_eq!(Memcached::api_version(), "cache.example.com/v1alpha1");
//! ```
//!
//! ## `printcolumn_path`
//!
//! **Default:** deny. **Convention:** [Naming conventions][naming-conventions].
//!
//! The paths of `printcolumn(json_path = ..)`, of
//! `scale(spec_replicas_path, status_replicas_path, label_selector_path)` and
//! of `selectable = ..` are resolved at compile time through the facts of the
//! resource's types, by JSON name: `.spec.replicas`, `.spec.ports[0].port`
//! and the conditions filter
//! `.status.conditions[?(@.type=="Ready")].status`. Each must resolve, and
//! lead to a field of the right type: a printer column's `type` (`integer`,
//! `number`, `string`, `boolean`; `date` for a [`Time`](crate::Time); a
//! `string` column may also show a list of scalars, which the apiserver
//! accepts and prints as a list), an
//! integer for the replica paths, a string for the label selector path, and a
//! string, integer or boolean for a selectable field (which may not be under
//! `.metadata`: the apiserver already selects on name and namespace).
//!
//! **Instead:** the JSON path of an existing field of that type.
//!
//! **Allow:** `#[kube(allow(printcolumn_path))]` on the spec struct.
//!
//! ```compile_fail,E0080
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// WidgetSpec is the desired state of a Widget.
//! #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(
//!     group = "example.com",
//!     version = "v1",
//!     kind = "Widget",
//!     printcolumn(name = "Replicas", type = "integer", json_path = ".spec.replica")
//! )]
//! pub struct WidgetSpec {
//!     /// replicas is the number of pods.
//!     pub replicas: i32,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// WidgetSpec is the desired state of a Widget.
//! #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(
//!     group = "example.com",
//!     version = "v1",
//!     kind = "Widget",
//!     status = "WidgetStatus",
//!     printcolumn(name = "Replicas", type = "integer", json_path = ".spec.replicas"),
//!     printcolumn(name = "Ready", type = "string", json_path = ".status.conditions[?(@.type==\"Ready\")].status")
//! )]
//! pub struct WidgetSpec {
//!     /// replicas is the number of pods.
//!     pub replicas: i32,
//! }
//!
//! /// WidgetStatus is the observed state of a Widget.
//! #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default)]
//! pub struct WidgetStatus {
//!     /// conditions of the Widget.
//!     #[serde(default, skip_serializing_if = "Conditions::is_empty")]
//!     pub conditions: Conditions,
//! }
//!
//! let crd = Widget::crd().to_json();
//! let columns = &crd["spec"]["versions"][0]["additionalPrinterColumns"];
//! assert_eq!(columns[0]["jsonPath"], ".spec.replicas");
//! assert_eq!(columns[1]["name"], "Ready");
//! ```
//!
//! ## `field_docs`
//!
//! **Default:** warn. **Convention:** [Naming conventions][naming-conventions].
//!
//! Every field has a description in the schema, which `kubectl explain`
//! shows: its doc comment, which by convention starts with the field's JSON
//! name, or else the doc comment of its type (a documented struct, enum or
//! newtype, through `Option` and `Box`), which the schema takes as the
//! field's description as controller-gen does (the facts' `DESCRIBED`). A
//! list of a documented type still needs a doc: the type's describes the
//! items.
//!
//! **Instead:** `/// replicas is the number of pods.`
//!
//! **Allow:** `#[kube(allow(field_docs))]` on the field or the type.
//!
//! ```compile_fail
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A deployment.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Deployment {
//!     pub replicas: i32,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A deployment.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Deployment {
//!     /// replicas is the number of pods.
//!     pub replicas: i32,
//! }
//!
//! let schema = Deployment::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! assert_eq!(schema.as_value()["properties"]["replicas"]["description"], "replicas is the number of pods.");
//! ```
//!
//! ## `max_length`
//!
//! **Default:** allow. **Convention:** [Validation][validation].
//!
//! Bounded strings and lists keep the cost of CEL validation rules bounded
//! (the apiserver rejects rules whose estimated cost is too high). When turned
//! on, it reports a `String` field without `max_length` (unless it has an
//! `enum` or a `pattern`), a list without `max_items`, and a list of strings
//! without `items(max_length = ..)`.
//!
//! **Instead:** `#[kube(max_length = 63)]`,
//! `#[kube(max_items = 16, items(max_length = 256))]`.
//!
//! **Turn it on:** `#[kube(deny(max_length))]` (or `warn`) on a type or a
//! field.
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A container.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[kube(deny(max_length))]
//! pub struct Container {
//!     /// name of the container.
//!     pub name: String,
//! }
//! ```
//!
//! ```
//! #![deny(deprecated)]
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A container.
//! #[derive(ApiType, Serialize, Deserialize)]
//! #[kube(deny(max_length))]
//! pub struct Container {
//!     /// name of the container.
//!     #[kube(max_length = 63)]
//!     pub name: String,
//!     /// args to pass.
//!     #[kube(max_items = 16, items(max_length = 256))]
//!     #[serde(default, skip_serializing_if = "Vec::is_empty")]
//!     pub args: Vec<String>,
//! }
//!
//! let schema = Container::api_schema(&mut api_core::schemars::SchemaGenerator::default());
//! let properties = &schema.as_value()["properties"];
//! assert_eq!(properties["name"]["maxLength"], 63);
//! assert_eq!(properties["args"]["maxItems"], 16);
//! assert_eq!(properties["args"]["items"]["maxLength"], 256);
//! ```
//!
//! ## `duplicate_keywords`
//!
//! **Default:** deny. **Convention:** [Validation][validation].
//!
//! A field may not declare a schema keyword (`max_length`, `pattern`,
//! `minimum`, `enum`, ...) that its type already declares: in the schema
//! one would silently replace the other. The type layer sees the type's
//! keywords through aliases and newtypes.
//!
//! **Instead:** keep one: on the type (for every use) or on the field (for
//! this use).
//!
//! ```compile_fail
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A DNS label.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Label(#[kube(max_length = 63)] pub String);
//!
//! /// A target.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Target {
//!     /// host of the target.
//!     #[kube(max_length = 253)]
//!     pub host: Label,
//! }
//! ```
//!
//! ```
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// A DNS label.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Label(#[kube(max_length = 63)] pub String);
//!
//! /// A target.
//! #[derive(ApiType, Serialize, Deserialize)]
//! pub struct Target {
//!     /// host of the target.
//!     #[kube(pattern = "^[a-z0-9-]+$")]
//!     pub host: Label,
//! }
//! ```
//!
//! [conventions]: https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md
//! [primitive-types]: https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#primitive-types
//! [lists-of-named-subobjects]: https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#lists-of-named-subobjects-preferred-over-maps
//! [naming-conventions]: https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#naming-conventions
//! [optional-vs-required]: https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#optional-vs-required
//! [defaulting]: https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#defaulting
//! [units]: https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#units
//! [object-references]: https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#object-references
//! [spec-and-status]: https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#spec-and-status
//! [typical-status-properties]: https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#typical-status-properties
//! [constants]: https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#constants
//! [unions-conv]: https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#unions
//! [validation]: https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#validation
