//! A cluster-scoped API: a `Tenant` owns a set of namespaces.

use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// TenantSpec is the desired state of a Tenant.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "tenancy.example.com",
    version = "v1beta1",
    kind = "Tenant",
    doc = "Tenant is a cluster-wide grouping of namespaces with one set of administrators.",
    status = "TenantStatus",
    shortname = "tn",
    printcolumn(
        name = "Display Name",
        type = "string",
        json_path = ".spec.displayName"
    ),
    printcolumn(
        name = "Namespaces",
        type = "integer",
        json_path = ".status.namespaceCount",
        priority = 1
    )
)]
#[serde(rename_all = "camelCase")]
pub struct TenantSpec {
    /// displayName is the tenant's human-readable name.
    #[kube(min_length = 1, max_length = 128)]
    pub display_name: String,

    /// admins are the users who administer the tenant's namespaces.
    #[kube(list_type = "set", max_items = 32, items(max_length = 253))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub admins: Vec<String>,

    /// quota bounds what the tenant may create.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quota: Option<TenantQuota>,
}

/// TenantQuota bounds a tenant's resources.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
#[kube(at_least_one_of = ["maxNamespaces", "maxPods"])]
pub struct TenantQuota {
    /// maxNamespaces is how many namespaces the tenant may own.
    #[kube(minimum = 1, maximum = 1000)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_namespaces: Option<i32>,

    /// maxPods is how many pods the tenant may run in all its namespaces.
    #[kube(minimum = 0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_pods: Option<i64>,
}

/// TenantStatus is the observed state of a Tenant.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TenantStatus {
    /// namespaceCount is how many namespaces the tenant owns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace_count: Option<i32>,
}
