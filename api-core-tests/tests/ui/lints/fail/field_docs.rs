#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Every field has a doc comment.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Undocumented {
    pub name: String,
}

fn main() {}
