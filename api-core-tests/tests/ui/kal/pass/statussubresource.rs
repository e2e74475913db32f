//! KAL `statussubresource` (pkg/analysis/statussubresource/testdata/src/a).
//! `status = ".."` turns the status subresource on by itself; the Go marker
//! without a status field is `status_subresource = true` without `status`,
//! which we accept (see README). All of these compile.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Foo: a root without status or subresource.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "kal.example.com", version = "v1", kind = "Foo")] // KAL a/a.go:type Foo
#[serde(rename_all = "camelCase")]
pub struct FooSpec {
    /// f.
    pub name: String,
}

/// Bar: the subresource without a status.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "kal.example.com", version = "v1", kind = "Bar", status_subresource = true)] // KAL a/a.go:type Bar
#[serde(rename_all = "camelCase")]
pub struct BarSpec {
    /// f.
    pub name: String,
}

/// FooBar: status and subresource.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "kal.example.com", version = "v1", kind = "FooBar", status = "FooBarStatus")] // KAL a/a.go:type FooBar
#[serde(rename_all = "camelCase")]
pub struct FooBarSpec {
    /// f.
    pub name: String,
}

/// FooBarStatus.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct FooBarStatus {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// FooBarBaz: the subresource without a status (marker spelled `root=true`).
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "kal.example.com", version = "v1", kind = "FooBarBaz", status_subresource = true)] // KAL a/a.go:type FooBarBaz
#[serde(rename_all = "camelCase")]
pub struct FooBarBazSpec {
    /// f.
    pub name: String,
}

fn main() {}
