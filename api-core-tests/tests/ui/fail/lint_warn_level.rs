//! A lint set to `warn` is a real compiler warning: under
//! `#![deny(deprecated)]` it fails the build, at the field.
#![deny(deprecated)]

use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A type whose legacy field is only warned about.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Thing {
    /// kept for compatibility, with a warning.
    #[kube(warn(json_field_names))]
    pub legacy_name: String,
}

fn main() {}
