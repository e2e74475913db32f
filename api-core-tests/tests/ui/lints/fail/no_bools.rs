use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// An alias of bool.
pub type Flag = bool;

/// `no_bools` is allowed by default; this type denies it.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(deny(no_bools))]
pub struct Flags {
    /// suspend.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,
    /// an alias.
    pub paused: Flag,
}

fn main() {}
