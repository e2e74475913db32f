//! Server-side apply: field ownership (`metadata.managedFields`), merging
//! an apply configuration into a live object by the schema's list and map
//! types, and conflicts between managers, as structured-merge-diff and the
//! apiserver's field manager implement them.
//!
//! - [`fieldpath`]: paths, sets of paths, and their `FieldsV1` encoding;
//! - [`typed`]: a CRD schema compiled for walking objects (field sets,
//!   merge, comparison, removal);
//! - [`update`]: who owns what after an update or an apply;
//! - [`manager`]: `metadata.managedFields` as the apiserver writes them.

pub mod fieldpath;
pub mod manager;
pub mod typed;
pub mod update;

pub use fieldpath::{Path, PathElement, Set};
pub use manager::{
    FieldManager, Writer, clears_managed_fields, conflict_status, reset_fields, reset_marker,
    resource_schema, untyped_schema,
};
pub use typed::{Comparison, Schema};
pub use update::{Conflict, Conflicts, ManagedFields, UpdateError, Updater, VersionedSet};
