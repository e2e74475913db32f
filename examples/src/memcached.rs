//! The quickstart API of the README: a namespaced `Memcached` with a
//! defaulted, bounded size and status conditions.

use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// MemcachedSpec is the desired state of Memcached.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "cache.example.com",
    version = "v1alpha1",
    kind = "Memcached",
    doc = "Memcached is the Schema for the memcacheds API.",
    namespaced,
    status = "MemcachedStatus",
    shortname = "mc",
    printcolumn(name = "Size", type = "integer", json_path = ".spec.size"),
    printcolumn(
        name = "Ready",
        type = "string",
        json_path = ".status.conditions[?(@.type==\"Available\")].status"
    )
)]
#[serde(rename_all = "camelCase")]
pub struct MemcachedSpec {
    /// size is the number of Memcached instances.
    #[kube(minimum = 1, maximum = 3)]
    #[default(1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}

/// MemcachedStatus is the observed state of Memcached.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MemcachedStatus {
    /// conditions of the Memcached.
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub conditions: Conditions,
}
