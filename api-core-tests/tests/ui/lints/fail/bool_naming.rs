use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// `fooable`, never `isFooable`.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Flags {
    /// enabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_enabled: Option<bool>,
    /// isCA (cert-manager): an acronym is lower-cased whole, `ca`.
    #[serde(default, rename = "isCA", skip_serializing_if = "Option::is_none")]
    pub is_ca: Option<bool>,
    /// isHTTPEnabled: `httpEnabled`.
    #[serde(default, rename = "isHTTPEnabled", skip_serializing_if = "Option::is_none")]
    pub is_http_enabled: Option<bool>,
    /// No lowerCamelCase name without the `is`: only the rule is said.
    #[kube(allow(json_field_names))]
    #[serde(default, rename = "isCA_cert", skip_serializing_if = "Option::is_none")]
    pub is_ca_cert: Option<bool>,
}

fn main() {}
