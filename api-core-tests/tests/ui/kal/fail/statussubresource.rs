//! KAL `statussubresource` (pkg/analysis/statussubresource/testdata/src/a):
//! the Go marker `+kubebuilder:subresource:status` on a root without a
//! status field is `status_subresource = true` without `status`, which the
//! `status_subresource` lint reports. It warns, so `#![deny(deprecated)]`
//! makes it an error.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Bar: the subresource without a status.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "kal.example.com", version = "v1", kind = "Bar", status_subresource = true)] // KAL a/a.go:type Bar
#[serde(rename_all = "camelCase")]
pub struct BarSpec {
    /// f.
    pub name: String,
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
