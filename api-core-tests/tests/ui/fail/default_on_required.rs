use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A default needs an optional field.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Thing {
    /// replicas.
    #[default(3)]
    pub replicas: i32,
}

fn main() {}
