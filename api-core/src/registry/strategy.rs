//! [`Strategy`]: the storage hooks of k8s.io/apiserver (`RESTCreateStrategy`,
//! `RESTUpdateStrategy`, the status strategy, graceful deletion), with the
//! Kubernetes behaviour for a spec/status type as the default methods.

use serde::Serialize;

use crate::api_type::ApiType;
use crate::resource::SpecStatus;
use crate::validation::names::{ValidateNameFn, name_is_dns_subdomain};
use crate::validation::{ErrorList, FieldPath};

/// The hooks the [`Registry`](super::Registry) runs around storage.
///
/// Every method has the Kubernetes default, so a strategy overrides only
/// what it changes; the defaults are also free functions of this module
/// ([`prepare_for_create`], [`prepare_for_update`], ...), so an override
/// can still call them, as apiserver-builder strategies embed
/// `DefaultStorageStrategy`.
///
/// ```
/// use api_core::registry::{strategy, Strategy};
/// use api_core::{ErrorList, FieldError, FieldPath};
/// # use api_core::prelude::*;
/// # use serde::{Deserialize, Serialize};
/// # /// Spec.
/// # #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
/// # #[kube(group = "example.com", version = "v1", kind = "Widget", namespaced)]
/// # pub struct WidgetSpec {
/// #     /// size.
/// #     #[serde(default, skip_serializing_if = "Option::is_none")]
/// #     pub size: Option<i32>,
/// # }
/// struct WidgetStrategy;
///
/// impl Strategy<Widget> for WidgetStrategy {
///     fn validate(&self, obj: &Widget) -> ErrorList {
///         let mut errors = strategy::validate(obj);
///         if obj.spec.size == Some(13) {
///             let spec = FieldPath::new("spec");
///             errors.push(FieldError::forbidden(&spec.child("size"), "13 brings bad luck"));
///         }
///         errors
///     }
/// }
/// ```
pub trait Strategy<K: SpecStatus + ApiType + Clone + Serialize>: Send + Sync {
    /// Sets the defaults of a written object (a create, an update, a
    /// patch's result), before its managed fields are recorded and the
    /// other hooks run, as the apiserver's decoder defaults what it
    /// reads. Default: the type's `apply_defaults()` (`#[default(...)]`).
    fn apply_defaults(&self, obj: &mut K) {
        obj.apply_defaults();
    }

    /// How names of this kind are validated (the apiserver's
    /// `ValidateNameFunc` for it). Default: a DNS subdomain
    /// ([`name_is_dns_subdomain`]); Namespaces, for one, are DNS labels.
    fn name_validation(&self) -> ValidateNameFn {
        name_is_dns_subdomain
    }

    /// Normalizes a new object before validation. Default: drop the status
    /// (when it has a subresource) and set `generation` to 1.
    fn prepare_for_create(&self, obj: &mut K) {
        prepare_for_create(obj);
    }

    /// Validates a new object (ObjectMeta is validated by the registry
    /// after this, when this finds nothing). Default: [`validate`]: the
    /// type's `validate()` and, with feature `cel`, its schema's rules.
    fn validate(&self, obj: &K) -> ErrorList {
        validate(obj)
    }

    /// Warnings to return with a create (`path.to.field: message`).
    fn warnings_on_create(&self, obj: &K) -> Vec<String> {
        let _ = obj;
        Vec::new()
    }

    /// Brings an object into canonical form just before it is stored.
    fn canonicalize(&self, obj: &mut K) {
        let _ = obj;
    }

    /// Whether an update of a missing object creates it. Default: no.
    fn allow_create_on_update(&self) -> bool {
        false
    }

    /// Whether an update without `metadata.resourceVersion` is applied to
    /// whatever is stored. Default: no (a 422 instead).
    fn allow_unconditional_update(&self) -> bool {
        false
    }

    /// Normalizes an update before validation. Default: keep the old
    /// status (when it has a subresource), and bump `generation` when the
    /// spec changed.
    fn prepare_for_update(&self, new: &mut K, old: &K) {
        prepare_for_update(new, old);
    }

    /// Validates an update. Default: [`validate_update`]: the type's
    /// `validate()` and its `#[kube(immutable)]` fields or, with feature
    /// `cel`, its schema's rules with the old object.
    fn validate_update(&self, new: &K, old: &K) -> ErrorList {
        validate_update(new, old)
    }

    /// Warnings to return with an update.
    fn warnings_on_update(&self, new: &K, old: &K) -> Vec<String> {
        let _ = (new, old);
        Vec::new()
    }

    /// Normalizes a status update. Default: keep the old spec and
    /// metadata; take only the new status.
    fn prepare_for_status_update(&self, new: &mut K, old: &K) {
        prepare_for_status_update(new, old);
    }

