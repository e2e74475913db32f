//! KAL `requiredfields` (pkg/analysis/requiredfields/testdata/src/a/strings.go).
//! Only the pointer dimension has a Rust meaning: Go `+required` is
//! `#[kube(required)]`, a Go pointer is `Option`. Go `omitempty` on a required
//! field has none (a Rust required field is always written, DESIGN
//! `required_field`), so the translations carry no `skip_serializing_if`.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Strings.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TestStrings {
    /// f.
    #[kube(required)]
    pub string_ptr_with_omit_empty: Option<String>, // KAL a/strings.go:TestStrings.StringPtrWithOmitEmpty
    /// f.
    #[kube(required, min_length = 1)]
    pub string_ptr_with_min_length: Option<String>, // KAL a/strings.go:TestStrings.StringPtrWithMinLength
    /// f.
    #[kube(required, min_length = 1)]
    pub string_ptr_with_min_length_with_omit_empty: Option<String>, // KAL a/strings.go:TestStrings.StringPtrWithMinLengthWithOmitEmpty
    /// f.
    #[kube(required, min_length = 0)]
    pub string_ptr_with_min_length0_with_omit_empty: Option<String>, // KAL a/strings.go:TestStrings.StringPtrWithMinLength0WithOmitEmpty
    /// f.
    #[kube(required, enum = ["a", "b", "c"])]
    pub enum_string_ptr: Option<String>, // KAL a/strings.go:TestStrings.EnumStringPtr
    /// f.
    #[kube(required, enum = ["a", "b", "c"])]
    pub enum_string_ptr_with_omit_empty: Option<String>, // KAL a/strings.go:TestStrings.EnumStringPtrWithOmitEmpty
    /// f.
    #[kube(required, enum = ["a", "b", "c", ""])]
    pub enum_valid_empty_string_ptr_with_omit_empty: Option<String>, // KAL a/strings.go:TestStrings.EnumValidEmptyStringPtrWithOmitEmpty
}

fn main() {}
