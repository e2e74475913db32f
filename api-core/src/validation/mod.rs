//! Validation primitives: [`FieldPath`], [`FieldError`], [`ErrorList`]; the
//! name and label validators of apimachinery ([`names`]); and the ObjectMeta
//! validation the apiserver runs on create and update ([`object_meta`]).

mod field;
pub mod names;
pub mod object_meta;

pub use field::{ErrorList, ErrorType, FieldError, FieldPath, go_quote};