    /// Validates a status update. Default: [`validate_status_update`]:
    /// the type's `validate()` and, with feature `cel`, its schema's rules
    /// with the old object.
    fn validate_status_update(&self, new: &K, old: &K) -> ErrorList {
        validate_status_update(new, old)
    }

    /// The grace period of a deletion, in seconds, or `None` to delete at
    /// once (`CheckGracefulDelete`). Default: `None`. Objects with
    /// finalizers wait for them either way.
    fn graceful_delete(&self, obj: &K) -> Option<i64> {
        let _ = obj;
        None
    }

    /// Whether finalizers of the kind's own, kept outside
    /// `metadata.finalizers` (a Namespace's `spec.finalizers`), still
    /// hold the object: a delete then only marks it (as
    /// `metadata.finalizers` do), a delete of a marked object answers it
    /// unchanged, and it goes with the update that empties them
    /// (`ShouldDeleteNamespaceDuringUpdate`). Default: `false`.
    fn held_by_own_finalizers(&self, obj: &K) -> bool {
        let _ = obj;
        false
    }

    /// Changes the object as its first delete marks it (before it is
    /// stored with its `deletionTimestamp`): a Namespace enters phase
    /// `Terminating`. Default: nothing.
    fn prepare_for_delete(&self, obj: &mut K) {
        let _ = obj;
    }
}

/// The strategy with every Kubernetes default.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultStrategy;

impl<K: SpecStatus + ApiType + Clone + Serialize> Strategy<K> for DefaultStrategy {}

/// Default `PrepareForCreate`: no status (when it has a subresource),
/// `generation: 1`.
pub fn prepare_for_create<K: SpecStatus>(obj: &mut K) {
    if K::STATUS_SUBRESOURCE {
        obj.clear_status();
    }
    obj.metadata_mut().generation = 1;
}

/// Default `Validate`: the type's own validation and, with feature
/// `cel`, the rules of its schema (`api_core::cel::validate`), in one list.
pub fn validate<K: ApiType + Serialize>(obj: &K) -> ErrorList {
    let mut errors = ErrorList::new();
    obj.validate(&FieldPath::new(""), &mut errors);
    #[cfg(feature = "cel")]
    crate::cel::validate_into(obj, None, &mut errors);
    errors
}

/// Default `PrepareForUpdate`: the old status stays (when it has a
/// subresource); `generation` goes up when the spec changed (or, without a
/// status subresource, the status).
pub fn prepare_for_update<K: SpecStatus>(new: &mut K, old: &K) {
    if K::STATUS_SUBRESOURCE {
        new.copy_status(old);
    }
    // Without a status subresource, the status is part of what the user
    // writes, and any change to it counts (as for generic custom resources).
    if !new.spec_equal(old) || (!K::STATUS_SUBRESOURCE && !new.status_equal(old)) {
        new.metadata_mut().generation = old.metadata().generation + 1;
    }
}

/// Default `ValidateUpdate`: the type's validation and its immutable
/// fields. With feature `cel` the schema's rules are evaluated with the
/// old object instead of the typed immutability check: the `self ==
/// oldSelf` rules that `immutable` writes say the same, in the apiserver's
/// words, and the other transition rules run too.
pub fn validate_update<K: ApiType + Serialize>(new: &K, old: &K) -> ErrorList {
    let mut errors = ErrorList::new();
    new.validate(&FieldPath::new(""), &mut errors);
    #[cfg(feature = "cel")]
    crate::cel::validate_into(new, Some(old), &mut errors);
    #[cfg(not(feature = "cel"))]
    new.validate_update(old, &FieldPath::new(""), &mut errors);
    errors
}

/// Default status `ValidateUpdate`: the type's validation and, with
/// feature `cel`, the schema's rules with the old object.
pub fn validate_status_update<K: ApiType + Serialize>(new: &K, old: &K) -> ErrorList {
    let mut errors = ErrorList::new();
    new.validate(&FieldPath::new(""), &mut errors);
    #[cfg(feature = "cel")]
    crate::cel::validate_into(new, Some(old), &mut errors);
    #[cfg(not(feature = "cel"))]
    let _ = old;
    errors
}

/// Default status `PrepareForUpdate`: everything but the status comes from
/// the stored object.
pub fn prepare_for_status_update<K: SpecStatus + Clone>(new: &mut K, old: &K) {
    let mut merged = old.clone();
    merged.copy_status(new);
    // Managed fields are the one piece of metadata a status write may change.
    merged.metadata_mut().managed_fields = std::mem::take(&mut new.metadata_mut().managed_fields);
    *new = merged;
}
