use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Required fields done right.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Required {
    /// image.
    pub image: String,
    /// count.
    pub count: i32,
}

fn main() {}
