//! Kubernetes API types in Rust that follow the Kubernetes API conventions.
//!
//! `api-core` is the runtime half of the library: the meta/v1 types
//! ([`ObjectMeta`], [`Time`], ...), the [`Resource`] trait and [`List`],
//! validation with Kubernetes field paths and error wording
//! ([`validation`]), the `Status` kind ([`status`]), and label selectors
//! ([`labels`]).
//!
//! Most users only need the prelude:
//!
//! ```
//! use api_core::prelude::*;
//!
//! let meta = ObjectMeta::named("web").in_namespace("default");
//! assert_eq!(serde_json::to_string(&meta).unwrap(), r#"{"name":"web","namespace":"default"}"#);
//! ```

#[doc(hidden)]
#[path = "private/mod.rs"]
pub mod __private;
mod api_type;
pub mod apply;
#[cfg(feature = "cel")]
pub mod cel;
#[doc(hidden)]
pub mod checks;
pub mod conversion;
pub mod crd;
pub mod decode;
#[doc(hidden)]
pub mod facts;
mod go_regex;
#[cfg(feature = "k8s-openapi")]
pub mod k8s;
#[cfg(feature = "kube")]
pub mod kube;
pub mod labels;
pub mod lints;
pub mod meta;
pub mod patch;
pub mod registry;
pub mod resource;
pub mod schema;
pub mod status;
pub mod validation;

pub use api_derive::{ApiType, KubeResource};
pub use api_type::{ApiType, MapKey};
pub use decode::{DecodeOptions, Decoded, FieldValidation, decode};
pub use meta::{
    Condition, ConditionStatus, ConditionType, Conditions, DuplicateConditionType, Duration,
    DurationParseError, DurationRangeError, IntOrString, IntOrStringError, LabelSelector,
    LabelSelectorRequirement, ListMeta, LocalObjectReference, ManagedFieldsEntry, MicroTime,
    ObjectMeta, ObjectReference, OwnerReference, ParseConditionStatusError, Quantity, RawExtension,
    Time, TimeParseError, TypeMeta, TypedLocalObjectReference,
};
pub use resource::{
    CustomResourceExt, HasSpec, HasStatus, List, Resource, ResourceParts, Scope, SpecStatus,
};
pub use status::{GroupKind, GroupResource, Status, StatusCause, StatusDetails, StatusReason};
pub use validation::{ErrorList, ErrorType, FieldError, FieldPath};

/// Re-exported for generated code and for users who write schemas by hand.
pub use schemars;

pub use registry::{Registry, Strategy};

/// Everything a type definition needs: `use api_core::prelude::*;`.
pub mod prelude {
    pub use crate::api_type::ApiType;
    pub use crate::meta::{
        Condition, ConditionStatus, Conditions, Duration, IntOrString, ListMeta,
        LocalObjectReference, MicroTime, ObjectMeta, ObjectReference, Quantity, RawExtension, Time,
        TypeMeta, TypedLocalObjectReference,
    };
    pub use crate::resource::{CustomResourceExt, HasSpec, HasStatus, List, Resource, Scope};
    pub use api_derive::{ApiType, KubeResource};
}
