use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// An integer literal default takes the field's type, so one out of its
/// range is rustc's own error, at the literal (issue 27).
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[kube(allow(integer_width))]
pub struct Thing {
    /// level.
    #[kube(default = 300)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<i8>,
}

fn main() {}
