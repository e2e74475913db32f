//! `x-kubernetes-validations` rules, evaluated as the apiserver evaluates
//! them (feature `cel`).
//!
//! The rules a type declares (`#[kube(validation(rule = "..."))]`,
//! `immutable`, the union rules) are CEL expressions in its schema.
//! With this feature, [`strategy::validate`](crate::registry::strategy::validate)
//! and its update variants, [`decode`](crate::decode()) and the
//! [`Registry`](crate::Registry) evaluate them as apiextensions-apiserver
//! does: `self` bound at the rule's node, `oldSelf` on updates (transition
//! rules run only when there is an old value, unless `optionalOldSelf`),
//! `message`, `messageExpression`, `reason` and `fieldPath`, errors with the
//! apiserver's field paths and wording, in the same 422 as every other
//! problem; values an update leaves unchanged do not fail again
//! (validation ratcheting).
//!
//! The functions are the standard library and Kubernetes' libraries
//! (strings, lists, sets, regex, url, ip/cidr, quantity, semver, format,
//! the named formats such as `format.dns1123Label()`), written in this
//! crate on the `cel` crate's parser and interpreter.
//!
//! Rules cost what the apiserver says they cost: every rule has cel-go's
//! static estimate, from the schema's `maxItems`, `maxLength` and
//! `maxProperties` (the schema check of a CRD, `check_schema`, forbids a
//! rule over 10^7 times how often it may run, and all of them over 10^8),
//! and every evaluation is charged against the per-call limit (10^6) and
//! the object's budget (10^7), stopping with the apiserver's errors when
//! one runs out. The `cel` crate does not count its steps, so an evaluation
//! is charged cel-go's estimate with the sizes of the values it reads (see
//! [`Validator::validate_with_cost`]).
//!
//! ```
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! /// Spec.
//! #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(group = "example.com", version = "v1", kind = "Widget")]
//! #[kube(validation(rule = "self.spec.min <= self.spec.max", message = "min must not exceed max"))]
//! pub struct WidgetSpec {
//!     /// Lower bound.
//!     pub min: i32,
//!     /// Upper bound.
//!     pub max: i32,
//!     /// Where the widget lives; set once.
//!     #[kube(immutable)]
//!     pub zone: String,
//! }
//!
//! let w = Widget::new("w", WidgetSpec { min: 3, max: 1, zone: "a".into() });
//! let errors = api_core::cel::validate(&w, None);
//! assert_eq!(errors.as_slice()[0].to_string(), "<nil>: Invalid value: min must not exceed max");
//!
//! let mut moved = Widget::new("w", WidgetSpec { min: 1, max: 3, zone: "b".into() });
//! let before = Widget::new("w", WidgetSpec { min: 1, max: 3, zone: "a".into() });
//! let errors = api_core::cel::validate(&moved, Some(&before));
//! assert_eq!(errors.as_slice()[0].to_string(), r#"spec.zone: Invalid value: "b": field is immutable"#);
//! moved.spec.zone = "a".into();
//! assert!(api_core::cel::validate(&moved, Some(&before)).is_empty());
//! ```

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use serde::Serialize;
use serde_json::Value;

use crate::api_type::ApiType;
use crate::validation::{ErrorList, FieldPath};

pub use crate::schema::structural::cel::Validator;

/// The compiled rules of `K`'s schema, compiled on first use and kept for
/// the rest of the program.
pub fn validator<K: ApiType>() -> &'static Validator {
    static CACHE: LazyLock<Mutex<HashMap<&'static str, &'static Validator>>> =
        LazyLock::new(Default::default);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache.entry(std::any::type_name::<K>()).or_insert_with(|| {
        let schema = K::api_schema(&mut crate::__private::generator()).to_value();
        Box::leak(Box::new(Validator::new(&schema)))
    })
}

/// Evaluates `K`'s rules against `new`, and `old` on an update, as the
/// apiserver does when it creates (`old` is `None`) or updates an object.
pub fn validate<K: ApiType + Serialize>(new: &K, old: Option<&K>) -> ErrorList {
    let mut errors = ErrorList::new();
    validate_into(new, old, &mut errors);
    errors
}

/// [`validate`], adding to `errors`.
pub(crate) fn validate_into<K: ApiType + Serialize>(
    new: &K,
    old: Option<&K>,
    errors: &mut ErrorList,
) {
    let rules = validator::<K>();
    if rules.is_empty() {
        return;
    }
    let Ok(new) = serde_json::to_value(new) else {
        return;
    };
    let old: Option<Value> = old.and_then(|o| serde_json::to_value(o).ok());
    rules.validate_into(&new, old.as_ref(), &FieldPath::new(""), errors);
}
