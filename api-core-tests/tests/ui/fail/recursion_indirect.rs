use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A contains B, which contains A: no structural schema can describe it.
#[derive(ApiType, Serialize, Deserialize)]
pub struct A {
    /// b.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b: Option<Box<B>>,
}

/// B contains A.
#[derive(ApiType, Serialize, Deserialize)]
pub struct B {
    /// a.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub a: Vec<A>,
}

fn main() {}
