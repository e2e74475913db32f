use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Untagged: not structural.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Either {
    /// a.
    A(String),
    /// b.
    B(i32),
}

/// Adjacently tagged: not supported yet.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(tag = "type", content = "value")]
pub enum Source {
    /// git.
    Git {
        /// url.
        url: String,
    },
}

fn main() {}
