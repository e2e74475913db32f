use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Unknown lint names are errors, with a suggestion.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[kube(allow(json_field_name))]
pub struct Thing {
    /// a.
    #[kube(warn(no_float))]
    pub a: i32,
}

fn main() {}
