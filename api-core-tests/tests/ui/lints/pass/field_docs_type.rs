//! A field without its own doc comment whose type has one: the type's doc
//! becomes the field's description in the schema (as controller-gen
//! does), so `field_docs` does not fire.
#![deny(warnings)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Hostname is the fully qualified domain name of a network host.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Hostname(#[kube(max_length = 253)] pub String);

/// PortNumber is a network port.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct PortNumber(#[kube(minimum = 1, maximum = 65535)] pub i32);

/// Protocol is the protocol of a listener.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub enum Protocol {
    /// HTTP.
    Http,
    /// HTTPS.
    Https,
}

/// Listener is one port the gateway listens on.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Listener {
    /// name of the listener.
    #[kube(max_length = 63)]
    pub name: String,
}

/// A gateway.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Gateway")]
#[serde(rename_all = "camelCase")]
pub struct GatewaySpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hostname: Option<Hostname>,
    pub port: PortNumber,
    pub protocol: Protocol,
    pub listener: Listener,
}

fn main() {
    let crd = Gateway::crd().to_json();
    let props = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    assert_eq!(props["hostname"]["description"], "Hostname is the fully qualified domain name of a network host.");
    assert_eq!(props["port"]["description"], "PortNumber is a network port.");
    assert_eq!(props["protocol"]["description"], "Protocol is the protocol of a listener.");
    assert_eq!(props["listener"]["description"], "Listener is one port the gateway listens on.");
}
