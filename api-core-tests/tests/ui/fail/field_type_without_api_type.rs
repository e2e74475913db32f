use api_core::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Foreign {
    pub x: String,
}

/// Every field type must implement ApiType.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Thing {
    /// foreign.
    pub foreign: Foreign,
}

fn main() {}
