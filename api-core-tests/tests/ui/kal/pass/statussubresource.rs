//! KAL `statussubresource` (pkg/analysis/statussubresource/testdata/src/a).
//! `status = ".."` turns the status subresource on by itself. These
//! compile; the Go marker without a status field (`status_subresource =
//! true` without `status`) is in `fail/statussubresource.rs`.
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

fn main() {}
