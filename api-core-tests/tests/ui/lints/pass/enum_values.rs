use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// CamelCase values, including acronyms.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub enum Protocol {
    /// TCP.
    #[serde(rename = "TCP")]
    Tcp,
    /// HTTP2.
    Http2,
}

fn main() {}
